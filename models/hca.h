// Host channel adapter: the end node of the fabric.
//   send side:    a traffic source (given by the testbench) generates packets; each gets its
//                 (DLID, SL) from the host's path record and its VL from the port's SL2VL, and
//                 waits in the injection queue of that VL. The port sends one packet at a time
//                 at link rate, only with credits for the whole packet; among the VLs that have
//                 a packet and its credits, a round-robin VL arbiter (the switch's, vl_arbiter.h)
//                 picks the next. With InjectionQueues::Single (set_params) one FIFO holds every
//                 VL's packets and only its head may go. Path records: the first (primary) one, or, when the table
//                 set says PathChoice::RandomPerPacket (virtual networks, seeds/004 `vn`), one
//                 of the pair's records drawn uniformly per packet from the HCA's own random
//                 stream (path_seed), which no other draw shares: tables that never ask for it
//                 draw nothing, so their results do not change.
//   receive side: sinks at link rate; a packet is delivered when its tail arrives, and each
//                 64-byte block returns a credit as soon as it has arrived.
//   reliable transport (reliable_transport.h, off unless attached): generated packets go to it
//                 instead of the injection queue, and arrivals go to it instead of the host; it
//                 queues data, re-sends and ACK/NACKs through enqueue().
//   automatic path migration (APM, off unless enable_apm()): per destination, the index of the
//                 path record in use (the primary at first). migrate() moves a connection to
//                 another record, or marks the destination unreachable: its new packets are then
//                 discarded at generation (counted as abandoned, never silently). Who decides is
//                 the testbench's subnet-manager oracle (tb/fabric/link_faults.h).
//   congestion control (congestion_control.h, off unless enable_cc()): a data packet arriving
//                 with FECN makes the HCA send a CNP back to its source (cc.cnp_bytes, on the
//                 path record's SL or cc.cnp_sl), queued with the data of its VL; a CNP arriving
//                 raises its flow's CCTI (a BECN) and is not delivered to the host. At injection a
//                 data packet waits until its flow's inter-packet delay has passed; the send
//                 scheduler then looks at the first kCcLookahead packets of each VL's queue and
//                 sends the first whose flow may go (a flow's packets keep their order), as an
//                 HCA serving several QPs does; a CNP or a transport ACK/NACK never waits
//                 for a delay (congestion control throttles a flow's data).
//   packet loss:  packet_lost() takes back a packet a link fault dropped; the transport
//                 re-sends it (without the transport it is gone, counted as dropped).
// Events: one sc_event, woken for the next generation, delivery, possible injection or coalesced
// ACK timer (reliable_transport.h) only.
#pragma once
#include <systemc>

#include <memory>
#include <vector>

#include "models/congestion_control.h"
#include "models/credit_counter.h"
#include "models/fabric_monitor.h"
#include "models/flow_sequence.h"
#include "models/link.h"
#include "models/link_protocol.h"
#include "models/random_stream.h"
#include "models/ring_queue.h"
#include "models/scheduler.h"
#include "models/vl_arbiter.h"
#include "routing/enum_names.h"
#include "routing/tables.h"

namespace ibsc::models {

// The HCA's send side (hca.injection_queues): one injection queue per VL (PerVl), each sent when
// it has credits, or one FIFO for all VLs (Single): only its head may go, and a head without
// credits on its VL holds back the packets behind it on other VLs (head-of-line blocking at the
// source, as an adapter with one send queue has). Not with congestion control, whose send
// scheduler looks into each VL's queue.
enum class InjectionQueues { PerVl, Single };
inline constexpr EnumName<InjectionQueues> kInjectionQueuesNames[] = {
    {InjectionQueues::PerVl, "per_vl"},
    {InjectionQueues::Single, "single"},
};
constexpr const auto& enum_names(InjectionQueues) { return kInjectionQueuesNames; }

struct HcaParams {
  InjectionQueues injection_queues = InjectionQueues::PerVl;
};

// What the testbench plugs into an HCA to generate traffic and observe deliveries.
class HcaTraffic {
 public:
  virtual ~HcaTraffic() = default;
  // Picoseconds from the previous generation (or time 0) to the next; kNever for none.
  virtual Picos next_gap(int host) = 0;
  // Destination host and length for a new packet; false when this host sends nothing.
  virtual bool make(int host, Packet& p) = 0;
  virtual void generated(Packet& p, Picos t) = 0;  // may mark p as measured
  virtual void delivered(const Packet& p, Picos t) = 0;
};

class ReliableTransport;

class Hca : public sc_core::sc_module, public LinkEndpoint, public Wakeable {
 public:
  // rx and tx are declared at the end of the class: the hot state comes first.

  Hca(sc_core::sc_module_name name, int host, const routing::TableSet& tables, int num_vls, int peer_buffer_blocks,
      Picos byte_ps, HcaTraffic& traffic, FabricMonitor& monitor, Scheduler& sched, uint64_t path_seed = 1);

  void packet_arrives(int port, Packet* pkt, Picos head_time) override;
  void credits_arrive(int port, const CreditTrain& train) override;

  ~Hca() override;

  // Stops (or restarts) generation; queued packets still drain.
  void set_generating(bool on);
  // Packets at this source: in the injection queues, and held by the transport.
  size_t queued() const;
  size_t arriving() const { return arriving_.size(); }
  int credits(int vl, Picos t) const { return credits_[vl].available(t); }

  // Reliable transport: attach before the simulation starts; nullptr when off.
  void attach_transport(std::unique_ptr<ReliableTransport> t);
  ReliableTransport* transport() const { return rt_.get(); }
  // For the transport: a packet into the injection queue of its VL, and a packet's LRH
  // (SLID, DLID, SL, VL) toward p.dst_host from the path records.
  void enqueue(Packet* p) {
    queues_[single_queue_ ? 0 : p->vl].push_back(p);
    ++queued_;
  }
  // Before the run: the send side's organisation (HcaParams); refused with congestion control.
  void set_params(const HcaParams& p);
  void address(Packet& p);

  // APM (link faults). enable_apm before the run; record -1 marks dst unreachable.
  void enable_apm() { apm_.assign(tables_.hosts.size(), 0); }
  int path_in_use(int dst) const { return apm_.empty() ? 0 : apm_[dst]; }
  void migrate(int dst, int record);
  Lid dlid_in_use(int dst) const;
  void packet_lost(Packet* p);
  uint64_t migrations() const { return migrations_; }
  uint64_t unreachable() const { return unreachable_; }

  // Congestion control: call before the run; nothing changes unless p.enabled.
  void enable_cc(const CcParams& p);
  const CcSource* cc() const { return cc_.get(); }
  static constexpr int kCcLookahead = 8;

 private:
  void end_of_elaboration() override;
  void wake() override;
  void schedule_next(Picos now);
  // Earliest time a queued packet could be sent (link free, credits back), kNever if none can.
  [[gnu::noinline]] Picos earliest_injection(Picos now) const;
  void generate(Picos t);
  void inject(Picos t);
  // RandomPerPacket: gives the packet the (DLID, SL, VL) of one of its pair's records at random.
  void choose_path(Packet& p);
  // Congestion control (hca_cc.cpp), cold: a packet arriving (true: a CNP, consumed here), the
  // CNP for a marked one, injection and its earliest time with per-flow delays.
  __attribute__((noinline, cold)) bool cc_arrival(Packet* p, Picos t);
  void send_cnp(const Packet& data, Picos t);
  __attribute__((noinline, cold)) void inject_cc(Picos t);
  __attribute__((noinline, cold)) Picos earliest_injection_cc(Picos now) const;
  int cc_flow(const Packet& p) const {  // -1: a CNP or a transport ACK/NACK, never delayed
    if ((p.cc & kCcCnp) || p.kind != PacketKind::Data) return -1;
    return cc_per_sl_ ? p.sl : static_cast<int>(p.dst_host);
  }
  // Index in VL v's queue of the packet congestion control lets go at t, -1 for none.
  int cc_pick(int v, Picos t) const;

  // Members in the order a visit reads them, right after the base classes: the wake-up the
  // scheduler reads, then the send and receive state, so that a visit touches few lines; the
  // per-VL and per-destination arrays are owning pointers, 8 bytes each here.
  int num_vls_;
  Lid base_lid_;  // this port's LIDs: base_lid_ .. lid_end_ - 1
  bool generating_ = true;
  bool in_wake_ = false;       // inside wake(): no wake-up pending
  bool random_path_;           // PathChoice::RandomPerPacket: draw a record per packet
  bool cc_on_ = false;         // cc_ is set
  bool single_queue_ = false;  // InjectionQueues::Single: every packet in queues_[0]
  WakeUp wake_;
  int lid_end_;
  int host_;
  VlArbiter vlarb_;  // round-robin over the VLs ready to send
  Picos byte_ps_;
  HcaTraffic& traffic_;
  FabricMonitor& mon_;
  Picos next_gen_ = kNever;
  Picos link_busy_until_ = 0;
  size_t queued_ = 0;                             // packets in queues_: none spares the scans of VLs
  TxLink link_;                                   // tx's interface, fixed after elaboration
  std::unique_ptr<RingQueue<Packet*>[]> queues_;  // injection queue per VL (Single: [0] only)
  std::unique_ptr<CreditCounter[]> credits_;      // toward the switch input buffer, per VL
  // What generating a packet reads: the host's path records (shared with the other hosts of
  // its switch, routing/path_row.h) and the next sequence number of the flow, kept only for
  // the flows that have sent. Nothing here is per destination host.
  const routing::PathRow& paths_;
  FlowSequence seq_;
  uint32_t flow_base_;                             // host x hosts: flow of destination d is + d
  RingQueue<std::pair<Picos, Packet*>> arriving_;  // (tail time, packet), in arrival order
  // Cold.
  std::unique_ptr<ReliableTransport> rt_;
  RandomStream path_rng_;         // RandomPerPacket only
  std::unique_ptr<CcSource> cc_;  // null unless cc_on_
  bool cc_per_sl_ = false;        // CcFlow::Sl
  uint32_t cnp_bytes_ = 0;
  int cnp_sl_ = -1;
  std::vector<int8_t> apm_;  // per destination: record in use, -1 unreachable
  uint64_t migrations_ = 0, unreachable_ = 0;
  const routing::TableSet& tables_;
  const routing::HostTables& me_;

 public:
  sc_core::sc_export<LinkEndpoint> rx;
  sc_core::sc_port<LinkEndpoint> tx;
};

}  // namespace ibsc::models
