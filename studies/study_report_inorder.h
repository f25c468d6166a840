// The report of the seeds/003 study (reports/in-order-adaptive/): Figure 5's throughput of
// adaptive routing over DET per network beside the paper's x2 / x4, its latency plots (the
// study's panels), Table 1's execution times of the finite disk-like workload with Impr.% over
// DET beside the paper's, and the checks every run must meet: conservation, in-order delivery
// to the host (none out of order unless delivered on arrival, none lost or duplicated), every
// packet of a finite workload delivered, the watchdog silent (a deadlock fails the run), and the
// paper's ordering of Impr.%.
//
// Study settings it reads (report_options in the study file):
//   baseline, adaptive:  the DET and adaptive routings of Figure 5;
//   factor.NETWORK:      the paper's throughput factor on that network;
//   table:               Table 1's routings in order (baseline first); paper.ROUTING: its row
//                        (time, waste %, MBS, MMS, Impr. %; ~ where the paper has none);
//   order.ooo, order.dynamic, order.static32, order.static2: the routings of the ordering check.
#pragma once
#include <string>
#include <vector>

#include "studies/study_report.h"

namespace ibsc::tb {

// Writes dir/README.md, factors.csv, table1.csv, the experiment CSVs and one SVG per panel;
// returns the failures it lists.
std::vector<std::string> write_inorder_report(const std::string& dir, const StudyRun& run);

}  // namespace ibsc::tb
