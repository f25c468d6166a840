// Switch arbiter interface (public: a user's own arbiter implements it and registers it by
// name, ibsc/arbiter_registry.h): on an edge of the switch core clock, match requesting input
// ports to free output ports. The C++ reference model and the Verilated RTL both sit behind it,
// so a switch never knows which one it talks to.
//
// Inputs each arbitrated cycle:
//   per input port i: a request (valid, candidate output ports each with a priority level,
//                     the output VL, the packet length in 64-byte credits);
//   per output port o: busy or free, and the credits available per VL.
// Output: per input port the granted output port, or -1. Each free output is granted to at most
// one input and each input gets at most one output.
//
// Cycle contract: the switch calls arbitrate() only on core-clock edges where at least one
// request is valid; internal state (round-robin pointers) may change only on such cycles, so
// skipping idle edges is exact and the RTL, clocked only on these edges, stays in lockstep.
#pragma once
#include <cstdint>
#include <vector>

namespace ibsc::models {

struct ArbCandidate {
  uint8_t port = 0;      // output port index (0-based index into the outputs vector)
  uint8_t priority = 0;  // lower value is preferred (0 = minimal hop)
};

// Fields ordered so that a request packs into 32 bytes: an arbiter reads every input's.
struct ArbRequest {
  std::vector<ArbCandidate> candidates;
  bool valid = false;
  uint8_t vl = 0;               // output VL the packet will use
  uint16_t length_credits = 0;  // packet length in 64-byte credits (rounded up)
};

struct ArbOutputStatus {
  bool busy = false;
  std::vector<uint16_t> credits;  // per VL: credits the downstream buffer has free
};

class SwitchArbiter {
 public:
  virtual ~SwitchArbiter() = default;
  // grants.size() == requests.size(); grants[i] is the output index granted to input i or -1.
  virtual void arbitrate(const std::vector<ArbRequest>& requests, const std::vector<ArbOutputStatus>& outputs,
                         std::vector<int>& grants) = 0;
  virtual const char* kind() const = 0;

  // Optional shortcut for the most common cycle: one valid request (input `in`, output VL `vl`)
  // with one candidate, whose output is free with `credits` on that VL. Returns what
  // arbitrate() would grant that input (output index or -1), with the same state change; the
  // other inputs have no request and the other outputs are busy. Arbiters that must see every
  // cycle's full vectors (the RTL) keep the default and are always called with arbitrate().
  virtual bool has_single() const { return false; }
  virtual int arbitrate_single(int in, ArbCandidate c, uint8_t vl, uint16_t length_credits, uint16_t credits) {
    (void)in, (void)c, (void)vl, (void)length_credits, (void)credits;
    return -1;
  }
  // The same shortcut for one request with n candidates (adaptive routing): candidate k is c[k],
  // its output free with credits[k] on `vl`. Called only when has_single().
  virtual int arbitrate_one(int in, const ArbCandidate* c, const uint16_t* credits, int n, uint8_t vl,
                            uint16_t length_credits) {
    (void)in, (void)c, (void)credits, (void)n, (void)vl, (void)length_credits;
    return -1;
  }
};

}  // namespace ibsc::models

namespace ibsc {
using models::ArbCandidate;
using models::ArbOutputStatus;
using models::ArbRequest;
using models::SwitchArbiter;
}  // namespace ibsc
