#include "models/switch.h"

#include <algorithm>
#include <stdexcept>

namespace ibsc::models {

void SwitchParams::validate() const {
  if (num_vls < 1 || num_vls > 15) throw std::invalid_argument("switch.num_vls must be 1..15");
  if (buffer_bytes_per_vl < 64 || buffer_bytes_per_vl % 64 != 0)
    throw std::invalid_argument("switch.buffer_bytes_per_vl must be a positive multiple of 64 (one credit)");
  if (!(routing_delay_ns >= 0.0)) throw std::invalid_argument("switch.routing_delay_ns must be >= 0");
  if (!(core_clock_ns > 0.0) || clock_ps() == 0) throw std::invalid_argument("switch.core_clock_ns must be > 0");
  if (crossbar_speedup < 1 || crossbar_speedup > 16) throw std::invalid_argument("switch.crossbar_speedup must be 1..16");
  for (const auto* t : {&vlarb.high, &vlarb.low})
    for (const VlArbEntry& e : *t)
      if (e.vl >= num_vls) throw std::invalid_argument("switch.vlarb: entry names VL " + std::to_string(e.vl) +
                                                       " but the switch has " + std::to_string(num_vls) + " data VLs");
  if (vlarb.limit_of_high_priority < 0 || vlarb.limit_of_high_priority > 255)
    throw std::invalid_argument("switch.vlarb.limit_of_high_priority must be 0..255");
}

Switch::Switch(sc_core::sc_module_name name, const SwitchParams& params, const routing::SwitchTables& tables,
               const std::vector<Picos>& byte_ps, SwitchArbiter& arbiter, FabricMonitor& monitor)
    : sc_module(name),
      rx("rx"),
      p_(params),
      tables_(tables),
      byte_ps_(byte_ps),
      arbiter_(arbiter),
      mon_(monitor),
      routing_ps_(params.routing_ps()),
      clock_ps_(params.clock_ps()) {
  rx.bind(*this);
  const int n = num_ports();
  tx.resize(n + 1);
  in_.resize(n + 1);
  out_.resize(n + 1);
  for (int port = 1; port <= n; ++port) {
    if (byte_ps_[port] == 0) continue;
    tx[port] = std::make_unique<sc_core::sc_port<LinkEndpoint>>(("tx_" + std::to_string(port)).c_str());
    in_[port].vl.resize(p_.num_vls);
    out_[port].credits.resize(p_.num_vls);
    for (auto& c : out_[port].credits) c.reset(p_.buffer_blocks());
    out_[port].vlarb.configure(p_.vlarb, p_.num_vls);
  }
  req_.resize(n);
  status_.resize(n);
  for (auto& s : status_) s.credits.assign(p_.num_vls, 0);
  grant_.assign(n, -1);
  req_vl_.assign(n + 1, -1);
  selected_vl_.assign(n + 1, -1);
  vl_mask_.assign(n + 1, 0);
  SC_METHOD(wake);
  sensitive << wake_event_;
  dont_initialize();
}

std::string Switch::where(int port, int vl) const {
  return std::string(name()) + " port " + std::to_string(port) + " VL " + std::to_string(vl);
}

Vl Switch::out_vl(int in_port, int out_port, const Packet& p) const {
  return tables_.sl2vl.get(in_port, out_port, p_.vl2vl ? p.vl : p.sl);
}

void Switch::packet_arrives(int port, Packet* pkt, Picos head_time) {
  if (pkt->vl >= p_.num_vls) throw FabricError(where(port, pkt->vl) + ": packet on a VL the switch does not have");
  InputVl& iv = in_[port].vl[pkt->vl];
  // Buffer overflow check at head arrival: blocks still held by draining packets, plus queued
  // packets, plus this one (virtual cut-through reserves the whole packet).
  while (!iv.draining.empty() && iv.draining.front().drain.last_time() <= now_ps()) iv.draining.pop_front();
  int held = iv.queued_blocks + static_cast<int>(pkt->blocks());
  for (const Draining& d : iv.draining) held += static_cast<int>(d.drain.blocks() - d.drain.freed_by(head_time));
  if (held > p_.buffer_blocks())
    throw FabricError(where(port, pkt->vl) + ": input buffer overflow (" + std::to_string(held) + " blocks of " +
                      std::to_string(p_.buffer_blocks()) + ")");
  if (!tables_.route(pkt->dlid, pkt->vl).routed())
    throw FabricError(std::string(name()) + ": LFT has no entry for DLID " + std::to_string(pkt->dlid));
  iv.q.push_back({pkt, head_time, head_time + routing_ps_});
  iv.queued_blocks += static_cast<int>(pkt->blocks());
  ++queued_packets_;
  if (iv.q.size() == 1) schedule_next(iv.q.front().ready);
}

void Switch::credits_arrive(int port, const CreditTrain& train) {
  out_[port].credits[train.vl].add(train, where(port, train.vl));
  // Somebody may be waiting for exactly these credits.
  if (queued_packets_ > 0) schedule_next(now_ps());
}

Picos Switch::earliest_grant(int i, const Queued& h, Picos lower) const {
  Picos t = std::max({lower, h.ready, in_[i].busy_until});
  const auto& entry = tables_.route(h.pkt->dlid, h.pkt->vl);
  Picos best = kNever;
  const int need = static_cast<int>(h.pkt->blocks());
  for (const auto& c : entry.candidates) {
    const OutputPort& o = out_[c.port];
    Picos to = std::max(t, o.busy_until);
    Picos tc = o.credits[out_vl(i, c.port, *h.pkt)].time_for(need, to);
    best = std::min(best, tc);
  }
  return best;
}

void Switch::schedule_next(Picos t_min) {
  // Never twice on one edge: a second arbitration in the same cycle would depend on the order
  // in which SystemC runs modules.
  Picos lower = std::max(t_min, now_ps());
  if (last_arbitration_ != kNever && lower <= last_arbitration_) lower = last_arbitration_ + 1;
  Picos best = p_.every_edge && queued_packets_ > 0 ? lower : kNever;
  for (int i = 1; i < static_cast<int>(in_.size()); ++i)
    for (const InputVl& iv : in_[i].vl)
      if (!iv.q.empty()) best = std::min(best, earliest_grant(i, iv.q.front(), lower));
  if (best != kNever) notify_at(wake_event_, clock_edge(best, clock_ps_));
}

void Switch::wake() {
  Picos t = now_ps();
  // Set first: granting calls back into this switch (credits from an HCA), and any wake-up
  // scheduled from there must fall on a later edge.
  ++mon_.switch_wakes;
  const bool stale = t == last_arbitration_;
  last_arbitration_ = t;
  if (!stale) arbitrate(t);
  if (queued_packets_ > 0) schedule_next(t + 1);
}

void Switch::arbitrate(Picos t) {
  const int n = num_ports();
  // 1. Which VLs request each free output (heads ready, input free, credits for the whole packet).
  std::fill(vl_mask_.begin(), vl_mask_.end(), 0u);
  for (int i = 1; i <= n; ++i) {
    if (in_[i].vl.empty() || in_[i].busy_until > t) continue;
    for (const InputVl& iv : in_[i].vl) {
      if (iv.q.empty() || iv.q.front().ready > t) continue;
      const Packet& pk = *iv.q.front().pkt;
      for (const auto& c : tables_.route(pk.dlid, pk.vl).candidates) {
        OutputPort& o = out_[c.port];
        Vl w = out_vl(i, c.port, pk);
        if (o.busy_until <= t && o.credits[w].available(t) >= static_cast<int>(pk.blocks())) vl_mask_[c.port] |= 1u << w;
      }
    }
  }
  // 2. Each output's VL arbiter picks the VL it serves this cycle.
  bool any = false;
  for (int o = 1; o <= n; ++o) {
    selected_vl_[o] = vl_mask_[o] ? out_[o].vlarb.select(vl_mask_[o]) : -1;
    any |= selected_vl_[o] >= 0;
  }
  if (!any) return;
  // 3. Each input offers one head (round-robin over its VLs) whose candidates match.
  bool any_request = false;
  for (int i = 1; i <= n; ++i) {
    ArbRequest& r = req_[i - 1];
    r.valid = false;
    r.candidates.clear();
    req_vl_[i] = -1;
    if (in_[i].vl.empty() || in_[i].busy_until > t) continue;
    for (int k = 0; k < p_.num_vls && !r.valid; ++k) {
      int v = (in_[i].rr_vl + k) % p_.num_vls;
      const InputVl& iv = in_[i].vl[v];
      if (iv.q.empty() || iv.q.front().ready > t) continue;
      const Packet& pk = *iv.q.front().pkt;
      for (const auto& c : tables_.route(pk.dlid, pk.vl).candidates) {
        Vl w = out_vl(i, c.port, pk);
        if (selected_vl_[c.port] != w) continue;
        if (!r.candidates.empty() && w != r.vl) continue;  // one output VL per request
        const OutputPort& o = out_[c.port];
        if (o.busy_until > t || o.credits[w].available(t) < static_cast<int>(pk.blocks())) continue;
        r.vl = w;
        r.candidates.push_back({static_cast<uint8_t>(c.port - 1), c.priority});
      }
      if (!r.candidates.empty()) {
        r.valid = true;
        r.length_credits = static_cast<uint16_t>(pk.blocks());
        req_vl_[i] = v;
        any_request = true;
      }
    }
  }
  if (!any_request) return;
  for (int o = 1; o <= n; ++o) {
    ArbOutputStatus& s = status_[o - 1];
    s.busy = out_[o].busy_until > t;
    if (out_[o].credits.empty()) {
      s.busy = true;
      continue;
    }
    for (int w = 0; w < p_.num_vls; ++w)
      s.credits[w] = static_cast<uint16_t>(std::min(out_[o].credits[w].available(t), 65535));
  }
  // 4. The switch arbiter matches inputs to outputs.
  std::fill(grant_.begin(), grant_.end(), -1);
  arbiter_.arbitrate(req_, status_, grant_);
  for (int i = 1; i <= n; ++i) {
    int g = grant_[i - 1];
    if (g < 0) continue;
    if (!req_[i - 1].valid) throw FabricError(std::string(name()) + ": arbiter granted an input without a request");
    grant(i, req_vl_[i], g + 1, req_[i - 1].vl, t);
  }
}

void Switch::grant(int i, int v, int o, Vl w, Picos t) {
  InputVl& iv = in_[i].vl[v];
  Queued h = iv.q.front();
  iv.q.pop_front();
  iv.queued_blocks -= static_cast<int>(h.pkt->blocks());
  --queued_packets_;
  Packet* pkt = h.pkt;
  const Picos len = pkt->length;
  const Picos in_ps = byte_ps_[i], out_ps = byte_ps_[o];
  OutputPort& op = out_[o];
  if (op.busy_until > t) throw FabricError(where(o, w) + ": arbiter granted a busy output");
  op.credits[w].consume(static_cast<int>(pkt->blocks()), t, where(o, w));
  op.vlarb.charge(w, pkt->length);
  // Start so that the tail is never needed before it has arrived (matters only when the output
  // link is faster than the input link).
  Picos tail_in = h.arrive + len * in_ps;
  Picos send = std::max(t, tail_in > len * out_ps ? tail_in - len * out_ps : 0);
  op.busy_until = send + len * out_ps;
  // Bytes leave the input buffer at crossbar speed, but never before they have arrived.
  CreditTrain drain{h.arrive, in_ps, send, out_ps / static_cast<Picos>(p_.crossbar_speedup), pkt->length, pkt->vl};
  in_[i].busy_until = drain.last_time();
  in_[i].rr_vl = (v + 1) % p_.num_vls;
  iv.draining.push_back({drain});
  // Credits go back to the upstream node over the reverse direction of input port i.
  (*tx[i])->credits_arrive(i, drain);
  pkt->vl = w;
  ++pkt->hops;
  ++mon_.hops;
  ++grants_;
  mon_.last_progress = t;
  (*tx[o])->packet_arrives(o, pkt, send);
}

std::vector<std::pair<int, int>> Switch::waits_of(int in_port, int vl, Picos now) const {
  std::vector<std::pair<int, int>> w;
  if (in_[in_port].vl.empty()) return w;
  const InputVl& iv = in_[in_port].vl[vl];
  if (iv.q.empty() || iv.q.front().ready > now) return w;
  const Packet& pk = *iv.q.front().pkt;
  for (const auto& c : tables_.route(pk.dlid, pk.vl).candidates) w.emplace_back(c.port, out_vl(in_port, c.port, pk));
  return w;
}

uint64_t Switch::head_packet_id(int in_port, int vl) const {
  if (in_[in_port].vl.empty()) return 0;
  const InputVl& iv = in_[in_port].vl[vl];
  return iv.q.empty() ? 0 : iv.q.front().pkt->id;
}

}  // namespace ibsc::models
