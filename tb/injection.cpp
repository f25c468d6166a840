#include "tb/injection.h"

#include <cmath>
#include <stdexcept>

#include "tb/traffic.h"

namespace ibsc::tb {

InjectionProcess::InjectionProcess(const InjectionConfig& cfg, double load, double link, uint64_t seed)
    : rng_(seed), poisson_(cfg.process == "poisson") {
  if (cfg.process != "bernoulli" && cfg.process != "poisson")
    throw std::invalid_argument("traffic.injection must be bernoulli or poisson");
  if (cfg.length_mix.empty()) throw std::invalid_argument("traffic.lengths: empty length mix");
  double total = 0, sum = 0;
  for (auto [len, w] : cfg.length_mix) {
    if (len < 1 || len > 4096) throw std::invalid_argument("traffic.length must be 1..4096 bytes (IBA MTU)");
    if (!(w > 0)) throw std::invalid_argument("traffic.lengths: weights must be > 0");
    total += w;
    sum += w * len;
  }
  double acc = 0;
  for (auto [len, w] : cfg.length_mix) {
    len_.push_back(len);
    acc += w / total;
    cum_.push_back(acc);
  }
  cum_.back() = 1.0;
  mean_ = sum / total;
  if (!(load >= 0)) throw std::invalid_argument("offered load must be >= 0");
  if (!(link > 0)) throw std::invalid_argument("link rate must be > 0");
  if (load > 0) {
    if (!poisson_ && load > link * (1 + 1e-9))
      throw std::invalid_argument("bernoulli injection: offered load above link capacity");
    slot_ps_ = mean_ / link * 1000.0;
    p_ = std::min(1.0, load / link);
    mean_gap_ps_ = mean_ / load * 1000.0;
  }
}

uint64_t InjectionProcess::next_gap_ps() {
  if (p_ <= 0) return UINT64_MAX;
  double gap;
  if (poisson_) {
    gap = -std::log(1.0 - uniform01(rng_)) * mean_gap_ps_;
  } else {
    // Slots until the next success: geometric on {1, 2, ...}.
    double k = p_ >= 1.0 ? 1.0 : std::floor(std::log(1.0 - uniform01(rng_)) / std::log(1.0 - p_)) + 1.0;
    gap = k * slot_ps_;
  }
  gap += carry_;
  double whole = std::floor(gap);
  carry_ = gap - whole;
  return whole < 1 ? 1 : static_cast<uint64_t>(whole);
}

uint32_t InjectionProcess::next_length() {
  if (len_.size() == 1) return len_[0];
  double u = uniform01(rng_);
  for (size_t i = 0; i < cum_.size(); ++i)
    if (u < cum_[i]) return len_[i];
  return len_.back();
}

}  // namespace ibsc::tb
