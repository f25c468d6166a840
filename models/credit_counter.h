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

class CreditCounter {
 public:
  void reset(int capacity_blocks) {
    capacity_ = capacity_blocks;
    base_ = capacity_blocks;
    outstanding_ = 0;
    all_back_ = 0;
    ordered_ = true;
    trains_.clear();
  }
  int capacity() const { return capacity_; }

  // Credits available at time t (t >= the time of the last consume()).
  int available(Picos t) const {
    // Once every pending train is back, all credits but the unannounced ones are here: no need
    // to look at the trains (they live on the heap).
    if (t >= all_back_) return capacity_ - outstanding_;
    return base_ + returned_by(t);
  }
  // The same at the current time t, first folding trains that are fully back (cheaper later).
  int available_now(Picos t) {
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
  bool consume(int n, Picos t) {
    fold(t);
    if (base_ < n && available(t) < n) return false;
    base_ -= n;  // may dip below zero while a partly returned train still covers the difference
    outstanding_ += n;
    return true;
  }
  // Adds credits returned by the downstream buffer; false when more credits come back than
  // were taken, i.e. the counter would exceed the buffer it mirrors.
  bool add(const CreditTrain& c);

 private:
  // Accounting: base_ + (blocks in trains_) + outstanding_ == capacity_ at all times.
  void fold(Picos t) {  // moves trains fully returned by t into base_
    if (t >= all_back_) {
      base_ = capacity_ - outstanding_;
      trains_.clear();
      return;
    }
    while (!trains_.empty() && trains_.front().done <= t) {
      base_ += static_cast<int>(trains_.front().train.blocks());
      trains_.pop_front();
    }
  }
  // Blocks of the pending trains back by t.
  int returned_by(Picos t) const {
    int n = 0;
    for (const Pending& p : trains_) {
      if (p.done <= t) {
        n += static_cast<int>(p.train.blocks());
        continue;
      }
      n += static_cast<int>(p.train.freed_by(t));
      if (ordered_) break;  // every later train starts after this one ends, i.e. after t
    }
    return n;
  }
  Picos time_for_deficit(int deficit, int need, Picos t) const;
  int capacity_ = 0;
  int base_ = 0;         // credits not tied to a pending train
  int outstanding_ = 0;  // credits consumed whose train has not been announced yet
  bool ordered_ = true;  // block times increase along trains_ (one FIFO buffer drains in order)
  Picos all_back_ = 0;   // no pending train has a block coming back after this time
  struct Pending {
    CreditTrain train;
    Picos done;  // time its last block is back
  };
  RingQueue<Pending> trains_;
};

}  // namespace ibsc::models
