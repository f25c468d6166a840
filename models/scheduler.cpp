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

void Scheduler::run() {
  const Picos now = now_ps();
  running_ = true;
  WakeQueue<WakeUp*>::Entry e;
  while (queue_.pop_due(now, e)) {
    WakeUp* w = e.item;
    if (w->pending_ != e.t) continue;  // superseded by an earlier wake-up that already ran
    w->pending_ = kNever;
    w->owner_.wake();
  }
  running_ = false;
  scheduled_ = queue_.empty() ? kNever : queue_.next_time();
  if (!queue_.empty()) notify_at(ev_, scheduled_);
}

}  // namespace ibsc::models
