// A fast 64-bit hash of bytes, for build-time indexes keyed by content (the LFT pool's lists
// and columns, the routings' column keys): a hash met with other content probes on to the
// next one (probe()), and the content, compared in full, decides.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ibsc::routing {

inline uint64_t hash_mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

inline uint64_t hash_bytes(const void* p, size_t n) {
  const auto* b = static_cast<const unsigned char*>(p);
  uint64_t h = n;
  for (; n >= 8; n -= 8, b += 8) {
    uint64_t w;
    std::memcpy(&w, b, 8);
    h = hash_mix(h, w);
  }
  uint64_t tail = 0;
  std::memcpy(&tail, b, n);
  return hash_mix(h, tail);
}

inline uint64_t hash_probe(uint64_t h) { return hash_mix(h, 1); }  // after a hash met with other content

}  // namespace ibsc::routing
