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
  // What a packet touches, declared first so that it sits next to the LinkEndpoint vtable
  // pointer the caller reads, not behind the two port objects: out's binding, fly time, counters.
  LinkEndpoint* far_ = nullptr;  // out's interface, fixed after elaboration
  Picos fly_;
  int rx_port_;
  size_t num_counters_;          // data VLs + 1 (the last counts VLs out of range)
  uint64_t packets_ = 0;
  uint64_t last_id_ = 0;
  Picos send_start_ = 0, send_end_ = 0, byte_ps_ = 0;
  uint64_t bytes_[16] = {};      // per VL, inline: no pointer to follow per packet
  void end_of_elaboration() override;

 public:
  sc_core::sc_export<LinkEndpoint> in;  // the sending port binds here
  sc_core::sc_port<LinkEndpoint> out;   // bound to the receiving node

  Link(sc_core::sc_module_name name, const LinkParams& p, int rx_port, int num_vls);

  void packet_arrives(int port, Packet* pkt, Picos head_time) override;
  void credits_arrive(int port, const CreditTrain& train) override;

  // Counters since construction; the testbench takes differences over its windows.
  std::vector<uint64_t> bytes_per_vl() const { return {bytes_, bytes_ + num_counters_}; }
  uint64_t packets() const { return packets_; }
  int rx_port() const { return rx_port_; }
  // The packet whose bytes are on the wire at the sending end at time t, or 0 (ids start at 0,
  // so the id is reported + 1: 0 means idle).
  uint64_t packet_on_wire(Picos t) const { return t >= send_start_ && t < send_end_ ? last_id_ + 1 : 0; }
  Picos fly_ps() const { return fly_; }

};

}  // namespace ibsc::models
