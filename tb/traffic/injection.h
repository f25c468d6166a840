// Injection processes, one per host with its own random stream:
//   bernoulli: time is slotted in slots of one mean-length packet at link rate; each slot
//              starts a packet with probability load / link rate (gaps are geometric);
//   poisson:   exponential gaps with mean = mean length / load.
// Packet lengths are fixed or drawn from a weighted mix. Every draw is computed from raw 64-bit
// outputs of the host's RandomStream (PCG64) with IEEE basic operations only (no std::
// distributions, no libm log), so a seed gives the same gaps and lengths on every standard library.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "models/random_stream.h"
#include "routing/enum_names.h"

namespace ibsc::tb {

// traffic.injection: when each host starts its next packet.
enum class ArrivalProcess { Bernoulli, Poisson };
inline constexpr EnumName<ArrivalProcess> kArrivalProcessNames[] = {
    {ArrivalProcess::Bernoulli, "bernoulli"},
    {ArrivalProcess::Poisson, "poisson"},
};
constexpr const auto& enum_names(ArrivalProcess) { return kArrivalProcessNames; }

struct InjectionConfig {
  ArrivalProcess process = ArrivalProcess::Bernoulli;
  // (bytes, weight); the fill constructor sidesteps a GCC 12 -Wmaybe-uninitialized false alarm
  std::vector<std::pair<uint32_t, double>> length_mix = std::vector<std::pair<uint32_t, double>>(1, {512, 1.0});
};

class InjectionProcess {
 public:
  // Throws std::invalid_argument for a load above link rate (bernoulli); ParamError for lengths outside
  // 1..4096 bytes or non-positive weights.
  InjectionProcess(const InjectionConfig& cfg, double load_bytes_per_ns, double link_bytes_per_ns, uint64_t seed);
  // Picoseconds from the previous generation (first call: from time 0) to the next one;
  // UINT64_MAX for zero load.
  uint64_t next_gap_ps();
  uint32_t next_length();
  double mean_length() const { return mean_; }

 private:
  // What a packet's draws read comes first, in 48 bytes: TrafficDriver lays its per-host
  // streams out so that these share a cache line with the other stream's state index.
  double p_ = 0;        // bernoulli: probability per slot
  double slot_ps_ = 0;  // bernoulli: slot length
  double log1m_p_ = 0;  // bernoulli: log(1 - p), < 0 for every p > 0
  double mean_gap_ps_ = 0;
  double carry_ = 0;        // picoseconds not yet returned (fraction, or a 1 ps minimum paid ahead)
  uint32_t fixed_len_ = 0;  // the length when the mix has one, else 0
  bool poisson_;
  models::RandomStream rng_;
  double mean_ = 0;
  std::vector<uint32_t> len_;
  std::vector<double> cum_;
};

// Natural logarithm of a finite x > 0 from frexp and a fixed atanh series: within a few ulp
// of std::log, and the same bits everywhere (libm implementations differ in the last bit).
double portable_log(double x);
// log(1 - p) for 0 <= p < 1, accurate for the tiniest p too (a series below 1e-4), so a load
// of 1e-17 of the link gives a packet every 1e17 slots instead of one every picosecond.
double portable_log1m(double p);

}  // namespace ibsc::tb
