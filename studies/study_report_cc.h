// The report of a congestion-control study (report: congestion-control; issue 34,
// scenarios/congestion/congestion-control.yaml): from each experiment's results.json block
// "congestion_control" (tb/stats/cc_result.h) three tables per network:
//   (1) tree saturation: hot and victim throughput with CC off and on, victims against their
//       no-hot-spot baseline, FECN and BECN counts, and the acceptance lines;
//   (2) sensitivity: every other CC setting of the routings axis on the hot-spot pattern;
//   (3) cost: saturation throughput and low-load latency under uniform traffic, CC on vs off.
// Which axis values play which part is report_options' (defaults in brackets): hot_pattern
// [tree], baseline_pattern [nohot], uniform_pattern [uniform], cc_off [cc-off], cc_on [cc-on].
// Also timeseries.csv (every hot-pattern experiment's cc_timeseries rows) and the common
// experiments.csv / points.csv. Failures (non-zero exit): runs that failed, FECN marks with CC
// off, no mark with CC on under the hot spot.
#pragma once
#include <string>
#include <vector>

#include "studies/study_report.h"

namespace ibsc::tb {

std::vector<std::string> write_cc_study_report(const std::string& dir, const StudyRun& run);

}  // namespace ibsc::tb
