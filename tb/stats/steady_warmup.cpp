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

}  // namespace ibsc::tb
