// Injection control of one connection at the source NIC (seeds/003 section 3.3). Plain C++,
// no SystemC: the transport asks it before handing a packet to the HCA's injection queue.
//   UI (unlimited injection): every packet may go as soon as it is ready.
//   LI (limited injection): entered on a NACK (policies li and lw). li: one packet may go per
//     packet newly ACKed (the ACK's count of freed packets becomes send tokens). lw: as many
//     packets may be outstanding as their bytes fit into the destination's static buffer.
//     Back to UI when an ACK covers every packet rejected so far.
//   immediate: never leaves UI (the re-send goes at once).
//   Liveness: in LI the oldest unACKed packet may always go. It is the one the destination
//   expects, so it is never rejected; and without it no ACK could come to release anything
//   (its NACK may overtake, or follow, the ACK of the packet before it, whose token may then
//   have gone to a newer packet).
#pragma once
#include <cstdint>

#include "models/transport_params.h"

namespace ibsc::models {

class InjectionControl {
 public:
  enum class State { UI, LI };
  InjectionControl(InjectionPolicy policy, uint64_t window_bytes) : policy_(policy), window_(window_bytes) {}

  // May a packet of `bytes` go now, with `in_flight_bytes` of this connection sent and neither
  // ACKed nor NACKed yet? `oldest`: it is the oldest unACKed packet.
  bool may_send(uint64_t bytes, uint64_t in_flight_bytes, bool oldest) const {
    if (state_ == State::UI || oldest) return true;
    if (policy_ == InjectionPolicy::LimitedWindow) return in_flight_bytes + bytes <= window_;
    return tokens_ > 0;
  }
  void sent() {
    if (state_ == State::LI && tokens_ > 0) --tokens_;
  }
  // A NACK for sequence number `seq`.
  void nacked(uint64_t seq) {
    if (policy_ == InjectionPolicy::Immediate) return;
    if (state_ == State::UI) {
      tokens_ = 0;
      ++to_li_;
    }
    state_ = State::LI;
    if (seq + 1 > rejected_end_) rejected_end_ = seq + 1;
  }
  // An ACK for every packet up to `seq`, of which `newly` were not ACKed before.
  void acked(uint64_t seq, uint64_t newly) {
    if (state_ == State::UI) return;
    if (seq + 1 >= rejected_end_) {
      state_ = State::UI;
      tokens_ = 0;
    } else {
      tokens_ += newly;
    }
  }
  State state() const { return state_; }
  uint64_t tokens() const { return tokens_; }
  uint64_t transitions_to_li() const { return to_li_; }

 private:
  InjectionPolicy policy_;
  State state_ = State::UI;    // next to the policy: what a send in UI reads, in one word
  uint64_t window_;            // lw: the destination's static buffer per connection, bytes
  uint64_t tokens_ = 0;        // li: packets that may go in LI
  uint64_t rejected_end_ = 0;  // one past the highest sequence number ever rejected
  uint64_t to_li_ = 0;
};

}  // namespace ibsc::models
