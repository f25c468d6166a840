#include "models/scheduler.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace ibsc::models {

Scheduler::Scheduler(sc_core::sc_module_name name) : sc_module(name), ev_("ev") {
  SC_METHOD(run);
  sensitive << ev_;
  // Runs once at time 0 as well, for the wake-ups queued during elaboration.
  if (const char* e = std::getenv("IBSC_PREFETCH")) {
    const std::string v = e;
    if (v == "on") prefetch_from_ = 1;
    else if (v == "off") prefetch_from_ = SIZE_MAX;
    else if (v != "auto" && !v.empty())
      throw std::invalid_argument("environment variable IBSC_PREFETCH=" + v + ": expected on, off or auto");
  }
  // IBSC_RUN_AHEAD=off ignores run_ahead_until(): the same binary both ways, for comparisons.
  if (const char* e = std::getenv("IBSC_RUN_AHEAD")) {
    const std::string v = e;
    if (v == "off") ahead_allowed_ = false;
    else if (v != "on" && !v.empty())
      throw std::invalid_argument("environment variable IBSC_RUN_AHEAD=" + v + ": expected on or off");
  }
}

void Scheduler::notify(Picos t) {
  // During elaboration the process's initial run at time 0 picks the entry up.
  if (sc_core::sc_get_status() == sc_core::SC_ELABORATION) return;
  scheduled_ = t;
  notify_at(ev_, t);
}

// The lines of the wake-ups just ahead, while the current one runs, in stages a few wake-ups
// apart so that each stage reads only lines the previous one fetched: the WakeUp (the owner's
// hot members sit next to it), then the lines its hints name, then the owner's deeper stages.
// Wake-ups apart: far enough that a miss (several hundred ns with a page walk on this VM) is
// over by the next stage. Inline on purpose: GCC finds a function of prefetches alone free of
// side effects and drops calls to it.
__attribute__((always_inline)) inline void Scheduler::prefetch() {
  size_t n;
  const WakeQueue<WakeUp*>::Entry* a = queue_.ahead(n);
  if (n >= kAheadWakeUp) {
    const char* w = reinterpret_cast<const char*>(a[kAheadWakeUp - 1].item);
    __builtin_prefetch(w - 64);
    __builtin_prefetch(w);
    __builtin_prefetch(w + 64);
  }
  if (n >= kAheadHints)  // null lines too: a prefetch never faults, and no branch per line
    for (const void* p : a[kAheadHints - 1].item->hints_.line) __builtin_prefetch(p);
  if (n >= kAheadStage2) a[kAheadStage2 - 1].item->owner_.prefetch(a[kAheadStage2 - 1].item->hints_, 2);
  if (n >= kAheadStage3) a[kAheadStage3 - 1].item->owner_.prefetch(a[kAheadStage3 - 1].item->hints_, 3);
}

// Runs the wake-ups due now and, when run-ahead is on (run_ahead_until), the later ones due
// before both `until` and the kernel's next pending activity, each at its own time (now_ps()
// reads it): the kernel is entered once per stretch instead of once per distinct time, about
// 10% of the instructions of a packet-hop on the small tori (bench/fabric_bench). Nothing else
// can observe the difference: no other process runs before the stretch ends, and the order of
// the wake-ups is the queue's either way.
void Scheduler::run() {
  Picos now = kernel_now_ps();
  Picos limit = 0;  // run ahead only to times before this
  if (ahead_allowed_ && ahead_until_ > now) {
    const Picos gap = sc_core::sc_time_to_pending_activity().value();
    limit = std::min(ahead_until_, gap >= kNever - now ? kNever : now + gap);
  }
  ++activations_;
  Picos next = kNever;  // the queue's next time once the stretch ends (kNever: empty)
  {
    // Reset on the way out, also when a wake-up throws (a model error ends the run).
    struct Running {
      bool& flag;
      explicit Running(bool& f) : flag(f) { flag = true; }
      ~Running() {
        flag = false;
        g_ahead_ps = 0;
      }
    } running(running_);
    WakeQueue<WakeUp*>::Entry e;
    for (;;) {
      while (queue_.pop_due(now, e)) {
        if (prefetch_) prefetch();
        WakeUp* w = e.item;
        if (w->pending_ != e.t) continue;  // superseded by an earlier wake-up that already ran
        w->pending_ = kNever;
        w->owner_.wake();
      }
      next = queue_.empty() ? kNever : queue_.next_time();
      if (next >= limit) break;  // limit <= kNever: an empty queue ends the stretch
      now = g_ahead_ps = next;
    }
  }
  scheduled_ = next;
  if (next != kNever) notify_at(ev_, next);
}

}  // namespace ibsc::models
