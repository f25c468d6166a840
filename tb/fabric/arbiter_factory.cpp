#include "tb/fabric/arbiter_factory.h"

#include <algorithm>
#include <stdexcept>

#include "ibsc/arbiter_registry.h"

namespace ibsc::tb {

bool ArbiterChoice::covers(int index) const {
  return rtl_switches.empty() || std::find(rtl_switches.begin(), rtl_switches.end(), index) != rtl_switches.end();
}

bool ArbiterChoice::uses_rtl(int index) const { return name == "rtl" && covers(index); }

void ArbiterChoice::validate(int num_switches) const {
  if (!arbiter_registered(name)) {
    std::string known;
    for (const std::string& n : registered_arbiters()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("key 'switch.arbiter': unknown arbiter '" + name + "' (registered: " + known + ")");
  }
  if (name == "model" && !rtl_switches.empty())
    throw std::invalid_argument(
        "key 'switch.rtl_switches': given with switch.arbiter 'model'; it only applies to "
        "another switch.arbiter (rtl or a registered one)");
  for (int s : rtl_switches)
    if (s < 0 || s >= num_switches)
      throw std::invalid_argument("key 'switch.rtl_switches': switch " + std::to_string(s) +
                                  " does not exist (the topology has " + std::to_string(num_switches) +
                                  " switches, 0.." + std::to_string(num_switches - 1) + ")");
}

ArbiterFactory make_arbiter_factory(const ArbiterChoice& choice) {
  return [choice](int index, int num_ports, int num_vls) -> std::unique_ptr<models::SwitchArbiter> {
    return make_arbiter(choice.covers(index) ? choice.name : "model", num_ports, num_vls);
  };
}

}  // namespace ibsc::tb
