#include "models/reliable_transport.h"

#include <algorithm>
#include <stdexcept>

#include "models/hca.h"
#include "models/param_error.h"

namespace ibsc::models {

void TransportParams::validate() const {
  if (control_bytes == 0 || control_bytes > kMaxMtuBytes)
    throw ParamError("transport.control_bytes", "transport.control_bytes must be 1.." + std::to_string(kMaxMtuBytes) +
                                                    " (got " + std::to_string(control_bytes) + ")");
  if (connection_bytes == 0) throw ParamError("transport.connection_bytes", "transport.connection_bytes must be > 0");
  if (ack_coalesce == 0) throw ParamError("transport.ack_coalesce", "transport.ack_coalesce must be >= 1");
  if (!(ack_delay_ns >= 0)) throw ParamError("transport.ack_delay_ns", "transport.ack_delay_ns must be >= 0");
  if (ack_coalesce > 1 && !(ack_delay_ns > 0))
    throw ParamError("transport.ack_delay_ns",
                     "transport.ack_delay_ns must be > 0 with transport.ack_coalesce above 1 (else a connection "
                     "that goes idle would never see its last packets ACKed)");
  if (memory == ReorderMemoryKind::Dynamic && pool_bytes == 0)
    throw ParamError("transport.pool_bytes", "transport.pool_bytes must be > 0 with transport.memory: dynamic");
  if (injection == InjectionPolicy::LimitedWindow && memory != ReorderMemoryKind::Static)
    throw ParamError(
        "transport.injection",
        "transport.injection: lw needs transport.memory: static (it reads the destination's fixed buffer size)");
}

void TransportCounters::add(const TransportCounters& o) {
  app_generated += o.app_generated;
  app_delivered += o.app_delivered;
  data_sent += o.data_sent;
  data_arrived += o.data_arrived;
  first_bytes += o.first_bytes;
  resent_packets += o.resent_packets;
  resent_bytes += o.resent_bytes;
  acks += o.acks;
  nacks += o.nacks;
  control_bytes += o.control_bytes;
  nacks_received += o.nacks_received;
  out_of_order_arrivals += o.out_of_order_arrivals;
  out_of_order_deliveries += o.out_of_order_deliveries;
  duplicates += o.duplicates;
  stored += o.stored;
  held += o.held;
  awaiting_resend += o.awaiting_resend;
  transitions_to_li += o.transitions_to_li;
  data_dropped += o.data_dropped;
  nacks_dropped += o.nacks_dropped;
  acks_dropped += o.acks_dropped;
  abandoned += o.abandoned;
  last_delivery = std::max(last_delivery, o.last_delivery);
}

ReliableTransport::ReliableTransport(Hca& hca, int host, int hosts, const TransportParams& params, HcaTraffic& traffic,
                                     FabricMonitor& monitor)
    : hca_(hca),
      mon_(monitor),
      p_(params),
      hosts_(hosts),
      host_(host),
      traffic_(traffic),
      memory_(params.memory, params.connection_bytes, params.pool_bytes) {
  p_.validate();
}

// Packets still stored or held are pool slots; the pool frees its storage as a whole.
ReliableTransport::~ReliableTransport() = default;

void ReliableTransport::fail(const std::string& what) const {
  throw FabricError(std::string(hca_.name()) + " transport: " + what);
}

ReliableTransport::Source& ReliableTransport::source(int dst) {
  return sources_.get(dst, InjectionControl(p_.injection, p_.connection_bytes));
}

ReliableTransport::Destination& ReliableTransport::destination(int src) { return destinations_.get(src); }

void ReliableTransport::send(Packet* p) {
  if (p->kind == PacketKind::Data) ++counters_.data_sent;
  hca_.enqueue(p);
}

void ReliableTransport::submit(Packet* p) {
  ++counters_.app_generated;
  if (p_.mode == TransportMode::OutOfOrder) {
    counters_.first_bytes += p->length;
    send(p);
    return;
  }
  Source& s = source(static_cast<int>(p->dst_host));
  if (p->seq != s.base + s.window.size()) fail("sequence numbers of a connection not consecutive");
  s.window.push_back(Outgoing{p, p->gen_time, p->length, p->dst_host, p->flow, p->measured, Outgoing::State::Held});
  ++counters_.held;
  release(s);
}

void ReliableTransport::release(Source& s) {
  for (;;) {
    const bool resend = s.recovery && !s.recovery->resend.empty();
    if (!resend && s.first_held == s.base + s.window.size()) return;
    const uint64_t seq = resend ? *s.recovery->resend.begin() : s.first_held;
    Outgoing& o = s.window[seq - s.base];
    const uint32_t len = o.length;
    if (!s.control.may_send(len, s.in_flight_bytes, seq == s.base)) return;
    Packet* p;
    if (resend) {
      s.recovery->resend.erase(s.recovery->resend.begin());
      --counters_.awaiting_resend;
      p = mon_.pool.get();  // the first send's header again (kind Data, no hops yet)
      p->src_host = static_cast<uint32_t>(host_);
      p->dst_host = o.dst_host;
      p->flow = o.flow;
      p->seq = seq;
      p->length = len;
      p->gen_time = o.gen_time;
      p->measured = o.measured;
      hca_.address(*p);  // a re-send may take another of the pair's paths
      p->id = mon_.generated++;
      ++counters_.resent_packets;
      counters_.resent_bytes += len;
    } else {
      p = o.first;
      o.first = nullptr;
      ++s.first_held;
      --counters_.held;
      counters_.first_bytes += len;
    }
    o.state = Outgoing::State::InFlight;
    s.in_flight_bytes += len;
    s.control.sent();
    send(p);
  }
}

void ReliableTransport::control(PacketKind kind, int to, uint64_t seq) {
  Packet* c = mon_.pool.get();
  c->kind = kind;
  c->id = mon_.generated++;
  c->src_host = static_cast<uint32_t>(host_);
  c->dst_host = static_cast<uint32_t>(to);
  // Its own flow, the reverse pair; unsigned: host x hosts passes INT_MAX above 46,340 hosts.
  c->flow = static_cast<uint32_t>(host_) * static_cast<uint32_t>(hosts_) + static_cast<uint32_t>(to);
  c->seq = seq;
  c->length = p_.control_bytes;
  c->gen_time = now_ps();
  hca_.address(*c);
  if (kind == PacketKind::Ack) ++counters_.acks;
  else ++counters_.nacks;
  counters_.control_bytes += c->length;
  send(c);
}

void ReliableTransport::arrive(Packet* p, Picos t) {
  switch (p->kind) {
    case PacketKind::Data:
      data_arrives(p, t);
      return;
    case PacketKind::Ack:
      ack_arrives(*p, t);
      break;
    case PacketKind::Nack:
      nack_arrives(*p);
      break;
  }
  mon_.pool.put(p);
}

void ReliableTransport::deliver(Packet* p, Picos t) {
  Destination& d = destination(static_cast<int>(p->src_host));
  const uint64_t ooo0 = d.checker.out_of_order(), dup0 = d.checker.duplicates();
  d.checker.delivered(p->seq);
  counters_.out_of_order_deliveries += d.checker.out_of_order() - ooo0;
  counters_.duplicates += d.checker.duplicates() - dup0;
  ++counters_.app_delivered;
  counters_.last_delivery = t;
  traffic_.delivered(*p, t);
  mon_.pool.put(p);
}

void ReliableTransport::data_arrives(Packet* p, Picos t) {
  ++counters_.data_arrived;
  const int src = static_cast<int>(p->src_host);
  Destination& d = destination(src);
  if (p_.mode == TransportMode::OutOfOrder) {
    if (p->seq != d.checker.frontier()) ++counters_.out_of_order_arrivals;
    deliver(p, t);
  } else {
    if (p->seq != d.buffer.expected()) ++counters_.out_of_order_arrivals;
    outcome_.clear();
    const size_t stored0 = d.buffer.stored();
    if (d.buffer.arrive(p, memory_, outcome_) == ReorderBuffer::Verdict::Duplicate)
      fail("packet " + std::to_string(p->seq) + " from host " + std::to_string(src) + " arrived twice");
    bool asked = false;  // before delivery gives the packets back to the pool
    for (Packet* q : outcome_.deliver) asked = asked || q->ack_req;
    for (Packet* q : outcome_.deliver) deliver(q, t);
    for (Packet* q : outcome_.rejected) {
      control(PacketKind::Nack, src, q->seq);
      d.nacked_end = std::max(d.nacked_end, q->seq + 1);
      mon_.pool.put(q);
    }
    if (outcome_.ack) acknowledge(d, src, outcome_.deliver.size(), asked, t);
    counters_.stored = counters_.stored + d.buffer.stored() - stored0;
    // A store is the last thing an arrival does to the memory, so a new maximum is the state now.
    if (memory_.max_used() > peak_.bytes && memory_.used() == memory_.max_used()) snapshot_peak();
  }
}

void ReliableTransport::acknowledge(Destination& d, int src, size_t delivered, bool asked, Picos t) {
  d.unacked += static_cast<uint32_t>(delivered);
  // While a NACKed packet is not covered by an ACK, its source is limited (li, lw) and sends as
  // ACKs come: no coalescing then. The last packet of a message asks for its ACK (AckReq).
  if (d.unacked >= p_.ack_coalesce || d.nacked_end > d.acked_end || asked) {
    send_ack(d, src);
  } else if (d.ack_due == kNever) {
    d.ack_due = t + static_cast<Picos>(p_.ack_delay_ns * 1000 + 0.5);
    ack_timers_.push_back({d.ack_due, src});
  }
}

void ReliableTransport::send_ack(Destination& d, int src) {
  d.unacked = 0;
  d.ack_due = kNever;
  d.acked_end = d.buffer.expected();
  control(PacketKind::Ack, src, d.acked_end - 1);
}

void ReliableTransport::send_due_acks(Picos t) {
  while (!ack_timers_.empty() && ack_timers_.front().first <= t) {
    const auto [due, src] = ack_timers_.front();
    ack_timers_.pop_front();
    Destination& d = destination(src);
    if (d.ack_due == due && d.unacked > 0) send_ack(d, src);
  }
}

void ReliableTransport::snapshot_peak() {
  peak_ = PeakSnapshot{memory_.used(), 0, 0, 0};
  for (const Destination& d : destinations_.records()) {
    const uint64_t held = d.buffer.held_bytes();
    if (held == 0) continue;
    ++peak_.holding;
    if (2 * held > p_.connection_bytes) ++peak_.over_half;
    if (held + 64 > p_.connection_bytes) ++peak_.full;
  }
}

void ReliableTransport::ack_arrives(const Packet& a, Picos t) {
  Source& s = source(static_cast<int>(a.src_host));
  uint64_t newly = 0;
  const bool dead = hca_.path_in_use(static_cast<int>(a.src_host)) < 0;
  while (s.base <= a.seq) {  // an older ACK overtaken by a newer one acknowledges nothing new
    if (dead && !s.window.empty() && s.window.front().state != Outgoing::State::InFlight) {
      s.window.pop_front();  // given up already (abandon)
      ++s.base;
      continue;
    }
    if (s.window.empty() || s.window.front().state != Outgoing::State::InFlight)
      fail("ACK " + std::to_string(a.seq) + " from host " + std::to_string(a.src_host) +
           " covers a packet not in flight");
    s.in_flight_bytes -= s.window.front().length;
    s.window.pop_front();
    ++s.base;
    ++newly;
  }
  s.control.acked(a.seq, newly);
  release(s);
  // All ACKed: under uniform traffic a connection is used again after many microseconds, if
  // ever, and its window's storage (8 records to start) would stay with each of a host's peers.
  // A workload that reuses a connection at once pays a 256-byte malloc and free per emptying,
  // small beside the packets that filled the window.
  if (s.window.empty()) s.window.release_storage();
  if (newly > 0 && on_ack_) on_ack_(static_cast<int>(a.src_host), s.base - 1, t);
}

void ReliableTransport::nack_arrives(const Packet& n) {
  ++counters_.nacks_received;
  Source& s = source(static_cast<int>(n.src_host));
  if (n.seq < s.base || n.seq >= s.base + s.window.size() ||
      s.window[n.seq - s.base].state != Outgoing::State::InFlight)
    fail("NACK " + std::to_string(n.seq) + " from host " + std::to_string(n.src_host) + " for a packet not in flight");
  Outgoing& o = s.window[n.seq - s.base];
  o.state = Outgoing::State::Nacked;
  s.in_flight_bytes -= o.length;
  s.recover().resend.insert(n.seq);
  ++counters_.awaiting_resend;
  limit_injection(s, n.seq);
  release(s);
}

void ReliableTransport::lost(Packet* p) {
  const int to = static_cast<int>(p->dst_host);
  const bool moved = hca_.dlid_in_use(to) != p->dlid;  // already migrated: go again now
  const bool dead = hca_.path_in_use(to) < 0;
  if (p->kind == PacketKind::Data) {
    ++counters_.data_dropped;
    Source& s = source(to);
    if (p->seq < s.base || p->seq >= s.base + s.window.size() ||
        s.window[p->seq - s.base].state != Outgoing::State::InFlight)
      fail("packet " + std::to_string(p->seq) + " to host " + std::to_string(to) + " lost while not in flight");
    Outgoing& o = s.window[p->seq - s.base];
    o.state = Outgoing::State::Nacked;
    s.in_flight_bytes -= o.length;
    if (dead) {
      abandon(s, p->seq);
    } else {
      ++counters_.awaiting_resend;
      // A drop is a rejection the source learns of another way: LI / LW limit injection as
      // for a NACK (a timeout in a real RC connection would too), until it is ACKed.
      limit_injection(s, p->seq);
      (moved ? s.recover().resend : s.recover().parked).insert(p->seq);
      if (moved) release(s);
    }
  } else {
    if (p->kind == PacketKind::Nack) ++counters_.nacks_dropped;
    else ++counters_.acks_dropped;
    if (dead) {
      if (p->kind == PacketKind::Nack) ++counters_.abandoned;  // the rejected packet goes nowhere
    } else if (moved) {
      control(p->kind, to, p->seq);
    } else {
      if (p->kind == PacketKind::Nack) ++counters_.awaiting_resend;  // its packet waits to go again
      parked_controls_.push_back({p->kind, to, p->seq});
    }
  }
  mon_.pool.put(p);
}

void ReliableTransport::limit_injection(Source& s, uint64_t seq) {
  const uint64_t li0 = s.control.transitions_to_li();
  s.control.nacked(seq);
  counters_.transitions_to_li += s.control.transitions_to_li() - li0;
}

// Marks a packet given up (its state is already not in flight); the window keeps its place.
void ReliableTransport::abandon(Source&, uint64_t) { ++counters_.abandoned; }

void ReliableTransport::path_changed(int dst) {
  const bool dead = hca_.path_in_use(dst) < 0;
  std::vector<LostControl> again;
  for (auto it = parked_controls_.begin(); it != parked_controls_.end();) {
    if (it->to != dst) {
      ++it;
      continue;
    }
    if (!dead) again.push_back(*it);
    else if (it->kind == PacketKind::Nack) ++counters_.abandoned;
    if (it->kind == PacketKind::Nack) --counters_.awaiting_resend;  // the NACKed packet's term
    it = parked_controls_.erase(it);
  }
  for (const LostControl& c : again) control(c.kind, c.to, c.seq);
  Source* found = sources_.find(dst);
  if (!found) return;
  Source& s = *found;
  if (dead) {
    // Held packets never go; parked and NACKed ones are given up; in-flight ones end where they end.
    if (Recovery* r = s.recovery.get()) {
      for (uint64_t q : r->parked) abandon(s, q);
      for (uint64_t q : r->resend) abandon(s, q);
      counters_.awaiting_resend -= r->parked.size() + r->resend.size();
      r->parked.clear();
      r->resend.clear();
    }
    for (uint64_t q = s.first_held; q < s.base + s.window.size(); ++q) {
      Outgoing& o = s.window[q - s.base];
      o.state = Outgoing::State::Nacked;
      mon_.pool.put(o.first);
      o.first = nullptr;
      --counters_.held;
      ++counters_.abandoned;
      ++mon_.abandoned;  // generated, never injected
    }
    s.first_held = s.base + s.window.size();
    return;
  }
  if (Recovery* r = s.recovery.get()) {
    r->resend.insert(r->parked.begin(), r->parked.end());
    r->parked.clear();
  }
  release(s);
}

std::vector<uint64_t> ReliableTransport::connection_max_bytes() const {
  std::vector<uint64_t> v;
  for (const Destination& d : destinations_.records()) v.push_back(d.buffer.max_held_bytes());
  return v;
}

}  // namespace ibsc::models
