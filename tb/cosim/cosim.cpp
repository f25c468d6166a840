#include "tb/cosim/cosim.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "ibsc/arbiter_registry.h"
#include "models/verilated_arbiter.h"

namespace ibsc::tb {
namespace {

// Empty when the grants obey the SwitchArbiter contract, else the rule broken.
std::string check_rules(const ArbCycle& c, const std::vector<int>& g) {
  std::vector<int> owner(c.out.size(), -1);
  for (size_t i = 0; i < g.size(); ++i) {
    if (g[i] < 0) continue;
    const auto& r = c.req[i];
    const std::string in = "input " + std::to_string(i);
    if (!r.valid) return in + " granted without a request";
    const size_t o = static_cast<size_t>(g[i]);
    bool cand = false;
    for (const auto& k : r.candidates) cand |= k.port == o;
    if (!cand) return in + " granted a port that is not a candidate";
    if (c.out[o].busy) return in + " granted a busy output";
    if (r.vl >= c.out[o].credits.size() || c.out[o].credits[r.vl] < r.length_credits)
      return in + " granted without credits for the whole packet";
    if (owner[o] >= 0) return "output " + std::to_string(o) + " granted twice";
    owner[o] = static_cast<int>(i);
  }
  return {};
}

// A dump grows by about 4 KB + 1 KB per port each cycle (measured: 7.5 KB at 4 ports, 14 KB at
// 16, 64 KB at 64); more than a million cycles is no longer a wave to look at.
constexpr uint64_t kMaxDumpCycles = 1'000'000;
uint64_t dump_bytes_per_cycle(int ports) { return 4096 + 1024 * static_cast<uint64_t>(ports); }

}  // namespace

void check_cosim_config(const CosimConfig& cfg) {
  // A switch's limits (255 ports, IB's 16 VL numbers); a Verilated arbiter checks its own.
  if (cfg.ports < 1 || cfg.ports > 255)
    throw std::invalid_argument("cosim: ports must be 1..255, not " + std::to_string(cfg.ports));
  if (cfg.vls < 1 || cfg.vls > 16)
    throw std::invalid_argument("cosim: vls must be 1..16, not " + std::to_string(cfg.vls));
  if (cfg.cycles > kMaxCosimCycles)
    throw std::invalid_argument("cosim: cycles must be at most " + std::to_string(kMaxCosimCycles) + ", not " +
                                std::to_string(cfg.cycles));
  if (cfg.trace_end_cycle <= cfg.trace_begin_cycle)
    throw std::invalid_argument("cosim: --trace-to (" + std::to_string(cfg.trace_end_cycle) +
                                ") must be greater than --trace-from (" + std::to_string(cfg.trace_begin_cycle) +
                                "): the dump window would be empty");
  if (cfg.vcd_path.empty()) return;
  // Checked now: a dump that would fill the disk, and an unwritable path (Verilator's open
  // failure is not an error message).
  const uint64_t directed = cfg.directed ? directed_cycles({cfg.ports, cfg.vls, cfg.levels}).size() : 0;
  const uint64_t total = directed + cfg.cycles;
  const uint64_t dumped = std::min(cfg.trace_end_cycle, total) - std::min(cfg.trace_begin_cycle, total);
  const double gb = dumped * dump_bytes_per_cycle(cfg.ports) / 1e9;
  std::error_code ec;
  const auto space = std::filesystem::space(std::filesystem::absolute(cfg.vcd_path).parent_path(), ec);
  const double free_gb = ec ? 0 : space.available / 1e9;
  if (dumped > kMaxDumpCycles || (!ec && gb > free_gb)) {
    char size[96];
    std::snprintf(size, sizeof size, "about %.1f GB (%.1f GB free there)", gb, free_gb);
    throw std::invalid_argument("cosim: --vcd would dump " + std::to_string(dumped) + " cycles, " + size +
                                "; at most " + std::to_string(kMaxDumpCycles) +
                                " cycles are dumped: narrow the window with --trace-from/--trace-to");
  }
  std::FILE* f = std::fopen(cfg.vcd_path.c_str(), "a");
  if (!f) throw std::runtime_error("cosim: cannot create '" + cfg.vcd_path + "': " + std::strerror(errno));
  std::fclose(f);
}

std::string CosimMismatch::report() const {
  std::ostringstream os;
  std::string ref = "(" + reference + ")", dut = "(" + arbiter + ")";
  const size_t w = std::max(ref.size(), dut.size());
  ref.resize(w, ' ');
  dut.resize(w, ' ');
  os << "MISMATCH at cycle " << cycle << ": " << what << "\n"
     << inputs << "  expected " << ref << ": " << expected << "\n  actual   " << dut << ": " << actual << "\n";
  return os.str();
}

std::string CosimResult::summary() const {
  std::ostringstream os;
  os << (passed() ? "PASS" : "FAIL") << ": " << cycles << (cycles == 1 ? " cycle" : " cycles") << " compared in "
     << seconds << " s (" << static_cast<uint64_t>(cycles_per_second()) << " cycles/s; " << arbiter << " "
     << rtl_seconds << " s, " << reference << " " << model_seconds << " s)\n";
  if (mismatch) os << mismatch->report();
  // After a mismatch the coverage counts the cycles before it: at cycle 0 there are none.
  if (mismatch && coverage.cycles() == 0) os << "coverage: none (the first cycle already mismatched)\n";
  else os << coverage.report();
  return os.str();
}

CosimResult run_cosim(const CosimConfig& cfg) {
  check_cosim_config(cfg);
  const StimulusShape shape{cfg.ports, cfg.vls, cfg.levels};
  if (cfg.levels < 1 || cfg.levels > models::VerilatedArbiter::kPriorityLevels)
    throw std::invalid_argument("cosim: levels must be 1.." +
                                std::to_string(models::VerilatedArbiter::kPriorityLevels));
  if (cfg.broken && cfg.arbiter != "rtl") throw std::invalid_argument("cosim: --broken is a variant of --arbiter rtl");
  auto made = [&](const std::string& name, const char* option) {
    if (!arbiter_registered(name)) {
      std::string known;
      for (const std::string& n : registered_arbiters()) known += (known.empty() ? "" : ", ") + n;
      throw std::invalid_argument(std::string("cosim: ") + option + ": unknown arbiter '" + name +
                                  "' (registered: " + known + ")");
    }
    return make_arbiter(name, cfg.ports, cfg.vls);
  };
  std::unique_ptr<SwitchArbiter> model = made(cfg.reference, "--reference");
  std::unique_ptr<SwitchArbiter> dut;
  if (cfg.broken) {
    // The broken twin costs the first build minutes and only the tests need it: tests/rtl
    // registers it (ibsc_add_rtl_arbiter) in the programs that use it, not in `ibsc`.
    if (!arbiter_registered(kBrokenRtl))
      throw std::invalid_argument(std::string("cosim: --broken: the deliberately broken RTL ('") + kBrokenRtl +
                                  "') is built into the test program test_rtl_cosim only, not into this program");
    dut = make_arbiter(kBrokenRtl, cfg.ports, cfg.vls);
  } else {
    dut = made(cfg.arbiter, "--arbiter");
  }
  auto* rtl = dynamic_cast<models::VerilatedArbiter*>(dut.get());
  if (rtl) rtl->set_clock_period_ps(kCosimPeriodPs);
  if (!cfg.vcd_path.empty()) {
    if (!rtl) throw std::invalid_argument("cosim: --vcd needs a Verilated arbiter; '" + cfg.arbiter + "' is not one");
    rtl->open_trace(cfg.vcd_path);
    const uint64_t end = cfg.trace_end_cycle == UINT64_MAX ? UINT64_MAX : cfg.trace_end_cycle * kCosimPeriodPs;
    rtl->set_trace_window(cfg.trace_begin_cycle * kCosimPeriodPs, end);
  }

  CosimResult res{0, 0, 0, 0, std::nullopt, ArbCoverage(shape), cfg.arbiter, cfg.reference};
  const size_t n = static_cast<size_t>(cfg.ports);
  std::vector<int> expected(n), actual(n);
  const auto start = std::chrono::steady_clock::now();

  // Returns false on the first mismatch.
  auto step = [&](const ArbCycle& c) {
    const auto t0 = std::chrono::steady_clock::now();
    model->arbitrate(c.req, c.out, expected);
    const auto t1 = std::chrono::steady_clock::now();
    std::string rtl_error;
    try {
      dut->arbitrate(c.req, c.out, actual);
    } catch (const std::logic_error& e) {  // an assertion inside the RTL fired
      rtl_error = e.what();
    }
    const auto t2 = std::chrono::steady_clock::now();
    res.model_seconds += std::chrono::duration<double>(t1 - t0).count();
    res.rtl_seconds += std::chrono::duration<double>(t2 - t1).count();
    const uint64_t cycle = res.cycles++;
    std::string what = !rtl_error.empty()   ? rtl_error
                       : expected != actual ? cfg.arbiter + " != " + cfg.reference
                                            : check_rules(c, expected);
    if (!what.empty()) {
      CosimMismatch& m = res.mismatch.emplace();
      m.cycle = cycle;
      m.what = what;
      m.inputs = describe(c);
      m.expected = describe_grants(expected);
      m.actual = describe_grants(actual);
      m.reference = cfg.reference;
      m.arbiter = cfg.arbiter;
      m.expected_grants = expected;
      m.actual_grants = actual;
      return false;
    }
    res.coverage.sample(c, expected);
    return true;
  };

  bool ok = true;
  if (cfg.directed)
    for (const ArbCycle& c : directed_cycles(shape))
      if (!(ok = step(c))) break;
  if (ok) {
    RandomStimulus rnd(shape, cfg.seed);
    ArbCycle c;
    for (uint64_t k = 0; k < cfg.cycles && ok; ++k) {
      rnd.next(c);
      ok = step(c);
    }
  }
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (rtl) rtl->close_trace();
  return res;
}

}  // namespace ibsc::tb
