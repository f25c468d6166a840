// A small deterministic mutation fuzzer for the text parsers: a seeded 64-bit RNG picks one
// corpus entry and stacks one to four mutations on it (bit flips, byte and token insertions,
// deletions, duplicated or swapped lines, splices with another entry, numbers replaced by edge
// values), or runs a generator (a name of 30,000-100,000 characters, nesting 10-5,000 deep).
// The same seed gives the same inputs on every machine (no std distributions, whose results
// differ between standard libraries).
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace ibsc::fuzz {

class Mutator {
 public:
  // `tokens`: text worth inserting for this format ("lid ", "w=", "---\n", ...).
  Mutator(uint64_t seed, std::vector<std::string> tokens);

  std::string next(const std::vector<std::string>& corpus);
  uint64_t below(uint64_t n) { return n ? rng_() % n : 0; }

 private:
  std::string mutate_once(std::string s, const std::vector<std::string>& corpus);
  std::string long_name(std::string s);
  std::string deep_nesting(std::string s);

  std::mt19937_64 rng_;
  std::vector<std::string> tokens_;
};

}  // namespace ibsc::fuzz
