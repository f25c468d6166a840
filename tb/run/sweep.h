// Load sweep: runs load points, each in its own forked process (SystemC elaborates once per
// process; this also spreads points over the cores), and finds the saturation point.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "routing/enum_names.h"
#include "tb/run/run_point.h"
#include "tb/run/work_spread.h"
#include "tb/stats/results.h"

namespace ibsc::tb {

// sweep.load_unit: loads as a fraction of link capacity, or in bytes per ns per host.
enum class LoadUnit { Fraction, BytesPerNs };
inline constexpr EnumName<LoadUnit> kLoadUnitNames[] = {
    {LoadUnit::Fraction, "fraction"},
    {LoadUnit::BytesPerNs, "bytes_per_ns"},
};
constexpr const auto& enum_names(LoadUnit) { return kLoadUnitNames; }

struct SweepConfig {
  static constexpr int kMaxRefine = 8;  // sweep.refine's limit, in validate() and its declaration

  std::vector<double> loads;                // offered loads in load_unit; empty: automatic
  LoadUnit load_unit = LoadUnit::Fraction;  // fraction (of link capacity) | bytes_per_ns (per host)
  double start = 0.1;                       // automatic: first load
  double step = 0.1;                        // automatic: increment
  double max = 1.0;                         // automatic: last load tried
  int refine = 2;                           // bisection steps between the last unsaturated and first saturated load
  // automatic: after the bisection, loads at these multiples (> 1) of the first saturated load,
  // up to max: accepted traffic past saturation (seeds/004 takes the highest of its curve, where
  // traffic to uncongested parts keeps growing). Empty: none.
  std::vector<double> beyond;
  int jobs = 0;           // concurrent processes; 0: one per core
  void validate() const;  // throws ParamError (models/param_error.h) naming the key
};

// Runs the sweep; points come back sorted by offered load. Throws on the first failing point
// (deadlock, violated invariant), with that point's message.
std::vector<LoadPointResult> run_sweep(const PointSetup& setup, const SweepConfig& cfg);

// A load point as its forked process hands it back (to_json, with the wall seconds the results
// leave out) and as it is read again; the saturation search's journal keeps it in this form.
nlohmann::json point_with_wall_seconds(const LoadPointResult& r);
LoadPointResult point_with_wall_seconds(const nlohmann::json& j);

// Runs fn(i) for i in [0, n) in child processes, at most `jobs` at once; each child returns a
// JSON text. Used by the sweep and by studies; on_done(i, text), if given, runs in the parent
// as each child finishes successfully (progress display, files written as results come in),
// and may shorten the text it is given, which is then the one returned. Children die with the parent
// (PR_SET_PDEATHSIG on Linux, a parent-id check elsewhere) and pass their text through an
// unlinked temporary file, so a killed parent leaves neither processes nor files behind.
// Under mpirun (tb/run/work_spread.h) the items go to every rank, each running `jobs` at once;
// name(i), if given, names an item in the report of a rank that died.
std::vector<std::string> run_forked(int n, int jobs, const WorkItem& fn, const WorkDone& on_done = {},
                                    const WorkName& name = {});

}  // namespace ibsc::tb
