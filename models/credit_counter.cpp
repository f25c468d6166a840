#include "models/credit_counter.h"

namespace ibsc::models {

Picos CreditCounter::time_for_deficit(int deficit, int need, Picos t) const {
  if (front_.length == 0) return kNever;
  if (ordered_) {
    // Blocks come back in train order: walk to the deficit-th block still to come.
    auto reach = [&](const CreditTrain& c) {
      const uint32_t freed = c.freed_by(t);
      const int left = static_cast<int>(c.blocks() - freed);
      if (deficit <= left) return c.block_time(freed + deficit - 1);
      deficit -= left;
      return kNever;
    };
    if (Picos r = reach(front_); r != kNever) return r;
    for (const CreditTrain& c : later_)
      if (Picos r = reach(c); r != kNever) return r;
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

void CreditCounter::queue_later(const CreditTrain& c) {
  if (ordered_ && c.block_time(0) < all_back_) ordered_ = false;
  all_back_ = std::max(all_back_, c.last_time());
  later_.push_back(c);
  has_later_ = true;
}

}  // namespace ibsc::models
