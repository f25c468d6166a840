// Next sequence number of each flow (source HCA -> destination host), kept only for the flows
// that have sent: an open-addressing hash table of (destination, next number), 8 bytes a slot,
// at most half full. A dense array per HCA would be hosts^2 x 4 bytes (1 GB at 16,384 hosts)
// although a 100 us run sends a few hundred packets per host; a table that grows to the size
// of the dense array becomes the dense array.
#pragma once
#include <cstdint>
#include <vector>

namespace ibsc::models {

class FlowSequence {
 public:
  explicit FlowSequence(uint32_t destinations) : destinations_(destinations) {}
  // The number for the next packet to `dst`, counted from 0.
  uint32_t& next(uint32_t dst) {
    if (!dense_.empty()) return dense_[dst];
    if (2 * (used_ + 1) > slots_.size()) grow();
    if (!dense_.empty()) return dense_[dst];
    const uint32_t key = dst + 1;  // 0 marks a free slot
    for (size_t i = hash(key);; i = (i + 1) & (slots_.size() - 1)) {
      Slot& s = slots_[i];
      if (s.key == key) return s.seq;
      if (s.key == 0) {
        s.key = key;
        ++used_;
        return s.seq;
      }
    }
  }

 private:
  struct Slot {
    uint32_t key = 0;
    uint32_t seq = 0;
  };
  size_t hash(uint32_t key) const { return (key * 0x9E3779B1u) & (slots_.size() - 1); }
  void grow() {
    const size_t size = slots_.empty() ? 16 : 2 * slots_.size();
    std::vector<Slot> old;
    old.swap(slots_);
    if (size * sizeof(Slot) >= destinations_ * sizeof(uint32_t)) {
      dense_.assign(destinations_, 0);
      for (const Slot& s : old)
        if (s.key) dense_[s.key - 1] = s.seq;
      return;
    }
    slots_.resize(size);
    used_ = 0;
    for (const Slot& s : old)
      if (s.key) {
        next(s.key - 1) = s.seq;
      }
  }
  uint32_t destinations_;
  size_t used_ = 0;
  std::vector<Slot> slots_;      // size a power of two
  std::vector<uint32_t> dense_;  // [dst] once the table would be as large
};

}  // namespace ibsc::models
