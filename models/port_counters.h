// Named counters of one switch, per port and VL, for finding where a design loses throughput.
// Off unless the switch is asked for them (Switch::enable_counters); then the switch feeds them
// at state changes only, never per cycle:
//   at each grant         grants (packets, bytes) of the output VL; the input VL's occupancy
//                         integral, by Little's law: the packet's blocks times the mean time
//                         a block of it stayed (from the head's arrival, when virtual cut-through
//                         reserves the whole packet, to the block's drain);
//   at each head arrival  the input VL's maximum occupancy (blocks held then, the new packet's
//                         reservation included);
//   at each visit         the wait of every routed head since the previous visit, split
//                         analytically (between visits the output's busy time is fixed and
//                         credits only come back):
//       credit stall      (output VL) the output was free but the head lacked the credits
//                         for its whole packet;
//       output-busy stall (output VL) credits were there but the output (link, or crossbar
//                         output with output buffers) was still sending another packet;
//       head wait         (input VL) all of the wait: beyond the two stalls, the time both
//                         held the head back (output busy and credits short), arbitration
//                         lost to another input or VL, and the wait for the next clock edge;
//       HOL-blocked       (input VL) the wait while a packet queued behind the head at the
//                         visit is bound for another output port (a queue per output would
//                         not hold it back).
//   A head's wait runs from max(routed, its input's crossbar free) and is charged to its first
//   candidate output (the only one under deterministic routing). Stall times are summed over
//   the heads waiting on an output VL: divided by the window, the mean number of heads
//   stalled on it (two inputs waiting the whole window for one output count 2 x the window).
// Times are picoseconds; occupancy in bytes (64-byte blocks, as credits count them).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/sim_time.h"

namespace ibsc::models {

struct PortVlCounters {
  // Output side (the port and VL a packet leaves on).
  uint64_t grant_packets = 0;
  uint64_t grant_bytes = 0;
  Picos credit_stall_ps = 0;
  Picos output_busy_stall_ps = 0;
  uint64_t fecn = 0;  // packets marked with FECN on leaving (congestion control on)
  // Input side (the port and VL a packet arrived on).
  Picos head_wait_ps = 0;
  Picos hol_blocked_ps = 0;
  double occupancy_byte_ps = 0;  // integral of bytes held over time
  uint32_t max_occupancy_bytes = 0;
};

class PortCounters {
 public:
  PortCounters(int num_ports, int num_vls) : num_vls_(num_vls), c_(static_cast<size_t>(num_ports + 1) * num_vls) {}
  PortVlCounters& at(int port, int vl) { return c_[static_cast<size_t>(port) * num_vls_ + vl]; }
  const PortVlCounters& at(int port, int vl) const { return c_[static_cast<size_t>(port) * num_vls_ + vl]; }
  int num_vls() const { return num_vls_; }
  // Zero everything; waits are counted from `t` on (the start of a measuring window).
  void reset(Picos t) {
    std::fill(c_.begin(), c_.end(), PortVlCounters{});
    since_ = t;
  }
  Picos since() const { return since_; }
  void set_since(Picos t) { since_ = t; }

 private:
  int num_vls_;
  std::vector<PortVlCounters> c_;  // [port * num_vls + vl]; port 0 unused
  Picos since_ = 0;                // waits are counted up to here
};

}  // namespace ibsc::models
