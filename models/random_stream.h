// The random stream each host (and each HCA choosing paths per packet) draws from: PCG64
// (pcg-cpp, Debian's libpcg-cpp-dev; a 128-bit LCG with a 64-bit xor-shift and random-rotation
// output). Why it, and why it is good enough:
//  - 32 bytes of state against mt19937_64's 2,504: a packet's draws touch one cache line instead
//    of a random line of a 2.5 KB array, and 16,384 hosts' two streams take 1 MB, not 82 MB;
//  - it passes TestU01's BigCrush and PractRand to terabytes (O'Neill 2014), period 2^128 per
//    stream; the simulator draws < 2^40 numbers per stream, far inside it;
//  - the draws are built from raw 64-bit outputs only (uniform_draw.h), so a seed gives the same
//    traffic on every compiler and standard library, as mt19937_64 did.
// Seeds are spread by splitmix64 into both the state and the stream (the LCG's increment), so
// hosts whose seeds differ by one bit still get unrelated sequences on distinct streams.
#pragma once
#include <pcg_random.hpp>

#include <cstdint>

namespace ibsc::models {

using RandomStream = pcg64;

// splitmix64's finaliser (Steele, Lea, Flood 2014): a bijection that sends nearby inputs far apart.
constexpr uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

inline RandomStream make_random_stream(uint64_t seed) {
  const uint64_t s0 = splitmix64(seed), s1 = splitmix64(seed), i0 = splitmix64(seed), i1 = splitmix64(seed);
  const auto u128 = [](uint64_t hi, uint64_t lo) { return (static_cast<pcg_extras::pcg128_t>(hi) << 64) | lo; };
  return RandomStream(u128(s0, s1), u128(i0, i1));
}

}  // namespace ibsc::models
