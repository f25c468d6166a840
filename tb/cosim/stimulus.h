// Stimulus for the switch-arbiter co-verification: one ArbCycle is everything the arbiter sees
// on one arbitrated edge. Directed cycles hit the corner cases by construction; the random
// generator is constrained so that ties, near-miss credits and busy outputs stay frequent.
// Every cycle has at least one valid request, as the SwitchArbiter contract requires.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "models/switch_arbiter.h"

namespace ibsc::tb {

struct ArbCycle {
  std::string label;  // directed case name, or "random"
  std::vector<models::ArbRequest> req;
  std::vector<models::ArbOutputStatus> out;
};

struct StimulusShape {
  int ports = 16;
  int vls = 4;
  int levels = 4;  // priority levels used: 0..levels-1
};

// Directed corner cases: all credit-starved, one credit short, exactly enough, all busy,
// equal-credit ties, each priority level, most credits wins, every port on every VL, one
// output wanted by all inputs (round robin), a single deterministic candidate.
std::vector<ArbCycle> directed_cycles(const StimulusShape& shape);

class RandomStimulus {
 public:
  RandomStimulus(const StimulusShape& shape, uint64_t seed);
  void next(ArbCycle& c);

 private:
  int uniform(int lo, int hi);  // inclusive
  bool chance(double p);

  StimulusShape s_;
  std::mt19937_64 rng_;
};

// One line per input and output, for mismatch reports.
std::string describe(const ArbCycle& c);
std::string describe_grants(const std::vector<int>& grants);

}  // namespace ibsc::tb
