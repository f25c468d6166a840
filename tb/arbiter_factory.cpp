#include "tb/arbiter_factory.h"

#include <algorithm>
#include <stdexcept>

#include "models/adaptive_arbiter.h"
#include "models/verilated_arbiter.h"

namespace ibsc::tb {

ArbiterFactory make_arbiter_factory(const ArbiterChoice& choice) {
  if (choice.kind != "model" && choice.kind != "rtl")
    throw std::invalid_argument("switch.arbiter must be 'model' or 'rtl', not '" + choice.kind + "'");
  return [choice](int index, int num_ports, int num_vls) -> std::unique_ptr<models::SwitchArbiter> {
    const bool rtl = choice.kind == "rtl" &&
                     (choice.rtl_switches.empty() ||
                      std::find(choice.rtl_switches.begin(), choice.rtl_switches.end(), index) != choice.rtl_switches.end());
    if (rtl) return std::make_unique<models::VerilatedArbiter>(num_ports, num_vls);
    return std::make_unique<models::AdaptiveArbiter>(num_ports, num_vls);
  };
}

}  // namespace ibsc::tb
