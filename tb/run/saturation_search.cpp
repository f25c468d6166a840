#include "tb/run/saturation_search.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "tb/run/forked_workers.h"
#include "tb/run/sweep.h"

namespace ibsc::tb {

int step_above_bound(double bound_fraction, int grid) {
  // The bound itself may be a grid load (0.25 = 32/128) and is not known to saturate; the next
  // step is. A hair of tolerance so that 0.25 computed as 0.2500000001 stays on 32.
  const int at = static_cast<int>(std::floor(bound_fraction * grid + 1e-9));
  return std::clamp(at + 1, 1, grid + 1);
}

int search_saturation_step(const SaturationSearch& search, const std::function<ProbeOutcome(int)>& run_probe) {
  int lo = 0, hi = std::min(search.known_saturated, search.grid + 1);
  int accepted = -1;  // the last probe's accepted step if it saturated
  auto probe = [&](int step) {
    const ProbeOutcome o = run_probe(step);
    (o.saturated ? hi : lo) = step;
    accepted = o.saturated ? o.accepted_step : -1;
    return o.saturated;
  };
  if (search.top_first) {
    for (int k = 0; k < 2 && hi - 1 > lo; ++k)
      if (!probe(hi - 1)) break;
  } else {
    // Gallop away from the guess until a probe lands on the other side of saturation; going
    // down, start again from a saturated probe's accepted step when that is lower still and the
    // probe carried less than 80% of its load (hi: the step just probed). A probe that carried
    // more is near its knee, where the accepted step can lie a few steps under saturation (past
    // it throughput falls) and galloping down from the probe finds the bracket sooner. Each start
    // is below the one before, so this ends.
    for (int start = search.guess; start > lo && start < hi;) {
      const bool up = !probe(start);
      start = -1;
      for (int d = 1; hi - lo > 1; d *= 2) {
        const int next = up ? std::min(lo + d, hi - 1) : std::max(hi - d, lo + 1);
        if (!up && accepted > lo && accepted < next && 5 * accepted < 4 * hi) {
          start = accepted;
          break;
        }
        if (probe(next) == up) break;
      }
    }
  }
  while (hi - lo > 1) probe((lo + hi) / 2);
  return lo;
}

SaturationFound find_saturation_step(const PointSetup& setup, const SaturationSearch& search, ProbeJournal* journal) {
  SaturationFound f;
  f.step = search_saturation_step(search, [&](int step) {
    LoadPointResult p;
    if (const ProbeJournal::Probe* kept = journal ? journal->find(step) : nullptr) {
      p = point_with_wall_seconds(kept->point);
      ++f.taken_back;
      f.taken_back_cpu_seconds += kept->cpu_seconds;
    } else {
      if (const std::string* why = journal ? journal->stale(step) : nullptr)
        f.run_again.push_back("step " + std::to_string(step) + ": " + *why);
      SweepConfig one;
      one.loads = {static_cast<double>(step) / search.grid};
      one.jobs = 1;
      const double cpu0 = children_cpu_seconds();  // the probe runs in a child (run_sweep)
      p = run_sweep(setup, one).front();
      if (journal) journal->add(step, point_with_wall_seconds(p), children_cpu_seconds() - cpu0);
    }
    ProbeOutcome o;
    o.saturated = p.saturated;
    if (p.saturated && std::isfinite(p.accepted_fraction) && p.accepted_fraction >= 0)
      o.accepted_step = static_cast<int>(std::floor(std::min(p.accepted_fraction, 1.0) * search.grid));
    f.points.push_back(std::move(p));
    return o;
  });
  std::sort(f.points.begin(), f.points.end(), [](auto& a, auto& b) { return a.offered_load < b.offered_load; });
  return f;
}

}  // namespace ibsc::tb
