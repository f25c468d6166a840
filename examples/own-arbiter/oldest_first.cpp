// Oldest first: a switch arbiter of one's own, registered under the name `oldest-first`. Each
// arbitration serves the requesting inputs in the order their requests appeared, the oldest
// first (requests that appeared at the same arbitration: the higher input port first), each
// taking its most preferred free candidate output with credits for its whole packet. IBSC's
// default (`model`) serves inputs round robin from a rotating pointer instead; under steady
// contention both rotate alike, so they part where requests appear together.
#include <ibsc/arbiter_registry.h>

#include <algorithm>
#include <cstdint>
#include <numeric>

namespace {

class OldestFirst : public ibsc::SwitchArbiter {
 public:
  explicit OldestFirst(int num_ports) : since_(num_ports, kNone), order_(num_ports) {}

  void arbitrate(const std::vector<ibsc::ArbRequest>& req, const std::vector<ibsc::ArbOutputStatus>& out,
                 std::vector<int>& grants) override {
    ++now_;
    for (size_t i = 0; i < req.size(); ++i)
      if (req[i].valid && since_[i] == kNone) since_[i] = now_;
    std::iota(order_.begin(), order_.end(), 0);
    std::sort(order_.begin(), order_.end(),
              [&](int a, int b) { return since_[a] < since_[b] || (since_[a] == since_[b] && a > b); });
    std::vector<bool> taken(out.size(), false);
    for (int i : order_) {
      grants[i] = -1;
      if (!req[i].valid) continue;
      int best = -1, level = 0;
      for (const ibsc::ArbCandidate& c : req[i].candidates) {
        const ibsc::ArbOutputStatus& o = out[c.port];
        if (taken[c.port] || o.busy || o.credits[req[i].vl] < req[i].length_credits) continue;
        if (best < 0 || c.priority < level) best = c.port, level = c.priority;
      }
      grants[i] = best;
      if (best >= 0) taken[best] = true;
    }
    for (size_t i = 0; i < req.size(); ++i)
      if (!req[i].valid || grants[i] >= 0) since_[i] = kNone;  // the input's next request is a new one
  }
  const char* kind() const override { return "oldest-first"; }

 private:
  static constexpr uint64_t kNone = UINT64_MAX;
  uint64_t now_ = 0;             // arbitrations so far (the switch calls only when an input requests)
  std::vector<uint64_t> since_;  // per input: the arbitration its current request appeared at
  std::vector<int> order_;
};

// Registered at start-up: `switch.arbiter: oldest-first` in a scenario now picks it.
ibsc::ArbiterRegistrar registrar("oldest-first",
                                 [](int num_ports, int) { return std::make_unique<OldestFirst>(num_ports); });

}  // namespace
