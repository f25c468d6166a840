// Delivery checker of one connection: watches the sequence numbers handed to the destination
// host, independently of the rearrange buffer, and counts those out of order and duplicated.
// With the reorder transport both must stay 0; under Adap-OOO out-of-order ones are expected.
#pragma once
#include <cstdint>
#include <set>

namespace ibsc::models {

class DeliveryChecker {
 public:
  void delivered(uint64_t seq) {
    ++count_;
    if (seq < frontier_ || ahead_.count(seq)) {
      ++duplicates_;
      return;
    }
    if (seq != frontier_) {
      ++out_of_order_;
      ahead_.insert(seq);
      return;
    }
    ++frontier_;
    for (auto it = ahead_.begin(); it != ahead_.end() && *it == frontier_; it = ahead_.erase(it)) ++frontier_;
  }
  uint64_t count() const { return count_; }
  uint64_t out_of_order() const { return out_of_order_; }
  uint64_t duplicates() const { return duplicates_; }
  uint64_t frontier() const { return frontier_; }  // every sequence number below has been delivered

 private:
  uint64_t frontier_ = 0, count_ = 0, out_of_order_ = 0, duplicates_ = 0;
  std::set<uint64_t> ahead_;  // delivered above the frontier (out of order)
};

}  // namespace ibsc::models
