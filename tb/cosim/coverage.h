// Functional coverage of the switch-arbiter co-verification: which situations the stimulus
// actually produced, counted from the inputs and the (agreed) grants of each cycle. The run is
// "fully covered" when every bin was hit at least once.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tb/cosim/stimulus.h"

namespace ibsc::tb {

class ArbCoverage {
 public:
  explicit ArbCoverage(const StimulusShape& shape);

  void sample(const ArbCycle& c, const std::vector<int>& grants);

  bool complete() const { return missing().empty(); }
  std::vector<std::string> missing() const;  // names of bins never hit
  int bins() const;
  int bins_hit() const;
  std::string report() const;  // multi-line summary

  // Situation bins, counted in cycles (per-port bins are counted in grants).
  struct Situations {
    uint64_t credit_starved = 0;       // a free candidate lacked credits for the whole packet
    uint64_t one_credit_short = 0;     // ... by exactly one credit
    uint64_t busy_candidate = 0;       // a candidate output was busy
    uint64_t all_busy = 0;             // every output busy while requests were valid
    uint64_t no_grant = 0;             // requests but nothing granted
    uint64_t equal_credit_tie = 0;     // best candidates of a request tied on level and credits
    uint64_t level_beats_credits = 0;  // a lower level won against more credits
    uint64_t output_conflict = 0;      // an input with a usable output got none: taken earlier
    uint64_t multi_grant = 0;          // two or more grants in one cycle
    uint64_t full_match = 0;           // every input granted
  };
  const Situations& situations() const { return sit_; }
  uint64_t cycles() const { return cycles_; }

 private:
  StimulusShape s_;
  uint64_t cycles_ = 0;
  std::vector<uint64_t> in_, out_, vl_, level_;
  Situations sit_;
};

}  // namespace ibsc::tb
