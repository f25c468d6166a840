// Scheduler: one SystemC process that wakes the fabric's modules at the times they ask for.
// A module keeps one WakeUp; asking for an earlier time than the pending one queues an entry,
// asking for a later one costs nothing. Entries due at the same time run in the order they
// were queued, so the order within a cycle is fixed by construction, not by the kernel, and
// SystemC sees one timed event per distinct time instead of one per module wake-up.
#pragma once
#include <systemc>

#include <cstdint>

#include "models/sim_time.h"
#include "models/wake_queue.h"

namespace ibsc::models {

// Lines the owner expects its wake-up to read first (its port, queue and credit records), kept
// with its pending wake-up: while one module runs, the scheduler prefetches those of the next
// few, so that their cache misses overlap with this one's work instead of following it. On a
// large fabric nearly every such line has left the cache since the module last ran. Hints only:
// null or stale pointers are harmless (a prefetch never faults), and they change no result.
struct WakeHints {
  static constexpr int kLines = 6;
  const void* line[kLines] = {};
};

class Wakeable {
 public:
  virtual ~Wakeable() = default;
  virtual void wake() = 0;
  // Deeper prefetching for a queued wake-up whose hint lines the scheduler has already
  // prefetched: stage 2 may read those lines to prefetch the neighbours' objects the wake-up
  // will call (the far ends of its links), stage 3 asks those objects to prefetch what they will
  // read. Hints only, as WakeHints; the default does nothing.
  virtual void prefetch(const WakeHints&, int /*stage*/) const {}
};

class Scheduler;

class WakeUp {
 public:
  WakeUp(Scheduler& s, Wakeable& owner);
  // Wake the owner at t (>= now), unless already due no later (inline below); with hints for
  // the scheduler's prefetching (only worth building when prefetching()).
  void at(Picos t);
  void at(Picos t, const WakeHints& hints);
  // Whether hints are used (Scheduler::prefetching): final once elaboration is over.
  bool prefetching() const;
  // The pending wake-up's time (kNever: none). It will run: a pending time only ever moves earlier.
  Picos pending() const { return pending_; }

 private:
  friend class Scheduler;
  Scheduler& sched_;
  Wakeable& owner_;
  Picos pending_ = kNever;
  WakeHints hints_;  // of the pending wake-up
};

class Scheduler : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Scheduler);
  explicit Scheduler(sc_core::sc_module_name name);
  // Whether run() prefetches (see WakeHints): only where the modules' state outgrows the cache,
  // since on a small fabric the prefetches find every line cached and only cost instructions.
  bool prefetching() const { return prefetch_; }
  // Run-ahead: lets run() go on to later wake-ups without returning to the kernel, up to (not
  // including) `until` and the kernel's next pending activity; 0 (the default) turns it off.
  // Only for runs where no module notifies a SystemC event from a wake-up and nothing traces
  // signals between the kernel's steps: the TLM sockets and the MPI hosts' message layer
  // refuse it (require_kernel_time), waves need it off. `until` is where the caller's
  // sc_start() ends, so that what it reads afterwards is the state at that time.
  void run_ahead_until(Picos until) { ahead_until_ = until; }
  // Times run() was entered by the kernel (for tests: run-ahead enters it less often).
  uint64_t activations() const { return activations_; }
  void push(Picos t, WakeUp* w) {
    queue_.push(t, w);
    if (!running_ && t < scheduled_) notify(t);  // from outside run(): the kernel must know
  }

 private:
  friend class WakeUp;
  void run();
  void notify(Picos t);
  void prefetch();
  // How many wake-ups ahead of the current one each stage of prefetch() works. Larger distances
  // (8, 6, 3, 2) measured no better at 16,384 hosts (8 alternating runs, within the noise).
  static constexpr size_t kAheadWakeUp = 6, kAheadHints = 4, kAheadStage2 = 2, kAheadStage3 = 1;
  // Modules at or above which the scheduler prefetches: about 2,000 switches and HCAs hold
  // some 60 MB of state (flattened butterflies, bench/large_fabric_bench), beyond a 32 MB L3.
  // The environment's IBSC_PREFETCH (on, off, auto; unset: auto) overrides this, so that the
  // tests run the prefetching on small fabrics and a benchmark can compare both on one binary.
  static constexpr size_t kPrefetchOwners = 2000;
  size_t owners_ = 0;
  size_t prefetch_from_ = kPrefetchOwners;  // owners at which prefetching starts (SIZE_MAX: never)
  bool prefetch_ = false;
  WakeQueue<WakeUp*> queue_;
  sc_core::sc_event ev_;
  Picos scheduled_ = kNever;  // time ev_ is notified for
  bool running_ = false;
  Picos ahead_until_ = 0;
  bool ahead_allowed_ = true;
  uint64_t activations_ = 0;
};

// Counted as they are built (elaboration): prefetching is decided once the last is.
inline WakeUp::WakeUp(Scheduler& s, Wakeable& owner) : sched_(s), owner_(owner) {
  if (++s.owners_ >= s.prefetch_from_) s.prefetch_ = true;
}

// Inline: several wake-up requests per packet-hop, most of them no earlier than the pending one.
inline void WakeUp::at(Picos t) {
  if (t >= pending_) return;
  pending_ = t;
  sched_.push(t, this);
}
inline void WakeUp::at(Picos t, const WakeHints& hints) {
  if (t >= pending_) return;
  pending_ = t;
  hints_ = hints;
  sched_.push(t, this);
}
inline bool WakeUp::prefetching() const { return sched_.prefetching(); }

}  // namespace ibsc::models
