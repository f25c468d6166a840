#include "models/reorder_buffer.h"

#include <iterator>

namespace ibsc::models {

ReorderBuffer::Verdict ReorderBuffer::arrive(Packet* p, ReorderMemory& mem, Outcome& out) {
  const uint64_t s = p->seq;
  if (s < expected_ || stored_.count(s)) return Verdict::Duplicate;
  if (s == expected_) {
    out.deliver.push_back(p);
    ++expected_;
    for (auto it = stored_.begin(); it != stored_.end() && it->first == expected_; it = stored_.erase(it)) {
      out.deliver.push_back(it->second);
      held_ -= it->second->length;
      mem.give(it->second->length);
      ++expected_;
    }
    out.ack = true;
    out.ack_seq = expected_ - 1;
    return Verdict::InOrder;
  }
  const uint64_t len = p->length;
  Verdict v = Verdict::Stored;
  if (!mem.fits(held_, 0, len)) {
    // Could evicting every later packet make room? If not, reject the arrival alone.
    uint64_t later = 0;
    for (auto it = stored_.upper_bound(s); it != stored_.end(); ++it) later += it->second->length;
    if (!mem.fits(held_, later, len)) {
      out.rejected.push_back(p);
      return Verdict::Rejected;
    }
    while (!mem.fits(held_, 0, len)) {  // highest sequence number first
      auto last = std::prev(stored_.end());
      out.rejected.push_back(last->second);
      held_ -= last->second->length;
      mem.give(last->second->length);
      stored_.erase(last);
    }
    v = Verdict::Evicted;
  }
  stored_.emplace(s, p);
  held_ += len;
  mem.take(len);
  if (held_ > max_held_) max_held_ = held_;
  return v;
}

}  // namespace ibsc::models
