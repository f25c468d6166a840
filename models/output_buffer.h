// Output buffers of a switch (switch.output_buffer_bytes_per_vl > 0): per output port and VL a
// FIFO of packets between the crossbar and the link, and the link-side stage that empties it.
// Off (0, the default) the switch is input-buffered only and this part does not exist.
//
// Two stages per output port:
//   crossbar side (the switch's arbitration, unchanged): a head is granted when its crossbar
//     input and output are free and the output VL's buffer has free space for the whole packet
//     (virtual cut-through on internal flow control); the switch's "credits" for (port, VL) are
//     then this buffer's free space, in 64-byte blocks, kept in the OutputPorts counters;
//   link side (here): on a core-clock edge the port's VL arbiter picks among the VLs whose head
//     packet may start on the link now: link free, link credits for the whole packet (the
//     downstream input buffer, counters here), and its bytes already in the buffer when the link
//     needs them (cut-through: the head may leave before the tail has come through the crossbar,
//     but the link send never ends before the crossbar transfer does).
// Inputs:     push (a granted packet and when its bytes arrive from the crossbar), link credits,
//             send (the link stage at time t).
// Outputs:    the packet sent on a port, its start time and the train of blocks it frees in the
//             buffer (the switch returns them to the crossbar-side counter); the earliest time a
//             port could send; packets and blocks held, for conservation and occupancy.
// Parameters: VLs, buffer per VL in blocks (a multiple of 64 bytes and at least one packet of
//             the run: the scenario check refuses smaller ones like the input buffer's), the
//             downstream buffer per VL (link credits), the VL arbitration of the port.
// Choices (seeds/004 gives 1 KB input and output buffers, crossbar at link rate, and a crossbar
//             arbiter taking the first request with room in its output; it says no more):
//   - the crossbar moves bytes at output link rate x speed-up, never before they have arrived in
//     the input buffer; the crossbar output (not the link) is busy until the tail has passed;
//   - the link stage runs on core-clock edges, after the crossbar arbitration of the same edge,
//     so that with equal rates a packet granted on an edge starts on the link on that edge: the
//     zero-load latency equals the input-buffered switch's (the crossbar transfer overlaps the
//     link);
//   - space frees block by block as the link sends; the whole packet's space is reserved at the
//     grant, as credits are for a link.
// Escape queues (switch.escape_queue_bytes > 0, seeds/003 puts them in every buffer): each
//             (port, VL) buffer holds an adaptive and an escape FIFO sharing its space. A packet
//             joins the queue of the candidate it was granted on (the switch's crossbar side
//             checks room for the packet plus the escape reserve for an adaptive one, so the
//             adaptive FIFO never holds more than capacity - reserve). On the link side an
//             adaptive head needs link credits for the packet plus the downstream switch's escape
//             reserve, an escape head for the packet only; within the VL the VL arbiter picks, the
//             head that entered first goes (the escape head at a tie).
// Events:     none; the switch calls it and schedules its own wake-ups from next_send().
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "models/credit_counter.h"
#include "models/link_protocol.h"
#include "models/packet.h"
#include "models/ring_queue.h"
#include "models/vl_arbiter.h"

namespace ibsc::models {

// A packet in an output buffer.
struct Buffered {
  Packet* pkt = nullptr;
  Picos in_start = 0;   // its head entered the buffer
  Picos in_end = 0;     // its tail entered the buffer (crossbar transfer ends)
  Vl vl = 0;            // output VL
  bool escape = false;  // in the escape queue (escape queues only)
};

// What send() did: the packet, when its head starts on the link, the blocks it frees.
struct LinkSend {
  Packet* pkt = nullptr;
  Picos start = 0;
  CreditTrain freed;
};

class OutputBuffers {
 public:
  // Ports are numbered 1..num_ports (0 unused). link_reserve > 0: escape queues, and the
  // downstream escape reserve an adaptive head leaves free (blocks).
  void configure(int num_ports, int num_vls, int buffer_blocks, int link_reserve = 0);
  int capacity_blocks() const { return blocks_; }
  // A port with a cable: link credits start full with the downstream buffer; its byte time.
  void connect(int port, int peer_buffer_blocks, Picos byte_ps, const VlArbParams& vlarb);

  void push(int port, const Buffered& b);
  const CreditCounter& link_credits(int port, int vl) const { return credits_[index(port, vl)]; }
  // Link credits returned by the downstream buffer (train.vl); false when the counter would
  // exceed that buffer.
  bool add_link_credits(int port, const CreditTrain& train) {
    forget_starts(port, train.vl);
    return credits_[index(port, train.vl)].add(train);
  }

  // Earliest time >= lower at which the head of (port, vl) may start on the link (kNever when
  // empty or its link credits wait for the downstream node to free space).
  Picos head_start(int port, int vl, Picos lower) const;
  // Earliest time >= lower at which the port may send anything; kNever: nothing to wait for.
  Picos next_send(int port, Picos lower) const;
  // The link stage of `port` at t: sends at most one packet (the link is then busy). False if
  // none may start at t.
  bool send(int port, Picos t, LinkSend& out);

  size_t queued(int port, int vl) const {
    return queues_ == 1 ? q_[index(port, vl)].size() : q_[qindex(port, vl, 0)].size() + q_[qindex(port, vl, 1)].size();
  }
  size_t queued_total() const { return total_; }
  // The first port >= from (ports 1..num_ports) with a packet in its buffers, 0 if none: the
  // link side visits only those (a port without packets can neither send nor wait to).
  int next_port(int from) const {
    for (int p = from; p < static_cast<int>(vls_held_.size()); ++p)
      if (vls_held_[p]) return p;
    return 0;
  }
  Picos link_busy(int port) const { return link_busy_[port]; }

 private:
  size_t index(int port, int vl) const { return static_cast<size_t>(port) * num_vls_ + vl; }
  size_t qindex(int port, int vl, bool escape) const { return index(port, vl) * queues_ + escape; }
  // Earliest time >= lower the head of one queue may start (kNever: empty or no credits).
  Picos queue_start(int port, int vl, bool escape, Picos lower) const {
    return std::max(lower, queue_ready(port, vl, escape));
  }
  // The same for any lower bound: queue_start(lower) == max(lower, queue_ready). The head's
  // start only depends on lower through that max (credits only ever come back as time goes
  // on), so the value is kept until the queue's head, the port's link or the VL's link credits
  // change. A saturated switch asks for every port's next start at each of its wake-ups; most
  // of them wait on credits, and recomputing each touched a packet and a counter per VL.
  // The bit of queue (vl, escape) in ready_known_[port].
  unsigned ready_bit(int vl, bool escape) const { return 1u << (vl * queues_ + escape); }
  Picos queue_ready(int port, int vl, bool escape) const {
    const unsigned bit = ready_bit(vl, escape);
    const size_t q = qindex(port, vl, escape);
    if (!(ready_known_[port] & bit)) {
      ready_[q] = compute_ready(port, vl, escape);
      ready_known_[port] |= bit;
    }
    return ready_[q];
  }
  Picos compute_ready(int port, int vl, bool escape) const;
  // The earliest start of any head of the port (kNever: none may start), kept likewise.
  Picos port_ready(int port) const {
    if (!port_known_[port]) {
      Picos best = kNever;
      for (unsigned m = vls_held_[port]; m; m &= m - 1) best = std::min(best, head_start(port, __builtin_ctz(m), 0));
      port_ready_[port] = best;
      port_known_[port] = 1;
    }
    return port_ready_[port];
  }
  void forget_starts(int port) {
    ready_known_[port] = 0;
    port_known_[port] = 0;
  }
  void forget_starts(int port, int vl) {
    ready_known_[port] &= ~(ready_bit(vl, false) | ready_bit(vl, queues_ == 2));
    port_known_[port] = 0;
  }
  std::unique_ptr<RingQueue<Buffered>[]> q_;  // [(port * num_vls + vl) * queues + escape]
  int queues_ = 1;                            // per (port, VL): 2 with escape queues
  int link_reserve_ = 0;                      // blocks an adaptive head leaves free downstream
  std::unique_ptr<CreditCounter[]> credits_;  // link credits, [port * num_vls + vl]
  std::unique_ptr<VlArbiter[]> vlarb_;        // link-side VL arbiter, [port]
  std::unique_ptr<Picos[]> link_busy_;        // [port]: until its last packet's tail is sent
  std::unique_ptr<Picos[]> byte_ps_;          // [port]
  int num_vls_ = 1;
  int blocks_ = 0;
  size_t total_ = 0;
  // [port]: bit v set while VL v of the port holds a packet (either queue), so that scans skip
  // the empty VLs and ports.
  std::vector<uint16_t> vls_held_;
  // queue_ready's values, [qindex], and [port]: bit (vl * queues + escape) set while known.
  mutable std::unique_ptr<Picos[]> ready_;
  mutable std::vector<uint32_t> ready_known_;
  mutable std::unique_ptr<Picos[]> port_ready_;  // [port]
  mutable std::vector<uint8_t> port_known_;      // [port]
};

}  // namespace ibsc::models
