// run.warmup: steady, when the fabric has settled enough to start measuring.
//
// A fixed warm-up can start the window while queues still fill. With adaptive routing and deep
// buffers (seeds/001's `switch.ar_fallback: credits`, 4 KB per VL) a head detours only once its
// minimal output's buffer is full, and on a 3- or 4-dimensional flattened butterfly that takes
// 10-30 us: a window opened after 5 us delivers less than it generates and reads saturated at
// a load the fabric carries. The other way round, a short warm-up lets a load somewhat above
// what the fabric sustains fill empty buffers during the window and read unsaturated.
//
// Settled: over the last run.warmup_ns (two steps of half of it), the packets in the fabric
// (injected, neither delivered nor dropped) grew by no more than kGrowthShare of the packets
// delivered in that time plus kSwings standard deviations of the growth's random part (the
// square root of packets injected plus delivered, as for a difference of two counts). A
// saturated point settles too, once its buffers are full: then its sources' queues grow
// instead, and the window's test (more generated than delivered) finds it. Measured on the talk's
// 16,384-host flattened butterfly (Mixed ADOR, complement at 43.75%): with one step and the
// square root of the packets in the fabric (750,000 there) as the swing, the fill passed for
// settled at 50 us and the window still delivered 6% less than it generated.
//
// run.warmup: rate (and every `sweep.beyond` point) adds a second test for points past
// saturation, where the fabric fills in a few microseconds but its accepted traffic keeps
// falling for hundreds (seeds/004's 8 VNs: 0.469 after 20 us, 0.403 after 500 us, as HOL
// blocking spreads from the root): each step is cut into kRateBatches batches, and the last
// step's accepted traffic must agree with the step before within the two steps' 95% batch-means
// intervals (their half-widths added in quadrature). The point then writes the last step's
// interval, so a reader sees what "steady" meant.
#pragma once
#include <cstdint>
#include <vector>

#include "tb/stats/batch_means.h"

namespace ibsc::tb {

struct FabricSample {
  uint64_t in_fabric = 0;  // injected, neither delivered nor dropped
  uint64_t delivered = 0;  // since time 0
};

inline constexpr double kGrowthShare = 0.02;
inline constexpr double kSwings = 3.0;

// True when the fabric went from `before` to `after` without growing beyond noise.
bool settled(const FabricSample& before, const FabricSample& after);

inline constexpr int kRateBatches = 8;  // batches per warm-up step for the accepted-rate test

struct RateCheck {
  bool steady = false;
  ConfidenceInterval last;  // accepted rate over the last step, per batch (the unit of the samples)
  double previous = 0;      // mean over the step before
};

// True (steady) when the mean of `last` is within sqrt(h_before^2 + h_last^2) of the mean of
// `before`, h the 95% Student-t half-widths of each step's batch rates; fewer than two batches
// in either step: not steady.
RateCheck rate_steady(const std::vector<double>& before, const std::vector<double>& last);

}  // namespace ibsc::tb
