// Parts of the seeds/003 report (studies/study_report_inorder.h) beyond Figure 5's factors and Table 1:
//   Figure 5's buffer panels: the largest rearrange buffer a connection needed per load point;
//   Figure 6: latency and throughput under bit-reversal with small static rearrange buffers and
//     immediate re-sends, against DET and plain adaptive routing;
//   Figure 7: per destination NIC, the most rearrange memory held at once (ADAP-LI, 2 KB per
//     connection), and how full its connections were at that moment;
//   Figure 8: execution time of the disk-like workload against the MTU on the torus;
//   the simulator's CPU cost per packet-hop with and without the HCAs' transport.
// Each writes its section into the report's markdown, its plots and CSV next to it, and adds
// the differences it finds to `outliers` and what must hold to `failures`.
//
// Study settings it reads (report_options):
//   figure5mbs.routing, .networks, .patterns: the runs whose MBS per load point is Figure 5's
//     buffer panels (uniform is the study's figure pattern).
//   figure6.panels: the panels (study `panels`) of Figure 6; figure6.det, figure6.adaptive: the
//     DET and plain adaptive routings; figure6.small: the routings whose buffer is below one
//     packet (the paper: their curves coincide); figure6.largest: the largest buffer.
//   figure7.routing; figure7.PANEL: [network, pattern, length] (panels a, b).
//   figure8.network, figure8.pattern, figure8.routings; figure8.lengths.ROUTING (or
//     figure8.lengths): the length-axis values, one per MTU (the MTU is the number in the name).
//   cost.pairs: "ROUTING:REFERENCE", a run with the transport against one without, each over
//     cost.patterns on cost.network, cost.length.
#pragma once
#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include "studies/report_text.h"
#include "studies/study_report.h"

namespace ibsc::tb::inorder {

using report::num;
using report::option;
std::string first(const Study& s, const std::string& key);
double paper_value(const std::string& text);  // NAN for "~" or empty

// The finite-workload run (one point, with the transport) of that network, routing, pattern
// and length, or nullptr.
const ExperimentResult* finite_run(const StudyRun& run, const std::string& network, const std::string& routing,
                                   const std::string& pattern, const std::string& length);
// Its execution time in microseconds; NAN when not every packet was delivered.
double exec_time_us(const ExperimentResult* r);

// What the sections share: the run, where to write, and what they find.
struct Section {
  const StudyRun& run;
  const std::string& dir;
  std::ostream& md;
  std::vector<ReportOutlier>& outliers;
  std::vector<std::string>& failures;
};

// Latency against accepted traffic of one study panel: its plot and markdown.
void write_panel(const Section& sec, const Panel& panel);

// Figure 5's right-hand panels: the largest rearrange buffer needed against traffic.
void write_figure5_buffers(const Section& sec);
void write_figure6(const Section& sec);
void write_figure7(const Section& sec);
void write_figure8(const Section& sec);
void write_cost(const Section& sec);

}  // namespace ibsc::tb::inorder
