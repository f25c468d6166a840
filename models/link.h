// Link: one direction of a cable. Carries data packets forward with the fly time added and
// credits for the opposite direction's data back to its far end, also after the fly time.
// Parameters: width x lane rate with 8b/10b or 64b/66b coding (byte time), fly time.
// Counters: bytes and packets per VL, for link utilisation; packets dropped by a link fault.
// Link fault (off unless fail_at() is called, tb/fabric/link_faults.h): from the failure time on, the
// cable carries nothing. A packet whose tail would reach the far end after that time is dropped
// when it is sent (the fault time is known when the run starts, so the link decides at send
// time): counted, handed to the PacketLoss sink (the source's end-to-end recovery), and its
// credits go straight back to the sender, as if the port flushed it into the dead link. So a
// port whose LFT entries still point at the dead cable drains at link rate instead of
// deadlocking the run. Credits for packets that arrived before the failure still return.
#pragma once
#include <systemc>

#include <cstdint>
#include <string>
#include <vector>

#include "models/link_protocol.h"
#include "routing/enum_names.h"

namespace ibsc::models {

// Where packets dropped by a failed link go: the fabric hands them to their source HCA.
class PacketLoss {
 public:
  virtual ~PacketLoss() = default;
  virtual void dropped(Packet* pkt, Picos t) = 0;
};

// Line coding: 10 bits on the wire per data byte (8b/10b: SDR, DDR, QDR) or 66/8 (64b/66b: FDR on).
enum class LineCoding { Ib8b10b, Ib64b66b };
inline constexpr EnumName<LineCoding> kLineCodingNames[] = {
    {LineCoding::Ib8b10b, "8b10b"},
    {LineCoding::Ib64b66b, "64b66b"},
};
constexpr const auto& enum_names(LineCoding) { return kLineCodingNames; }

struct LinkParams {
  int width = 1;                            // lanes: 1, 4, 8, 12
  double lane_gbps = 2.5;                   // signalling rate per lane (SDR 2.5, DDR 5, QDR 10)
  LineCoding coding = LineCoding::Ib8b10b;  // link.coding: 8b10b | 64b66b
  double cable_m = 20.0;                    // cable length
  double ns_per_m = 5.0;                    // propagation delay of copper
  double bits_per_byte() const { return coding == LineCoding::Ib64b66b ? 66.0 / 8.0 : 10.0; }
  // Picoseconds to put one byte on the wire (1X SDR 8b/10b: 4000 ps), rounded to the ps.
  Picos byte_ps() const;
  Picos fly_ps() const;
  double bytes_per_ns() const { return 1000.0 / static_cast<double>(byte_ps()); }
  void validate() const;  // throws ParamError (models/param_error.h) naming the key
};

class TxLink;

class Link : public sc_core::sc_module, public LinkEndpoint {
  // What a packet writes, in one cache line for up to three data VLs (more spill into the next).
  // The far end, fly time and port are read by senders from their TxLink instead, which sits in
  // the sender's own hot memory: sending credits touches no line of the Link at all.
  struct alignas(64) Counters {
    uint64_t packets = 0;
    uint64_t last_id = 0;
    Picos send_start = 0;
    uint32_t last_length = 0;
    uint32_t num_counters = 0;  // data VLs + 1 (the last counts VLs out of range)
    Picos fail_at = kNever;     // link fault: nothing reaches the far end from this time on
    uint64_t bytes[16] = {};    // per VL
  };
  // Cold: where a dropped packet's credits and the packet itself go.
  LinkEndpoint* sender_ = nullptr;
  int sender_port_ = 0;
  PacketLoss* loss_ = nullptr;
  uint64_t dropped_ = 0;
  Counters c_;
  LinkEndpoint* far_ = nullptr;  // out's interface, fixed after elaboration
  Picos fly_ = 0;
  Picos byte_ps_ = 0;
  int rx_port_ = 0;
  static inline bool any_fault_ = false;  // see any_fault()
  void end_of_elaboration() override;

 public:
  sc_core::sc_export<LinkEndpoint> in;  // the sending port binds here
  sc_core::sc_port<LinkEndpoint> out;   // bound to the receiving node

  Link(sc_core::sc_module_name name, const LinkParams& p, int rx_port, int num_vls);

  // Counts a packet whose head starts on the wire at head_time.
  void count(const Packet* pkt, Picos head_time) {
    c_.bytes[pkt->vl < c_.num_counters ? pkt->vl : c_.num_counters - 1] += pkt->length;
    ++c_.packets;
    c_.last_id = pkt->id;
    c_.send_start = head_time;
    c_.last_length = pkt->length;
  }
  // Link fault at time t: dropped packets' credits return to `sender` on `sender_port`.
  void fail_at(Picos t, LinkEndpoint* sender, int sender_port, PacketLoss* loss);
  // Whether some link of the process has been given a fault: until one has, senders skip
  // cuts(), whose read of fail_at would be the only load from the link's (often cold) line;
  // what a packet writes there then costs no wait.
  static bool any_fault() { return any_fault_; }
  // Whether a packet whose head starts on the wire at head_time is cut by the fault.
  bool cuts(const Packet* pkt, Picos head_time) const {
    return c_.fail_at != kNever && head_time + fly_ + static_cast<Picos>(pkt->length) * byte_ps_ > c_.fail_at;
  }
  // Drops a cut packet: counts it, returns its credits to the sender, hands it to the sink.
  void drop(Packet* pkt, Picos head_time);
  uint64_t dropped() const { return dropped_; }
  // The receiving end, once elaboration has bound `out`.
  LinkEndpoint* receiver() { return out.operator->(); }

  void packet_arrives(int port, Packet* pkt, Picos head_time) override;
  void credits_arrive(int port, const CreditTrain& train) override;

  // Counters since construction; the testbench takes differences over its windows.
  std::vector<uint64_t> bytes_per_vl() const { return {c_.bytes, c_.bytes + c_.num_counters}; }
  uint64_t packets() const { return c_.packets; }
  int rx_port() const { return rx_port_; }
  // The packet whose bytes are on the wire at the sending end at time t, or 0 (ids start at 0,
  // so the id is reported + 1: 0 means idle).
  uint64_t packet_on_wire(Picos t) const {
    const bool sent = c_.packets > 0 && t >= c_.send_start && t < c_.send_start + c_.last_length * byte_ps_;
    return sent ? c_.last_id + 1 : 0;
  }
  Picos fly_ps() const { return fly_; }
  const void* counters_line() const { return &c_; }  // what count() writes, for prefetching
};

// What a sending port holds for its outgoing link. Bound to a Link, it keeps the link's far end,
// fly time and receiving port, so that sending is an inline call that touches only the link's
// counters (and credits nothing of the link); bound to anything else (a test's endpoint), it
// calls that endpoint.
class TxLink {
 public:
  void bind(LinkEndpoint* e) {
    link_ = dynamic_cast<Link*>(e);
    far_ = link_ ? link_->receiver() : e;
    fly_ = link_ ? link_->fly_ps() : 0;
    rx_port_ = link_ ? link_->rx_port() : -1;
  }
  void packet_arrives(int port, Packet* pkt, Picos head_time) {
    if (link_) {
      if (__builtin_expect(Link::any_fault(), 0) && link_->cuts(pkt, head_time)) return link_->drop(pkt, head_time);
      link_->count(pkt, head_time);
      far_->packet_arrives(rx_port_, pkt, head_time + fly_);
    } else {
      far_->packet_arrives(port, pkt, head_time);
    }
  }
  void credits_arrive(int port, const CreditTrain& train) {
    if (link_) far_->credits_arrive(rx_port_, train.delayed(fly_));
    else far_->credits_arrive(port, train);
  }
  // Prefetch hints for a later send (Wakeable::prefetch): the link's counters and the far end's
  // object (its interface pointer and the members after it), then what the far end will read.
  void prefetch_ends() const {
    if (!link_) return;
    __builtin_prefetch(link_->counters_line());
    const char* f = reinterpret_cast<const char*>(far_);
    __builtin_prefetch(f);
    __builtin_prefetch(f + 64);
    __builtin_prefetch(f + 128);
  }
  void prefetch_arrival(const Packet* pkt) const {
    if (link_) far_->prefetch_arrival(rx_port_, pkt);
  }
  void prefetch_credits(int vl) const {
    if (link_) far_->prefetch_credits(rx_port_, vl);
  }

 private:
  LinkEndpoint* far_ = nullptr;
  Link* link_ = nullptr;
  Picos fly_ = 0;
  int rx_port_ = -1;
};

}  // namespace ibsc::models
