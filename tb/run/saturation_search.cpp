#include "tb/run/saturation_search.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "tb/run/sweep.h"

namespace ibsc::tb {

int step_above_bound(double bound_fraction, int grid) {
  // The bound itself may be a grid load (0.25 = 32/128) and is not known to saturate; the next
  // step is. A hair of tolerance so that 0.25 computed as 0.2500000001 stays on 32.
  const int at = static_cast<int>(std::floor(bound_fraction * grid + 1e-9));
  return std::clamp(at + 1, 1, grid + 1);
}

int search_saturation_step(const SaturationSearch& search, const std::function<bool(int)>& saturated) {
  int lo = 0, hi = std::min(search.known_saturated, search.grid + 1);
  auto probe = [&](int step) {
    const bool sat = saturated(step);
    (sat ? hi : lo) = step;
    return sat;
  };
  if (search.top_first) {
    for (int k = 0; k < 2 && hi - 1 > lo; ++k)
      if (!probe(hi - 1)) break;
  } else if (search.guess > lo && search.guess < hi) {
    // Gallop away from the guess until a probe lands on the other side of saturation.
    const bool up = !probe(search.guess);
    for (int d = 1; hi - lo > 1; d *= 2)
      if (probe(up ? std::min(lo + d, hi - 1) : std::max(hi - d, lo + 1)) == up) break;
  }
  while (hi - lo > 1) probe((lo + hi) / 2);
  return lo;
}

SaturationFound find_saturation_step(const PointSetup& setup, const SaturationSearch& search) {
  SaturationFound f;
  f.step = search_saturation_step(search, [&](int step) {
    SweepConfig one;
    one.loads = {static_cast<double>(step) / search.grid};
    one.jobs = 1;
    LoadPointResult p = run_sweep(setup, one).front();
    const bool saturated = p.saturated;
    f.points.push_back(std::move(p));
    return saturated;
  });
  std::sort(f.points.begin(), f.points.end(), [](auto& a, auto& b) { return a.offered_load < b.offered_load; });
  return f;
}

}  // namespace ibsc::tb
