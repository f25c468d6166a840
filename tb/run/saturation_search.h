// Saturation by search on a load grid (seeds/001's tables: steps of 1/128 of injection
// bandwidth). Each probe is one load point in its own process (run_sweep with one load); the
// result is the highest grid load found unsaturated (tb/run/run_point.cpp decides "saturated").
//   known_saturated: the lowest grid step known to saturate without running it, e.g. the step
//     above a deterministic routing's channel-load bound (no load above the bound can be
//     accepted); grid + 1 when nothing is known (then load 1.0 is probed like any other).
//   top_first: probe known_saturated - 1 first, then - 2, before bisecting below (a routing
//     expected to reach its bound settles in one or two probes instead of seven).
//   guess: a step expected near saturation (e.g. the same cell's result on a smaller network),
//     probed first; then steps 1, 2, 4... away from it, up if it was carried, down if not,
//     until the bracket closes, then bisected. A good guess settles in two probes. -1: none.
//     Ignored with top_first.
//     Going down, a saturated probe's accepted traffic (its step on the grid) is where the
//     fabric's capacity lies, give or take the loss past saturation: when the probe carried
//     less than 80% of its load and that step is below the gallop's next, the gallop starts
//     again there. A guess far above saturation (a stand-in that carried 70% where the talk's
//     network carries 9%) then costs four or five probes instead of a dozen; a guess one step
//     high still costs two. Where saturation is a threshold the result is the same: the search
//     still ends on a carried step whose next one saturated. (bench/search_replay.py, on the
//     45 talk-scale cells searched before: 278 probes instead of 345; without the 80% test
//     280, and a guess one step high took five.)
// Step 0 (no load) counts as unsaturated and is never run.
#pragma once
#include <functional>
#include <vector>

#include "tb/run/probe_journal.h"
#include "tb/run/run_point.h"
#include "tb/stats/results.h"

namespace ibsc::tb {

struct SaturationSearch {
  int grid = 128;
  int known_saturated = 129;
  bool top_first = false;
  int guess = -1;
};

struct SaturationFound {
  int step = 0;                         // highest unsaturated grid step: saturation = step / grid
  std::vector<LoadPointResult> points;  // every probe, by offered load
  int taken_back = 0;                   // probes taken from the journal instead of run
  std::vector<std::string> run_again;   // journal probes run again: "step S: why" (ProbeJournal::stale)
  double taken_back_cpu_seconds = 0;    // what they had cost when they ran
};

// The grid step a bound (fraction of injection bandwidth) allows at most, plus one: the lowest
// step known to saturate. Clamped to grid + 1.
int step_above_bound(double bound_fraction, int grid);

// What a probe says: whether it saturated, and if so the grid step of the traffic it accepted
// (floor of accepted fraction x grid; -1: not known).
struct ProbeOutcome {
  bool saturated = false;
  int accepted_step = -1;
};

// The search alone: probe(step) runs a probe at step / grid (or a test's stand-in). Returns the
// highest unsaturated step.
int search_saturation_step(const SaturationSearch& search, const std::function<ProbeOutcome(int)>& probe);

// With JOURNAL (tb/run/probe_journal.h), each probe is first looked for there and each probe run
// is added to it: the same probes in the same order, so the same points and result.
SaturationFound find_saturation_step(const PointSetup& setup, const SaturationSearch& search,
                                     ProbeJournal* journal = nullptr);

}  // namespace ibsc::tb
