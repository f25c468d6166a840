// The link protocol, defined once: what crosses a cable in each direction.
//   forward:  a data packet, announced when its head starts to arrive;
//   backward: credits, one per 64-byte block freed in the receiver's VL buffer.
// Credits for one packet travel as a CreditTrain: block k is freed when its last byte has both
// arrived and left the buffer, i.e. at max(a_in + e_k * in_ps, a_out + e_k * out_ps) where e_k is
// the end byte of block k. That is exact per block and costs one call per packet, not per block.
#pragma once
#include <systemc>

#include <algorithm>
#include <cstdint>

#include "models/packet.h"
#include "models/sim_time.h"

namespace ibsc::models {

struct CreditTrain {
  Picos a_in = 0;    // time byte 0 starts to arrive (plus return fly time)
  Picos in_ps = 0;   // picoseconds per byte arriving
  Picos a_out = 0;   // time byte 0 starts to leave the buffer (plus return fly time)
  Picos out_ps = 0;  // picoseconds per byte leaving
  uint32_t length = 0;
  Vl vl = 0;

  uint32_t blocks() const { return (length + kCreditBytes - 1) / kCreditBytes; }
  // Time the k-th block (0-based) is freed.
  Picos block_time(uint32_t k) const {
    Picos e = std::min<Picos>(Picos(k + 1) * kCreditBytes, length);
    return std::max(a_in + e * in_ps, a_out + e * out_ps);
  }
  // Blocks freed at or before t.
  uint32_t freed_by(Picos t) const {
    if (t < a_in || t < a_out) return 0;
    // One division when one side is the later for every byte (the usual case: equal rates).
    Picos bytes = a_out >= a_in && out_ps >= in_ps   ? (t - a_out) / out_ps
                  : a_in >= a_out && in_ps >= out_ps ? (t - a_in) / in_ps
                                                     : std::min((t - a_in) / in_ps, (t - a_out) / out_ps);
    if (bytes >= length) return blocks();
    return static_cast<uint32_t>(bytes / kCreditBytes);
  }
  // Time the last block is freed: block_time(blocks() - 1), whose end byte is the length.
  Picos last_time() const { return std::max(a_in + length * in_ps, a_out + length * out_ps); }
  CreditTrain delayed(Picos d) const {
    CreditTrain c = *this;
    c.a_in += d;
    c.a_out += d;
    return c;
  }
};

// Implemented by whatever sits at the end of a link: a Link (adds fly time) or a switch/HCA port.
class LinkEndpoint : public virtual sc_core::sc_interface {
 public:
  // The head of `pkt` starts to arrive on `port` at head_time (>= now); bytes follow at link rate.
  virtual void packet_arrives(int port, Packet* pkt, Picos head_time) = 0;
  // Credits for blocks freed downstream; they arrive at the times the train gives.
  virtual void credits_arrive(int port, const CreditTrain& train) = 0;
  // Prefetch hints (the scheduler's, Wakeable::prefetch): the lines packet_arrives(port, pkt) or
  // credits on (port, vl) will read first. They change nothing; the default does nothing.
  virtual void prefetch_arrival(int /*port*/, const Packet* /*pkt*/) const {}
  virtual void prefetch_credits(int /*port*/, int /*vl*/) const {}
};

}  // namespace ibsc::models
