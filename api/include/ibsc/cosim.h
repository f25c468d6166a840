// Co-verification of a switch arbiter, as `ibsc cosim` runs it (docs/cosim.md): the arbiter
// under test and a reference, both registered by name (ibsc/arbiter_registry.h: IBSC's `model`
// and `rtl`, a user's C++ arbiter, a user's RTL from ibsc_add_rtl_arbiter()), see the same
// inputs every cycle, directed corner cases first and then constrained-random cycles, and every
// grant is compared. A passive checker holds the reference's grants to the SwitchArbiter rules
// too. The first disagreement stops the run.
//
//   #include <ibsc/cosim.h>
//   ibsc::CosimOptions o;
//   o.arbiter = "my-rtl";  o.reference = "my-model";  o.vcd_path = "my-rtl.vcd";
//   const ibsc::CosimResult r = ibsc::cosim(o);
//   std::cout << r.summary;  // the text `ibsc cosim` prints
//   return r.passed ? 0 : 1;
//
// Same options and seed, same cycles and result.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ibsc/error.h"

namespace ibsc {

struct CosimOptions {
  std::string arbiter = "rtl";      // the design under test: a registered arbiter
  std::string reference = "model";  // what it must match, cycle by cycle: a registered arbiter
  int ports = 16;                   // switch ports (1..255; a Verilated arbiter: up to its largest build)
  int vls = 4;                      // VLs the requests use (1..16)
  int levels = 4;                   // priority levels in the stimulus (1..2^PRIO_W: 8 in IBSC's RTL)
  uint64_t cycles = 100000;         // random cycles after the directed ones (at most 10^9)
  uint64_t seed = 1;                // of the random stimulus (std::mt19937_64)
  bool directed = true;             // run the directed corner cases first
  std::string vcd_path;             // non-empty: dump the arbiter under test (Verilated) to this VCD
  uint64_t trace_from = 0;          // dump window, in cycles: [trace_from, trace_to)
  uint64_t trace_to = UINT64_MAX;
};

// The first cycle where the two sides disagreed (or the reference broke an interface rule, or
// an assertion inside the RTL fired).
struct CosimMismatch {
  uint64_t cycle = 0;  // counted from 0, directed cycles first
  // The first pin of the grant bundle that differs (models/arbiter_pins.h):
  // "grant_valid[i]" when one side granted input i and the other did not, "grant_port[i]" when
  // both granted it other outputs; empty when the grants agree (a broken rule, an assertion).
  std::string signal;
  int input = -1;          // that input, or -1
  int expected_port = -1;  // the reference's grant to it (-1: none)
  int actual_port = -1;    // the arbiter under test's
  std::string what;        // "ARBITER != REFERENCE", the rule broken, or the assertion's message
  std::string report;      // cycle, every input, both sides' grants: as `ibsc cosim` prints it
};

// Functional coverage of the cycles compared before any mismatch (docs/cosim.md lists the bins).
struct CosimCoverage {
  uint64_t cycles = 0;               // cycles sampled
  int bins = 0;                      // coverage bins
  int bins_hit = 0;                  // bins hit at least once
  std::vector<std::string> missing;  // names of the bins never hit
  bool complete() const { return bins > 0 && bins_hit == bins; }
  double percent() const { return bins > 0 ? 100.0 * bins_hit / bins : 0; }
};

struct CosimResult {
  bool passed = false;
  uint64_t cycles = 0;  // cycles compared, up to and including a mismatch
  std::optional<CosimMismatch> mismatch;
  CosimCoverage coverage;
  double seconds = 0;   // wall time of the compare loop (not deterministic, unlike the rest)
  std::string summary;  // PASS/FAIL line, the mismatch report, the coverage report
};

// Runs the co-verification. A mismatch is a result, not an error. Throws ibsc::Error
// (ibsc/ibsc.h; a std::runtime_error) for options it cannot run: an unregistered arbiter or
// reference (the registered ones listed), a value out of range, a VCD path that cannot be
// written or an arbiter under test that is not Verilated when vcd_path is set.
CosimResult cosim(const CosimOptions& options);

}  // namespace ibsc
