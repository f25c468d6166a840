// Whole-number command-line options. CLI11 2.1 reads an unsigned option with strtoull, which
// takes "-1" as 2^64-1 (so `cosim --cycles -1` ran for ever) and "010" as octal 8, and never
// reports a value out of range. This validator runs on the text before CLI11 converts it:
// decimal digits only, within [lo, hi], leading zeros dropped so the conversion reads decimal.
// Attach it with transform() (check() hands validators a copy). CLI11 prefixes the message with the option's name
// ("--cycles: ...").
#pragma once
#include <charconv>
#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

namespace ibsc::tb {

// --jobs: worker processes at once; more than this is a typo, not a machine.
constexpr uint64_t kMaxJobs = 1024;

inline CLI::Validator whole_number(uint64_t lo, uint64_t hi) {
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        std::string expected = "expected a whole number in " + range + ", found '" + text + "'";
        if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return expected;
        const size_t first = std::min(text.find_first_not_of('0'), text.size() - 1);
        text.erase(0, first);
        uint64_t v = 0;
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi) return expected;
        return {};
      },
      "UINT in " + range);
}

}  // namespace ibsc::tb
