#include "models/link.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "models/fabric_monitor.h"
#include "models/param_error.h"

namespace ibsc::models {

Picos LinkParams::byte_ps() const {
  return static_cast<Picos>(std::llround(bits_per_byte() * 1000.0 / (width * lane_gbps)));
}

Picos LinkParams::fly_ps() const { return static_cast<Picos>(std::llround(cable_m * ns_per_m * 1000.0)); }

void LinkParams::validate() const {
  if (width != 1 && width != 2 && width != 4 && width != 8 && width != 12)
    throw ParamError("link.width", "link.width must be 1, 2, 4, 8 or 12 lanes");
  if (!(lane_gbps > 0.0) || lane_gbps > 1000.0)
    throw ParamError("link.lane_gbps", "link.lane_gbps must be in (0, 1000]");
  if (!(cable_m >= 0.0) || !(ns_per_m >= 0.0))
    throw ParamError("link.cable_m", "link.cable_m and link.ns_per_m must be >= 0");
  if (byte_ps() == 0) throw std::invalid_argument("link rate too high: a byte must take at least 1 ps");
  // Time is whole picoseconds: refuse a rate whose byte time would be rounded by more than 1%
  // (12X SDR, 333.3 ps, is 0.1% off; 12X at 1000 Gb/s, 0.83 ps, would run 20% slow).
  const double exact = bits_per_byte() * 1000.0 / (width * lane_gbps);
  if (std::abs(static_cast<double>(byte_ps()) - exact) > 0.01 * exact)
    throw ParamError("link.lane_gbps",
                     "link.lane_gbps: a byte takes " + std::to_string(exact) +
                         " ps, which whole picoseconds (SystemC's resolution) cannot represent within 1%");
  if (fly_ps() == 0) throw std::invalid_argument("link fly time must be at least 1 ps (cable_m * ns_per_m > 0)");
}

Link::Link(sc_core::sc_module_name name, const LinkParams& p, int rx_port, int num_vls)
    : sc_module(name), in("in"), out("out") {
  if (num_vls < 1 || num_vls > 15) throw std::invalid_argument("Link: num_vls must be 1..15");
  fly_ = p.fly_ps();
  byte_ps_ = p.byte_ps();
  rx_port_ = rx_port;
  c_.num_counters = static_cast<uint32_t>(num_vls) + 1;
  in.bind(*this);
}

void Link::end_of_elaboration() { far_ = receiver(); }

void Link::packet_arrives(int, Packet* pkt, Picos head_time) {
  if (cuts(pkt, head_time)) return drop(pkt, head_time);
  count(pkt, head_time);
  far_->packet_arrives(rx_port_, pkt, head_time + fly_);
}

void Link::credits_arrive(int, const CreditTrain& train) { far_->credits_arrive(rx_port_, train.delayed(fly_)); }

void Link::fail_at(Picos t, LinkEndpoint* sender, int sender_port, PacketLoss* loss) {
  c_.fail_at = t;
  any_fault_ = true;
  sender_ = sender;
  sender_port_ = sender_port;
  loss_ = loss;
}

void Link::drop(Packet* pkt, Picos head_time) {
  ++dropped_;
  // The blocks leave the sender's port at link rate into the dead cable: free at once.
  if (sender_)
    sender_->credits_arrive(sender_port_, CreditTrain{head_time, byte_ps_, head_time, byte_ps_, pkt->length, pkt->vl});
  if (!loss_)
    throw FabricError(std::string(name()) + ": packet " + std::to_string(pkt->id) + " dropped with no loss sink");
  loss_->dropped(pkt, std::max(head_time, c_.fail_at));
}

}  // namespace ibsc::models
