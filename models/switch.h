// IBA switch: per input port and VL a buffer, per output port and VL a credit counter, a VL
// arbiter per output, one switch arbiter (C++ model or RTL) and a non-multiplexed crossbar.
// The switch wires its parts and decides when to arbitrate; each part is a file of its own:
//   input_buffer.h  per-VL queues, overflow check, occupancy; with escape queues (adaptive
//                   routing, seeds/003) an adaptive and an escape queue per VL, split there;
//   sl2vl_lookup.h  SL2VL / VL2VL look-up, equal tables shared;
//   vl_arbiter.h    the VL arbiter of each output (round-robin or VLArb tables);
//   output_port.h   credit counters, VL requests, busy time;
//   crossbar.h      transfer timing and speed-up;
//   output_buffer.h optional (switch.output_buffer_bytes_per_vl > 0): per output port and VL a
//                   buffer between crossbar and link, and the link side that empties it; the
//                   output ports' counters then hold its free space, and grants fill it;
//   switch_arbiter.h the input-to-output matching (C++ model or Verilated RTL, an interface);
//   output_request_queue.h optional (switch.output_request_queue: fifo | fifo_head, seeds/004):
//                   instead of the switch arbiter, a FIFO request queue per output crossbar port
//                   decides which head each free output serves (switch_request_queue.cpp).
// The LFT look-up and the wake-up computation stay here: they read all parts at once.
//
// Ports:   rx (sc_export, all incoming links) and tx[p] (sc_port to the outgoing link of port p).
// Timing:  a packet whose head arrives at t may be granted on the first core-clock edge at or
//          after t + routing delay, when its input port is free, a candidate output is free and
//          that output's VL has credits for the whole packet (virtual cut-through; an adaptive
//          candidate, with escape queues, also for the downstream escape queue). Its head then
//          leaves at once (later only if a slower input would make the output underrun) and the
//          output is busy for length x byte time. Bytes leave the input buffer at crossbar speed
//          (output rate x speed-up) and each freed 64-byte block returns one credit upstream.
// Events:  one sc_event; the switch runs only on edges where a grant may be possible, computed
//          from queued heads, busy times and credit trains. An idle switch never runs.
#pragma once
#include <systemc>

#include <memory>
#include <string>
#include <vector>

#include "models/congestion_control.h"
#include "models/crossbar.h"
#include "models/fabric_monitor.h"
#include "models/input_buffer.h"
#include "models/link.h"
#include "models/link_protocol.h"
#include "models/output_buffer.h"
#include "models/output_port.h"
#include "models/output_request_queue.h"
#include "models/port_counters.h"
#include "models/scheduler.h"
#include "models/sl2vl_lookup.h"
#include "models/switch_arbiter.h"
#include "models/switch_params.h"
#include "routing/tables.h"

namespace ibsc::models {

class AdaptiveArbiter;

class Switch : public sc_core::sc_module, public LinkEndpoint, public Wakeable {
 public:
  // rx and tx are declared at the end of the class: the hot state comes first, next to the
  // interface pointers callers read.

  // byte_ps[p]: byte time of the cable on port p (0 = unconnected).
  Switch(sc_core::sc_module_name name, const SwitchParams& params, const routing::SwitchTables& tables,
         const std::vector<Picos>& byte_ps, SwitchArbiter& arbiter, FabricMonitor& monitor, Scheduler& sched);

  void packet_arrives(int port, Packet* pkt, Picos head_time) override;
  void credits_arrive(int port, const CreditTrain& train) override;
  void prefetch_arrival(int port, const Packet* pkt) const override;
  void prefetch_credits(int port, int vl) const override;
  void prefetch(const WakeHints& hints, int stage) const override;

  int num_ports() const { return num_ports_; }
  // For the deadlock watchdog: the channels the head of (input port, VL) waits for, as
  // (output port, output VL) pairs; empty when that queue is empty or its head is not ready.
  // With output buffers the pair names the output buffer, which is FIFO toward the same
  // downstream input buffer: the wait-for graph through it has the same cycles.
  std::vector<std::pair<int, int>> waits_of(int in_port, int vl, Picos now) const;
  size_t queued(int in_port, int vl) const { return connected(in_port) ? in_.queued(in_port, vl) : 0; }
  uint64_t head_packet_id(int in_port, int vl) const;
  // Head-of-line blocking, for measurement (the testbench samples it; seeds/004): packets queued
  // on (input port, VL) behind a head that is routed and still waiting at `now`, bound for
  // another output port than that head, i.e. packets a queue per output would not hold back.
  int hol_blocked(int in_port, int vl, Picos now) const;
  // Link credits available at t on (output port, VL), for waves and tests.
  int credits(int out_port, int vl, Picos t) const;
  // Output buffers (none unless switch.output_buffer_bytes_per_vl > 0): packets held, for
  // conservation, and blocks of (output port, VL) held or reserved at t, for occupancy.
  size_t queued_in_output_buffers() const;
  int output_occupancy_blocks(int out_port, int vl, Picos t) const;
  uint64_t grants() const { return grants_; }
  // Blocks of the (input port, VL) buffer holding data at time t (queued + still draining).
  int occupancy_blocks(int in_port, int vl, Picos t) const;
  // Per input port, the output port granted by the last arbitration that asked the switch
  // arbiter (0: none).
  int last_grant_out(int in_port) const {
    if (single_grant_) return single_in_ != 0 && in_port == single_in_ ? single_out_ : 0;
    for (const Grant& g : grants_now_)
      if (g.in == in_port) return g.out;
    return 0;
  }
  // What each input asked the switch arbiter at the last arbitration, kept for waves only
  // after record_requests(true) (off by default: one copy per request on the hot path).
  struct RequestRecord {
    int in_vl = -1;              // input VL of the requesting head; -1: no request
    int out_vl = -1;             // output VL it asked for
    int granted = 0;             // output port granted to it then, 0: none
    std::vector<uint8_t> ports;  // candidate output port numbers offered to the arbiter
  };
  void record_requests(bool on) { recording_ = on; }
  // Named counters per port and VL (port_counters.h); off (null) until enabled. reset starts
  // a measuring window at t; account_waits(t) charges the heads' waits up to t (now), so that
  // the counters read right at t.
  void enable_counters();
  const PortCounters* counters() const { return ctr_.get(); }
  void reset_counters(Picos t) {
    if (ctr_) ctr_->reset(t);
  }
  void account_waits(Picos t);
  // Congestion control (IBA A10): FECN marking at the output ports; off (null) until enabled,
  // before the run. Its per-port and VL counts are in cc(); with counters on, FECN marks are
  // also in counters()' fecn.
  void enable_cc(const CcParams& p);
  const CcMarker* cc() const { return cc_.get(); }
  // The head of (input port, VL) at t, as the counters classify it (for waves): 0 none waiting
  // (empty, not yet routed, or its input still draining), 1 credit stall, 2 output-busy stall,
  // 3 both (output busy and credits short), 4 waiting for arbitration (lost it, or the edge).
  int head_stall(int in_port, int vl, Picos t) const;
  // Time of the last arbitration recorded (kNever before any), and per input port (index =
  // port number) its record; inputs that did not request then have in_vl -1.
  Picos requests_time() const { return rec_time_; }
  const std::vector<RequestRecord>& last_requests() const { return rec_; }

 private:
  // A (head, candidate output) pair that could be granted this cycle.
  struct Eligible {
    uint8_t in, vl, out, out_vl, priority;
    bool escape;  // the candidate's queue (escape queues only)
  };
  // Per port number, both directions: the scalars one visit reads, in one cache line.
  struct alignas(64) Port {
    InputPortState in;    // input buffer's counters and the crossbar input's busy time
    OutputPortState out;  // output port's busy time, link and VL requests
  };
  static_assert(sizeof(Port) == 64, "a port's record is one cache line");

  void end_of_elaboration() override;
  void wake() override;
  void arbitrate(Picos t);
  // Steps 3 and 4 for one eligible head (input `in`, VL `vl`, `length` credits) on one output
  // with `available` credits on its VL now.
  __attribute__((always_inline)) inline void arbitrate_single(int in, int vl, int out, Vl out_vl, uint8_t priority,
                                                              int length, int available, Picos t);
  void arbitrate_head(Picos t);  // every eligible pair is one head's (adaptive: several outputs)
  // With output request queues (switch_request_queue.cpp), cold: arbitrate() and
  // earliest_grant() hand over to these, and grants keep the queues in step.
  __attribute__((noinline, cold)) void arbitrate_fifo(Picos t);
  __attribute__((noinline, cold)) Picos earliest_grant_head_only(int i, const InputVl& iv, Picos lower) const;
  __attribute__((noinline, cold)) void request_head(int i, int q, const InputVl& iv, Picos t);
  __attribute__((noinline, cold)) void requeue(int i, int q, const InputVl& iv, const Queued& granted, Picos t);
  // Head h's candidate on output port o (the first listing it), or null.
  const routing::PortCandidate* candidate_on(const Queued& h, int o) const {
    for (auto c = cand_first(h), end = c + h.count; c != end; ++c)
      if (c->port == o) return c;
    return nullptr;
  }
  int queue_index(int i, const InputVl& iv) const { return static_cast<int>(&iv - &in_.at(i, 0)); }
  void schedule_next(Picos t_min);
  void wake_for(int in_port, const InputVl& iv);  // wake-up for the head of one input VL only
  // What a wake-up for the head of `iv` (input i) reads first, for the scheduler to prefetch.
  WakeHints hints(int i, const InputVl& iv) const;
  Vl out_vl(int in_port, int out_port, const Queued& h) const { return sl2vl_(in_port, out_port, h.sl2vl_key); }
  // The same for candidate c of h, without the table for the first (usually the only) one.
  // (A port listed twice has one output VL: the table is keyed by ports, not by candidates.)
  Vl out_vl(int in_port, const routing::PortCandidate* c, const Queued& h) const {
    return c->port == h.first.port ? h.first_vl : out_vl(in_port, c->port, h);
  }
  // Earliest time >= lower at which the head of input VL `iv` of input `i` could be granted.
  __attribute__((always_inline)) inline Picos earliest_grant(int i, const InputVl& iv, Picos lower) const;
  // The worst priority level head h (input i) may take at t: with ar_fallback: credits the
  // best level among its candidates with credits for it (busy or not), else every level (0xFF).
  int fallback_level(int i, const Queued& h, Picos t) const {
    return __builtin_expect(!fallback_on_credits_ || h.count < 2, 1) ? 0xFF : best_credited_level(i, h, t);
  }
  int best_credited_level(int i, const Queued& h, Picos t) const;
  // From t on, when candidate c of head h could take its `need` blocks (output free, credits
  // back); marks the credit counter waited-on when the credits come later.
  __attribute__((always_inline)) inline Picos candidate_time(int i, const routing::PortCandidate* c, const Queued& h,
                                                             int need, Picos t) const;
  // Until when the crossbar input the head of `iv` (on input i) needs is busy.
  // With escape queues both queues of a VL share the VL's crossbar input.
  Picos xbar_busy(int i, const InputVl& iv) const {
    if (!xbar_per_vl_) return port_[i].in.xbar_busy;
    return escape_ ? std::max(iv.last.done, in_.sibling(iv).last.done) : iv.last.done;
  }
  // Credits candidate c needs for a packet of `need` blocks: an adaptive one (with escape
  // queues) also the downstream escape queue's reserve, so that the packet lands in the
  // adaptive queue and the escape queue's MTU stays free (input_buffer.h).
  int need_for(const routing::PortCandidate* c, int need) const { return c->escape ? need : need + reserve_; }
  void grant(int i, int v, int o, Vl w, Picos t);
  // Cold (only with output buffers): kept out of grant()'s body.
  __attribute__((noinline, cold)) void grant_to_buffer(int i, int v, int o, Vl w, Picos t);
  bool granted_escape(int i, int v, int o) const;  // escape queues: the granted candidate's queue
  // Free space (crossbar side) returned on (port, VL): link credits, or with output buffers the
  // blocks the link has sent; wakes the heads waiting for it.
  inline void space_returns(int port, const CreditTrain& train);
  void link_credits_arrive(int port, const CreditTrain& train);
  void run_links(Picos t, bool stale);
  void wake_link(int o);
  std::string where(int port, int vl) const;
  void refuse_route(const Packet& pkt, uint32_t route) const;  // throws the LFT error
  bool shared_routes(const routing::SwitchTables& tables);     // construction: see routes_
  bool lft_in_place(const routing::SwitchTables& tables);
  void flatten_routes(const routing::SwitchTables& tables);
  void configure_parts();
  bool connected(int port) const { return port_[port].out.byte_ps != 0; }

  // The input queue offered first after queue v was granted. Without a branch: which queue went
  // last is data, a coin toss to the branch predictor.
  int8_t rr_after(int v) const {
    const int next = v + 1;
    return static_cast<int8_t>(next & -static_cast<int>(next != queues_));
  }

  // Members read on every visit first, right after the base classes, so that one visit touches
  // few cache lines of the switch object; what only construction, errors or waves read follows.
  // The per-port and per-(port, VL) arrays are fixed at construction: plain owning pointers
  // (the parts' arrays too), 8 bytes each here rather than 24 for a vector.
  int num_vls_;
  int num_ports_ = 0;
  int queues_;       // input queues per port: num_vls_, or 2 x num_vls_ with escape queues
  int reserve_ = 0;  // escape queue blocks (0: none), see need_for()
  // The scheduler reads the wake-up's pending time and owner: next to the hot members the
  // wake-up then uses, not in a line of its own.
  WakeUp wake_;
  // The last arbitration's grants when it took the single-request shortcut (one grant at most,
  // kept here rather than in grants_now_'s storage): input (0: none) and output.
  bool single_grant_ = true;
  uint8_t single_in_ = 0, single_out_ = 0;
  Picos routing_ps_, clock_ps_;
  Crossbar xbar_;
  bool every_edge_;
  bool xbar_per_vl_;          // a crossbar input per input VL: its busy time is its last drain's end
  bool obuf_;                 // output buffers (ob_): the crossbar feeds them, the link side empties them
  bool escape_;               // escape queues (switch.escape_queue_bytes > 0): two queues per input VL
  bool fifo_;                 // output request queues (rq_) decide instead of the switch arbiter
  bool fifo_head_;            // ... serving only each queue's head (switch.output_request_queue: fifo_head)
  bool fallback_on_credits_;  // SwitchParams::ar_fallback: credits
  bool per_vl_lft_ = false;
  bool arbiter_single_;  // arbiter_.has_single(), asked once
  // arbitrate()'s lone-head path may run: the arbiter's shortcut, and no output buffers (whose
  // grant reads eligible_, which that path leaves empty).
  bool lone_path_;
  bool recording_ = false;
  bool counting_ = false;  // ctr_ is set
  bool cc_on_ = false;     // cc_ is set: congestion control marks (congestion_control.h)
  bool hinting_ = false;   // wake-ups carry prefetch hints (the scheduler prefetches: large fabrics)
  bool in_wake_ = false;   // inside wake(), whose closing scan covers every head (space_returns)
  FabricMonitor& mon_;
  SwitchArbiter& arbiter_;
  AdaptiveArbiter* model_arbiter_;  // arbiter_ when it is IBSC's model (called directly), else null
  Picos last_arbitration_ = kNever;
  size_t queued_packets_ = 0;
  uint64_t grants_ = 0;
  size_t lids_ = 0;
  std::unique_ptr<Port[]> port_;  // [port]
  std::vector<int> active_;       // input ports with queued packets (any order)
  InputBuffer in_;
  // Each credit counter also carries the switch's mark "some head's earliest grant waits for my
  // credits": credits returned to a channel nobody waits on cannot move any wake-up earlier, so
  // they need no scan of the heads.
  OutputPorts out_;
  // The LFT flattened for the hot path: the entry of DLID d (for input VL v when the tables
  // have per-VL copies) is routes_[k], k = v * lids + d: 4 bytes with its first candidate
  // (count 0: no route, or a candidate port without a cable), so that the table, read at
  // random, stays small. All its candidates are cand_[route_begin_[k] .. + count), read only
  // for entries with several (both empty when none has). Compact per-VL tables (vl_lft.h) are
  // read in place, shared by all switches: k = column_[d] * pool_vls_ + v; so is one LFT whose
  // entries all name cabled ports (lft_in_place()), k = d.
  using Route = routing::Lft::Slot;
  static_assert(sizeof(Route) == 4, "an LFT entry, 4 bytes");
  const Route* routes_ = nullptr;
  const routing::PortCandidate* cand_ = nullptr;  // read by every scan of a head with several
  const uint32_t* column_ = nullptr;              // [DLID], compact per-VL tables only
  int pool_vls_ = 0;
  static constexpr uint32_t kNoLid = 0xFFFFFFFF;
  // This LID reads empty_route_ (an empty entry) with compact tables, has no route with one LFT
  // read in place.
  uint32_t own_lid_ = kNoLid;
  uint32_t empty_route_ = 0;
  // Read with the LFT on every arrival. Shared by equal tables; its owning pointer, last in it,
  // is its only cold part.
  Sl2VlLookup sl2vl_;
  struct Grant {
    int in, vl, out;
    Vl out_vl;
  };
  std::vector<Grant> grants_now_;                     // the last arbitration's grants, see last_grant_out()
  std::unique_ptr<OutputBuffers> ob_;                 // null unless obuf_
  std::unique_ptr<OutputRequestQueues> rq_;           // null unless fifo_
  std::vector<std::pair<OutputRequest, int>> picks_;  // arbitrate_fifo()'s choice per output

  uint32_t route_index(const Packet& p) const {
    if (!per_vl_lft_) return p.dlid < lids_ && p.dlid != own_lid_ ? static_cast<uint32_t>(p.dlid) : kNoRoute;
    if (column_) {
      if (p.dlid >= lids_ || p.vl >= pool_vls_) return kNoRoute;
      return p.dlid != own_lid_ ? column_[p.dlid] * pool_vls_ + p.vl : empty_route_;
    }
    size_t k = p.vl * lids_ + p.dlid;
    return k < lids_ * num_vls_ ? static_cast<uint32_t>(k) : kNoRoute;
  }
  static constexpr uint32_t kNoRoute = 0xFFFFFFFF;
  // The candidates of head h: its inline copy when there is one, else the LFT's (where the
  // arrival found them, so that the per-head reads skip the table).
  const routing::PortCandidate* cand_first(const Queued& h) const {
    return h.count == 1 ? &h.first : cand_ + h.cand_at;
  }
  // Cold: construction, the general arbitration path, errors and waves.
  SwitchParams p_;
  const routing::SwitchTables& tables_;
  const uint32_t* route_begin_ = nullptr;  // see routes_
  std::unique_ptr<Route[]> own_routes_;    // the storage of routes_, route_begin_ and cand_, unless shared
  std::vector<uint32_t> own_route_begin_;
  std::vector<routing::PortCandidate> own_cand_;
  // Per-cycle scratch of arbitrate(), shared by all switches (arbitration never nests): it
  // stays in the cache instead of costing lines of every switch.
  static std::vector<Eligible> eligible_;
  static std::vector<int> touched_;              // outputs some head could use this cycle
  static std::vector<ArbCandidate> head_cands_;  // arbitrate_head()'s candidates and their credits
  static std::vector<uint16_t> head_credits_;
  // The general path's vectors for the arbiter. With IBSC's model as the arbiter they are
  // shared by all switches of one size: the model reads the requests and only the requested
  // outputs' status, which arbitrate() writes first, and leaves them cleared (every request
  // invalid, every status busy). So they stay in the cache instead of costing some 60 lines of
  // every switch it visits (at 16,384 hosts these misses were a third of arbitrate's time).
  // Any other arbiter sees every output's status, so it gets vectors of its own.
  struct ArbScratch {
    ArbScratch(int ports, int vls);
    std::vector<ArbRequest> req;
    std::vector<ArbOutputStatus> status;
    std::vector<int> grant;
    std::vector<int> req_vl;  // per input: the input VL whose head requests
    std::vector<int> inputs;  // the requesting inputs, for the model (AdaptiveArbiter::arbitrate_inputs)
  };
  static ArbScratch& shared_scratch(int ports, int vls);
  std::unique_ptr<ArbScratch> own_scratch_;
  ArbScratch* arb_ = nullptr;
  Picos rec_time_ = kNever;
  std::vector<RequestRecord> rec_;  // [port], see last_requests()
  std::vector<int> rec_set_;        // ports whose record is set
  void clear_records(Picos t);
  void record(int in, int in_vl, int out_vl, const ArbCandidate* c, size_t n, int granted);
  std::unique_ptr<PortCounters> ctr_;  // null unless counting_
  std::unique_ptr<CcMarker> cc_;       // null unless cc_on_
  // Congestion control at a grant of pkt on (o, w), after its credits were taken; it was counted
  // on its first candidate (from_port, from_vl). Scalars only: a reference to the popped head
  // would keep it out of registers in grant().
  __attribute__((noinline, cold)) void cc_grant(int o, Vl w, Packet* pkt, int from_port, Vl from_vl, Picos t);
  // A wait of head h (on input i) over [a, t], split as port_counters.h says, charged to its
  // first candidate output port and VL.
  struct WaitSplit {
    Picos credit, busy;
    int out_port;
    Vl out_vl;
  };
  WaitSplit split_wait(int i, const Queued& h, Picos a, Picos t) const;
  __attribute__((noinline, cold)) void count_grant(int i, int v, int o, Vl w, const Queued& h,
                                                   const CreditTrain& drain);
  __attribute__((noinline, cold)) void count_arrival(int port, int vl, Picos head_time);

 public:
  sc_core::sc_export<LinkEndpoint> rx;
  std::vector<std::unique_ptr<sc_core::sc_port<LinkEndpoint>>> tx;  // index: port number (0 unused)
};

}  // namespace ibsc::models
