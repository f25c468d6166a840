#include "tb/stats/steady_warmup.h"

#include <cmath>

namespace ibsc::tb {

bool settled(const FabricSample& before, const FabricSample& after) {
  if (after.in_fabric <= before.in_fabric) return true;
  const double growth = static_cast<double>(after.in_fabric - before.in_fabric);
  const double delivered = static_cast<double>(after.delivered - before.delivered);
  // injected = growth + delivered
  return growth <= kGrowthShare * delivered + kSwings * std::sqrt(growth + 2 * delivered);
}

RateCheck rate_steady(const std::vector<double>& before, const std::vector<double>& last) {
  constexpr double kConfidence = 0.95;
  RateCheck c;
  c.last = t_interval(last, kConfidence);
  const ConfidenceInterval b = t_interval(before, kConfidence);
  c.previous = b.mean;
  if (before.size() < 2 || last.size() < 2) return c;
  const double band = std::sqrt(b.half_width * b.half_width + c.last.half_width * c.last.half_width);
  c.steady = std::fabs(c.last.mean - b.mean) <= band;
  return c;
}

}  // namespace ibsc::tb
