// The HCA's congestion control (IBA A10, models/congestion_control.h): the destination's CNP and
// the source's per-flow injection delay. Only reached when enable_cc() turned it on.
#include <algorithm>
#include <string>

#include "models/hca.h"

namespace ibsc::models {

void Hca::enable_cc(const CcParams& p) {
  if (!p.enabled) return;
  p.validate();
  if (single_queue_)
    throw FabricError(std::string(name()) + ": congestion control does not go with one injection queue per HCA");
  cc_per_sl_ = p.flow == CcFlow::Sl;
  cc_ = std::make_unique<CcSource>(p, cc_per_sl_ ? kNumSls : static_cast<int>(tables_.hosts.size()));
  cnp_bytes_ = p.cnp_bytes;
  cnp_sl_ = p.cnp_sl;
  cc_on_ = true;
}

bool Hca::cc_arrival(Packet* p, Picos t) {
  if (p->cc & kCcCnp) {
    // The BECN: the CNP's source is the destination of the flow it names.
    cc_->becn(cc_per_sl_ ? static_cast<int>(p->seq) : static_cast<int>(p->src_host), t);
    mon_.pool.put(p);
    return true;
  }
  if (p->cc & kCcFecn) {
    ++cc_->counts().fecn_received;
    send_cnp(*p, t);
  }
  return false;
}

void Hca::send_cnp(const Packet& data, Picos t) {
  Packet* c = mon_.pool.get();
  c->id = mon_.generated++;
  c->src_host = static_cast<uint32_t>(host_);
  c->dst_host = data.src_host;
  c->flow = flow_base_ + data.src_host;  // its own flow, the reverse pair
  c->seq = data.sl;                      // the SL it reports, for SL-level control
  c->length = cnp_bytes_;
  c->gen_time = t;
  c->cc = kCcCnp;
  address(*c);
  if (cnp_sl_ >= 0) {
    c->sl = static_cast<Sl>(cnp_sl_);
    c->vl = me_.sl2vl[cnp_sl_];
  }
  ++cc_->counts().cnp_sent;
  enqueue(c);
}

int Hca::cc_pick(int v, Picos t) const {
  const RingQueue<Packet*>& q = queues_[v];
  const size_t n = std::min<size_t>(q.size(), kCcLookahead);
  int held[kCcLookahead];  // flows passed over: their later packets wait too
  size_t nheld = 0;
  for (size_t j = 0; j < n; ++j) {
    const Packet& p = *q[j];
    const int f = cc_flow(p);
    if (std::find(held, held + nheld, f) != held + nheld) continue;
    if ((f < 0 || cc_->allowed(f) <= t) && credits_[v].available(t) >= static_cast<int>(p.blocks()))
      return static_cast<int>(j);
    held[nheld++] = f;
  }
  return -1;
}

void Hca::inject_cc(Picos t) {
  int pick[kMaxDataVls];
  uint32_t ready = 0;
  for (int v = 0; v < num_vls_; ++v) {
    pick[v] = queues_[v].empty() ? -1 : cc_pick(v, t);
    if (pick[v] >= 0) ready |= 1u << v;
  }
  const int v = vlarb_.select(ready);
  if (v < 0) return;
  Packet* p = queues_[v][static_cast<size_t>(pick[v])];
  queues_[v].erase_at(static_cast<size_t>(pick[v]));
  --queued_;
  if (!credits_[v].consume(static_cast<int>(p->blocks()), t))
    throw CreditError(std::string(name()) + " VL " + std::to_string(v) + ": credit counter would go negative");
  const Picos wire = static_cast<Picos>(p->length) * byte_ps_;
  link_busy_until_ = t + wire;
  vlarb_.charge(v, p->length);
  const int f = cc_flow(*p);
  if (f >= 0) cc_->sent(f, t, wire);
  ++mon_.injected;
  mon_.last_progress = t;
  link_.packet_arrives(1, p, t);
}

// Per VL, each flow's first packet among the first kCcLookahead: the earliest time its delay has
// passed and its credits are back. cc_pick() sends at that time the first such packet.
Picos Hca::earliest_injection_cc(Picos now) const {
  const Picos free_at = std::max(now, link_busy_until_);
  Picos best = kNever;
  for (int v = 0; v < num_vls_; ++v) {
    const RingQueue<Packet*>& q = queues_[v];
    const size_t n = std::min<size_t>(q.size(), kCcLookahead);
    int seen[kCcLookahead];
    size_t nseen = 0;
    for (size_t j = 0; j < n; ++j) {
      const Packet& p = *q[j];
      const int f = cc_flow(p);
      if (std::find(seen, seen + nseen, f) != seen + nseen) continue;
      seen[nseen++] = f;
      const Picos from = f < 0 ? free_at : std::max(free_at, cc_->allowed(f));
      best = std::min(best, credits_[v].time_for(static_cast<int>(p.blocks()), from));
    }
  }
  return best;
}

}  // namespace ibsc::models
