// A small reader for the VCD files Verilator writes, so tests can check the waves themselves:
// which signals exist and what value each had at a given time. Handles scalar, vector and real
// changes and aliased identifiers; not a general-purpose VCD library (no $dumpoff semantics).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ibsc::tb {

class VcdReader {
 public:
  // Throws std::runtime_error naming the file and line on unreadable or malformed input.
  static VcdReader load(const std::string& path);

  const std::string& timescale() const { return timescale_; }
  std::vector<std::string> signals() const;  // full dotted names, e.g. TOP.switch_arbiter.clk
  bool has(const std::string& name) const { return vars_.count(name) != 0; }
  // The unique signal whose full name ends with "." + suffix (or equals it); empty if none or
  // several match.
  std::string find(const std::string& suffix) const;
  int width(const std::string& name) const;

  using Change = std::pair<uint64_t, std::string>;  // time, value (binary MSB first, or real)
  const std::vector<Change>& changes(const std::string& name) const;
  // Value at time t: the last change at or before t; nullopt before the first one.
  std::optional<std::string> value_at(const std::string& name, uint64_t t) const;
  // As an unsigned integer; nullopt if unknown, x/z, or wider than 64 bits.
  std::optional<uint64_t> uint_at(const std::string& name, uint64_t t) const;
  uint64_t last_time() const { return last_time_; }

 private:
  struct Var {
    std::string id;
    int width = 1;
  };
  std::string timescale_;
  std::map<std::string, Var> vars_;                   // by full name
  std::map<std::string, std::vector<Change>> waves_;  // by identifier code
  uint64_t last_time_ = 0;
};

}  // namespace ibsc::tb
