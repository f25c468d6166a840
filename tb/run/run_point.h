// One load point: elaborate the fabric, warm up, measure over a window, drain the measured
// packets, with the conservation check and the deadlock watchdog running throughout.
// SystemC elaborates once per process: call this once per process (the sweep forks).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "routing/enum_names.h"
#include "routing/tables.h"
#include "routing/topology.h"
#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tb/stats/results.h"
#include "tb/traffic/injection.h"
#include "tb/traffic/traffic.h"
#include "tb/waves/wave_probe.h"

namespace ibsc::tb {

// How long a point measures (run.measure): run.window_ns, or until the confidence intervals converge.
enum class Measure { Window, Ci };
inline constexpr EnumName<Measure> kMeasureNames[] = {
    {Measure::Window, "window"},
    {Measure::Ci, "ci"},
};
constexpr const auto& enum_names(Measure) { return kMeasureNames; }

// How long a point warms up (run.warmup): run.warmup_ns, or at least that until the fabric has
// settled (tb/stats/steady_warmup.h); rate: steady, and the accepted traffic of the last two
// steps agrees within their batch-means intervals (the default of `sweep.beyond` points).
enum class Warmup { Fixed, Steady, Rate };
inline constexpr EnumName<Warmup> kWarmupNames[] = {
    {Warmup::Fixed, "fixed"},
    {Warmup::Steady, "steady"},
    {Warmup::Rate, "rate"},
};
constexpr const auto& enum_names(Warmup) { return kWarmupNames; }

// Whether a point drains (run.drain): always, or only when its window does not already show it
// saturated. The verdict is the same either way (a window that delivered clearly less than was
// generated is saturated whatever the drain finds); a saturated point's packet counts, latency
// and counters then stop at the window's end (docs/running.md lists them), and it costs no
// drain: past saturation 40-70% of a search probe's simulated time (the talk-scale searches).
enum class Drain { Always, Unsaturated };
inline constexpr EnumName<Drain> kDrainNames[] = {
    {Drain::Always, "always"},
    {Drain::Unsaturated, "unsaturated"},
};
constexpr const auto& enum_names(Drain) { return kDrainNames; }

struct RunParams {
  double warmup_ns = 20000;  // traffic runs, nothing is measured
  // steady: the warm-up goes on past warmup_ns, in steps of warmup_ns / 2, until the fabric has
  // settled over the last step (tb/stats/steady_warmup.h) or warmup_max_ns has passed. rate:
  // as steady, and also until the accepted traffic no longer changes from step to step.
  Warmup warmup = Warmup::Fixed;
  double warmup_max_ns = 0;     // steady: longest warm-up; 0: 10 x warmup_ns
  double window_ns = 100000;    // packets generated here are measured; accepted traffic is taken here
  double drain_ns = 400000;     // at most this long after the window for measured packets to arrive
  Drain drain = Drain::Always;  // unsaturated: no drain for a point the window shows saturated
  double watchdog_ns = 50000;   // packets in flight and no grant or delivery this long: deadlock
  double check_ns = 10000;      // period of the invariant checks and progress reports
  double hol_sample_ns = 0;     // > 0: sample head-of-line blocking this often in the window
  bool port_counters = false;   // named counters per switch port and VL over the window
  // How long to measure. window: window_ns. ci: at least window_ns, then until the 95%
  // batch-means intervals of average latency and accepted traffic both have a half-width within
  // ci_relative_width of their mean, or ci_max_window_ns has passed (then "converged": false).
  Measure measure = Measure::Window;
  double ci_relative_width = 0.02;  // ci: half-width / mean to stop at
  double ci_max_window_ns = 0;      // ci: longest measuring time; 0: 10 x window_ns
  bool progress = true;             // progress lines on stderr
  WaveOptions waves;                // VCD of selected switches over a time window; file empty: off
  void validate() const;            // throws ParamError (models/param_error.h) naming the key
  double max_window_ns() const { return ci_max_window_ns > 0 ? ci_max_window_ns : 10 * window_ns; }
  double max_warmup_ns() const { return warmup_max_ns > 0 ? warmup_max_ns : 10 * warmup_ns; }
};

// The deadlock watchdog fired; what() names the cycle of waiting channels.
class DeadlockError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct PointSetup {
  const routing::Topology* topo;
  const routing::TableSet* tables;
  FabricParams fabric;
  ArbiterChoice arbiter;
  TrafficConfig traffic;
  InjectionConfig injection;
  RunParams run;
  uint64_t seed = 1;
};

LoadPointResult run_load_point(const PointSetup& s, double load_fraction, const std::string& label);

}  // namespace ibsc::tb
