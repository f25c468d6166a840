// Credit counter: the sender's view of one downstream VL buffer, in 64-byte credits.
// Returned credits are kept as trains (see link_protocol.h) so the count at any time is exact
// without an event per block. Invariants checked on every change: the count never goes below
// zero and never exceeds the buffer it mirrors.
#pragma once
#include <deque>
#include <stdexcept>
#include <string>

#include "models/link_protocol.h"

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
    trains_.clear();
  }
  int capacity() const { return capacity_; }

  // Credits available at time t (t >= the time of the last consume()).
  int available(Picos t) const {
    int n = base_;
    for (const CreditTrain& c : trains_) n += static_cast<int>(c.freed_by(t));
    return n;
  }
  // Earliest time >= t at which `need` credits are available, kNever if the trains cannot
  // provide them (the downstream buffer is still holding packets not yet granted).
  Picos time_for(int need, Picos t) const;

  // Takes `n` credits at time t for a packet about to be sent.
  void consume(int n, Picos t, const std::string& where);
  // Adds credits returned by the downstream buffer.
  void add(const CreditTrain& c, const std::string& where);

 private:
  void fold(Picos t);  // moves trains fully returned by t into base_
  int capacity_ = 0;
  int base_ = 0;         // credits not tied to a pending train
  int outstanding_ = 0;  // credits consumed whose train has not been announced yet
  std::deque<CreditTrain> trains_;
};

}  // namespace ibsc::models
