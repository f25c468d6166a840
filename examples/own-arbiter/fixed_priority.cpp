// Fixed priority in C++: the reference fixed_priority_arbiter.sv is co-verified against
// (`own_arbiter --cosim fixed-priority`, cosim.cpp), registered under the name `fixed-priority`.
// The same policy as the RTL's comment states it: no state; inputs served in index order, each
// taking, among its candidate outputs that are free, have credits for the whole packet on its
// VL and were not taken by a lower input, the lowest priority level, then the lowest output.
// Levels are 3 bits wide in the RTL (PRIO_W), so a level above 7 counts as 7; a port listed
// twice competes with its lower level, as the pins hold one level per input and output.
#include <ibsc/arbiter_registry.h>

#include <algorithm>

namespace {

class FixedPriority : public ibsc::SwitchArbiter {
 public:
  void arbitrate(const std::vector<ibsc::ArbRequest>& req, const std::vector<ibsc::ArbOutputStatus>& out,
                 std::vector<int>& grants) override {
    taken_.assign(out.size(), false);
    for (size_t i = 0; i < req.size(); ++i) {
      grants[i] = -1;
      if (!req[i].valid) continue;
      int best = -1, best_level = 0;
      for (const ibsc::ArbCandidate& c : req[i].candidates) {
        const ibsc::ArbOutputStatus& o = out[c.port];
        if (taken_[c.port] || o.busy || o.credits[req[i].vl] < req[i].length_credits) continue;
        const int level = std::min<int>(c.priority, kMaxLevel);
        if (best < 0 || level < best_level || (level == best_level && c.port < best)) best = c.port, best_level = level;
      }
      grants[i] = best;
      if (best >= 0) taken_[best] = true;
    }
  }
  const char* kind() const override { return "fixed-priority"; }

 private:
  static constexpr int kMaxLevel = 7;  // 2^PRIO_W - 1
  std::vector<bool> taken_;            // outputs granted this cycle
};

const ibsc::ArbiterRegistrar registrar("fixed-priority", [](int, int) { return std::make_unique<FixedPriority>(); });

}  // namespace
