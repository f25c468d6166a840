// Chooses the switch arbiter per switch: the C++ reference model, or the Verilated RTL in one
// named switch or in all of them.
#pragma once
#include <string>
#include <vector>

#include "routing/enum_names.h"
#include "tb/fabric/fabric.h"

namespace ibsc::tb {

// switch.arbiter: the C++ model or the Verilated RTL.
enum class ArbiterKind { Model, Rtl };
inline constexpr EnumName<ArbiterKind> kArbiterKindNames[] = {
    {ArbiterKind::Model, "model"},
    {ArbiterKind::Rtl, "rtl"},
};
constexpr const auto& enum_names(ArbiterKind) { return kArbiterKindNames; }

struct ArbiterChoice {
  ArbiterKind kind = ArbiterKind::Model;
  std::vector<int> rtl_switches;   // with kind rtl: switch indices; empty means all
  bool uses_rtl(int index) const;  // does switch `index` get the RTL?
  // Throws std::invalid_argument naming the key when rtl_switches names a switch the fabric
  // lacks, or is given with kind model (it would be ignored).
  void validate(int num_switches) const;
};

ArbiterFactory make_arbiter_factory(const ArbiterChoice& choice);

}  // namespace ibsc::tb
