#include "models/credit_counter.h"

namespace ibsc::models {

void CreditCounter::fold(Picos t) {
  while (!trains_.empty() && trains_.front().last_time() <= t) {
    base_ += static_cast<int>(trains_.front().blocks());
    trains_.pop_front();
  }
}

Picos CreditCounter::time_for(int need, Picos t) const {
  if (available(t) >= need) return t;
  Picos hi = t;
  for (const CreditTrain& c : trains_) hi = std::max(hi, c.last_time());
  if (available(hi) < need) return kNever;
  Picos lo = t;  // available(lo) < need <= available(hi)
  while (hi - lo > 1) {
    Picos mid = lo + (hi - lo) / 2;
    (available(mid) >= need ? hi : lo) = mid;
  }
  return hi;
}

void CreditCounter::consume(int n, Picos t, const std::string& where) {
  fold(t);
  if (available(t) < n)
    throw CreditError(where + ": credit counter would go negative (" + std::to_string(available(t)) + " available, " +
                      std::to_string(n) + " needed)");
  base_ -= n;  // may dip below zero while a partly returned train still covers the difference
  outstanding_ += n;
}

void CreditCounter::add(const CreditTrain& c, const std::string& where) {
  int n = static_cast<int>(c.blocks());
  outstanding_ -= n;
  if (outstanding_ < 0)
    throw CreditError(where + ": more credits returned than were consumed (counter above its buffer of " +
                      std::to_string(capacity_) + " credits)");
  // Trains from one buffer are freed in order, so appending keeps them sorted by time.
  trains_.push_back(c);
}

}  // namespace ibsc::models
