#include "models/hca_messages.h"

#include <stdexcept>
#include <string>

#include "models/reliable_transport.h"
#include "routing/digest.h"

namespace ibsc::models {

void MessageParams::validate() const {
  if (mtu_bytes < 1 || mtu_bytes > 4096) throw std::invalid_argument("mtu_bytes must be in 1..4096 (IBA MTU)");
  if (header_bytes > 128) throw std::invalid_argument("header_bytes must be <= 128");
  if (memory_bytes < 1) throw std::invalid_argument("memory_bytes must be >= 1");
}

MessageLayer::MessageLayer(int hosts, const MessageParams& params)
    : hosts_(hosts),
      p_(params),
      hcas_(hosts, nullptr),
      memory_(hosts, std::vector<uint8_t>(params.memory_bytes, 0)),
      to_send_(hosts),
      making_(hosts),
      acks_(hosts, false),
      arrivals_(static_cast<size_t>(hosts) * hosts, 0),
      on_delivery_(hosts) {
  p_.validate();
  for (int h = 0; h < hosts; ++h) arrival_events_.push_back(std::make_unique<sc_core::sc_event>());
}

void MessageLayer::attach(int host, Hca* hca) {
  hcas_.at(host) = hca;
  ReliableTransport* rt = hca ? hca->transport() : nullptr;
  acks_[host] = rt && rt->acknowledges();
  if (acks_[host]) rt->on_ack([this, host](int dst, uint64_t through, Picos t) { acked(host, dst, through, t); });
}

uint64_t MessageLayer::checksum(const uint8_t* data, size_t n) { return routing::fnv1a64(data, n); }

const Message& MessageLayer::post(int src, int dst, uint64_t addr, const uint8_t* data, uint32_t bytes,
                                  std::function<void(const Message&)> on_complete) {
  if (src < 0 || src >= hosts_ || dst < 0 || dst >= hosts_)
    throw std::invalid_argument("message from host " + std::to_string(src) + " to host " + std::to_string(dst) +
                                ": hosts are 0.." + std::to_string(hosts_ - 1));
  if (src == dst) throw std::invalid_argument("message from host " + std::to_string(src) + " to itself");
  if (bytes == 0) throw std::invalid_argument("message of 0 bytes");
  if (addr > p_.memory_bytes || bytes > p_.memory_bytes - addr)
    throw std::invalid_argument("message of " + std::to_string(bytes) + " bytes at address " + std::to_string(addr) +
                                " does not fit host " + std::to_string(dst) + "'s " + std::to_string(p_.memory_bytes) +
                                "-byte memory");
  if (!hcas_[src]) throw std::logic_error("message layer: host " + std::to_string(src) + " has no HCA attached");
  auto m = std::make_unique<Message>();
  m->id = messages_.size();
  m->src = src;
  m->dst = dst;
  m->addr = addr;
  m->bytes = bytes;
  m->posted = now_ps();
  m->awaits_ack = acks_[src];
  m->on_complete = std::move(on_complete);
  for (uint64_t off = 0; off < bytes; off += p_.mtu_bytes) {
    const uint32_t len = static_cast<uint32_t>(std::min<uint64_t>(p_.mtu_bytes, bytes - off));
    Slice s{m.get(), off, std::vector<uint8_t>(data + off, data + off + len), 0};
    s.sum = checksum(s.bytes.data(), len);
    to_send_[src].push_back(std::move(s));
    ++m->packets;
  }
  messages_.push_back(std::move(m));
  hcas_[src]->set_generating(true);  // polls next_gap when the HCA has nothing pending
  return *messages_.back();
}

// Packets of posted messages are generated all at once, back to back; the HCA's injection
// queue then paces them at link rate and credits.
Picos MessageLayer::next_gap(int host) { return to_send_[host].empty() ? kNever : 0; }

bool MessageLayer::make(int host, Packet& p) {
  if (to_send_[host].empty()) return false;
  making_[host] = std::move(to_send_[host].front());
  to_send_[host].pop_front();
  const Slice& s = making_[host];
  p.dst_host = static_cast<uint32_t>(s.msg->dst);
  p.length = static_cast<uint32_t>(s.bytes.size()) + p_.header_bytes;
  return true;
}

void MessageLayer::generated(Packet& p, Picos) {
  Slice& s = making_[p.src_host];
  Message& m = *s.msg;
  if (s.offset + s.bytes.size() == m.bytes) {  // the last packet: its ACK completes the message
    m.last_seq = p.seq;
    if (m.awaits_ack) awaiting_ack_[slice_key(p) >> 32].push_back(&m);
  }
  in_flight_.emplace(slice_key(p), std::move(s));
}

void MessageLayer::delivered(const Packet& p, Picos t) {
  require_kernel_time("the message layer (TLM sockets, MPI hosts)");  // it notifies arrival events
  auto it = in_flight_.find(slice_key(p));
  if (it == in_flight_.end())
    throw FabricError("message layer: packet " + std::to_string(p.id) + " delivered to host " +
                      std::to_string(p.dst_host) + " carries no message slice");
  Slice s = std::move(it->second);
  in_flight_.erase(it);
  Message& m = *s.msg;
  if (static_cast<int>(p.dst_host) != m.dst || checksum(s.bytes.data(), s.bytes.size()) != s.sum)
    throw FabricError("message layer: packet " + std::to_string(p.id) + " of message " + std::to_string(m.id) +
                      " arrived corrupted or at the wrong host (" + std::to_string(p.dst_host) + ")");
  std::copy(s.bytes.begin(), s.bytes.end(), memory_[m.dst].begin() + static_cast<std::ptrdiff_t>(m.addr + s.offset));
  ++checked_;
  if (++m.delivered < m.packets) return;
  m.delivered_at = t;
  ++arrivals_[static_cast<size_t>(m.dst) * hosts_ + m.src];
  arrival_events_[m.dst]->notify(sc_core::SC_ZERO_TIME);
  if (on_delivery_[m.dst]) on_delivery_[m.dst](m);
  if (!m.awaits_ack) complete(m, t);
}

// ACKs are cumulative and a connection's messages go in sequence order: every waiting message
// whose last packet is covered completes.
void MessageLayer::acked(int src, int dst, uint64_t through, Picos t) {
  require_kernel_time("the message layer (TLM sockets, MPI hosts)");  // completions notify the sockets
  auto it = awaiting_ack_.find(static_cast<uint64_t>(src) * hosts_ + dst);
  if (it == awaiting_ack_.end()) return;
  auto& q = it->second;
  while (!q.empty() && q.front()->last_seq <= through) {
    Message& m = *q.front();
    q.pop_front();
    if (m.delivered < m.packets)
      throw FabricError("message layer: message " + std::to_string(m.id) + " from host " + std::to_string(src) +
                        " ACKed before all its packets were delivered");
    complete(m, t);
  }
  if (q.empty()) awaiting_ack_.erase(it);
}

void MessageLayer::complete(Message& m, Picos t) {
  m.completed = t;
  ++completed_;
  if (m.on_complete) m.on_complete(m);
}

}  // namespace ibsc::models
