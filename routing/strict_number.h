// Whole-token number parsing for the importers: "8junk", " 8", "+8", "-8" and values beyond
// `max` are refused instead of read as a prefix (std::stoi, atoi, sscanf) or wrapped (stoull).
#pragma once
#include <cstdint>
#include <string_view>

namespace ibsc::routing {

// Digits only (base 10 or 16, no sign, no prefix, no spaces), at least one, value <= max.
inline bool parse_unsigned(std::string_view text, uint64_t max, uint64_t& out, int base = 10) {
  if (text.empty()) return false;
  uint64_t v = 0;
  for (char c : text) {
    int d = c >= '0' && c <= '9'                 ? c - '0'
            : base == 16 && c >= 'a' && c <= 'f' ? c - 'a' + 10
            : base == 16 && c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                 : -1;
    if (d < 0) return false;
    const auto ud = static_cast<uint64_t>(d);
    if (ud > max || v > (max - ud) / static_cast<uint64_t>(base)) return false;  // v * base + d > max
    v = v * static_cast<uint64_t>(base) + ud;
  }
  out = v;
  return true;
}

// IBA link widths: 1x, 4x, 8x, 12x, and 2x on newer HCAs.
inline bool iba_width(uint64_t lanes) { return lanes == 1 || lanes == 2 || lanes == 4 || lanes == 8 || lanes == 12; }

}  // namespace ibsc::routing
