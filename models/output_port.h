// Output ports of a switch: per output port and VL a credit counter mirroring the downstream VL
// buffer, per output port a VL arbiter and the time its link is busy until; for all ports of one
// switch.
//
// Inputs:     request (a head that could go now asks for output VL w), select_vl (once per
//             arbitrated cycle: the VL arbiter picks the VL it serves), start (a granted packet:
//             takes its credits, charges the VL arbiter), credits returned by the downstream node.
// Outputs:    credits available per VL at any time, the VL served this cycle, busy-until time.
// Parameters: VLs per port; downstream buffer per VL in 64-byte blocks; VL arbitration (round-
//             robin or IBA VLArb tables, see vl_arbiter.h).
// Checks:     a counter never goes below zero (start returns false) nor above its buffer
//             (CreditCounter::add returns false); the switch turns both into errors.
// Events:     none; the switch calls it.
// Layout:     the credit counters, a cache line each, port-major in one array; the VL arbiters
//             in another; the scalars one visit reads are an OutputPortState, 48 bytes of the
//             switch's one-line port record, which the switch passes in.
#pragma once
#include <cstdint>
#include <memory>

#include "models/credit_counter.h"
#include "models/link.h"
#include "models/vl_arbiter.h"

namespace ibsc::models {

// What the switch's port record holds for the output side of a port (and its cable).
struct OutputPortState {
  Picos busy = 0;           // until its current packet is sent
  TxLink tx;                // the outgoing link (data out, and credits for the input side back)
  uint32_t byte_ps = 0;     // of the cable; 0 = unconnected (at most 4.29 ms a byte)
  uint16_t vl_mask = 0;     // VLs requesting it this cycle
  int8_t selected_vl = -1;  // VL its VL arbiter chose this cycle
};
static_assert(sizeof(OutputPortState) == 48, "three quarters of the port's cache line");

class OutputPorts {
 public:
  // Ports are numbered 1..num_ports (0 unused). Counters start empty until connect().
  void configure(int num_ports, int num_vls);
  // A port with a cable: its counters start full with the downstream buffer.
  void connect(int port, int peer_buffer_blocks, const VlArbParams& vlarb);

  CreditCounter& credits(int port, int vl) { return credits_[index(port, vl)]; }
  const CreditCounter& credits(int port, int vl) const { return credits_[index(port, vl)]; }
  const VlArbiter& vl_arbiter(int port) const { return vlarb_[port]; }  // for prefetch hints

  // A head asks for VL w of this output this cycle; true for the output's first request.
  static bool request(OutputPortState& o, Vl w) {
    const bool first = o.vl_mask == 0;
    o.vl_mask |= static_cast<uint16_t>(1u << w);
    return first;
  }
  // The VL arbiter of `port` picks the VL served this cycle among the requests, which it clears.
  void select_vl(OutputPortState& o, int port) {
    o.selected_vl = static_cast<int8_t>(vlarb_[port].select(o.vl_mask));
    o.vl_mask = 0;
  }
  // A packet of `blocks` credits and `bytes` granted on (port, w) at t: takes its credits and
  // charges the VL arbiter. False (nothing taken) when the counter would go negative. The
  // caller sets o.busy from the crossbar's timing.
  __attribute__((always_inline)) bool start(int port, Vl w, int blocks, uint32_t bytes, Picos t) {
    if (!credits_[index(port, w)].consume(blocks, t)) return false;
    vlarb_[port].charge(w, bytes);
    return true;
  }

 private:
  size_t index(int port, int vl) const { return static_cast<size_t>(port) * num_vls_ + vl; }
  std::unique_ptr<CreditCounter[]> credits_;  // [port * num_vls + vl]
  std::unique_ptr<VlArbiter[]> vlarb_;        // [port]
  int num_vls_ = 1;
};

}  // namespace ibsc::models
