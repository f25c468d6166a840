#include "tb/arbiter_factory.h"

#include <algorithm>
#include <stdexcept>

namespace ibsc::tb {
namespace {

// Interim arbiter until the reference model lands: inputs in round-robin order, each takes its
// first free candidate with credits.
class InterimArbiter : public models::SwitchArbiter {
 public:
  void arbitrate(const std::vector<models::ArbRequest>& req, const std::vector<models::ArbOutputStatus>& out,
                 std::vector<int>& grants) override {
    const int n = static_cast<int>(req.size());
    std::vector<bool> taken(out.size(), false);
    int last = -1;
    for (int k = 0; k < n; ++k) {
      int i = (rr_ + k) % n;
      grants[i] = -1;
      if (!req[i].valid) continue;
      for (const auto& c : req[i].candidates) {
        const auto& o = out[c.port];
        if (o.busy || taken[c.port] || o.credits[req[i].vl] < req[i].length_credits) continue;
        grants[i] = c.port;
        taken[c.port] = true;
        last = i;
        break;
      }
    }
    if (last >= 0) rr_ = (last + 1) % n;
  }
  const char* kind() const override { return "interim"; }

 private:
  int rr_ = 0;
};

}  // namespace

ArbiterFactory make_arbiter_factory(const ArbiterChoice& choice) {
  if (choice.kind != "model")
    throw std::invalid_argument("switch.arbiter '" + choice.kind + "' is not available in this build");
  return [](int, int, int) -> std::unique_ptr<models::SwitchArbiter> { return std::make_unique<InterimArbiter>(); };
}

}  // namespace ibsc::tb
