#include "models/scheduler.h"

namespace ibsc::models {

void WakeUp::at(Picos t) {
  if (t >= pending_) return;
  pending_ = t;
  sched_.push(t, this);
}

Scheduler::Scheduler(sc_core::sc_module_name name) : sc_module(name), ev_("ev") {
  SC_METHOD(run);
  sensitive << ev_;
  // Runs once at time 0 as well, for the wake-ups queued during elaboration.
}

void Scheduler::push(Picos t, WakeUp* w) {
  heap_.push({t, seq_++, w});
  // During elaboration the process's initial run at time 0 picks the entry up.
  if (!running_ && t < scheduled_ && sc_core::sc_get_status() != sc_core::SC_ELABORATION) {
    scheduled_ = t;
    notify_at(ev_, t);
  }
}

void Scheduler::run() {
  const Picos now = now_ps();
  running_ = true;
  while (!heap_.empty() && heap_.top().t <= now) {
    Entry e = heap_.top();
    heap_.pop();
    if (e.w->pending_ != e.t) continue;  // superseded by an earlier wake-up that already ran
    e.w->pending_ = kNever;
    ++dispatched_;
    e.w->owner_.wake();
  }
  running_ = false;
  scheduled_ = heap_.empty() ? kNever : heap_.top().t;
  if (!heap_.empty()) notify_at(ev_, scheduled_);
}

}  // namespace ibsc::models
