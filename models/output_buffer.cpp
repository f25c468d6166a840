#include "models/output_buffer.h"

#include <algorithm>

namespace ibsc::models {

void OutputBuffers::configure(int num_ports, int num_vls, int buffer_blocks, int link_reserve) {
  num_vls_ = num_vls;
  blocks_ = buffer_blocks;
  queues_ = link_reserve > 0 ? 2 : 1;
  link_reserve_ = link_reserve;
  const size_t n = static_cast<size_t>(num_ports + 1) * num_vls;
  q_.reset(new RingQueue<Buffered>[n * queues_]());
  credits_.reset(new CreditCounter[n]());
  vlarb_.reset(new VlArbiter[num_ports + 1]());
  link_busy_.reset(new Picos[num_ports + 1]());
  byte_ps_.reset(new Picos[num_ports + 1]());
  vls_held_.assign(num_ports + 1, 0);
  ready_.reset(new Picos[n * queues_]());
  ready_known_.assign(num_ports + 1, 0);
  port_ready_.reset(new Picos[num_ports + 1]());
  port_known_.assign(num_ports + 1, 0);
}

void OutputBuffers::connect(int port, int peer_buffer_blocks, Picos byte_ps, const VlArbParams& vlarb) {
  for (int v = 0; v < num_vls_; ++v) credits_[index(port, v)].reset(peer_buffer_blocks);
  vlarb_[port].configure(vlarb, num_vls_);
  byte_ps_[port] = byte_ps;
  forget_starts(port);
}

void OutputBuffers::push(int port, const Buffered& b) {
  const bool esc = queues_ == 2 && b.escape;
  RingQueue<Buffered>& q = q_[qindex(port, b.vl, esc)];
  if (q.empty()) {  // a new head
    ready_known_[port] &= ~ready_bit(b.vl, esc);
    port_known_[port] = 0;
  }
  q.push_back(b);
  vls_held_[port] |= static_cast<uint16_t>(1u << b.vl);
  ++total_;
}

Picos OutputBuffers::head_start(int port, int vl, Picos lower) const {
  const Picos a = queue_start(port, vl, false, lower);
  return queues_ == 1 ? a : std::min(a, queue_start(port, vl, true, lower));
}

Picos OutputBuffers::compute_ready(int port, int vl, bool escape) const {
  const RingQueue<Buffered>& q = q_[qindex(port, vl, escape)];
  if (q.empty()) return kNever;
  const Buffered& b = q.front();
  // The link reads byte e at start + e x byte time; the crossbar wrote it by in_start + (a line
  // no steeper than the link's), so the two ends bound it: the head is in, and the tail is in
  // by the time the link needs it. t is after the port's last send, so after every consume()
  // of its counters, as time_for asks.
  const Picos send_len = static_cast<Picos>(b.pkt->length) * byte_ps_[port];
  Picos t = std::max({link_busy_[port], b.in_start, b.in_end > send_len ? b.in_end - send_len : 0});
  const int need = static_cast<int>(b.pkt->blocks()) + (escape ? 0 : link_reserve_);
  return link_credits(port, vl).time_for(need, t);
}

Picos OutputBuffers::next_send(int port, Picos lower) const { return std::max(lower, port_ready(port)); }

bool OutputBuffers::send(int port, Picos t, LinkSend& out) {
  if (link_busy_[port] > t || port_ready(port) > t) return false;
  uint32_t mask = 0;
  for (unsigned m = vls_held_[port]; m; m &= m - 1)
    if (head_start(port, __builtin_ctz(m), t) == t) mask |= 1u << __builtin_ctz(m);
  if (mask == 0) return false;
  const int w = vlarb_[port].select(mask);
  if (w < 0) return false;
  bool esc = false;  // within the VL: the startable head that entered first (escape at a tie)
  if (queues_ == 2 && queue_start(port, w, true, t) == t)
    esc = queue_start(port, w, false, t) != t ||
          q_[qindex(port, w, true)].front().in_start <= q_[qindex(port, w, false)].front().in_start;
  RingQueue<Buffered>& q = q_[qindex(port, w, esc)];
  const Buffered b = q.front();
  const uint32_t len = b.pkt->length;
  if (!credits_[index(port, w)].consume(static_cast<int>(b.pkt->blocks()), t)) return false;  // head_start checked
  q.pop_front();
  if (queued(port, w) == 0) vls_held_[port] &= static_cast<uint16_t>(~(1u << w));
  --total_;
  vlarb_[port].charge(w, len);
  const Picos ps = byte_ps_[port];
  link_busy_[port] = t + len * ps;
  // VL w has a new head and fewer credits. The other VLs' heads now wait for the link as well:
  // their start is max(link busy, the old start), exactly, as their counters did not change.
  forget_starts(port, w);
  Picos* ready = &ready_[qindex(port, 0, false)];
  for (unsigned m = ready_known_[port]; m; m &= m - 1)
    ready[__builtin_ctz(m)] = std::max(ready[__builtin_ctz(m)], link_busy_[port]);
  out.pkt = b.pkt;
  out.start = t;
  // Each block is freed once it has left on the link (it is in the buffer by then, see above).
  out.freed = CreditTrain{t, ps, t, ps, len, static_cast<Vl>(w)};
  return true;
}

}  // namespace ibsc::models
