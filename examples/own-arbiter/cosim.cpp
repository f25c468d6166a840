// `own_arbiter --cosim REFERENCE [--cycles N] [--seed S] [--vcd FILE]`: co-verifies the user's
// RTL arbiter (fixed-priority-rtl, fixed_priority_arbiter.sv) cycle by cycle against a
// registered reference through IBSC's public co-verification (ibsc/cosim.h): its own C++
// model `fixed-priority` (fixed_priority.cpp), which it must match, or IBSC's default `model`,
// which it must not. Exit 0: passed; 1: a mismatch; 2: bad options.
#include <ibsc/cosim.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

int run_cosim(int argc, char** argv) {
  ibsc::CosimOptions o;
  o.arbiter = "fixed-priority-rtl";
  o.ports = 12;  // within the RTL's one configuration (16 ports)
  o.cycles = 20000;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "own_arbiter: %s needs a value\n", a.c_str());
      return 2;
    }
    const char* v = argv[++i];
    char* end = nullptr;
    errno = 0;
    if (a == "--cosim") o.reference = v;
    else if (a == "--vcd") o.vcd_path = v;
    else if (a == "--cycles") o.cycles = std::strtoull(v, &end, 10);
    else if (a == "--seed") o.seed = std::strtoull(v, &end, 10);
    else {
      std::fprintf(stderr, "own_arbiter: unknown option '%s' (--cosim, --cycles, --seed, --vcd)\n", a.c_str());
      return 2;
    }
    if (end && (*end || !*v || *v == '-' || errno == ERANGE)) {
      std::fprintf(stderr, "own_arbiter: %s: expected a whole number, found '%s'\n", a.c_str(), v);
      return 2;
    }
  }
  ibsc::CosimResult r;
  try {
    r = ibsc::cosim(o);
  } catch (const ibsc::Error& e) {
    std::fprintf(stderr, "own_arbiter: %s\n", e.what());
    return 2;
  }
  std::printf("%s against %s: %s", o.arbiter.c_str(), o.reference.c_str(), r.summary.c_str());
  if (r.mismatch && !r.mismatch->signal.empty())
    std::printf("first mismatch: cycle %llu, %s (input %d: %s granted %d, %s granted %d)\n",
                (unsigned long long)r.mismatch->cycle, r.mismatch->signal.c_str(), r.mismatch->input,
                o.reference.c_str(), r.mismatch->expected_port, o.arbiter.c_str(), r.mismatch->actual_port);
  std::printf("coverage: %d of %d bins in %llu cycles\n", r.coverage.bins_hit, r.coverage.bins,
              (unsigned long long)r.coverage.cycles);
  if (!o.vcd_path.empty()) std::printf("waves: %s\n", o.vcd_path.c_str());
  return r.passed ? 0 : 1;
}
