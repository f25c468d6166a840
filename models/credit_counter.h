// Credit counter: the sender's view of one downstream VL buffer, in 64-byte credits.
// Returned credits are kept as trains (see link_protocol.h) so the count at any time is exact
// without an event per block. Invariants checked on every change: the count never goes below
// zero and never exceeds the buffer it mirrors.
#pragma once
#include <stdexcept>
#include <string>

#include "models/link_protocol.h"
#include "models/ring_queue.h"

namespace ibsc::models {

class CreditError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One cache line holds what the usual query touches: the counts, the time every pending train
// is back and the oldest pending train. A train is back about a packet time after it is
// announced, so later ones (a quarter of them in the 8x8 bench) are few; they queue on the heap.
class alignas(64) CreditCounter {
 public:
  void reset(int capacity_blocks) {
    capacity_ = capacity_blocks;
    base_ = ceiling_ = capacity_blocks;
    all_back_ = 0;
    waited_on_ = false;
    drop_all();
  }
  int capacity() const { return capacity_; }

  // Credits available at time t (t >= the time of the last consume()).
  int available(Picos t) const {
    if (t >= all_back_) return ceiling_;  // every pending train is back: no need to look at them
    return base_ + returned_by(t);
  }
  // The same at the current time t, first folding trains that are fully back (cheaper later).
  __attribute__((always_inline)) int available_now(Picos t) {
    fold(t);
    return available(t);
  }
  // Earliest time >= t at which `need` credits are available, kNever if the trains cannot
  // provide them (the downstream buffer is still holding packets not yet granted).
  Picos time_for(int need, Picos t) const {
    if (base_ >= need) return t;  // trains only ever add to base_
    const int deficit = need - available(t);
    return deficit <= 0 ? t : time_for_deficit(deficit, need, t);  // inline: usually enough now
  }

  // Takes `n` credits at time t for a packet about to be sent; false (and nothing taken) when
  // the counter would go negative. Callers turn false into a CreditError naming the channel.
  __attribute__((always_inline)) bool consume(int n, Picos t) {
    fold(t);
    if (base_ < n && available(t) < n) return false;
    base_ -= n;  // may dip below zero while a partly returned train still covers the difference
    ceiling_ -= n;
    return true;
  }
  // Adds credits returned by the downstream buffer; false when more credits come back than
  // were taken, i.e. the counter would exceed the buffer it mirrors.
  bool add(const CreditTrain& c) {
    const int n = static_cast<int>(c.blocks());
    if (ceiling_ + n > capacity_) return false;  // more than consumed and not yet announced
    ceiling_ += n;
    if (n == 0) return true;  // nothing comes back (and a front_ of length 0 means no train)
    if (front_.length == 0) {
      front_ = c;
      all_back_ = c.last_time();
    } else {
      queue_later(c);
    }
    return true;
  }
  // A mark for the owner, kept in the first cache line's padding: "someone waits for credits
  // here" (the switch uses it to skip scanning its heads when credits nobody waits for return).
  void mark_waited_on() const { waited_on_ = true; }
  bool take_waited_on() {
    const bool w = waited_on_;
    waited_on_ = false;
    return w;
  }

 private:
  void drop_all() {
    front_.length = 0;
    if (has_later_) later_.clear();
    has_later_ = false;
    ordered_ = true;  // a fresh start: the next train has nothing to be ordered against
  }
  void pop_front() {
    if (!has_later_) return drop_all();
    front_ = later_.front();
    later_.pop_front();
    has_later_ = !later_.empty();
  }
  void fold(Picos t) {  // moves trains fully returned by t into base_
    if (t >= all_back_) {
      base_ = ceiling_;
      if (front_.length != 0) drop_all();
      return;
    }
    if (!has_later_) return;  // the only train is the one not back by all_back_ > t
    while (front_.length != 0 && front_.last_time() <= t) {
      base_ += static_cast<int>(front_.blocks());
      pop_front();
    }
  }
  // Blocks of the pending trains back by t < all_back_.
  int returned_by(Picos t) const {
    if (front_.length == 0) return 0;  // t is before a fold that took every train
    int n = static_cast<int>(front_.freed_by(t));
    if (!has_later_ || (ordered_ && front_.last_time() > t)) return n;  // later trains start after
    for (const CreditTrain& c : later_) {
      const bool back = c.last_time() <= t;
      n += static_cast<int>(back ? c.blocks() : c.freed_by(t));
      if (!back && ordered_) break;
    }
    return n;
  }
  void queue_later(const CreditTrain& c);
  Picos time_for_deficit(int deficit, int need, Picos t) const;

  // First cache line. Accounting: base_ + (blocks in pending trains) == ceiling_ ==
  // capacity_ - (credits consumed whose train has not been announced yet).
  Picos all_back_ = 0;  // no pending train has a block coming back after this time
  int base_ = 0;        // credits not tied to a pending train
  int ceiling_ = 0;     // credits once every pending train is back
  int capacity_ = 0;
  bool ordered_ = true;             // block times increase along the pending trains (FIFO buffer)
  bool has_later_ = false;          // later_ is not empty
  mutable bool waited_on_ = false;  // see mark_waited_on()
  CreditTrain front_{};             // the oldest pending train; length 0: none pending
  // Second line, touched only while several trains are pending.
  RingQueue<CreditTrain> later_;
};

}  // namespace ibsc::models
