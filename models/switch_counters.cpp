// The switch's named counters per port and VL (run.port_counters; definitions in
// port_counters.h): kept at visits, grants and arrivals, never per cycle. Split from switch.cpp,
// which wires the parts; these are the hooks it calls when counters are on.
#include <algorithm>

#include "models/switch.h"

namespace ibsc::models {

void Switch::enable_counters() {
  ctr_ = std::make_unique<PortCounters>(num_ports_, num_vls_);
  counting_ = true;
}

// Between two visits the output's busy-until time is fixed (only grants change it) and its
// credits only come back (trains already known), so each head's wait since the last visit
// splits exactly into credit stall, output-busy stall and the rest (port_counters.h).
void Switch::account_waits(Picos t) {
  if (!ctr_ || t <= ctr_->since()) return;
  const Picos a0 = ctr_->since();
  for (int i : active_)
    for (unsigned m = port_[i].in.heads; m; m &= m - 1) {
      const InputVl& iv = in_.at(i, __builtin_ctz(m));
      const Queued& h = iv.head;
      const Picos a = std::max({a0, h.ready, xbar_busy(i, iv)});
      if (a >= t) continue;
      PortVlCounters& in = ctr_->at(i, in_.vl_of(__builtin_ctz(m)));
      in.head_wait_ps += t - a;
      for (size_t k = 0; k < iv.behind.size(); ++k)
        if (iv.behind[k].first.port != h.first.port) {
          in.hol_blocked_ps += t - a;
          break;
        }
      const WaitSplit ws = split_wait(i, h, a, t);
      PortVlCounters& out = ctr_->at(ws.out_port, ws.out_vl);
      out.credit_stall_ps += ws.credit;
      out.output_busy_stall_ps += ws.busy;
    }
  ctr_->set_since(t);
}

Switch::WaitSplit Switch::split_wait(int i, const Queued& h, Picos a, Picos t) const {
  const routing::PortCandidate* c = cand_first(h);
  const Vl w = out_vl(i, c, h);
  const Picos busy_end = std::min(t, std::max(a, port_[c->port].out.busy));
  const Picos credits_ok = std::min(t, out_.credits(c->port, w).time_for(need_for(c, static_cast<int>(h.blocks)), a));
  // Output free and credits short: [busy_end, credits_ok]; output busy with credits there:
  // [credits_ok, busy_end]; at most one of the two is not empty.
  return {credits_ok > busy_end ? credits_ok - busy_end : 0, busy_end > credits_ok ? busy_end - credits_ok : 0, c->port,
          w};
}

int Switch::head_stall(int in_port, int vl, Picos t) const {
  if (!connected(in_port)) return 0;
  const InputVl& iv = in_.at(in_port, vl);
  if (!iv.head.pkt || iv.head.ready > t || xbar_busy(in_port, iv) > t) return 0;
  const WaitSplit ws = split_wait(in_port, iv.head, t, t + 1);
  if (ws.credit > 0) return 1;
  if (ws.busy > 0) return 2;
  // Neither alone: both (output busy, credits short), or nothing but the arbitration.
  return port_[ws.out_port].out.busy > t ? 3 : 4;
}

void Switch::count_grant(int i, int v, int o, Vl w, const Queued& h, const CreditTrain& drain) {
  PortVlCounters& out = ctr_->at(o, w);
  ++out.grant_packets;
  out.grant_bytes += h.pkt->length;
  // Little's law: the packet's blocks, each held from the head's arrival to its own drain.
  const Picos arrived = h.ready - routing_ps_;
  const double mean_drain = 0.5 * (static_cast<double>(drain.block_time(0)) + static_cast<double>(drain.last_time()));
  ctr_->at(i, in_.vl_of(v)).occupancy_byte_ps += h.blocks * 64.0 * (mean_drain - static_cast<double>(arrived));
}

void Switch::count_arrival(int port, int vl, Picos head_time) {
  PortVlCounters& in = ctr_->at(port, vl);
  const auto bytes = static_cast<uint32_t>(in_.occupancy_blocks(port, vl, head_time, routing_ps_) * 64);
  in.max_occupancy_bytes = std::max(in.max_occupancy_bytes, bytes);
}

}  // namespace ibsc::models
