// The switch with output request queues (switch.output_request_queue, output_request_queue.h):
// which head each free output serves is the queue's choice, not the switch arbiter's. The rest of
// the switch (routing delay, crossbar timing, credits, output buffers) is unchanged.
#include <algorithm>

#include "models/switch.h"

namespace ibsc::models {

// A new head of queue q on input i (now at t) asks each of its candidate outputs: it joins their
// queues once it is routed and its crossbar input is free.
void Switch::request_head(int i, int q, const InputVl& iv, Picos t) {
  const Queued& h = iv.head;
  const OutputRequest r{std::max({h.ready, t, xbar_busy(i, iv)}), h.pkt->id, static_cast<uint8_t>(i),
                        static_cast<uint8_t>(q)};
  for (auto c = cand_first(h), end = c + h.count; c != end; ++c)
    if (candidate_on(h, c->port) == c) rq_->add(c->port, r);  // a port listed twice asks once
}

// Head `granted` of queue q on input i has gone at t: its requests leave every queue, and the
// packet behind it (if any) asks in turn.
void Switch::requeue(int i, int q, const InputVl& iv, const Queued& granted, Picos t) {
  for (auto c = cand_first(granted), end = c + granted.count; c != end; ++c) rq_->remove(c->port, i, q);
  if (iv.head.pkt) request_head(i, q, iv, t);
}

void Switch::arbitrate_fifo(Picos t) {
  // Whether the request can be served at t on output o: routed, its crossbar input free, room
  // for the whole packet on its output VL (output buffer, or the downstream buffer).
  int o = 0;
  auto can_go = [&](const OutputRequest& r) {
    const InputVl& iv = in_.at(r.in, r.q);
    const Queued& h = iv.head;
    if (h.ready > t || xbar_busy(r.in, iv) > t) return false;
    const routing::PortCandidate* c = candidate_on(h, o);
    return out_.credits(o, out_vl(r.in, c, h)).available_now(t) >= need_for(c, static_cast<int>(h.blocks));
  };
  picks_.clear();
  for (o = 1; o <= num_ports_; ++o) {
    if (!connected(o) || port_[o].out.busy > t) continue;
    const auto& queue = rq_->queue(o);
    if (queue.empty() || queue.front().at > t) continue;
    const int k = rq_->pick(o, t, can_go);
    if (k >= 0) picks_.emplace_back(queue[k], o);
  }
  grants_now_.clear();
  single_grant_ = false;
  if (picks_.empty()) return;
  // Outputs in the order of their requests, so that a crossbar input two outputs chose (inputs
  // per port, or a head with several candidates) goes to the older; each output chooses again,
  // as an earlier grant of this edge may have taken its choice's input.
  std::sort(picks_.begin(), picks_.end(), [](const auto& a, const auto& b) { return a.first.before(b.first); });
  for (const auto& pick : picks_) {
    o = pick.second;
    const int k = rq_->pick(o, t, can_go);
    if (k < 0) continue;
    const OutputRequest r = rq_->queue(o)[k];
    const Queued& h = in_.at(r.in, r.q).head;
    const Vl w = out_vl(r.in, candidate_on(h, o), h);
    grants_now_.push_back({r.in, r.q, o, w});
    grant(r.in, r.q, o, w, t);
  }
}

// earliest_grant() when only each queue's head is served: a candidate output whose queue holds an
// older request by then waits for that request's grant (which schedules the switch again), so it
// offers no time of its own.
Picos Switch::earliest_grant_head_only(int i, const InputVl& iv, Picos lower) const {
  const Queued& h = iv.head;
  const int q = queue_index(i, iv);
  Picos t = std::max({lower, h.ready, xbar_busy(i, iv)});
  Picos best = kNever;
  const int need = static_cast<int>(h.blocks);
  for (auto c = cand_first(h), end = c + h.count; c != end; ++c) {
    Picos to = std::max(t, port_[c->port].out.busy);
    const CreditCounter& cc = out_.credits(c->port, out_vl(i, c, h));
    Picos tc = cc.time_for(need_for(c, need), to);
    const OutputRequest& front = rq_->queue(c->port).front();
    if ((front.in != i || front.q != q) && front.at <= tc) continue;
    if (tc != to) cc.mark_waited_on();
    best = std::min(best, tc);
  }
  return best;
}

}  // namespace ibsc::models
