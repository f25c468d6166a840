// Wake-up queue of the scheduler: a radix heap. Simulation time never goes back, so every
// queued time is >= `last`, the time last taken; an entry sits in bucket b = bit length of
// (t XOR last). Push is O(1); taking the earliest entry moves the lowest non-empty bucket down
// only when bucket 0 runs dry, and each entry moves a few times at most. Buckets keep push order,
// so entries due at the same time come out in the order they were queued, as a (time, sequence)
// heap would give them, at a fraction of its cost per wake-up.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "models/sim_time.h"

namespace ibsc::models {

template <class T>
class WakeQueue {
 public:
  struct Entry {
    Picos t;
    T item;
  };
  bool empty() const { return size_ == 0; }
  void push(Picos t, T item) {  // t >= the time last taken
    const int b = bucket(t);
    buckets_[b].push_back({t, item});
    if (b) {
      nonempty_ |= 1ull << (b - 1);
      if (t < min_[b]) min_[b] = t;
    }
    ++size_;
  }
  // Earliest queued time (the queue must not be empty); does not move anything.
  Picos next_time() const {
    return head_ < buckets_[0].size() ? buckets_[0][head_].t : min_[lowest()];
  }
  // Takes the earliest entry (the queue must not be empty).
  Entry pop() {
    if (head_ == buckets_[0].size()) refill();
    --size_;
    return buckets_[0][head_++];
  }

 private:
  static std::array<Picos, 65> filled(Picos v) {
    std::array<Picos, 65> a;
    a.fill(v);
    return a;
  }
  static int bit_length(uint64_t x) { return x ? 64 - __builtin_clzll(x) : 0; }
  int bucket(Picos t) const { return bit_length(t ^ last_); }
  int lowest() const { return __builtin_ctzll(nonempty_) + 1; }
  // Bucket 0 is used up: the lowest non-empty bucket's minimum becomes `last` and its entries,
  // in their order, go to lower buckets (all empty now).
  void refill() {
    buckets_[0].clear();
    head_ = 0;
    const int b = lowest();
    std::vector<Entry>& src = buckets_[b];
    last_ = min_[b];
    min_[b] = kNever;
    nonempty_ &= ~(1ull << (b - 1));
    for (const Entry& e : src) push(e.t, e.item);
    size_ -= src.size();
    src.clear();
  }
  std::array<std::vector<Entry>, 65> buckets_;
  std::array<Picos, 65> min_ = filled(kNever);  // earliest time per bucket (1..64)
  uint64_t nonempty_ = 0;  // bit b-1: bucket b (1..64) holds entries
  size_t head_ = 0;        // next entry of bucket 0
  size_t size_ = 0;
  Picos last_ = 0;
};

}  // namespace ibsc::models
