// Wake-up queue of the scheduler: a two-level timing wheel. Entries come out in time order, and
// entries due at the same time in the order they were pushed, as a (time, sequence) heap would
// give them, at a fraction of its cost per wake-up.
//
// Simulation time never goes back: every pushed time is >= the time last taken. Time is cut
// into far slots of 2^kFarBits ps (4.2 us); the far slot of the time last taken is the `base`.
//   near wheel: entries in the base far slot, one near slot (vector, push order) per 4.1 ns;
//   far wheel:  entries in the next kFarSlots - 1 far slots (268 us), one vector each;
//   overflow:   later entries, ordered by time and then push order (rare).
// When the near wheel runs dry, the next non-empty far slot becomes the base and its entries go
// down to the near slots, still in push order; overflow entries that the far wheel now covers
// move up into it. A slot takes entries from the level above only while it is empty, and any
// pushed into it afterwards were pushed later, so every slot holds its entries in push order; a
// stable sort by time of a near slot (needed only when a push lands before a later entry of the
// same slot) gives the required order. Each entry moves at most twice, most never.
#pragma once
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
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
  bool empty() const { return !near_summary_ && !far_mask_ && overflow_.empty(); }
  void push(Picos t, T item) { place({t, item}); }  // t >= the time last taken
  // Earliest queued time (the queue must not be empty).
  Picos next_time() {
    if (near_summary_) return front_slot().v[front_slot().head].t;
    if (far_mask_) return far_min_[far_index(base_ + next_far())];
    return overflow_.begin()->first;
  }
  // Takes the earliest entry into `out` if it is due at or before `now`.
  bool pop_due(Picos now, Entry& out) {
    if (front_ < 0) {
      if (!near_summary_) {
        if (empty() || next_time() > now) return false;
        advance();
      }
      front_slot();
    }
    NearSlot& s = near_[front_];
    const Entry& e = s.v[s.head];
    if (e.t > now) return false;
    out = e;
    if (++s.head == s.v.size()) release_front();
    return true;
  }
  // The entries pop_due would take next that are in the same near slot as the last one taken:
  // [first, first + n), n = 0 when none (a hint for prefetching only: later pushes may come
  // before them).
  const Entry* ahead(size_t& n) const {
    n = 0;
    if (front_ < 0) return nullptr;
    const NearSlot& s = near_[front_];
    n = s.v.size() - s.head;
    return s.v.data() + s.head;
  }

 private:
  // Near slots of about one switch clock: coarser ones would need sorting often on fast links.
  static constexpr int kNearBits = 12;             // near slot: 4,096 ps
  static constexpr int kNearSlots = 1024;          // a far slot is 1024 near slots
  static constexpr int kFarBits = kNearBits + 10;  // far slot: 4.19 us
  static constexpr uint64_t kFarSlots = 64;        // far wheel: base + 63 slots
  static_assert(kNearSlots == 1 << (kFarBits - kNearBits) && kNearSlots <= 64 * 64, "near wheel spans one far slot");

  struct NearSlot {
    std::vector<Entry> v;  // entries [head, end) still queued
    uint32_t head = 0;
    bool sorted = true;  // [head, end) in time order; always so for the front slot
  };

  static size_t far_index(uint64_t far_slot) { return far_slot & (kFarSlots - 1); }
  // Far slots after the base, counted from it, to the first non-empty one (far wheel not empty).
  int next_far() const {
    const unsigned r = base_ & (kFarSlots - 1);
    const uint64_t rotated = r ? (far_mask_ >> r) | (far_mask_ << (64 - r)) : far_mask_;
    return __builtin_ctzll(rotated);
  }
  // Moves entry i of a slot back past the later ones before it: [head, i] sorted, stably (entries
  // at one time stay in push order) if [head, i) was. Returns the entries moved.
  static size_t insert(NearSlot& s, size_t i) {
    const Entry e = s.v[i];
    size_t j = i;
    for (; j > s.head && s.v[j - 1].t > e.t; --j) s.v[j] = s.v[j - 1];
    s.v[j] = e;
    return i - j;
  }
  static void insert_last(NearSlot& s) { insert(s, s.v.size() - 1); }
  // Stable sort of [head, end) by time. Insertion sort first: on small fabrics slots are short
  // and nearly sorted. On large ones a slot can hold thousands of entries in the order their far
  // slot received them, where insertion sort's quadratic moves took a sixth of a 16,384-host
  // run's CPU; past a budget of moves it hands over to a merge sort. Both are stable, so the
  // order is the same either way.
  static void sort(NearSlot& s) {
    size_t budget = 4 * (s.v.size() - s.head) + 64;
    for (size_t i = s.head + 1; i < s.v.size(); ++i) {
      const size_t moved = insert(s, i);
      if (moved >= budget) {
        std::stable_sort(s.v.begin() + static_cast<std::ptrdiff_t>(s.head), s.v.end(),
                         [](const Entry& a, const Entry& b) { return a.t < b.t; });
        break;
      }
      budget -= moved;
    }
    s.sorted = true;
  }
  // The first non-empty near slot (the near wheel must not be empty), sorted.
  NearSlot& front_slot() {
    if (front_ < 0) {
      const int w = __builtin_ctzll(near_summary_);
      front_ = w * 64 + __builtin_ctzll(near_mask_[w]);
      if (!near_[front_].sorted) sort(near_[front_]);
    }
    return near_[front_];
  }
  // A slot's vector keeps its storage for the next turn of the wheel, up to kKeepEntries: a
  // burst (a large fabric's start, a far slot taking a whole far window) gives it back.
  static constexpr size_t kKeepEntries = 512;
  static void empty_out(std::vector<Entry>& v) {
    if (v.capacity() > kKeepEntries) std::vector<Entry>().swap(v);
    else v.clear();
  }
  void release_front() {
    NearSlot& s = near_[front_];
    empty_out(s.v);
    s.head = 0;
    near_mask_[front_ >> 6] &= ~(1ull << (front_ & 63));
    if (!near_mask_[front_ >> 6]) near_summary_ &= ~(1ull << (front_ >> 6));
    front_ = -1;
  }
  void place(const Entry& e) {
    const uint64_t f = e.t >> kFarBits;
    if (f == base_) {
      const int i = static_cast<int>((e.t >> kNearBits) & (kNearSlots - 1));
      NearSlot& s = near_[i];
      if (s.v.empty()) {
        near_mask_[i >> 6] |= 1ull << (i & 63);
        near_summary_ |= 1ull << (i >> 6);
        if (i < front_) front_ = i;  // one entry: sorted
        s.v.push_back(e);
      } else {
        s.v.push_back(e);
        if (e.t < s.v[s.v.size() - 2].t) {
          if (i == front_) insert_last(s);
          else s.sorted = false;
        }
      }
    } else if (f - base_ < kFarSlots) {
      const size_t j = far_index(f);
      far_[j].push_back(e);
      far_mask_ |= 1ull << j;
      if (e.t < far_min_[j]) far_min_[j] = e.t;
    } else {
      overflow_.emplace(e.t, e.item);  // after those at the same time: push order
    }
  }
  // The near wheel is empty: the next non-empty far slot (or the overflow's first) becomes the
  // base, its entries go down to the near wheel and the overflow the far wheel now covers moves up.
  void advance() {
    if (far_mask_) {
      base_ += next_far();
      const size_t j = far_index(base_);
      std::vector<Entry>& src = far_[j];
      far_mask_ &= ~(1ull << j);
      far_min_[j] = kNever;
      for (const Entry& e : src) place(e);
      empty_out(src);
    } else {
      base_ = overflow_.begin()->first >> kFarBits;
    }
    while (!overflow_.empty() && (overflow_.begin()->first >> kFarBits) - base_ < kFarSlots) {
      place({overflow_.begin()->first, overflow_.begin()->second});
      overflow_.erase(overflow_.begin());
    }
  }
  static std::array<Picos, kFarSlots> never() {
    std::array<Picos, kFarSlots> a;
    a.fill(kNever);
    return a;
  }

  std::array<NearSlot, kNearSlots> near_;
  std::array<uint64_t, kNearSlots / 64> near_mask_{};  // bit i: near slot i holds entries
  uint64_t near_summary_ = 0;                          // bit w: near_mask_[w] != 0
  int front_ = -1;                                     // first non-empty near slot, -1: unknown
  uint64_t base_ = 0;                                  // far slot the near wheel covers
  std::array<std::vector<Entry>, kFarSlots> far_;
  std::array<Picos, kFarSlots> far_min_ = never();  // earliest time per far slot
  uint64_t far_mask_ = 0;                           // bit j: far_[j] holds entries
  std::multimap<Picos, T> overflow_;
};

}  // namespace ibsc::models
