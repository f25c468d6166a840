// Link: one direction of a cable. Carries data packets forward with the fly time added and
// credits for the opposite direction's data back to its far end, also after the fly time.
// Parameters: width x lane rate with 8b/10b or 64b/66b coding (byte time), fly time.
// Counters: bytes and packets per VL, for link utilisation.
#pragma once
#include <systemc>

#include <cstdint>
#include <string>
#include <vector>

#include "models/link_protocol.h"

namespace ibsc::models {

struct LinkParams {
  int width = 1;              // lanes: 1, 4, 8, 12
  double lane_gbps = 2.5;     // signalling rate per lane (SDR 2.5, DDR 5, QDR 10)
  std::string coding = "8b10b";  // 8b10b | 64b66b
  double cable_m = 20.0;      // cable length
  double ns_per_m = 5.0;      // propagation delay of copper
  // Picoseconds to put one byte on the wire (1X SDR 8b/10b: 4000 ps), rounded to the ps.
  Picos byte_ps() const;
  Picos fly_ps() const;
  double bytes_per_ns() const { return 1000.0 / static_cast<double>(byte_ps()); }
  void validate() const;  // throws std::invalid_argument naming the bad field
};

class Link : public sc_core::sc_module, public LinkEndpoint {
  // What a packet or a credit train touches, in one cache line of its own: the far end, fly
  // time and the wire's state. The per-VL byte counters follow in the next.
  struct alignas(64) Wire {
    LinkEndpoint* far = nullptr;  // out's interface, fixed after elaboration
    Picos fly = 0;
    Picos byte_ps = 0;
    int rx_port = 0;
    uint32_t num_counters = 0;    // data VLs + 1 (the last counts VLs out of range)
    uint64_t packets = 0;
    uint64_t last_id = 0;
    Picos send_start = 0, send_end = 0;
  };
  Wire w_;
  uint64_t bytes_[16] = {};       // per VL, inline: no pointer to follow per packet
  void end_of_elaboration() override;

 public:
  sc_core::sc_export<LinkEndpoint> in;  // the sending port binds here
  sc_core::sc_port<LinkEndpoint> out;   // bound to the receiving node

  Link(sc_core::sc_module_name name, const LinkParams& p, int rx_port, int num_vls);

  // The link's work, inline for senders that hold the Link itself (TxLink below); the port
  // number a sender passes is its own, not needed here.
  void carry_packet(Packet* pkt, Picos head_time) {
    bytes_[pkt->vl < w_.num_counters ? pkt->vl : w_.num_counters - 1] += pkt->length;
    ++w_.packets;
    w_.last_id = pkt->id;
    w_.send_start = head_time;
    w_.send_end = head_time + static_cast<Picos>(pkt->length) * w_.byte_ps;
    w_.far->packet_arrives(w_.rx_port, pkt, head_time + w_.fly);
  }
  void carry_credits(const CreditTrain& train) { w_.far->credits_arrive(w_.rx_port, train.delayed(w_.fly)); }

  void packet_arrives(int port, Packet* pkt, Picos head_time) override;
  void credits_arrive(int port, const CreditTrain& train) override;

  // Counters since construction; the testbench takes differences over its windows.
  std::vector<uint64_t> bytes_per_vl() const { return {bytes_, bytes_ + w_.num_counters}; }
  uint64_t packets() const { return w_.packets; }
  int rx_port() const { return w_.rx_port; }
  // The packet whose bytes are on the wire at the sending end at time t, or 0 (ids start at 0,
  // so the id is reported + 1: 0 means idle).
  uint64_t packet_on_wire(Picos t) const {
    return t >= w_.send_start && t < w_.send_end ? w_.last_id + 1 : 0;
  }
  Picos fly_ps() const { return w_.fly; }
};

// What a sending port holds for its outgoing link: the Link itself when the port is bound to
// one, so that sending is an inline call into the link's one hot cache line instead of two
// virtual calls; otherwise (a test's endpoint bound directly) the bound interface.
class TxLink {
 public:
  void bind(LinkEndpoint* e) {
    endpoint_ = e;
    link_ = dynamic_cast<Link*>(e);
  }
  void packet_arrives(int port, Packet* pkt, Picos head_time) {
    if (link_) link_->carry_packet(pkt, head_time);
    else endpoint_->packet_arrives(port, pkt, head_time);
  }
  void credits_arrive(int port, const CreditTrain& train) {
    if (link_) link_->carry_credits(train);
    else endpoint_->credits_arrive(port, train);
  }

 private:
  Link* link_ = nullptr;
  LinkEndpoint* endpoint_ = nullptr;
};

}  // namespace ibsc::models
