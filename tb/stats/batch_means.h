// Batch means: the measuring time is cut into consecutive batches of equal length; each batch's
// mean is one sample, and the spread of the samples gives a Student-t confidence interval on the
// long-run mean (the method BookSim users know from its sample periods). A run that measures
// until the interval is narrow enough does not know its length in advance, so batches start
// short and, whenever 2K are closed, adjacent pairs merge and the batch length doubles: K..2K
// batches at any time, each longer as the run goes on, so successive batch means correlate less.
// Fixed memory (2K batches of four numbers), no sample vectors.
// Times are picoseconds (SystemC time), kept as plain integers: no SystemC here.
// Per batch: bytes generated, bytes delivered, and latency (sum, count) of the packets
// delivered in it that were generated after `start` (the end of the warm-up).
#pragma once
#include <cstdint>
#include <vector>

namespace ibsc::tb {

struct ConfidenceInterval {
  double mean = 0;
  double half_width = 0;  // infinite with fewer than two samples
  int batches = 0;
  // Half-width at most `relative` x |mean| (a mean of 0 never converges).
  bool within(double relative) const;
};

// Two-sided Student-t interval of the mean of `samples` at `confidence` (e.g. 0.95).
ConfidenceInterval t_interval(const std::vector<double>& samples, double confidence);

class BatchMeans {
 public:
  // Batches of batch_ps from `start`; pairs merge when 2k batches are closed (k >= 2).
  BatchMeans(uint64_t start, uint64_t batch_ps, int k);

  void generated(uint64_t t, uint32_t bytes);
  void delivered(uint64_t t, uint32_t bytes, uint64_t gen_time);
  // Closes every batch that ends at or before t (deliveries at t belong to the next one).
  void close_until(uint64_t t);

  // Over the closed batches, per batch then Student t at `confidence`:
  ConfidenceInterval latency_ns(double confidence) const;                   // mean packet latency
  ConfidenceInterval delivered_bytes_per_ns(double confidence) const;       // accepted traffic, whole fabric
  ConfidenceInterval backlog_growth_bytes_per_ns(double confidence) const;  // generated - delivered
  double generated_bytes_per_ns() const;                                    // over the closed batches

  int batches() const { return static_cast<int>(closed_.size()); }
  uint64_t batch_ps() const { return batch_ps_; }
  uint64_t open_batch_end() const { return open_end_; }

 private:
  struct Batch {
    double gen_bytes = 0, del_bytes = 0, lat_sum_ns = 0;
    uint64_t lat_count = 0;
  };
  template <class F>
  ConfidenceInterval per_batch(double confidence, F&& sample) const;

  uint64_t start_, batch_ps_, open_end_;
  int k_;
  Batch open_;
  std::vector<Batch> closed_;  // at most 2k
};

}  // namespace ibsc::tb
