// Switch (switch.h): the output-buffered switch's parts (switch.output_buffer_bytes_per_vl > 0),
// cold on the default path: the crossbar side's grant into an output VL buffer and the link
// side that empties the buffers.
#include "models/switch.h"

namespace ibsc::models {

// The link side of the output buffers, after the crossbar side of the same edge: each port sends
// at most one packet now, then every port with packets asks for its next edge.
void Switch::run_links(Picos t, bool stale) {
  if (ob_->queued_total() == 0) return;
  // Ports in order, those with packets only (the others neither send nor wait).
  for (int o = ob_->next_port(1); o != 0; o = ob_->next_port(o + 1)) {
    if (!connected(o)) continue;
    LinkSend s;
    if (!stale && ob_->send(o, t, s)) {
      s.pkt->vl = s.freed.vl;
      mon_.last_progress = t;
      port_[o].out.tx.packet_arrives(o, s.pkt, s.start);
      space_returns(o, s.freed);
    }
  }
  for (int o = ob_->next_port(1); o != 0; o = ob_->next_port(o + 1))
    if (connected(o)) wake_link(o);
}

void Switch::wake_link(int o) {
  Picos lower = now_ps();
  if (last_arbitration_ != kNever && lower <= last_arbitration_) lower = last_arbitration_ + 1;
  const Picos t = ob_->next_send(o, lower);
  if (t != kNever) wake_.at(clock_edge(t, clock_ps_));
}

void Switch::link_credits_arrive(int port, const CreditTrain& train) {
  if (!ob_->add_link_credits(port, train))
    throw CreditError(where(port, train.vl) + ": more credits returned than taken (counter above its buffer)");
  wake_link(port);
}

// grant() with output buffers: the crossbar moves the packet into output VL w's buffer; the link
// side sends it later (run_links).
// The checks are grant()'s.
void Switch::grant_to_buffer(int i, int v, int o, Vl w, Picos t) {
  InputPortState& in = port_[i].in;
  InputVl& iv = in_.at(i, v);
  const Queued h = in_.pop_head(in, v, iv);
  --queued_packets_;
  if (in.queued == 0) {  // as grant()'s erase, written out so that grant() keeps its own inline
    auto it = std::find(active_.begin(), active_.end(), i);
    std::copy(it + 1, active_.end(), it);
    active_.pop_back();
  }
  Packet* pkt = h.pkt;
  if (port_[o].out.busy > t) throw FabricError(where(o, w) + ": arbiter granted a busy crossbar output");
  if (xbar_busy(i, iv) > t) throw FabricError(where(i, v) + ": arbiter granted an input still draining");
  if (!out_.start(o, w, static_cast<int>(h.blocks), pkt->length, t))
    throw CreditError(where(o, w) + ": output buffer space would go negative");
  if (cc_on_) cc_grant(o, w, pkt, h.first.port, h.first_vl, t);
  const CreditTrain drain = xbar_.transfer_to_buffer(t, h.ready - routing_ps_, port_[i].out.byte_ps,
                                                     port_[o].out.byte_ps, pkt->length, pkt->vl);
  const Picos done = drain.last_time();
  port_[o].out.busy = done;  // the crossbar output, not the link
  if (!xbar_per_vl_) in.xbar_busy = done;
  in.rr_vl = rr_after(v);
  InputBuffer::draining(iv, drain);
  if (fifo_) requeue(i, v, iv, h, t);
  if (counting_) count_grant(i, v, o, w, h, drain);
  port_[i].out.tx.credits_arrive(i, drain);
  ob_->push(o, Buffered{pkt, t, done, w, escape_ && granted_escape(i, v, o)});
  ++pkt->hops;
  ++mon_.hops;
  ++grants_;
  mon_.last_progress = t;
}

// The queue of the candidate the arbiter granted (i, v) on output o: the one of lowest priority
// level among this cycle's eligible pairs, as the arbiter ranks them.
bool Switch::granted_escape(int i, int v, int o) const {
  const Eligible* best = nullptr;
  for (const Eligible& e : eligible_)
    if (e.in == i && e.vl == v && e.out == o && (!best || e.priority < best->priority)) best = &e;
  return best && best->escape;
}

}  // namespace ibsc::models
