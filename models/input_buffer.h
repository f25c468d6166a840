// Input buffer of a switch: per input port and VL a FIFO of packets, for all ports of one switch.
// With escape queues (switch.escape_queue_bytes > 0, adaptive routing with an escape channel,
// seeds/003 section 4.1) each VL buffer holds two FIFOs sharing its space: the adaptive queue
// (queue index = VL) and the escape queue (queue index = num_vls + VL).
//   Split:   a packet joins the adaptive queue when the VL buffer, the packet included, then
//            holds at most capacity - escape blocks; otherwise the escape queue. The adaptive
//            queue thus never holds more than capacity - escape blocks, and one escape queue's
//            worth (an MTU) stays free for the escape queue whenever that queue is empty.
//   Credits: per VL, as the IBA has them: the upstream counter mirrors the whole VL buffer. A
//            sender uses an adaptive candidate only with credits for the packet plus the escape
//            blocks (so the packet lands in the adaptive queue), the escape candidate with credits
//            for the packet alone (it lands in the adaptive queue if there is room, else in the
//            escape queue: a packet returns from the escape queue to an adaptive one at the next
//            switch). The switch's arbitration applies these rules; this part only splits.
//
// Inputs:     admit (a packet whose head arrives at head_time, with its routing result),
//             pop_head (the crossbar takes the head), draining (the granted packet's credit train:
//             when each of its blocks leaves the buffer).
// Outputs:    the head of each (port, VL); per port the VLs with a head and the packets queued;
//             occupancy in 64-byte blocks at any time.
// Parameters: VLs per port; buffer per VL in 64-byte blocks (the credits its upstream starts with);
//             escape queue per VL in blocks (0: none, one FIFO per VL as before).
// Checks:     overflow at head arrival: blocks queued + blocks of the packet still draining + the
//             new packet (virtual cut-through reserves the whole packet) must fit the buffer.
// Events:     none; the switch calls it.
// Layout:     one two-line record per (port, VL), port-major in one array: the first line holds
//             what an arrival and a grant read (the head, kept outside the ring so that a packet
//             arriving at an empty queue never touches the ring's storage), the second the packet
//             still draining. The per-port counters are an InputPortState, 16 bytes of the
//             switch's one-line port record, which the switch passes in.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include "models/link_protocol.h"
#include "models/packet.h"
#include "models/ring_queue.h"
#include "routing/tables.h"

namespace ibsc::models {

// A packet in an input buffer, with what its arrival looked up for the grant.
struct Queued {
  Packet* pkt = nullptr;
  Picos ready = 0;               // head arrival + routing delay
  uint32_t cand_at = 0;          // with several candidates: where they start in the switch's list
  uint32_t blocks = 0;           // credits the whole packet needs
  uint8_t sl2vl_key = 0;         // SL (or input VL with a VL2VL table): selects the output VL
  Vl first_vl = 0;               // output VL toward the first candidate, looked up on arrival
  routing::PortCandidate first;  // the first candidate, copied: deterministic routes never
  uint16_t count = 0;            // read the LFT again; count = candidates of the entry
};

struct Draining {  // a granted packet still leaving the buffer, for the overflow check
  CreditTrain drain;
  Picos done = 0;  // its last block freed
};

// One (input port, VL) buffer in two cache lines.
struct alignas(64) InputVl {
  Queued head;               // pkt == nullptr if the queue is empty
  RingQueue<Queued> behind;  // packets behind the head, in arrival order
  int queued_blocks = 0;     // head and packets behind it
  // Blocks of the last granted packet, a copy of last.drain.blocks() kept in the first line:
  // an arrival reads the second line only when the buffer could be near full.
  uint32_t last_blocks = 0;
  // An input grants again only once its last packet has drained, so at most one packet per
  // input VL is draining at any time: the last one granted.
  Draining last;
};
static_assert(sizeof(InputVl) == 128, "an input VL's record is two cache lines");

// What the switch's port record holds for the input side of a port.
struct InputPortState {
  Picos xbar_busy = 0;  // crossbar input: until its last granted packet has left the buffer
  uint32_t queued = 0;  // packets in all VLs of this input
  uint16_t heads = 0;   // VLs with a head, so scans skip the empty VLs' lines
  int8_t rr_vl = 0;     // VL whose head is offered first to the switch arbiter
  // With escape queues, per VL: its escape queue may hold blocks (set by a packet joining it;
  // cleared by an arrival that finds it empty and drained), so that arrivals read its record
  // only then.
  uint8_t escape_used = 0;
};
static_assert(sizeof(InputPortState) == 16, "a quarter of the port's cache line");

class InputBuffer {
 public:
  // Ports are numbered 1..num_ports (0 unused); a port's VLs are all allocated, idle or not.
  // escape_blocks > 0: two queues per VL (see above); then 2 x num_vls <= 16.
  void configure(int num_ports, int num_vls, int buffer_blocks, int escape_blocks = 0);
  int capacity_blocks() const { return blocks_; }
  int escape_blocks() const { return escape_blocks_; }
  int queues() const { return queues_; }  // per port: num_vls, or 2 x num_vls with escape queues
  int vl_of(int queue) const { return queue < num_vls_ ? queue : queue - num_vls_; }
  // at(port, q): queue q of the port (q = VL without escape queues).
  InputVl& at(int port, int q) { return ivl_[index(port, q)]; }
  const InputVl& at(int port, int q) const { return ivl_[index(port, q)]; }
  // The other queue of the same VL buffer (escape queues only).
  const InputVl& sibling(const InputVl& iv) const {
    const size_t i = static_cast<size_t>(&iv - ivl_.get());
    return ivl_[i % queues_ < static_cast<size_t>(num_vls_) ? i + num_vls_ : i - num_vls_];
  }

  // Blocks the buffer would hold at head_time with a new packet of `blocks` added; above
  // capacity_blocks() the packet overflows it. Counting all of the draining packet's blocks
  // bounds the exact count; only past the bound does it read the blocks freed by head_time.
  int held_with(const InputVl& iv, int blocks, Picos head_time) const {
    int held = iv.queued_blocks + blocks;
    if (held + static_cast<int>(iv.last_blocks) > blocks_ && iv.last.done > head_time)
      held += static_cast<int>(iv.last_blocks - iv.last.drain.freed_by(head_time));
    return held;
  }
  // Blocks of one queue holding data at t: queued, and the draining packet's not yet freed.
  static int held_exact(const InputVl& iv, Picos t) {
    return iv.queued_blocks + (iv.last.done > t ? static_cast<int>(iv.last_blocks - iv.last.drain.freed_by(t)) : 0);
  }
  // With escape queues: the queue a packet of `blocks` whose head arrives at head_time joins
  // on VL `vl` of `port` (whose state is `ps`; see Split above), and in `held` what the VL
  // buffer then holds; held above capacity_blocks() is an overflow. As held_with(): counting
  // the draining packets whole bounds the count; only past the adaptive queue's limit does it
  // read their second lines for the exact count (below it, `held` is that bound, and the
  // queue the same). The escape queue's record is read only while ps.escape_used says it may
  // hold blocks (heads arrive on a port in time order, so once drained it stays so).
  int admit_queue(InputPortState& ps, int port, int vl, int blocks, Picos head_time, int& held) const {
    const InputVl& ad = at(port, vl);
    const bool esc = (ps.escape_used >> vl) & 1u;
    const InputVl* es = esc ? &at(port, num_vls_ + vl) : nullptr;
    held = ad.queued_blocks + static_cast<int>(ad.last_blocks) + blocks;
    if (es) held += es->queued_blocks + static_cast<int>(es->last_blocks);
    if (held <= blocks_ - escape_blocks_) return vl;
    held = held_exact(ad, head_time) + blocks;
    if (es) {
      const int e = held_exact(*es, head_time);
      if (e == 0 && es->last.done <= head_time) ps.escape_used &= static_cast<uint8_t>(~(1u << vl));
      held += e;
    }
    return held <= blocks_ - escape_blocks_ ? vl : num_vls_ + vl;
  }
  // Queues q on queue `vl` (a VL, or with escape queues a queue index) of the port `ps`
  // describes; true when it became that queue's head.
  bool push(InputPortState& ps, int vl, InputVl& iv, const Queued& q) {
    iv.queued_blocks += static_cast<int>(q.blocks);
    ++ps.queued;
    if (vl >= num_vls_) ps.escape_used |= static_cast<uint8_t>(1u << (vl - num_vls_));
    if (iv.head.pkt) {
      iv.behind.push_back(q);
      return false;
    }
    iv.head = q;
    ps.heads |= static_cast<uint16_t>(1u << vl);
    return true;
  }
  // As push(), for a packet of `blocks` whose record the caller then writes in place: the slot
  // (the head, or the last behind it), and in new_head whether it became the head. Written
  // field by field where it stays, the record is never built on the stack and copied with
  // wide loads that would wait for the narrow stores before them (store forwarding fails).
  Queued& emplace(InputPortState& ps, int vl, InputVl& iv, uint32_t blocks, bool& new_head) {
    iv.queued_blocks += static_cast<int>(blocks);
    ++ps.queued;
    if (vl >= num_vls_) ps.escape_used |= static_cast<uint8_t>(1u << (vl - num_vls_));
    new_head = iv.head.pkt == nullptr;
    if (!new_head) return iv.behind.emplace_back();
    ps.heads |= static_cast<uint16_t>(1u << vl);
    return iv.head;
  }
  // Takes the head of VL `vl` (which must have one) and returns it; the next packet moves up.
  Queued pop_head(InputPortState& ps, int vl, InputVl& iv) {
    const Queued h = iv.head;
    if (iv.behind.empty()) {
      iv.head.pkt = nullptr;
      ps.heads &= static_cast<uint16_t>(~(1u << vl));
    } else {
      iv.head = iv.behind.front();
      iv.behind.pop_front();
    }
    iv.queued_blocks -= static_cast<int>(h.blocks);
    --ps.queued;
    return h;
  }
  // The packet just taken leaves the buffer block by block as `drain` says.
  static void draining(InputVl& iv, const CreditTrain& drain) {
    iv.last = {drain, drain.last_time()};
    iv.last_blocks = drain.blocks();
  }

  // Packets queued on (port, VL), head included; both queues of the VL.
  size_t queued(int port, int vl) const {
    const InputVl& iv = at(port, vl);
    const size_t n = iv.behind.size() + (iv.head.pkt ? 1 : 0);
    return escape_blocks_ ? n + queued_in(at(port, num_vls_ + vl)) : n;
  }
  static size_t queued_in(const InputVl& iv) { return iv.behind.size() + (iv.head.pkt ? 1 : 0); }
  // Blocks of (port, VL) holding data at time t: packets whose head has arrived (ready -
  // routing_ps <= t) and the part of the draining packet not yet freed; both queues of the VL.
  int occupancy_blocks(int port, int vl, Picos t, Picos routing_ps) const;

 private:
  size_t index(int port, int q) const { return static_cast<size_t>(port) * queues_ + q; }
  int queue_occupancy(const InputVl& iv, Picos t, Picos routing_ps) const;
  std::unique_ptr<InputVl[]> ivl_;  // [port * queues + q]
  int num_vls_ = 1;
  int queues_ = 1;
  int blocks_ = 0;
  int escape_blocks_ = 0;
};

}  // namespace ibsc::models
