// The report of a design-space study (report: design-space; scenarios/design-space/, the guide
// docs/design-space.md): switch options as the variants of one network, every variant run on
// every traffic pattern, and per network, pattern and packet length
//   - one latency-vs-accepted-traffic plot holding every variant;
//   - the saturation throughput of each variant (% of link capacity per host, the highest
//     accepted traffic of the points the sweep did not flag saturated) against the routed
//     channel-load bound and against the first variant, the baseline;
//   - the switches' named counters (models/port_counters.h, `run.port_counters: true`) per
//     variant at one offered load, so the table says where the heads waited:
//     credit stalls, output-busy stalls, head-of-line-blocked time, all of the head wait, and the
//     bytes held in the input buffers, as means per switch;
//   - one line per variant naming the stall it removed most against the baseline at the same load
//     (a variant saturating higher) or added most (one saturating lower).
// Which load the counters are read at: report_options counters_at [offered load] when given, else
// the lowest load at which the baseline is saturated that every variant whose sweep went that far
// also ran (the sweeps share their grid; a bisection point of one is skipped): there the baseline
// has just saturated and a better variant has not. A variant whose sweep stopped below that load
// (it saturated earlier) is read at its highest load.
// Files: README.md, saturation.csv, counters.csv (every load point's counter means), and the
// common experiments.csv and points.csv. Failures (non-zero exit): the common invariants
// (study_failures: tables checked, packets conserved, under the bound), a run that failed, and a
// load point without counters (the base scenario must set run.port_counters).
#pragma once
#include <string>
#include <vector>

#include "studies/study_report.h"

namespace ibsc::tb {

// The switches' counters of one load point summed over switches, ports and VLs, as means per
// switch over the window: a stall time / window is the mean number of heads stalled.
struct CounterMeans {
  bool present = false;
  double credit_stall = 0, output_busy_stall = 0, hol_blocked = 0, head_wait = 0;  // heads per switch
  double occupancy_bytes = 0;                                                      // bytes held per switch
};
CounterMeans counter_means(const LoadPointResult& p);

std::vector<std::string> write_design_space_report(const std::string& dir, const StudyRun& run);

}  // namespace ibsc::tb
