#include "tb/run/saturation_search.h"

#include <algorithm>
#include <cmath>

#include "tb/run/sweep.h"

namespace ibsc::tb {

int step_above_bound(double bound_fraction, int grid) {
  // The bound itself may be a grid load (0.25 = 32/128) and is not known to saturate; the next
  // step is. A hair of tolerance so that 0.25 computed as 0.2500000001 stays on 32.
  const int at = static_cast<int>(std::floor(bound_fraction * grid + 1e-9));
  return std::clamp(at + 1, 1, grid + 1);
}

SaturationFound find_saturation_step(const PointSetup& setup, const SaturationSearch& search) {
  SaturationFound f;
  int lo = 0, hi = std::min(search.known_saturated, search.grid + 1);
  auto probe = [&](int step) {
    SweepConfig one;
    one.loads = {static_cast<double>(step) / search.grid};
    one.jobs = 1;
    LoadPointResult p = run_sweep(setup, one).front();
    const bool saturated = p.saturated;
    f.points.push_back(std::move(p));
    (saturated ? hi : lo) = step;
    return saturated;
  };
  if (search.top_first)
    for (int k = 0; k < 2 && hi - 1 > lo; ++k)
      if (!probe(hi - 1)) break;
  while (hi - lo > 1) probe((lo + hi) / 2);
  f.step = lo;
  std::sort(f.points.begin(), f.points.end(), [](auto& a, auto& b) { return a.offered_load < b.offered_load; });
  return f;
}

}  // namespace ibsc::tb
