// Unbiased random draws from raw 64-bit engine output, bit-identical on every standard library
// (std::uniform_int_distribution is not): the traffic driver's destinations and the HCA's
// per-packet path choice use them.
#pragma once
#include <cstdint>
#include <random>

namespace ibsc::models {

// Uniform integer in [0, n), n >= 1: Lemire's multiply-shift with rejection.
inline uint64_t uniform_below(std::mt19937_64& rng, uint64_t n) {
  unsigned __int128 m = static_cast<unsigned __int128>(rng()) * n;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < n) {
    uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(rng()) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

}  // namespace ibsc::models
