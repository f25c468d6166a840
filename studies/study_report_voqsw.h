// The report of the seeds/004 study (reports/voqsw/): throughput factors of VOQsw over virtual
// networks per network size and traffic beside the paper's Table 1, the acceptance
// criteria each with ours and a verdict, Figures 6-11 as plots (the study's panels), head-of-line
// blocking measured in the switches, and the invariants every run must meet.
//
// Study settings it reads (report_options in the study file):
//   voq:             the VOQsw routing whose factor the criteria judge ([VOQ-8SL]);
//   hotspot_series:  one-hot-spot patterns in increasing share (gains must grow along it);
//   hotspot:         patterns under which VOQsw must not be worse than the baseline;
//   hol_baseline:    the routing HOL blocking is compared against (1 VN).
// The baseline of every factor is factors.baseline (8 VNs).
#pragma once
#include <string>
#include <vector>

#include "studies/study_report.h"

namespace ibsc::tb {

// Writes dir/README.md, factors.csv, hol.csv, the experiment CSVs and one SVG per panel;
// returns the failures (invariants, and VOQsw against the baselines) it lists.
std::vector<std::string> write_voqsw_report(const std::string& dir, const StudyRun& run);

}  // namespace ibsc::tb
