#include "tb/fabric/arbiter_factory.h"

#include <algorithm>
#include <stdexcept>

#include "models/adaptive_arbiter.h"
#include "models/verilated_arbiter.h"

namespace ibsc::tb {

bool ArbiterChoice::uses_rtl(int index) const {
  return kind == ArbiterKind::Rtl &&
         (rtl_switches.empty() || std::find(rtl_switches.begin(), rtl_switches.end(), index) != rtl_switches.end());
}

void ArbiterChoice::validate(int num_switches) const {
  if (kind != ArbiterKind::Rtl && !rtl_switches.empty())
    throw std::invalid_argument("key 'switch.rtl_switches': given with switch.arbiter '" + enum_name(kind) +
                                "'; it only applies to switch.arbiter: rtl");
  for (int s : rtl_switches)
    if (s < 0 || s >= num_switches)
      throw std::invalid_argument("key 'switch.rtl_switches': switch " + std::to_string(s) +
                                  " does not exist (the topology has " + std::to_string(num_switches) +
                                  " switches, 0.." + std::to_string(num_switches - 1) + ")");
}

ArbiterFactory make_arbiter_factory(const ArbiterChoice& choice) {
  return [choice](int index, int num_ports, int num_vls) -> std::unique_ptr<models::SwitchArbiter> {
    if (choice.uses_rtl(index)) return std::make_unique<models::VerilatedArbiter>(num_ports, num_vls);
    return std::make_unique<models::AdaptiveArbiter>(num_ports, num_vls);
  };
}

}  // namespace ibsc::tb
