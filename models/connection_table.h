// One HCA's connection records (the reliable transport's send state per destination host, its
// receive state per source host), made on first use. A dense index of every peer costs
// hosts^2 entries over the fabric, whatever the traffic: at 16,384 hosts, with a pointer per
// peer and direction, 4.3 GB before a packet moves. Here memory grows with the peers a host
// has talked to: records in allocation order in one deque (its blocks hold several records; a
// record never moves, so references stay valid), found through an open-addressing table of
// (peer, record) pairs kept at most half full (linear probing, Fibonacci hashing of the peer).
// The key is a host index, so a general hash map (and a library for it) would buy nothing.
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

namespace ibsc::models {

template <class T>
class ConnectionTable {
 public:
  ConnectionTable() : slots_(8) {}

  // The record of `peer`, or null before its first use.
  T* find(int peer) const {
    for (size_t i = home(peer);; i = (i + 1) & (slots_.size() - 1)) {
      const Slot& s = slots_[i];
      if (s.record == nullptr) return nullptr;
      if (s.peer == peer) return s.record;
    }
  }

  // The record of `peer`, made from `args` on first use.
  template <class... Args>
  T& get(int peer, Args&&... args) {
    if (T* t = find(peer)) return *t;
    if (2 * (records_.size() + 1) > slots_.size()) grow();
    records_.emplace_back(std::forward<Args>(args)...);
    place(peer, &records_.back());
    return records_.back();
  }

  size_t size() const { return records_.size(); }
  // Every record, in the order they were made (for sums and maxima: the order is the traffic's).
  const std::deque<T>& records() const { return records_; }

 private:
  struct Slot {
    int peer = -1;
    T* record = nullptr;
  };

  size_t home(int peer) const {  // the high bits of a multiplicative hash spread consecutive peers
    return static_cast<size_t>((static_cast<uint64_t>(static_cast<uint32_t>(peer)) * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void place(int peer, T* record) {
    size_t i = home(peer);
    while (slots_[i].record != nullptr) i = (i + 1) & (slots_.size() - 1);
    slots_[i] = Slot{peer, record};
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    --shift_;
    for (const Slot& s : old)
      if (s.record != nullptr) place(s.peer, s.record);
  }

  std::vector<Slot> slots_;  // a power of two in size
  int shift_ = 64 - 3;       // 64 - log2(slots_.size())
  std::deque<T> records_;
};

}  // namespace ibsc::models
