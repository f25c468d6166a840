#include "models/scheduler.h"

namespace ibsc::models {

Scheduler::Scheduler(sc_core::sc_module_name name) : sc_module(name), ev_("ev") {
  SC_METHOD(run);
  sensitive << ev_;
  // Runs once at time 0 as well, for the wake-ups queued during elaboration.
}

void Scheduler::notify(Picos t) {
  // During elaboration the process's initial run at time 0 picks the entry up.
  if (sc_core::sc_get_status() == sc_core::SC_ELABORATION) return;
  scheduled_ = t;
  notify_at(ev_, t);
}

// A later wake-up's lines, while the current one runs: its WakeUp and the owner's members
// around it (the owner's hot members sit next to it), and the owner's hints. Inline on purpose:
// GCC finds an out-of-line function of prefetches alone free of side effects and drops the call.
__attribute__((always_inline)) inline void Scheduler::prefetch(const Wake& next) {
  const char* w = reinterpret_cast<const char*>(next.w);
  __builtin_prefetch(w - 64);
  __builtin_prefetch(w);
  __builtin_prefetch(w + 64);
  for (const void* p : next.hints.line)
    if (p) __builtin_prefetch(p);
}

void Scheduler::run() {
  const Picos now = now_ps();
  running_ = true;
  WakeQueue<Wake>::Entry e;
  while (queue_.pop_due(now, e)) {
    // Far enough ahead that a miss (several hundred ns with a page walk) is over by then.
    if (const auto* ahead = queue_.peek(kPrefetchAhead - 1)) prefetch(ahead->item);
    WakeUp* w = e.item.w;
    if (w->pending_ != e.t) continue;  // superseded by an earlier wake-up that already ran
    w->pending_ = kNever;
    w->owner_.wake();
  }
  running_ = false;
  scheduled_ = queue_.empty() ? kNever : queue_.next_time();
  if (!queue_.empty()) notify_at(ev_, scheduled_);
}

}  // namespace ibsc::models
