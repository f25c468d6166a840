// Chooses the switch arbiter per switch: the C++ reference model, or the Verilated RTL in one
// named switch or in all of them.
#pragma once
#include <string>
#include <vector>

#include "tb/fabric.h"

namespace ibsc::tb {

struct ArbiterChoice {
  std::string kind = "model";      // model | rtl
  std::vector<int> rtl_switches;   // with kind rtl: switch indices; empty means all
  bool uses_rtl(int index) const;  // does switch `index` get the RTL?
  // Throws std::invalid_argument naming the key when rtl_switches names a switch the fabric
  // lacks, or is given with kind model (it would be ignored).
  void validate(int num_switches) const;
};

ArbiterFactory make_arbiter_factory(const ArbiterChoice& choice);

}  // namespace ibsc::tb
