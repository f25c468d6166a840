// Crossbar of a switch: moves a granted packet from its input buffer to its output port.
//
// Inputs:     grant time t; when the packet's head arrived at the input; byte times of the input
//             and output cables; the packet's length and input VL.
// Outputs:    when the head leaves on the output link, when the output link is free again, and
//             the drain of the input buffer as a credit train (when each 64-byte block has both
//             arrived and left, i.e. the credits returned upstream).
// Parameters: speed-up (crossbar rate / output link rate, 1..16); inputs: one per input port
//             (default: an input port feeds one output at a time, busy until its packet has left
//             the buffer) or one per input VL (seeds/004: a port may feed several outputs at once
//             from different VLs, each VL's input busy until its own packet has left). The switch
//             keeps the busy times (per port in the port record, per VL the input buffer's drain);
//             the speed-up applies to every crossbar input alike.
// Choice:     with one input per VL the switch arbiter still grants a port at most one output per
//             core-clock cycle (its interface takes one request per input port); another VL of the
//             same port can be granted on a later edge while the first transfer runs.
// Timing:     the head leaves at t, later only if the input link is slower than the output link
//             and the output would otherwise run out of bytes before the tail has arrived; the
//             output link is busy for length x output byte time; bytes leave the input buffer at
//             crossbar speed (output byte time / speed-up) but never before they have arrived.
// Events:     none; a timing function the switch calls on each grant.
#pragma once
#include <algorithm>
#include <cstdint>

#include "models/link_protocol.h"

namespace ibsc::models {

struct CrossbarTransfer {
  Picos send = 0;      // head leaves on the output link
  Picos out_free = 0;  // output link free again: tail sent
  CreditTrain drain;   // blocks leaving the input buffer; drain.last_time(): the last one
};

class Crossbar {
 public:
  void configure(int speedup) { speedup_ = static_cast<Picos>(speedup); }
  int speedup() const { return static_cast<int>(speedup_); }

  // With output buffers the crossbar output feeds the output VL's buffer, not the link: bytes
  // move at crossbar rate from the grant at t on, never before they have arrived. The train says
  // when each block has left the input buffer (and entered the output buffer); its last_time()
  // is when the crossbar input and output are free again.
  CreditTrain transfer_to_buffer(Picos t, Picos arrive, Picos in_ps, Picos out_ps, uint32_t length, Vl in_vl) const {
    return CreditTrain{arrive, in_ps, t, drain_ps(out_ps), length, in_vl};
  }

  CrossbarTransfer transfer(Picos t, Picos arrive, Picos in_ps, Picos out_ps, uint32_t length, Vl in_vl) const {
    const Picos len = length;
    const Picos tail_in = arrive + len * in_ps;
    CrossbarTransfer x;
    x.send = std::max(t, tail_in > len * out_ps ? tail_in - len * out_ps : 0);
    x.out_free = x.send + len * out_ps;
    x.drain = CreditTrain{arrive, in_ps, x.send, drain_ps(out_ps), length, in_vl};
    return x;
  }

 private:
  // The crossbar's time per byte: the output's over the speedup, without a division (once per
  // packet-hop) at the usual speedup of 1.
  Picos drain_ps(Picos out_ps) const { return speedup_ == 1 ? out_ps : out_ps / speedup_; }
  Picos speedup_ = 1;
};

}  // namespace ibsc::models
