// Lockstep co-verification of the switch arbiter: the Verilated RTL (VerilatedArbiter) and the
// C++ reference model (AdaptiveArbiter) see the same inputs every cycle, directed corner cases
// first and then constrained-random cycles, and every grant is compared. A passive checker also
// holds the model's grants to the interface rules (candidate, free, whole-packet credits, one
// grant per output), so a mistake shared by both sides is caught too. The first disagreement
// stops the run with the cycle, the inputs, the expected and the actual grants.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tb/cosim/coverage.h"
#include "tb/cosim/stimulus.h"

namespace ibsc::tb {

struct CosimConfig {
  int ports = 16;
  int vls = 4;
  int levels = 4;            // priority levels in the stimulus
  uint64_t cycles = 100000;  // random cycles after the directed ones
  uint64_t seed = 1;
  bool directed = true;
  std::string arbiter = "rtl";      // the design under test: a registered arbiter (ibsc/arbiter_registry.h)
  std::string reference = "model";  // what it must match, cycle by cycle: a registered arbiter
  bool broken = false;              // arbiter kBrokenRtl instead of rtl (registered in the tests only)
  std::string vcd_path;             // non-empty: dump the RTL to this VCD
  uint64_t trace_begin_cycle = 0;   // dump window, in cycles
  uint64_t trace_end_cycle = UINT64_MAX;
};

struct CosimMismatch {
  uint64_t cycle = 0;
  std::string what;  // "rtl != model" or the broken interface rule
  std::string inputs;
  std::string expected;
  std::string actual;
  std::string reference = "model", arbiter = "rtl";  // the names the report gives the two sides
  std::vector<int> expected_grants, actual_grants;   // per input: the output granted, or -1
  std::string report() const;
};

struct CosimResult {
  uint64_t cycles = 0;       // cycles compared (up to and including a mismatch)
  double seconds = 0;        // wall time of the compare loop
  double rtl_seconds = 0;    // of which inside the arbiter under test's arbitrate
  double model_seconds = 0;  // of which inside the reference's arbitrate
  std::optional<CosimMismatch> mismatch;
  ArbCoverage coverage;
  std::string arbiter = "rtl", reference = "model";  // as the summary names the two sides
  bool passed() const { return !mismatch; }
  double cycles_per_second() const { return seconds > 0 ? cycles / seconds : 0; }
  std::string summary() const;
};

// Throws std::invalid_argument for a shape the RTL configurations cannot hold, an arbiter or
// reference nobody registered, or --vcd with an arbiter that is not Verilated; and what
// check_cosim_config() refuses. `ibsc cosim` and ibsc::cosim() (ibsc/cosim.h) both run this.
CosimResult run_cosim(const CosimConfig& cfg);

// The RTL without the credit check (BROKEN_SKIP_CREDIT_CHECK=1), registered by tests/rtl in
// the test programs that must see the co-verification catch it.
inline constexpr const char* kBrokenRtl = "rtl-broken";

// The options' own limits, checked before anything runs: ports, VLs, cycles in range, a dump
// window that is not empty, a VCD that would not fill the disk and whose path can be written.
// Throws std::invalid_argument (std::runtime_error for an unwritable VCD path).
void check_cosim_config(const CosimConfig& cfg);

// Above a billion random cycles a run takes hours (5-50 k cycles/s on one core): a wrapped
// "-1" or a typo is far more likely than a wish for that.
inline constexpr uint64_t kMaxCosimCycles = 1'000'000'000;

// Clock period the cosim gives the RTL, so cycle k is dumped at k * kCosimPeriodPs.
inline constexpr uint64_t kCosimPeriodPs = 1000;

}  // namespace ibsc::tb
