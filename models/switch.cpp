#include "models/switch.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <stdexcept>

#include "models/adaptive_arbiter.h"

namespace ibsc::models {

std::vector<Switch::Eligible> Switch::eligible_;
std::vector<int> Switch::touched_;
std::vector<ArbCandidate> Switch::head_cands_;
std::vector<uint16_t> Switch::head_credits_;

Switch::ArbScratch::ArbScratch(int ports, int vls)
    : req(static_cast<size_t>(ports)),
      status(static_cast<size_t>(ports)),
      grant(static_cast<size_t>(ports), -1),
      req_vl(static_cast<size_t>(ports) + 1, -1),
      inputs(static_cast<size_t>(ports)) {
  for (auto& r : req) r.candidates.reserve(4);
  for (auto& s : status) {
    s.busy = true;
    s.credits.assign(static_cast<size_t>(vls), 0);
  }
}

Switch::ArbScratch& Switch::shared_scratch(int ports, int vls) {
  // A fabric has a few switch sizes; simulation is single-threaded, as eligible_ assumes.
  static std::map<std::pair<int, int>, std::unique_ptr<ArbScratch>> by_size;
  auto& s = by_size[{ports, vls}];
  if (!s) s = std::make_unique<ArbScratch>(ports, vls);
  return *s;
}

Switch::Switch(sc_core::sc_module_name name, const SwitchParams& params, const routing::SwitchTables& tables,
               const std::vector<Picos>& byte_ps, SwitchArbiter& arbiter, FabricMonitor& monitor, Scheduler& sched)
    : sc_module(name),
      num_vls_(params.num_vls),
      queues_(params.escape_queue_bytes > 0 ? 2 * params.num_vls : params.num_vls),
      reserve_(params.escape_blocks()),
      wake_(sched, *this),
      routing_ps_(params.routing_ps()),
      clock_ps_(params.clock_ps()),
      every_edge_(params.every_edge),
      xbar_per_vl_(params.crossbar_inputs == CrossbarInputs::Vl),
      obuf_(params.output_buffer_bytes_per_vl > 0),
      escape_(params.escape_queue_bytes > 0),
      fifo_(params.output_request_queue != OutputRequestQueue::Off),
      fifo_head_(params.output_request_queue == OutputRequestQueue::FifoHead),
      fallback_on_credits_(params.ar_fallback == ArFallback::Credits),
      arbiter_single_(arbiter.has_single()),
      lone_path_(arbiter_single_ && !obuf_),
      mon_(monitor),
      arbiter_(arbiter),
      model_arbiter_(AdaptiveArbiter::of(arbiter)),
      p_(params),
      tables_(tables),
      rx("rx") {
  rx.bind(*this);
  if (byte_ps.empty()) throw std::invalid_argument(std::string(sc_module::name()) + ": no ports");
  num_ports_ = static_cast<int>(byte_ps.size()) - 1;
  port_.reset(new Port[byte_ps.size()]());
  for (size_t port = 0; port < byte_ps.size(); ++port) {
    if (byte_ps[port] > UINT32_MAX)
      throw std::invalid_argument(std::string(sc_module::name()) + ": byte time of port " + std::to_string(port) +
                                  " above 4.29 ms");
    port_[port].out.byte_ps = static_cast<uint32_t>(byte_ps[port]);
  }
  per_vl_lft_ = tables.per_vl();
  if (per_vl_lft_ ? !tables.vl_pool || !shared_routes(tables) : !lft_in_place(tables)) flatten_routes(tables);
  sl2vl_.configure(tables.sl2vl);
  configure_parts();
}

// Ports, the parts and the per-cycle scratch.
void Switch::configure_parts() {
  const int n = num_ports();
  tx.resize(n + 1);
  for (int port = 1; port <= n; ++port)
    if (connected(port))
      tx[port] = std::make_unique<sc_core::sc_port<LinkEndpoint>>(("tx_" + std::to_string(port)).c_str());
  // The parts; per-cycle scratch is sized here.
  in_.configure(n, p_.num_vls, p_.buffer_blocks(), p_.escape_blocks());
  out_.configure(n, p_.num_vls);
  // With output buffers the crossbar side's counters are the output buffers' free space; the
  // link credits (the downstream input buffers) move to the output buffers' part.
  if (obuf_) {
    ob_ = std::make_unique<OutputBuffers>();
    ob_->configure(n, p_.num_vls, p_.output_buffer_blocks(), p_.escape_blocks());
  }
  for (int port = 1; port <= n; ++port)
    if (connected(port)) {
      out_.connect(port, obuf_ ? p_.output_buffer_blocks() : p_.buffer_blocks(), p_.vlarb);
      if (obuf_) ob_->connect(port, p_.buffer_blocks(), port_[port].out.byte_ps, p_.vlarb);
    }
  xbar_.configure(p_.crossbar_speedup);
  if (fifo_) {
    rq_ = std::make_unique<OutputRequestQueues>();
    rq_->configure(n, p_.output_request_queue);
  }
  // The model's shortcuts skip its argument checks: only for a model built for these ports and VLs.
  if (model_arbiter_ && (model_arbiter_->num_ports() != n || model_arbiter_->num_vls() < p_.num_vls))
    model_arbiter_ = nullptr;
  if (model_arbiter_) {
    arb_ = &shared_scratch(n, p_.num_vls);
  } else {
    own_scratch_ = std::make_unique<ArbScratch>(n, p_.num_vls);
    arb_ = own_scratch_.get();
  }
  rec_.resize(n + 1);
  active_.reserve(n + 1);
  touched_.reserve(std::max<size_t>(touched_.capacity(), n + 1));
  grants_now_.reserve(n + 1);
  eligible_.reserve(std::max<size_t>(eligible_.capacity(), static_cast<size_t>(n) * p_.num_vls * 2));
}

void Switch::end_of_elaboration() {
  hinting_ = wake_.prefetching();
  // sc_port's operator-> checks the binding on every call and sits behind a pointer per port.
  for (size_t port = 1; port < tx.size(); ++port)
    if (tx[port]) port_[port].out.tx.bind(tx[port]->operator->());
}

std::string Switch::where(int port, int vl) const {
  return std::string(name()) + " port " + std::to_string(port) + " VL " + std::to_string(vl);
}

void Switch::refuse_route(const Packet& pkt, uint32_t route) const {
  const routing::LftEntry& e = tables_.route(pkt.dlid, pkt.vl);
  // (In place, the switch's own LID is refused before its entry, which names port 0, is read.)
  if (route != kNoRoute || (!per_vl_lft_ && pkt.dlid < lids_))
    for (const auto& c : e.candidates)
      if (c.port < 1 || c.port > num_ports() || !connected(c.port))
        throw FabricError(std::string(name()) + ": LFT entry for DLID " + std::to_string(pkt.dlid) + " names port " +
                          std::to_string(c.port) + ", which has no cable");
  throw FabricError(std::string(name()) + ": LFT has no entry for DLID " + std::to_string(pkt.dlid));
}

void Switch::packet_arrives(int port, Packet* pkt, Picos head_time) {
  if (pkt->vl >= num_vls_) throw FabricError(where(port, pkt->vl) + ": packet on a VL the switch does not have");
  const int blocks = static_cast<int>(pkt->blocks());
  int q_index = pkt->vl, held;
  InputPortState& ps = port_[port].in;
  if (__builtin_expect(escape_, 0)) q_index = in_.admit_queue(ps, port, pkt->vl, blocks, head_time, held);
  else held = in_.held_with(in_.at(port, pkt->vl), blocks, head_time);
  InputVl& iv = in_.at(port, q_index);
  if (held > in_.capacity_blocks())
    throw FabricError(where(port, pkt->vl) + ": input buffer overflow (" + std::to_string(held) + " blocks of " +
                      std::to_string(in_.capacity_blocks()) + ")");
  const uint32_t route = route_index(*pkt);
  if (route == kNoRoute || routes_[route].count == 0) refuse_route(*pkt, route);
  const Route& r = routes_[route];
  const uint8_t key = sl2vl_.key(*pkt);
  const Vl first_vl = sl2vl_(port, r.first.port, key);
  if (first_vl >= num_vls_)
    throw FabricError(where(port, pkt->vl) + ": SL2VL maps the packet onto VL " + std::to_string(first_vl) +
                      ", which the switch does not have");
  if (__builtin_expect(cc_on_, 0)) cc_->arrive(r.first.port, first_vl, blocks);
  ++queued_packets_;
  if (ps.queued == 0) active_.push_back(port);
  // A new head: only its own earliest grant can be earlier than the wake-up already pending
  // (which covers every other head).
  bool new_head;
  Queued& q = in_.emplace(ps, q_index, iv, static_cast<uint32_t>(blocks), new_head);
  q.pkt = pkt;
  q.ready = head_time + routing_ps_;
  // Where the candidates start, kept with the head so that its scans skip the table.
  q.cand_at = r.count > 1 ? route_begin_[route] : 0;
  q.blocks = static_cast<uint32_t>(blocks);
  q.sl2vl_key = key;
  q.first_vl = first_vl;
  q.first = r.first;
  q.count = r.count;
  if (__builtin_expect(counting_, 0)) count_arrival(port, pkt->vl, head_time);
  if (__builtin_expect(fifo_, 0) && new_head) request_head(port, q_index, iv, now_ps());
  if (new_head) wake_for(port, iv);
}

void Switch::credits_arrive(int port, const CreditTrain& train) {
  if (__builtin_expect(obuf_, 0)) return link_credits_arrive(port, train);
  space_returns(port, train);
}

inline void Switch::space_returns(int port, const CreditTrain& train) {
  CreditCounter& cc = out_.credits(port, train.vl);
  if (!cc.add(train))
    throw CreditError(where(port, train.vl) + ": more credits returned than taken (counter above its buffer)");
  // Only heads that wait for this channel's credits can be helped by them; the scan re-marks
  // the ones that still wait. Credits returned while the switch arbitrates (an HCA's, at once)
  // wake no head: the scan closing the wake-up sees them, and every later grant of it too.
  if (!cc.take_waited_on() || in_wake_) return;
  for (int i : active_)
    for (unsigned m = port_[i].in.heads; m; m &= m - 1) {
      const InputVl& iv = in_.at(i, __builtin_ctz(m));
      const Queued& h = iv.head;
      for (auto c = cand_first(h), end = c + h.count; c != end; ++c)
        if (c->port == port) {
          wake_for(i, iv);
          break;
        }
    }
}

void Switch::wake_for(int i, const InputVl& iv) {
  // The head cannot go before it is routed, so a wake-up already pending by then covers it: no
  // time to compute, and at() would ignore it. (Its credit counters are not marked waited-on
  // then; that wake-up's schedule_next() marks them if the head still waits.)
  if (wake_.pending() <= iv.head.ready) return;
  Picos lower = now_ps();
  if (last_arbitration_ != kNever && lower <= last_arbitration_) lower = last_arbitration_ + 1;
  Picos t = earliest_grant(i, iv, lower);
  if (t == kNever) return;
  if (hinting_) wake_.at(clock_edge(t, clock_ps_), hints(i, iv));
  else wake_.at(clock_edge(t, clock_ps_));
}

WakeHints Switch::hints(int i, const InputVl& iv) const {
  WakeHints h;
  h.line[0] = active_.data();
  h.line[1] = &port_[i];
  h.line[2] = &iv;
  h.line[3] = &port_[iv.head.first.port];
  h.line[4] = &out_.credits(iv.head.first.port, iv.head.first_vl);
  h.line[5] = &out_.vl_arbiter(iv.head.first.port);
  return h;
}

Picos Switch::earliest_grant(int i, const InputVl& iv, Picos lower) const {
  if (__builtin_expect(fifo_head_, 0)) return earliest_grant_head_only(i, iv, lower);
  const Queued& h = iv.head;
  Picos t = std::max({lower, h.ready, xbar_busy(i, iv)});
  const int need = static_cast<int>(h.blocks);
  // A deterministic route: its one candidate, without the loop and the fallback level.
  if (h.count == 1) return candidate_time(i, &h.first, h, need, t);
  Picos best = kNever;
  // Credits only grow until this switch grants again, so the level allowed at t bounds the
  // later ones: a head waiting for its busy minimal output is not woken for the others.
  const int level = fallback_level(i, h, t);
  for (auto c = cand_first(h), end = c + h.count; c != end; ++c)
    if (c->priority <= level) best = std::min(best, candidate_time(i, c, h, need, t));
  return best;
}

Picos Switch::candidate_time(int i, const routing::PortCandidate* c, const Queued& h, int need, Picos t) const {
  const Picos to = std::max(t, port_[c->port].out.busy);
  const CreditCounter& cc = out_.credits(c->port, out_vl(i, c, h));
  const Picos tc = cc.time_for(need_for(c, need), to);
  if (tc != to) cc.mark_waited_on();
  return tc;
}

int Switch::best_credited_level(int i, const Queued& h, Picos t) const {
  int level = 0xFF;
  const int need = static_cast<int>(h.blocks);
  for (auto c = cand_first(h), end = c + h.count; c != end; ++c)
    if (c->priority < level && out_.credits(c->port, out_vl(i, c, h)).available(t) >= need_for(c, need))
      level = c->priority;
  return level;
}

void Switch::schedule_next(Picos t_min) {
  // Never twice on one edge: a second arbitration in the same cycle would depend on the order
  // in which SystemC runs modules.
  Picos lower = std::max(t_min, now_ps());
  if (last_arbitration_ != kNever && lower <= last_arbitration_) lower = last_arbitration_ + 1;
  Picos best = every_edge_ && queued_packets_ > 0 ? lower : kNever;
  int best_i = 0;
  const InputVl* best_iv = nullptr;
  // Two shortcuts, each leaving a head's credit counters unmarked until a later scan reaches it:
  // - a head that can go on the first edge allowed ends the scan: none can go earlier;
  // - a head that cannot go before the best so far is skipped (below).
  // Neither head can go before the wake-up this scan asks for until the switch grants again:
  // credits returned meanwhile could not move that wake-up, so their marks are not needed; and
  // credits returned while it grants wake no head (space_returns), as the scan closing that
  // wake-up sees them.
  for (int i : active_)
    for (unsigned m = port_[i].in.heads; m; m &= m - 1) {
      const InputVl& iv = in_.at(i, __builtin_ctz(m));
      // A head that cannot go before the best so far (not routed yet, or its crossbar input
      // busy) is not scanned: its time stays at or after that until this switch grants again.
      if (best_iv && std::max(iv.head.ready, xbar_busy(i, iv)) >= best) continue;
      const Picos t = earliest_grant(i, iv, lower);
      if (t < best || !best_iv) best_i = i, best_iv = &iv;
      best = std::min(best, t);
      if (best - lower < clock_ps_ && best <= clock_edge(lower, clock_ps_)) goto scanned;
    }
scanned:
  if (best == kNever) return;
  if (hinting_ && best_iv) wake_.at(clock_edge(best, clock_ps_), hints(best_i, *best_iv));
  else wake_.at(clock_edge(best, clock_ps_));
}

void Switch::wake() {
  Picos t = now_ps();
  // Set first: granting calls back into this switch (credits from an HCA), and any wake-up
  // scheduled from there must fall on a later edge.
  ++mon_.switch_wakes;
  const bool stale = t == last_arbitration_;
  if (__builtin_expect(counting_, 0)) account_waits(t);
  last_arbitration_ = t;
  in_wake_ = true;
  if (!stale) arbitrate(t);
  if (obuf_) run_links(t, stale);
  in_wake_ = false;
  if (queued_packets_ > 0) schedule_next(t + 1);
}

// One function of about 90 lines on purpose: it is the hottest path of the simulator (issue 35's
// profiles: 18-20% of the time), and its four steps (eligible heads, VL arbitration per output,
// one offer per input, the switch arbiter's match) share locals that split functions would pass
// through memory.
void Switch::arbitrate(Picos t) {
  if (recording_) clear_records(t);
  if (__builtin_expect(fifo_, 0)) return arbitrate_fifo(t);
  eligible_.clear();
  touched_.clear();
  // Most arbitrations (84% on the 8x8 torus at half load): one input has one head, with one
  // candidate. Steps 1 and 2 for it alone, then the arbiter's shortcut, without the scratch
  // vectors and loops; the same reads, VL arbitration and outcome as the general path.
  if (lone_path_ && active_.size() == 1) {
    const int i = active_[0];
    const unsigned m = port_[i].in.heads;
    if (m && !(m & (m - 1))) {
      const int v = __builtin_ctz(m);
      const InputVl& iv = in_.at(i, v);
      const Queued& h = iv.head;
      if (h.count == 1) {
        if (port_[i].in.xbar_busy > t || h.ready > t || (xbar_per_vl_ && xbar_busy(i, iv) > t)) return;
        // fallback_level() is every level for one candidate.
        const routing::PortCandidate* c = &h.first;
        OutputPortState& o = port_[c->port].out;
        if (o.busy > t) return;
        const Vl w = h.first_vl;
        const int credits = out_.credits(c->port, w).available_now(t);
        if (credits < need_for(c, static_cast<int>(h.blocks))) return;
        OutputPorts::request(o, w);
        out_.select_vl(o, c->port);
        if (o.selected_vl == w)
          return arbitrate_single(i, v, c->port, w, c->priority, static_cast<int>(h.blocks), credits, t);
        // The VL arbiter serves another VL (none requests it): as the general path, the head's own.
        eligible_.push_back({static_cast<uint8_t>(i), static_cast<uint8_t>(v), c->port, w, c->priority, c->escape});
        touched_.push_back(c->port);
        return arbitrate_head(t);
      }
    }
  }
  // 1. Heads that could go now: routed, input free, candidate output free with credits for the
  //    whole packet on its output VL. Each output collects the VLs requesting it.
  for (int i : active_) {
    if (port_[i].in.xbar_busy > t) continue;
    for (unsigned m = port_[i].in.heads; m; m &= m - 1) {
      const int v = __builtin_ctz(m);
      const InputVl& iv = in_.at(i, v);
      const Queued& h = iv.head;
      if (h.ready > t || (xbar_per_vl_ && xbar_busy(i, iv) > t)) continue;
      const int need = static_cast<int>(h.blocks);
      const int level = fallback_level(i, h, t);
      for (auto c = cand_first(h), end = c + h.count; c != end; ++c) {
        OutputPortState& o = port_[c->port].out;
        if (o.busy > t || c->priority > level) continue;
        Vl w = out_vl(i, c, h);
        if (out_.credits(c->port, w).available_now(t) < need_for(c, need)) continue;
        if (OutputPorts::request(o, w)) touched_.push_back(c->port);
        // Field by field in place: a record built on the stack and copied would be read back
        // wider than its byte stores, which stalls (store forwarding fails).
        Eligible& e = eligible_.emplace_back();
        e.in = static_cast<uint8_t>(i);
        e.vl = static_cast<uint8_t>(v);
        e.out = c->port;
        e.out_vl = w;
        e.priority = c->priority;
        e.escape = c->escape;
      }
    }
  }
  if (eligible_.empty()) return;
  // 2. Each output's VL arbiter picks the VL it serves this cycle.
  for (int o : touched_) out_.select_vl(port_[o].out, o);
  if (eligible_.size() == 1 && arbiter_single_ && port_[eligible_[0].out].out.selected_vl == eligible_[0].out_vl) {
    const Eligible& e = eligible_[0];
    arbitrate_single(e.in, e.vl, e.out, e.out_vl, e.priority, static_cast<int>(in_.at(e.in, e.vl).head.blocks),
                     out_.credits(e.out, e.out_vl).available(t), t);
    return;
  }
  if (arbiter_single_ && eligible_.back().in == eligible_[0].in && eligible_.back().vl == eligible_[0].vl &&
      std::all_of(eligible_.begin(), eligible_.end(),
                  [&](const Eligible& e) { return e.in == eligible_[0].in && e.vl == eligible_[0].vl; })) {
    arbitrate_head(t);
    return;
  }
  // 3. Each input offers one head, round-robin over its VLs, with the candidates whose output
  //    serves that head's output VL this cycle.
  std::vector<ArbRequest>& req = arb_->req;
  std::vector<int>& req_vl = arb_->req_vl;
  for (int i : active_) req_vl[i] = -1;
  for (const Eligible& e : eligible_) {
    if (port_[e.out].out.selected_vl != e.out_vl) continue;
    ArbRequest& r = req[e.in - 1];
    const int rr = port_[e.in].in.rr_vl;
    // Keep the head whose VL comes first from the round-robin pointer.
    if (req_vl[e.in] >= 0 && req_vl[e.in] != e.vl) {
      int cur = (req_vl[e.in] - rr + queues_) % queues_, mine = (e.vl - rr + queues_) % queues_;
      if (mine > cur) continue;
      r.candidates.clear();
    }
    if (!r.candidates.empty() && e.out_vl != r.vl) continue;  // one output VL per request
    req_vl[e.in] = e.vl;
    r.valid = true;
    r.vl = e.out_vl;
    r.length_credits = static_cast<uint16_t>(in_.at(e.in, e.vl).head.blocks);
    r.candidates.push_back({static_cast<uint8_t>(e.out - 1), e.priority});
  }
  // 4. The switch arbiter matches inputs to outputs.
  std::vector<int>& grants = arb_->grant;
  if (model_arbiter_) {
    // The model visits the requesting inputs alone, in ascending order (active_ is in arrival
    // order), rather than every port; only the active inputs' grants are read below. It reads
    // its candidates' outputs alone, their credits on its request's VL alone: those are set,
    // from the counters step 1 has just read, rather than every VL's of every touched output (a
    // cache line each, a miss each on a large fabric). Every touched output reads busy again
    // after.
    int* in = arb_->inputs.data();
    int count = 0;
    for (int i : active_) {
      grants[i - 1] = -1;
      const ArbRequest& r = req[i - 1];
      if (!r.valid) continue;
      for (const ArbCandidate& c : r.candidates) {
        ArbOutputStatus& st = arb_->status[c.port];
        st.busy = false;
        st.credits[r.vl] = static_cast<uint16_t>(std::min(out_.credits(c.port + 1, r.vl).available(t), 65535));
      }
      int k = count++;
      for (; k > 0 && in[k - 1] > i - 1; --k) in[k] = in[k - 1];
      in[k] = i - 1;
    }
    model_arbiter_->arbitrate_inputs(req, arb_->status, grants, in, count);
  } else {
    for (int o : touched_) {
      ArbOutputStatus& st = arb_->status[o - 1];
      st.busy = false;
      for (int w = 0; w < num_vls_; ++w)
        st.credits[w] = static_cast<uint16_t>(std::min(out_.credits(o, w).available(t), 65535));
    }
    std::fill(grants.begin(), grants.end(), -1);
    arbiter_.arbitrate(req, arb_->status, grants);
  }
  for (int o : touched_) {
    arb_->status[o - 1].busy = true;  // outputs nobody asks for read as busy next time
    port_[o].out.selected_vl = -1;
  }
  // grant() edits active_, so collect first; requests are cleared for the next cycle.
  grants_now_.clear();  // last_grant_out() reports this arbitration's grants only
  single_grant_ = false;
  for (int i : active_) {
    ArbRequest& r = req[i - 1];
    if (grants[i - 1] >= 0) {
      if (!r.valid) throw FabricError(std::string(name()) + ": arbiter granted an input without a request");
      grants_now_.push_back({i, req_vl[i], grants[i - 1] + 1, r.vl});
    }
    if (recording_ && r.valid) record(i, req_vl[i], r.vl, r.candidates.data(), r.candidates.size(), grants[i - 1] + 1);
    r.valid = false;
    r.candidates.clear();
  }
  for (const auto& g : grants_now_) grant(g.in, g.vl, g.out, g.out_vl, t);
}

// Steps 3 and 4 when one head could go, to one output, which serves its VL: no request and
// status vectors to fill, the arbiter's shortcut instead. Same outcome as the general path.
void Switch::arbitrate_single(int in, int vl, int out, Vl out_vl, uint8_t priority, int length, int available,
                              Picos t) {
  const auto credits = static_cast<uint16_t>(std::min(available, 65535));
  const ArbCandidate c{static_cast<uint8_t>(out - 1), priority};
  // The model without its argument checks: this switch built it for its own ports and VLs.
  const int g = model_arbiter_ ? model_arbiter_->single(in - 1, c, static_cast<uint16_t>(length), credits)
                               : arbiter_.arbitrate_single(in - 1, c, out_vl, static_cast<uint16_t>(length), credits);
  if (recording_) record(in, vl, out_vl, &c, 1, g + 1);
  port_[out].out.selected_vl = -1;
  single_grant_ = true;
  single_in_ = g < 0 ? 0 : static_cast<uint8_t>(in);
  single_out_ = static_cast<uint8_t>(g + 1);
  if (g < 0) return;
  grant(in, vl, g + 1, out_vl, t);
}

// Steps 3 and 4 when one head could go, to several outputs (adaptive routing): its candidates
// whose output serves its output VL this cycle (the first such candidate's VL, one VL per
// request as in step 3) go to the arbiter's shortcut. Same outcome as the general path.
void Switch::arbitrate_head(Picos t) {
  const Eligible& e0 = eligible_[0];
  head_cands_.clear();
  head_credits_.clear();
  int vl = -1;
  for (const Eligible& e : eligible_) {
    if (port_[e.out].out.selected_vl != e.out_vl || (vl >= 0 && e.out_vl != vl)) continue;
    vl = e.out_vl;
    head_cands_.push_back({static_cast<uint8_t>(e.out - 1), e.priority});
    head_credits_.push_back(static_cast<uint16_t>(std::min(out_.credits(e.out, e.out_vl).available(t), 65535)));
  }
  for (int o : touched_) port_[o].out.selected_vl = -1;
  single_grant_ = true;
  single_in_ = 0;
  if (head_cands_.empty()) return;
  const auto length = static_cast<uint16_t>(in_.at(e0.in, e0.vl).head.blocks);
  const int g = arbiter_.arbitrate_one(e0.in - 1, head_cands_.data(), head_credits_.data(),
                                       static_cast<int>(head_cands_.size()), static_cast<uint8_t>(vl), length);
  if (recording_) record(e0.in, e0.vl, vl, head_cands_.data(), head_cands_.size(), g + 1);
  if (g < 0) return;
  single_in_ = static_cast<uint8_t>(e0.in);
  single_out_ = static_cast<uint8_t>(g + 1);
  grant(e0.in, e0.vl, g + 1, static_cast<Vl>(vl), t);
}

void Switch::grant(int i, int v, int o, Vl w, Picos t) {
  // First, with the arguments still in their registers: the default path pays one branch.
  if (__builtin_expect(obuf_, 0)) return grant_to_buffer(i, v, o, w, t);
  InputPortState& in = port_[i].in;
  OutputPortState& out = port_[o].out;
  InputVl& iv = in_.at(i, v);
  const Queued h = in_.pop_head(in, v, iv);
  --queued_packets_;
  if (in.queued == 0) active_.erase(std::find(active_.begin(), active_.end(), i));
  Packet* pkt = h.pkt;
  if (out.busy > t) throw FabricError(where(o, w) + ": arbiter granted a busy output");
  if (xbar_busy(i, iv) > t) throw FabricError(where(i, v) + ": arbiter granted an input still draining");
  if (!out_.start(o, w, static_cast<int>(h.blocks), pkt->length, t))
    throw CreditError(where(o, w) + ": credit counter would go negative");
  if (__builtin_expect(cc_on_, 0)) cc_grant(o, w, pkt, h.first.port, h.first_vl, t);
  const CrossbarTransfer x =
      xbar_.transfer(t, h.ready - routing_ps_, port_[i].out.byte_ps, out.byte_ps, pkt->length, pkt->vl);
  out.busy = x.out_free;
  if (!xbar_per_vl_) in.xbar_busy = x.drain.last_time();  // else iv's drain, set below
  in.rr_vl = rr_after(v);
  InputBuffer::draining(iv, x.drain);
  if (__builtin_expect(fifo_, 0)) requeue(i, v, iv, h, t);
  if (__builtin_expect(counting_, 0)) count_grant(i, v, o, w, h, x.drain);
  // Credits go back to the upstream node over the reverse direction of input port i.
  port_[i].out.tx.credits_arrive(i, x.drain);
  pkt->vl = w;
  ++pkt->hops;
  ++mon_.hops;
  ++grants_;
  mon_.last_progress = t;
  out.tx.packet_arrives(o, pkt, x.send);
}

void Switch::enable_cc(const CcParams& p) {
  if (!p.enabled) return;
  cc_ = std::make_unique<CcMarker>(p, num_ports_, num_vls_, in_.capacity_blocks());
  cc_on_ = true;
}

void Switch::cc_grant(int o, Vl w, Packet* pkt, int from_port, Vl from_vl, Picos t) {
  if (!cc_->grant(from_port, from_vl, o, w, *pkt, out_.credits(o, w).available(t))) return;
  pkt->cc |= kCcFecn;
  if (counting_) ++ctr_->at(o, w).fecn;
}

}  // namespace ibsc::models
