#include "tb/stats/latency_histogram.h"

#include <algorithm>
#include <cmath>

namespace ibsc::tb {

namespace {
constexpr int kExactBits = 10;  // values < 1024 have a bucket each
constexpr int kSubBits = 8;     // 256 sub-buckets per power of two above
constexpr size_t kBuckets = (1u << kExactBits) + (64 - kExactBits) * (1u << kSubBits);
}  // namespace

LatencyHistogram::LatencyHistogram() : n_(kBuckets, 0) {}

size_t LatencyHistogram::bucket(uint64_t v) {
  if (v < (1u << kExactBits)) return static_cast<size_t>(v);
  int msb = 63 - __builtin_clzll(v);
  uint64_t sub = (v >> (msb - kSubBits)) & ((1u << kSubBits) - 1);
  return (1u << kExactBits) + static_cast<size_t>(msb - kExactBits) * (1u << kSubBits) + sub;
}

uint64_t LatencyHistogram::bucket_high(size_t b) {
  if (b < (1u << kExactBits)) return b;
  size_t k = b - (1u << kExactBits);
  int msb = static_cast<int>(k >> kSubBits) + kExactBits;
  uint64_t sub = k & ((1u << kSubBits) - 1);
  uint64_t low = (1ull << msb) | (sub << (msb - kSubBits));
  return low + (1ull << (msb - kSubBits)) - 1;
}

void LatencyHistogram::add(uint64_t v) {
  ++n_[bucket(v)];
  ++count_;
  sum_ += v;
  min_ = std::min(min_, v);
  max_ = std::max(max_, v);
}

uint64_t LatencyHistogram::percentile(double q) const {
  if (count_ == 0) return 0;
  uint64_t rank = static_cast<uint64_t>(std::ceil(std::clamp(q, 0.0, 1.0) * count_));
  rank = std::max<uint64_t>(rank, 1);
  uint64_t seen = 0;
  for (size_t b = 0; b < n_.size(); ++b) {
    seen += n_[b];
    if (seen >= rank) return std::min(std::max(bucket_high(b), min_), max_);
  }
  return max_;
}

void LatencyHistogram::merge(const LatencyHistogram& o) {
  for (size_t b = 0; b < n_.size(); ++b) n_[b] += o.n_[b];
  count_ += o.count_;
  sum_ += o.sum_;
  min_ = std::min(min_, o.min_);
  max_ = std::max(max_, o.max_);
}

void LatencyHistogram::clear() {
  std::fill(n_.begin(), n_.end(), 0);
  count_ = 0;
  sum_ = 0;
  min_ = UINT64_MAX;
  max_ = 0;
}

}  // namespace ibsc::tb
