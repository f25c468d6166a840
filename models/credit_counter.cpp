#include "models/credit_counter.h"

namespace ibsc::models {

Picos CreditCounter::time_for_deficit(int deficit, int need, Picos t) const {
  if (ordered_) {
    // Blocks come back in train order: walk to the deficit-th block still to come.
    for (const Pending& p : trains_) {
      const CreditTrain& c = p.train;
      if (p.done <= t) continue;
      int left = static_cast<int>(c.blocks() - c.freed_by(t));
      if (deficit <= left) return c.block_time(c.freed_by(t) + deficit - 1);
      deficit -= left;
    }
    return kNever;
  }
  Picos hi = std::max(t, all_back_);
  if (available(hi) < need) return kNever;
  Picos lo = t;  // available(lo) < need <= available(hi)
  while (hi - lo > 1) {
    Picos mid = lo + (hi - lo) / 2;
    (available(mid) >= need ? hi : lo) = mid;
  }
  return hi;
}

bool CreditCounter::add(const CreditTrain& c) {
  int n = static_cast<int>(c.blocks());
  if (outstanding_ - n < 0) return false;
  outstanding_ -= n;
  const Picos done = c.last_time();
  if (trains_.empty()) {  // a fresh start: earlier trains no longer constrain the order
    ordered_ = true;
    all_back_ = done;
  } else {
    if (ordered_ && c.block_time(0) < all_back_) ordered_ = false;
    all_back_ = std::max(all_back_, done);
  }
  trains_.push_back({c, done});
  return true;
}

}  // namespace ibsc::models
