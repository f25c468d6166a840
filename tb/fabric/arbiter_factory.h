// Chooses the switch arbiter per switch: a registered arbiter (ibsc/arbiter_registry.h: the C++
// model, the Verilated RTL, or a user's own) in one named switch or in all of them.
#pragma once
#include <string>
#include <vector>

#include "tb/fabric/fabric.h"

namespace ibsc::tb {

struct ArbiterChoice {
  std::string name = "model";      // switch.arbiter: a registered arbiter
  std::vector<int> rtl_switches;   // switch.rtl_switches: the switches that get `name`; empty: all
  bool covers(int index) const;    // does switch `index` get `name` (else the model)?
  bool uses_rtl(int index) const;  // does switch `index` get the Verilated RTL?
  // Throws std::invalid_argument naming the key when `name` is not registered (listing those
  // that are), or rtl_switches names a switch the fabric lacks, or is given with the model (it
  // would be ignored).
  void validate(int num_switches) const;
};

ArbiterFactory make_arbiter_factory(const ArbiterChoice& choice);

}  // namespace ibsc::tb
