// Message layer of the HCAs: what a host's TLM-2.0 write becomes in the fabric.
//   A message is an RDMA-write-like transfer of `bytes` from host src into the memory of host
//   dst at `addr`. post() splits it into packets of at most mtu_bytes of payload (the last one
//   shorter); each packet carries a copy of its slice of the payload and a checksum of it, and
//   goes on the wire as payload + header_bytes. The HCA of src is woken (Hca::set_generating)
//   and generates the packets back to back; the HCA injects them as its link and credits allow.
//   At the destination each packet's bytes are checked against the carried checksum and
//   written into dst's memory; when the last packet of a message is delivered the destination's
//   arrival count for src goes up (arrival_event notified: the receiver's completion), and the
//   host's delivery hook runs (on_delivery: the HCA's TLM initiator copies the message into the
//   platform's memory).
//   The sender's completion (on_complete, run inside the fabric's scheduler process: it must
//   not wait): at that same cycle, unless src's HCA runs the reliable transport in mode reorder;
//   then at the cycle src receives the ACK covering the message's last packet (an RDMA write's
//   requester completion). Mode ooo sends no ACK: completion stays at delivery.
//   Slices are kept by (connection, sequence number), not packet id: a re-send after a NACK is a
//   new packet of the same sequence number and carries the same bytes.
// Parameters: MessageParams (MTU, header bytes, memory per host).
// It is the fabric's HcaTraffic: the HCAs call next_gap/make/generated/delivered. Plain data
// otherwise; no SystemC process of its own.
#pragma once
#include <systemc>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "models/hca.h"

namespace ibsc::models {

struct MessageParams {
  uint32_t mtu_bytes = 1024;        // payload per packet; MTU + header must fit a VL buffer
  uint32_t header_bytes = 0;        // wire bytes added to each packet (IBA LRH+BTH+CRCs: 26)
  uint64_t memory_bytes = 1 << 20;  // memory per host that writes land in
  void validate() const;            // throws std::invalid_argument naming the field
};

struct Message {
  uint64_t id = 0;
  int src = 0, dst = 0;
  uint64_t addr = 0;  // in dst's memory
  uint32_t bytes = 0;
  uint32_t packets = 0, delivered = 0;
  Picos posted = 0;
  Picos delivered_at = kNever;  // the last packet handed to dst's host
  Picos completed = kNever;     // the sender's completion: delivered_at, or the ACK of the last packet
  bool awaits_ack = false;      // src's transport acknowledges (mode reorder)
  uint64_t last_seq = 0;        // sequence number of the last packet, once generated
  std::function<void(const Message&)> on_complete;  // runs at completion; must not wait
};

class MessageLayer : public HcaTraffic {
 public:
  MessageLayer(int hosts, const MessageParams& params);

  // The HCA of each host, once the fabric is built: post() wakes it. With its transport in mode
  // reorder, the host's writes complete at ACK.
  void attach(int host, Hca* hca);

  // Starts a transfer now; throws std::invalid_argument for a bad host or address range.
  // The message stays alive until the layer is destroyed (a completed one is not reused).
  const Message& post(int src, int dst, uint64_t addr, const uint8_t* data, uint32_t bytes,
                      std::function<void(const Message&)> on_complete = {});

  // A host's memory (what writes to it delivered).
  uint8_t* memory(int host) { return memory_.at(host).data(); }
  uint64_t memory_bytes() const { return p_.memory_bytes; }
  // Messages from src completely delivered to dst so far, and the event notified on each (at
  // delivery, whatever the sender's completion).
  uint64_t arrivals(int dst, int src) const { return arrivals_[static_cast<size_t>(dst) * hosts_ + src]; }
  sc_core::sc_event& arrival_event(int dst) { return *arrival_events_.at(dst); }
  // Called at each message's delivery to dst (its bytes in dst's memory, arrival_event
  // notified), inside the fabric's scheduler process: it must not wait. One per host (the
  // HCA's TLM initiator, models/hca_tlm_initiator.h); a second replaces the first.
  void on_delivery(int dst, std::function<void(const Message&)> f) { on_delivery_.at(dst) = std::move(f); }
  uint64_t messages_posted() const { return messages_.size(); }
  uint64_t messages_completed() const { return completed_; }  // at the sender
  uint64_t packets_checked() const { return checked_; }
  const MessageParams& params() const { return p_; }

  Picos next_gap(int host) override;
  bool make(int host, Packet& p) override;
  void generated(Packet& p, Picos t) override;
  void delivered(const Packet& p, Picos t) override;

  static uint64_t checksum(const uint8_t* data, size_t n);  // FNV-1a, 64 bit

 private:
  struct Slice {  // one packet's payload, carried with it
    Message* msg;
    uint64_t offset;
    std::vector<uint8_t> bytes;
    uint64_t sum;
  };
  uint64_t slice_key(const Packet& p) const {  // (connection, sequence number)
    return (static_cast<uint64_t>(p.src_host) * hosts_ + p.dst_host) << 32 | p.seq;
  }
  void acked(int src, int dst, uint64_t through, Picos t);
  void complete(Message& m, Picos t);

  int hosts_;
  MessageParams p_;
  std::vector<Hca*> hcas_;
  std::vector<std::vector<uint8_t>> memory_;
  std::vector<std::deque<Slice>> to_send_;                           // per source host, in order
  std::vector<Slice> making_;                                        // per source host: the slice make() handed out
  std::unordered_map<uint64_t, Slice> in_flight_;                    // by slice_key
  std::vector<bool> acks_;                                           // per source host: completes at ACK
  std::unordered_map<uint64_t, std::deque<Message*>> awaiting_ack_;  // per connection, in sequence order
  std::vector<std::unique_ptr<Message>> messages_;
  std::vector<uint64_t> arrivals_;  // dst x hosts + src
  std::vector<std::unique_ptr<sc_core::sc_event>> arrival_events_;
  std::vector<std::function<void(const Message&)>> on_delivery_;  // per destination host
  uint64_t completed_ = 0, checked_ = 0;
};

}  // namespace ibsc::models
