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

class Wakeable {
 public:
  virtual ~Wakeable() = default;
  virtual void wake() = 0;
};

class Scheduler;

// Lines the owner expects its wake-up to read first (its port, queue and credit records), kept
// with the queued entry: while one module runs, the scheduler prefetches those of the next, so
// that the next one's cache misses overlap with this one's work instead of following it. On a
// large fabric nearly every such line has left the cache since the module last ran. Hints only:
// null or stale pointers are harmless (a prefetch never faults), and they change no result.
struct WakeHints {
  static constexpr int kLines = 6;
  const void* line[kLines] = {};
};

class WakeUp {
 public:
  WakeUp(Scheduler& s, Wakeable& owner) : sched_(s), owner_(owner) {}
  // Wake the owner at t (>= now), unless already due no later (inline below).
  void at(Picos t);
  void at(Picos t, const WakeHints& hints);

 private:
  friend class Scheduler;
  Scheduler& sched_;
  Wakeable& owner_;
  Picos pending_ = kNever;
};

class Scheduler : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Scheduler);
  explicit Scheduler(sc_core::sc_module_name name);
  void push(Picos t, WakeUp* w, const WakeHints& hints) {
    queue_.push(t, {w, hints});
    if (!running_ && t < scheduled_) notify(t);  // from outside run(): the kernel must know
  }

 private:
  struct Wake {
    WakeUp* w;
    WakeHints hints;
  };
  void run();
  void notify(Picos t);
  static void prefetch(const Wake& next);
  static constexpr size_t kPrefetchAhead = 4;  // wake-ups
  WakeQueue<Wake> queue_;
  sc_core::sc_event ev_;
  Picos scheduled_ = kNever;  // time ev_ is notified for
  bool running_ = false;
};

// Inline: several wake-up requests per packet-hop, most of them no earlier than the pending one.
inline void WakeUp::at(Picos t, const WakeHints& hints) {
  if (t >= pending_) return;
  pending_ = t;
  sched_.push(t, this, hints);
}
inline void WakeUp::at(Picos t) { at(t, WakeHints{}); }

}  // namespace ibsc::models
