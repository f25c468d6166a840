#include "tb/traffic/injection.h"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "models/param_error.h"
#include "routing/types.h"
#include "tb/traffic/traffic.h"

namespace ibsc::tb {

namespace {

// 1 / (2k + 1), k = 0..14: the atanh series' coefficients, rounded as the division rounds them
// at run time (so the table changes no bit of the result).
struct OddReciprocals {
  double v[15] = {};
  constexpr OddReciprocals() {
    for (int k = 0; k < 15; ++k) v[k] = 1.0 / (2 * k + 1);
  }
};
constexpr OddReciprocals kOdd;

// std::floor(q), bit for bit: conversion to integer truncates, which is floor for 0 < q < 2^52
// (and exact there); the rest (zeros, negative, huge, inf, NaN) takes std::floor, which without
// SSE4.1 is a dozen instructions.
inline double floor_of(double q) {
  return q > 0 && q < 0x1.0p52 ? static_cast<double>(static_cast<int64_t>(q)) : std::floor(q);
}

}  // namespace

double portable_log(double x) {
  // x = m * 2^e, m in [0.5, 1): exact. A normal x gives m and e straight from its bits (exponent
  // field set to that of 0.5), as frexp would, without the library call; frexp for the rest.
  uint64_t bits = 0;
  std::memcpy(&bits, &x, sizeof bits);
  const int biased = static_cast<int>(bits >> 52);  // the sign bit is clear: x > 0
  int e = 0;
  double m;
  if (biased > 0 && biased < 0x7ff) {
    e = biased - 1022;
    bits = (bits & ((1ull << 52) - 1)) | (1022ull << 52);
    std::memcpy(&m, &bits, sizeof m);
  } else {
    m = std::frexp(x, &e);
  }
  if (m < 0.70710678118654752440) {
    m *= 2;
    --e;
  }
  // log(m) = 2 atanh(s), s = (m-1)/(m+1), |s| <= 0.172: 14 odd terms reach 1e-22.
  const double s = (m - 1) / (m + 1), s2 = s * s;
  double poly = kOdd.v[14];
#pragma GCC unroll 14
  for (int k = 13; k >= 0; --k) poly = kOdd.v[k] + s2 * poly;
  // ln 2 split so e * ln2_hi is exact for any exponent.
  const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
  return e * ln2_hi + (2 * s * poly + e * ln2_lo);
}

double portable_log1m(double p) {
  // Below 1e-4, 1 - p would keep only log2(1/p) - 53 of p's bits (none at all under 1.1e-16,
  // where log(1 - p) came out 0 and every gap 1 ps): the series -p (1 + p/2 + p^2/3 + p^3/4 +
  // p^4/5) is exact to p^5/6 < 2e-21 relative there. Above, 1 - p is exact enough and the
  // logarithm of it is the one every existing seed was drawn with.
  if (p < 1e-4) return -p * (1.0 + p * (0.5 + p * (1.0 / 3 + p * (0.25 + p * 0.2))));
  return portable_log(1.0 - p);
}

InjectionProcess::InjectionProcess(const InjectionConfig& cfg, double load, double link, uint64_t seed)
    : poisson_(cfg.process == ArrivalProcess::Poisson), rng_(models::make_random_stream(seed)) {
  if (cfg.length_mix.empty()) throw ParamError("traffic.lengths", "traffic.lengths: empty length mix");
  double total = 0, sum = 0;
  for (auto [len, w] : cfg.length_mix) {
    if (len < 1 || len > kMaxMtuBytes)
      throw ParamError("traffic.lengths", "traffic.lengths: packet length " + std::to_string(len) + " outside 1.." +
                                              std::to_string(kMaxMtuBytes) + " bytes (IBA MTU " +
                                              std::to_string(kMaxMtuBytes) + ")");
    if (!(w > 0) || !std::isfinite(w)) throw ParamError("traffic.lengths", "traffic.lengths: weights must be > 0");
    total += w;
    sum += w * len;
  }
  double acc = 0;
  for (auto [len, w] : cfg.length_mix) {
    len_.push_back(len);
    acc += w / total;
    cum_.push_back(acc);
  }
  cum_.back() = 1.0;  // rounding must not leave a gap at the top
  if (len_.size() == 1) fixed_len_ = len_[0];
  mean_ = sum / total;
  if (!(load >= 0) || !std::isfinite(load))
    throw std::invalid_argument("offered load must be a finite value >= 0 bytes/ns");
  if (!(link > 0) || !std::isfinite(link)) throw std::invalid_argument("link rate must be > 0 bytes/ns");
  if (load > 0) {
    if (!poisson_ && load > link * (1 + 1e-9))
      throw std::invalid_argument("bernoulli injection: offered load " + std::to_string(load) +
                                  " bytes/ns is above the link rate " + std::to_string(link) +
                                  " bytes/ns (a slot cannot hold more than one packet)");
    slot_ps_ = mean_ / link * 1000.0;
    p_ = std::min(1.0, load / link);
    if (p_ < 1.0) log1m_p_ = portable_log1m(p_);
    mean_gap_ps_ = mean_ / load * 1000.0;
  }
}

uint64_t InjectionProcess::next_gap_ps() {
  if (p_ <= 0) return UINT64_MAX;
  // 1 - u is in (0, 1], so the logarithm is finite and <= 0.
  double gap;
  if (poisson_) {
    gap = -portable_log(1.0 - uniform01(rng_)) * mean_gap_ps_;
  } else {
    // Slots until the next success: geometric on {1, 2, ...} by inversion.
    double k = p_ >= 1.0 ? 1.0 : floor_of(portable_log(1.0 - uniform01(rng_)) / log1m_p_) + 1.0;
    gap = k * slot_ps_;
  }
  gap = std::min(gap, 1e18) + carry_;  // 1e18 ps (11 days) keeps the cast defined
  // gap >= 1 here is below 2^63: the signed conversion truncates, i.e. floors, in one instruction.
  const int64_t whole = gap < 1.0 ? 1 : static_cast<int64_t>(gap);
  carry_ = gap - static_cast<double>(whole);
  return static_cast<uint64_t>(whole);
}

uint32_t InjectionProcess::next_length() {
  if (fixed_len_) return fixed_len_;
  double u = uniform01(rng_);
  for (size_t i = 0; i < cum_.size(); ++i)
    if (u < cum_[i]) return len_[i];
  return len_.back();
}

}  // namespace ibsc::tb
