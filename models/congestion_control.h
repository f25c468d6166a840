// InfiniBand congestion control (IBA 1.2 Annex A10): its parameters and its two plain-C++ parts,
// no SystemC, each testable alone.
//
// Switch side, CcMarker (one per switch, owned by it; congestion detection of its output ports):
//   The queue of output port o, VL w is every packet waiting in the switch's input buffers whose
//   route leaves on (o, w): counted in 64-byte blocks from its head's arrival to its grant. (The
//   switch is input-buffered: the output VL's queue is spread over the inputs, as the virtual
//   output queues of an IB switch chip are.) At each grant on (o, w), with the granted packet
//   already taken out of the queue:
//     over threshold   the blocks still queued for (o, w) >= threshold_blocks(T, buffer), where
//                      threshold_blocks(T, B) = ceil(B x (16 - T) / 16), B one input VL buffer
//                      in blocks, T = cc.threshold: T = 15 marks from B/16 on, T = 1 only with
//                      15/16 of a buffer queued, T = 0 never (no detection);
//     root or victim   the port is a root of congestion when, after this packet's credits are
//                      taken, (o, w) still has credits for another packet as large (the queue
//                      grows because the link is oversubscribed); otherwise a victim (the queue
//                      grows because the downstream buffer is full); a victim marks only when its
//                      port's bit is set in cc.victim_mask. (A10 asks for credits available; a
//                      buffer of one or two packets has none left after a grant even toward a
//                      host that sinks at link rate, so a root needs VL buffers of three packets
//                      or more to be seen as one: give such ports the victim-mask bit otherwise.)
//     eligible         a data packet (not a CNP or a transport ACK/NACK), not marked yet, of at
//                      least cc.packet_size_blocks blocks;
//     marking rate     A10's Marking_Rate: the number of eligible packets left unmarked between
//                      two marks (0: every one). Deterministic: per (o, w) a countdown, so N
//                      eligible packets in a row get ceil(N / (rate + 1)) marks, the first marked.
//   Counted per (port, VL): FECN marks, and grants over threshold as root and as victim.
//
// HCA side, CcSource (one per HCA, at the sender):
//   flow           per destination host (cc.flow: host, A10's QP level with one QP per pair) or
//                  per SL (cc.flow: sl, A10's SL level);
//   CCTI           per flow, from CCTI_Min; a BECN (a CNP arriving) raises it by CCTI_Increase, at
//                  most to CCTI_Limit; the CCTI_Timer (A10: per SL, free-running, a period of
//                  ccti_timer x 1.024 us) lowers every flow's CCTI by 1 at each expiry, never
//                  below CCTI_Min. Kept lazily: a flow stores its CCTI and the timer tick of its
//                  last change, and its CCTI at t is max(min, stored - ticks since), exact with no
//                  event per tick (ticks at k x period, k >= 1, from time 0);
//   Trigger_Threshold  A10 logs an event when a BECN brings a CCTI to it; counted here (0: off);
//   delay          a data packet of flow f sent at t with wire time W lets f's next data packet
//                  start at t + W + CCT[CCTI_f(t)] x W: the CCT holds inter-packet delays in
//                  units of the packet's own wire time (see default_cct()).
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "models/packet.h"
#include "models/sim_time.h"
#include "routing/enum_names.h"

namespace ibsc::models {

// cc.flow: what a CCTI belongs to at the source.
enum class CcFlow { Host, Sl };
inline constexpr EnumName<CcFlow> kCcFlowNames[] = {
    {CcFlow::Host, "host"},
    {CcFlow::Sl, "sl"},
};
constexpr const auto& enum_names(CcFlow) { return kCcFlowNames; }

// Packet::cc bits.
constexpr uint8_t kCcFecn = 1;  // marked by a switch on its way (forward explicit congestion notification)
constexpr uint8_t kCcCnp = 2;   // a congestion notification packet: the BECN back to the source

// IBSC's own default CCT (OpenSM ships none): kDefaultCctEntries entries, entry i an inter-packet
// delay of i / 4 packet times, so that index i sends at 4 / (4 + i) of the link rate. Why: the
// rate a flow needs when n equal senders share one link is 1/n, reached at index 4 (n - 1); the
// 128 entries reach 1/32.75 (32 senders into one host), and each step adds the same delay, a
// quarter packet, so the timer's decrease recovers rate evenly. In packet times rather than ns,
// the table means the same at every link rate and packet size.
constexpr int kDefaultCctEntries = 128;
std::vector<double> default_cct();

struct CcParams {
  bool enabled = false;  // cc.enable; off: no switch marks, no HCA throttles, nothing changes
  // Switch (A10 SwitchCongestionSetting / SwitchPortCongestionSetting, the same on every port).
  int threshold = 8;                // cc.threshold 0..15, see threshold_blocks()
  uint32_t marking_rate = 0;        // cc.marking_rate, eligible packets left unmarked between marks
  uint32_t packet_size_blocks = 0;  // cc.packet_size_blocks, smaller packets are not marked
  std::vector<int> victim_ports;    // cc.victim_mask, port numbers that mark as victims too
  // The CNP (BECN) from the destination HCA.
  uint32_t cnp_bytes = 32;  // cc.cnp_bytes on the wire (LRH + BTH + CRCs, as an ACK)
  int cnp_sl = -1;          // cc.cnp_sl; -1: the SL of the path record back to the source
  // Source (A10 CACongestionSetting and CongestionControlTable).
  CcFlow flow = CcFlow::Host;                    // cc.flow
  uint32_t ccti_increase = 1;                    // cc.ccti_increase per BECN
  uint32_t ccti_timer = 10;                      // cc.ccti_timer, units of 1.024 us; 0: never decreases
  uint32_t ccti_min = 0;                         // cc.ccti_min
  uint32_t ccti_limit = kDefaultCctEntries - 1;  // cc.ccti_limit, at most the CCT's last index
  uint32_t trigger_threshold = 0;                // cc.trigger_threshold; 0: no events
  std::vector<double> cct = default_cct();       // cc.cct, packet times per index
  // Results: period of the CCTI and throughput time series (0: none).
  double sample_ns = 0;  // cc.sample_ns

  static constexpr int kMaxThreshold = 15;
  static constexpr uint32_t kTimerUnitPs = 1024000;  // A10's CCTI_Timer unit, 1.024 us
  Picos timer_period_ps() const { return static_cast<Picos>(ccti_timer) * kTimerUnitPs; }
  void validate() const;  // throws ParamError naming the cc.* key
  bool victim(int port) const {
    return std::find(victim_ports.begin(), victim_ports.end(), port) != victim_ports.end();
  }
};

// Blocks queued for an output VL from which threshold T (1..15) detects congestion, for input VL
// buffers of `buffer_blocks`; 0 for T = 0 (detection off). The one place of the mapping.
inline int threshold_blocks(int t, int buffer_blocks) {
  if (t <= 0) return 0;
  return std::max(1, (buffer_blocks * (16 - t) + 15) / 16);
}

struct CcPortVlCounts {
  uint64_t fecn = 0;         // packets marked
  uint64_t over_root = 0;    // grants over threshold with credits downstream
  uint64_t over_victim = 0;  // grants over threshold without
};

class CcMarker {
 public:
  CcMarker(const CcParams& p, int num_ports, int num_vls, int buffer_blocks);
  // A packet whose route leaves on (port, vl) arrived: its blocks join that queue.
  void arrive(int port, int vl, int blocks) { at(port, vl).queued += blocks; }
  // The packet counted on (from_port, from_vl) is granted on (port, vl), where `credits_left`
  // remain after its own; true when it is to be marked (the caller sets the bit).
  bool grant(int from_port, int from_vl, int port, int vl, const Packet& pkt, int credits_left);
  int queued(int port, int vl) const { return c_[index(port, vl)].queued; }
  const CcPortVlCounts& counts(int port, int vl) const { return c_[index(port, vl)].n; }
  int threshold_blocks() const { return threshold_; }

 private:
  struct State {
    int queued = 0;     // blocks waiting for this output VL
    uint32_t skip = 0;  // eligible packets still to leave unmarked
    CcPortVlCounts n;
  };
  size_t index(int port, int vl) const { return static_cast<size_t>(port) * num_vls_ + vl; }
  State& at(int port, int vl) { return c_[index(port, vl)]; }
  int num_vls_;
  int threshold_;
  uint32_t rate_, min_blocks_;
  std::vector<uint8_t> victim_;  // [port]
  std::vector<State> c_;         // [port * num_vls + vl]
};

struct CcSourceCounts {
  uint64_t becn = 0;            // CNPs received
  uint64_t cnp_sent = 0;        // CNPs sent for FECN-marked arrivals
  uint64_t fecn_received = 0;   // marked data packets arrived here
  uint64_t trigger_events = 0;  // BECNs that brought a CCTI to Trigger_Threshold
};

class CcSource {
 public:
  // flows: destination hosts (CcFlow::Host) or 16 SLs.
  CcSource(const CcParams& p, int flows);
  int ccti(int flow, Picos t) const;
  // A BECN for `flow` arrives at t.
  void becn(int flow, Picos t);
  // A data packet of `flow` starts at t, `wire_ps` long on the link.
  void sent(int flow, Picos t, Picos wire_ps);
  // Earliest start of the flow's next data packet.
  Picos allowed(int flow) const { return f_[flow].next; }
  const CcSourceCounts& counts() const { return n_; }
  CcSourceCounts& counts() { return n_; }
  int flows() const { return static_cast<int>(f_.size()); }
  // Flows whose CCTI was ever raised (for time series), in first-BECN order.
  const std::vector<int>& touched() const { return touched_; }

 private:
  struct Flow {
    uint32_t ccti = 0;
    uint64_t tick = 0;  // timer ticks up to the last change
    Picos next = 0;     // allowed()
    bool touched = false;
  };
  uint64_t tick(Picos t) const { return period_ == 0 ? 0 : static_cast<uint64_t>(t / period_); }
  Picos period_;
  uint32_t increase_, min_, limit_, trigger_;
  std::vector<double> cct_;
  std::vector<Flow> f_;
  std::vector<int> touched_;
  CcSourceCounts n_;
};

}  // namespace ibsc::models
