// Latency histogram in fixed memory: exact below 1024 ns, then 256 sub-buckets per power of
// two (relative error < 0.4%). Mean, min and max are exact; percentiles are bucket values.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ibsc::tb {

class LatencyHistogram {
 public:
  LatencyHistogram();
  void add(uint64_t v);
  uint64_t count() const { return count_; }
  double mean() const { return count_ ? static_cast<double>(sum_) / count_ : 0.0; }
  uint64_t min() const { return count_ ? min_ : 0; }
  uint64_t max() const { return max_; }
  // Value whose rank is ceil(q * count), q in [0, 1]; never above max().
  uint64_t percentile(double q) const;
  void merge(const LatencyHistogram& o);
  void clear();

 private:
  static size_t bucket(uint64_t v);
  static uint64_t bucket_high(size_t b);  // largest value falling in bucket b
  std::vector<uint64_t> n_;
  uint64_t count_ = 0, min_ = UINT64_MAX, max_ = 0;
  unsigned __int128 sum_ = 0;
};

}  // namespace ibsc::tb
