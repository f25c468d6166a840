// The switch's side of the scheduler's staged prefetching (models/scheduler.h, WakeHints): what
// a wake-up's hints, a neighbour's send and its credits will read here, asked for ahead. Only
// large fabrics prefetch; split from switch.cpp, which wires the parts and moves packets.
#include "models/switch.h"

namespace ibsc::models {

// Stage 2: the link counters and far ends (upstream for the credits, downstream for the packet)
// of the head the hints name, and its packet; stage 3: what those far ends will read.
void Switch::prefetch(const WakeHints& h, int stage) const {
  const auto* in = static_cast<const Port*>(h.line[1]);
  const auto* iv = static_cast<const InputVl*>(h.line[2]);
  const auto* out = static_cast<const Port*>(h.line[3]);
  if (!in || !iv || !out) return;
  const Packet* pkt = iv->head.pkt;
  if (stage == 2) {
    in->out.tx.prefetch_ends();
    out->out.tx.prefetch_ends();
    if (pkt) __builtin_prefetch(pkt);
  } else if (pkt) {
    in->out.tx.prefetch_credits(pkt->vl);
    out->out.tx.prefetch_arrival(pkt);
  }
}

void Switch::prefetch_arrival(int port, const Packet* pkt) const {
  if (port < 1 || port > num_ports_ || pkt->vl >= num_vls_) return;
  __builtin_prefetch(&port_[port]);
  __builtin_prefetch(&in_.at(port, pkt->vl));
  if (column_) return;  // its look-up would wait for a miss of its own
  const uint32_t r = route_index(*pkt);
  if (r != kNoRoute) __builtin_prefetch(&routes_[r]);
}

void Switch::prefetch_credits(int port, int vl) const {
  if (port >= 1 && port <= num_ports_ && vl < num_vls_) __builtin_prefetch(&out_.credits(port, vl));
}

}  // namespace ibsc::models
