// FNV-1a, 64 bit: the one byte digest of the project. It detects change (a payload corrupted in
// flight, an input file edited between two runs); it is no defence against forgery.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ibsc::routing {

constexpr uint64_t kFnv1aBasis = 0xcbf29ce484222325ull;

inline uint64_t fnv1a64(const void* data, size_t n, uint64_t h = kFnv1aBasis) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

// The digest of `bytes` as 16 hex digits.
std::string digest_hex(std::string_view bytes);

}  // namespace ibsc::routing
