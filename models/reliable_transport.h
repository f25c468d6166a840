// Reliable transport of one HCA (seeds/003 section 3): both ends of its connections, one per
// ordered host pair, sequence numbers from the HCA's generation.
//   Source side: each data packet is kept (a copy of its header) until ACKed; the injection
//     control (injection_control.h) decides when a new packet or a re-send goes to the HCA's
//     injection queue; NACKed packets go again, oldest first, before new ones.
//   Destination side: data packets pass the rearrange buffer (reorder_buffer.h); the host gets
//     them in sequence, a delivery checker watches that, and ACK / NACK packets go back through
//     the fabric like any packet (their length a parameter; they take credits and links).
//   ACK coalescing (transport.ack_coalesce, ack_delay_ns): an ACK once that many packets are
//     delivered unACKed, the delay after the first of them, or with a message's last packet
//     (Packet::ack_req), at once while a NACKed packet is not yet ACKed; by default an ACK per
//     delivery run.
//   Mode ooo: no copies, no buffer, no ACK: delivered on arrival.
// Called from the HCA's own wake-up only (arrivals, generation, ACK timers: next_ack_due()), so
// it needs no event of its own: whatever it queues, the HCA's injection picks up in the same visit.
// Hook: on_ack() tells the source's user (the message layer) how far each ACK acknowledges.
// Link faults (tb/fabric/link_faults.h): a packet a failed link dropped comes back through lost():
//   data waits (parked) until its connection has migrated to another path (path_changed), then
//   goes again like a NACKed packet (and, under li / lw, puts the connection in LI as a NACK
//   does); a lost ACK or NACK is sent again the same way. This stands
//   for the retransmission timeout of a real RC connection, with the timeout replaced by the
//   subnet manager's knowledge of what was dropped: nothing is re-sent that arrived. A
//   connection whose destination no path reaches any more gives up its packets (abandoned).
// Counters: bytes sent by kind, ACKs, NACKs, out-of-order arrivals and deliveries, duplicates,
// buffer occupancy; conservation terms for the fabric's check.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "models/connection_table.h"
#include "models/delivery_checker.h"
#include "models/fabric_monitor.h"
#include "models/injection_control.h"
#include "models/reorder_buffer.h"
#include "models/ring_queue.h"
#include "models/sim_time.h"
#include "models/transport_params.h"

namespace ibsc::models {

class Hca;
class HcaTraffic;

struct TransportCounters {
  uint64_t app_generated = 0;  // data packets the host generated
  uint64_t app_delivered = 0;  // data packets handed to the destination host
  uint64_t data_sent = 0;      // data packets queued for injection (first sends and re-sends)
  uint64_t data_arrived = 0;   // data packets whose tail reached the destination NIC
  uint64_t first_bytes = 0;    // bytes of first sends
  uint64_t resent_packets = 0, resent_bytes = 0;
  uint64_t acks = 0, nacks = 0, control_bytes = 0;  // sent
  uint64_t nacks_received = 0;
  uint64_t out_of_order_arrivals = 0;    // data arrivals not carrying the expected sequence number
  uint64_t out_of_order_deliveries = 0;  // to the host (the checker): 0 unless mode ooo
  uint64_t duplicates = 0;               // to the host: always 0
  uint64_t stored = 0;                   // in rearrange buffers now
  uint64_t held = 0;                     // at sources, not yet queued for their first send
  uint64_t awaiting_resend = 0;          // NACKed, not yet queued again
  uint64_t transitions_to_li = 0;
  uint64_t data_dropped = 0;   // data packets a link fault dropped (each send counted)
  uint64_t nacks_dropped = 0;  // NACKs a link fault dropped
  uint64_t acks_dropped = 0;
  uint64_t abandoned = 0;   // host packets given up: their destination is unreachable
  Picos last_delivery = 0;  // time of the last delivery to a host
  void add(const TransportCounters& o);
};

class alignas(64) ReliableTransport {
 public:
  ReliableTransport(Hca& hca, int host, int hosts, const TransportParams& params, HcaTraffic& traffic,
                    FabricMonitor& monitor);
  ~ReliableTransport();

  // Source: a new data packet from the host, its sequence number and path set.
  void submit(Packet* p);
  // Destination or source: a packet whose tail has arrived at this NIC, at time t.
  void arrive(Packet* p, Picos t);

  // Link faults: a packet of this NIC that a failed link dropped; the pair's path record changed.
  void lost(Packet* p);
  void path_changed(int dst);

  size_t held() const { return counters_.held; }  // packets the HCA counts as queued at its source
  const TransportCounters& counters() const { return counters_; }
  // Rearrange-buffer occupancy: the most bytes each connection into this NIC ever held (MBS),
  // for connections that received anything, and the most this NIC held at once (MMS).
  std::vector<uint64_t> connection_max_bytes() const;
  uint64_t nic_max_bytes() const { return memory_.max_used(); }
  // The connections as they stood when this NIC's rearrange memory last reached a new peak
  // (seeds/003 Figure 7: at the worst moment, which buffers hold data, how full): those holding
  // data, those above half their cap, and those full (less than one 64-byte block free).
  struct PeakSnapshot {
    uint64_t bytes = 0;
    uint32_t holding = 0, over_half = 0, full = 0;
  };
  const PeakSnapshot& peak() const { return peak_; }
  size_t unacked(int dst) const {
    const Source* s = sources_.find(dst);
    return s ? s->window.size() : 0;
  }

  // ACK coalescing timers (transport.ack_delay_ns): the earliest time a coalesced ACK is due
  // (kNever: none, always so with ack_coalesce 1), and sending those due by `t`. The HCA wakes
  // for the first and calls the second in its visit.
  Picos next_ack_due() const { return ack_timers_.empty() ? kNever : ack_timers_.front().first; }
  void send_due_acks(Picos t);

  // Source: `f` runs at each ACK that acknowledges something new, with the destination host,
  // the highest sequence number now acknowledged (ACKs are cumulative) and the time; the message
  // layer completes a host's write there. Only mode reorder sends ACKs (acknowledges()).
  using AckListener = std::function<void(int dst, uint64_t acked_through, Picos t)>;
  void on_ack(AckListener f) { on_ack_ = std::move(f); }
  bool acknowledges() const { return p_.mode == TransportMode::Reorder; }

 private:
  // A data packet kept until ACKed: what a re-send's header needs besides the connection's
  // own fields (source, sequence number) and the path, which address() looks up again. Two
  // per cache line, where a copy of the whole header took two lines.
  struct Outgoing {
    Packet* first = nullptr;  // the packet itself until its first send
    Picos gen_time = 0;
    uint32_t length = 0;
    uint32_t dst_host = 0;
    uint32_t flow = 0;
    bool measured = false;
    enum class State : uint8_t { Held, InFlight, Nacked } state = State::Held;
  };
  static_assert(sizeof(Outgoing) == 32, "half a cache line");
  // Packets to send again: made at a connection's first NACK or drop, which most never see.
  struct Recovery {
    std::set<uint64_t> resend;  // NACKed, waiting
    std::set<uint64_t> parked;  // dropped by a link fault, waiting for the path to change
  };
  // What every send and ACK reads, in two cache lines (a connection per peer used: their size
  // is the transport's memory at scale).
  struct alignas(64) Source {
    explicit Source(InjectionControl c) : control(c) {}
    uint64_t base = 0;             // sequence number of window.front()
    uint64_t first_held = 0;       // first packet not yet sent (they are sent in order)
    uint64_t in_flight_bytes = 0;  // sent, neither ACKed nor NACKed
    RingQueue<Outgoing> window;    // unACKed, from base
    InjectionControl control;
    std::unique_ptr<Recovery> recovery;  // null: nothing to send again
    Recovery& recover() {
      if (!recovery) recovery = std::make_unique<Recovery>();
      return *recovery;
    }
  };
  static_assert(sizeof(Source) == 128, "two cache lines");
  struct Destination {
    ReorderBuffer buffer;
    DeliveryChecker checker;
    // ACK coalescing (ack_coalesce > 1): packets delivered since the last ACK, when the timer
    // of the first of them expires, and one past the highest sequence number NACKed / ACKed.
    uint32_t unacked = 0;
    Picos ack_due = kNever;
    uint64_t nacked_end = 0, acked_end = 0;
  };

  Source& source(int dst);
  Destination& destination(int src);
  void release(Source& s);  // hands to the HCA what the injection control lets go
  void send(Packet* p);     // into the HCA's injection queue, counted as generated
  void control(PacketKind kind, int to, uint64_t seq);
  void data_arrives(Packet* p, Picos t);
  void snapshot_peak();  // peak_ from the connections now
  void deliver(Packet* p, Picos t);
  // In-order deliveries of `src` up to the buffer's expected(): ACK now, or count and arm the timer.
  // asked: one of them is the last packet of a message (AckReq).
  void acknowledge(Destination& d, int src, size_t delivered, bool asked, Picos t);
  void send_ack(Destination& d, int src);
  void ack_arrives(const Packet& p, Picos t);
  void nack_arrives(const Packet& p);
  [[noreturn]] void fail(const std::string& what) const;

  // Members in the order a packet's visit reads them: the connections and the parameters
  // first, in one cache line with the HCA.
  Hca& hca_;
  FabricMonitor& mon_;
  ConnectionTable<Source> sources_;            // per destination host, made on first use
  ConnectionTable<Destination> destinations_;  // per source host, made on first use
  TransportParams p_;
  int hosts_;
  int host_;
  HcaTraffic& traffic_;
  ReorderMemory memory_;
  TransportCounters counters_;
  ReorderBuffer::Outcome outcome_;  // reused per arrival
  PeakSnapshot peak_;
  AckListener on_ack_;
  struct LostControl {
    PacketKind kind;
    int to;
    uint64_t seq;
  };
  std::vector<LostControl> parked_controls_;  // dropped ACK/NACKs, waiting for a path change
  // Coalesced ACKs' timers, (due, source host) in arming order, which is due order (one delay);
  // an entry whose connection has ACKed since (ack_due changed) is skipped.
  RingQueue<std::pair<Picos, int>> ack_timers_;
  void abandon(Source& s, uint64_t seq);
  // Packet `seq` was rejected (NACK) or dropped: the injection control enters LI (li, lw).
  void limit_injection(Source& s, uint64_t seq);
};

}  // namespace ibsc::models
