// AdaptiveArbiter: C++ reference model of rtl/switch_arbiter.sv, the same cycle behaviour bit
// for bit. It is the switch arbiter used in the fabric by default and the expected side of the
// lockstep co-verification (tb/cosim/).
//
// Policy of one arbitrate() call (one core-clock edge with at least one valid request):
//   1. (i,o) is eligible when input i requests, o is one of its candidates, o is not busy and
//      o has at least length_credits free credits on the request's VL (virtual cut-through).
//   2. Inputs are served one after the other from the input pointer (in_ptr, in_ptr+1, ... mod
//      N). Each takes, among its eligible outputs not taken by an earlier input, the lowest
//      priority level; then the most credits on its VL; then the first output met scanning
//      cyclically from the output pointer.
//   3. If anything was granted, the input pointer moves to one past the FIRST granted input in
//      service order and the output pointer to one past that input's output. A waiting input
//      thus heads the order within N granting cycles: no starvation.
// Priority levels at or above priority_levels (the RTL's 2^PRIO_W) count as the least
// preferred level; a port listed twice counts with its lower level. Both the RTL adapter and
// this model do so, so they agree on any input.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "models/switch_arbiter.h"

namespace ibsc::models {

// Final: the switch calls its single-request shortcut directly (inline) when it is this model.
class AdaptiveArbiter final : public SwitchArbiter {
 public:
  // Throws std::invalid_argument unless 1 <= num_ports <= 256, 1 <= num_vls <= 16 and
  // 1 <= priority_levels <= 256.
  AdaptiveArbiter(int num_ports, int num_vls, int priority_levels = kDefaultPriorityLevels);

  // Throws std::invalid_argument on vectors of the wrong size, a candidate port >= num_ports
  // or a VL >= num_vls: the RTL could not represent them.
  void arbitrate(const std::vector<ArbRequest>& requests, const std::vector<ArbOutputStatus>& outputs,
                 std::vector<int>& grants) override;
  static constexpr char kKind[] = "model";
  const char* kind() const override { return kKind; }
  // `a` as this model, or null. By kind()'s address, which no other class returns: cheaper than
  // a dynamic_cast, and the same answer.
  static AdaptiveArbiter* of(SwitchArbiter& a) {
    return a.kind() == kKind ? static_cast<AdaptiveArbiter*>(&a) : nullptr;
  }
  bool has_single() const override { return true; }
  // arbitrate() with input `in` the only request: the same checks, the same pointer moves.
  // Inline: the switch's commonest arbitration (switch.cpp's lone-head path).
  int arbitrate_single(int in, ArbCandidate c, uint8_t vl, uint16_t length_credits, uint16_t credits) override {
    if (in < 0 || in >= num_ports_) throw std::invalid_argument("AdaptiveArbiter: input out of range");
    if (vl >= num_vls_) throw std::invalid_argument("AdaptiveArbiter: request VL out of range");
    if (c.port >= num_ports_) throw std::invalid_argument("AdaptiveArbiter: candidate port out of range");
    return single(in, c, length_credits, credits);
  }
  // The same for a caller that keeps `in`, c.port and the VL in range (the switch that built
  // this arbiter for its ports and VLs): the checks are arbitrate_single()'s.
  int single(int in, ArbCandidate c, uint16_t length_credits, uint16_t credits) {
    if (credits < length_credits) return -1;
    granted(in, c.port);
    return c.port;
  }
  int arbitrate_one(int in, const ArbCandidate* c, const uint16_t* credits, int n, uint8_t vl,
                    uint16_t length_credits) override;
  // arbitrate() when only inputs[0 .. count) (ascending, distinct) may request: it visits those
  // alone, in the same service order, and writes grants[i] for them only. For a caller that keeps
  // the vectors' sizes and every request's VL and ports in range (the switch, for its ports), so
  // without arbitrate()'s checks. Same outcome and pointer moves as arbitrate().
  void arbitrate_inputs(const std::vector<ArbRequest>& requests, const std::vector<ArbOutputStatus>& outputs,
                        std::vector<int>& grants, const int* inputs, int count);

  int num_ports() const { return num_ports_; }
  int num_vls() const { return num_vls_; }
  int in_ptr() const { return in_ptr_; }
  int out_ptr() const { return out_ptr_; }

  static constexpr int kDefaultPriorityLevels = 8;  // PRIO_W = 3 in the RTL

 private:
  // Step 2's choice for one input: the lowest level, then the most credits, then the lowest
  // rank from the output pointer (a port listed twice thus counts with its lower level).
  struct Best {
    int port = -1, level = 0, credits = 0, rank = 0;
    void offer(int o, int lv, int cr, int rk) {
      if (port < 0 || lv < level || (lv == level && (cr > credits || (cr == credits && rk < rank))))
        port = o, level = lv, credits = cr, rank = rk;
    }
  };
  int rank(int o) const { return o >= out_ptr_ ? o - out_ptr_ : o - out_ptr_ + num_ports_; }
  void new_call();  // a new stamp, no input granted yet
  template <bool kChecked>
  void serve(int i, const ArbRequest& r, const std::vector<ArbOutputStatus>& outputs, std::vector<int>& grants);
  void granted(int in, int out) {  // step 3 for the first granted input
    in_ptr_ = in + 1 == num_ports_ ? 0 : in + 1;
    out_ptr_ = out + 1 == num_ports_ ? 0 : out + 1;
  }

  int num_ports_;
  int num_vls_;
  int priority_levels_;
  int in_ptr_ = 0;                      // input served first this cycle
  int out_ptr_ = 0;                     // output that wins a full tie
  int first_in_ = -1, first_out_ = -1;  // this call's first granted input and its output
  // Per output: the stamp of the call that granted it; the stamp counts the calls of every
  // instance. Shared by all instances (a call never nests; simulation is single-threaded, as the
  // switch's shared scratch assumes), so a fabric's switches find it cached: per instance it
  // was a cache miss per grant at 16,384 hosts.
  static inline std::vector<uint32_t> taken_;
  static inline uint32_t stamp_ = 0;
};

}  // namespace ibsc::models
