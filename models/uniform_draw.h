// Unbiased random draws from raw 64-bit engine output, bit-identical on every standard library
// (std::uniform_int_distribution is not): the traffic driver's destinations and the HCA's
// per-packet path choice use them, on a RandomStream (random_stream.h) or, for set-up draws
// that must stay as they were, an mt19937_64.
#pragma once
#include <cstdint>

namespace ibsc::models {

// Uniform integer in [0, n), n >= 1: Lemire's multiply-shift with rejection.
template <class Engine>
inline uint64_t uniform_below(Engine& rng, uint64_t n) {
  static_assert(sizeof(rng()) == 8, "a 64-bit engine");
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

// Uniform double in [0, 1): the top 53 bits.
template <class Engine>
inline double uniform01(Engine& rng) {
  static_assert(sizeof(rng()) == 8, "a 64-bit engine");
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

}  // namespace ibsc::models
