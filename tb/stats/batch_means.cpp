#include "tb/stats/batch_means.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <boost/math/distributions/students_t.hpp>

namespace ibsc::tb {

bool ConfidenceInterval::within(double relative) const {
  return batches >= 2 && mean != 0 && half_width <= relative * std::abs(mean);
}

ConfidenceInterval t_interval(const std::vector<double>& samples, double confidence) {
  ConfidenceInterval ci;
  ci.batches = static_cast<int>(samples.size());
  if (samples.empty()) return ci;
  double sum = 0;
  for (double v : samples) sum += v;
  ci.mean = sum / samples.size();
  if (samples.size() < 2) {
    ci.half_width = std::numeric_limits<double>::infinity();
    return ci;
  }
  double ss = 0;
  for (double v : samples) ss += (v - ci.mean) * (v - ci.mean);
  const double n = static_cast<double>(samples.size());
  const boost::math::students_t dist(n - 1);
  const double t = boost::math::quantile(dist, 0.5 + confidence / 2);
  ci.half_width = t * std::sqrt(ss / (n - 1) / n);
  return ci;
}

BatchMeans::BatchMeans(uint64_t start, uint64_t batch_ps, int k)
    : start_(start), batch_ps_(batch_ps), open_end_(start + batch_ps), k_(k) {
  if (batch_ps == 0 || k < 2) throw std::invalid_argument("batch means: batch length > 0 and k >= 2 needed");
  closed_.reserve(2 * static_cast<size_t>(k));
}

void BatchMeans::close_until(uint64_t t) {
  while (open_end_ <= t) {
    closed_.push_back(open_);
    open_ = Batch{};
    if (closed_.size() == 2 * static_cast<size_t>(k_)) {
      // Merge pairs; the batch opening now is the first of the doubled length.
      for (int i = 0; i < k_; ++i) {
        const Batch &a = closed_[2 * i], &b = closed_[2 * i + 1];
        closed_[i] = {a.gen_bytes + b.gen_bytes, a.del_bytes + b.del_bytes, a.lat_sum_ns + b.lat_sum_ns,
                      a.lat_count + b.lat_count};
      }
      closed_.resize(k_);
      batch_ps_ *= 2;
    }
    open_end_ += batch_ps_;
  }
}

void BatchMeans::generated(uint64_t t, uint32_t bytes) {
  if (t < start_) return;
  close_until(t);
  open_.gen_bytes += bytes;
}

void BatchMeans::delivered(uint64_t t, uint32_t bytes, uint64_t gen_time) {
  if (t < start_) return;
  close_until(t);
  open_.del_bytes += bytes;
  if (gen_time >= start_) {
    open_.lat_sum_ns += static_cast<double>(t - gen_time) / 1000.0;
    ++open_.lat_count;
  }
}

template <class F>
ConfidenceInterval BatchMeans::per_batch(double confidence, F&& sample) const {
  std::vector<double> v;  // at most 2k values
  v.reserve(closed_.size());
  for (const Batch& b : closed_) sample(b, v);
  return t_interval(v, confidence);
}

ConfidenceInterval BatchMeans::latency_ns(double confidence) const {
  return per_batch(confidence, [](const Batch& b, std::vector<double>& v) {
    if (b.lat_count > 0) v.push_back(b.lat_sum_ns / b.lat_count);  // a batch with no delivery has no mean
  });
}

ConfidenceInterval BatchMeans::delivered_bytes_per_ns(double confidence) const {
  const double ns = batch_ps_ / 1000.0;
  return per_batch(confidence, [ns](const Batch& b, std::vector<double>& v) { v.push_back(b.del_bytes / ns); });
}

ConfidenceInterval BatchMeans::backlog_growth_bytes_per_ns(double confidence) const {
  const double ns = batch_ps_ / 1000.0;
  return per_batch(confidence,
                   [ns](const Batch& b, std::vector<double>& v) { v.push_back((b.gen_bytes - b.del_bytes) / ns); });
}

double BatchMeans::generated_bytes_per_ns() const {
  if (closed_.empty()) return 0;
  double g = 0;
  for (const Batch& b : closed_) g += b.gen_bytes;
  return g / (closed_.size() * (batch_ps_ / 1000.0));
}

}  // namespace ibsc::tb
