#include "tb/cli/cmd_cosim.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include "models/verilated_arbiter.h"
#include "tb/cli/cli_numbers.h"
#include "tb/cosim/cosim.h"

namespace ibsc::tb {
namespace {

// Above a billion random cycles a run takes hours (5-50 k cycles/s on one core); a wrapped
// "-1" or a typo is far more likely than a wish for that.
constexpr uint64_t kMaxCycles = 1'000'000'000;
// A dump grows by about 4 KB + 1 KB per port each cycle (measured: 7.5 KB at 4 ports, 14 KB at
// 16, 64 KB at 64); more than a million cycles is no longer a wave to look at.
constexpr uint64_t kMaxDumpCycles = 1'000'000;
uint64_t dump_bytes_per_cycle(int ports) { return 4096 + 1024 * static_cast<uint64_t>(ports); }

int run(const CosimConfig& cfg) {
  if (cfg.trace_end_cycle <= cfg.trace_begin_cycle)
    throw std::invalid_argument("cosim: --trace-to (" + std::to_string(cfg.trace_end_cycle) +
                                ") must be greater than --trace-from (" + std::to_string(cfg.trace_begin_cycle) +
                                "): the dump window would be empty");
  // Checked now: a dump that would fill the disk, and an unwritable path (Verilator's open
  // failure is not an error message).
  if (!cfg.vcd_path.empty()) {
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
  std::cerr << "ibsc cosim: " << cfg.ports << " ports, " << cfg.vls << " VLs, " << cfg.levels << " levels, "
            << (cfg.directed ? "directed + " : "") << cfg.cycles << " random cycles, seed " << cfg.seed
            << (cfg.broken ? ", BROKEN RTL (no credit check)" : "")
            << (cfg.arbiter != "rtl" || cfg.reference != "model" ? ", " + cfg.arbiter + " against " + cfg.reference
                                                                 : "")
            << "\n";
  const CosimResult r = run_cosim(cfg);
  std::cout << r.summary();
  if (!cfg.vcd_path.empty()) std::cout << "waves: " << cfg.vcd_path << "\n";
  if (!r.passed()) return 1;
  return r.coverage.complete() ? 0 : 2;
}

}  // namespace

void add_cosim_command(CLI::App& app) {
  auto cfg = std::make_shared<CosimConfig>();
  CLI::App* c = app.add_subcommand("cosim", "Run the RTL switch arbiter against its C++ model in lockstep");
  const int max_ports = models::VerilatedArbiter::max_ports();
  const int max_vls = models::VerilatedArbiter::max_vls();
  c->add_option("--ports", cfg->ports, "Switch ports")->check(CLI::Range(1, max_ports))->capture_default_str();
  c->add_option("--vls", cfg->vls, "Data VLs")->check(CLI::Range(1, max_vls))->capture_default_str();
  c->add_option("--levels", cfg->levels, "Priority levels in the stimulus")
      ->check(CLI::Range(1, models::VerilatedArbiter::kPriorityLevels))
      ->capture_default_str();
  c->add_option("--cycles", cfg->cycles, "Random cycles after the directed cases")
      ->transform(whole_number(0, kMaxCycles))
      ->capture_default_str();
  c->add_option("--seed", cfg->seed, "Seed of the random stimulus (std::mt19937_64)")
      ->transform(whole_number(0, UINT64_MAX))
      ->capture_default_str();
  c->add_option("--arbiter", cfg->arbiter,
                "The arbiter under test: any registered one (rtl, a user's RTL from ibsc_add_rtl_arbiter, ...)")
      ->capture_default_str();
  c->add_option("--reference", cfg->reference, "The arbiter it must match cycle by cycle (a registered one)")
      ->capture_default_str();
  c->add_flag("--broken", cfg->broken, "Use the RTL variant that skips the credit check (must fail; built into the tests only)");
  c->add_flag("!--no-directed", cfg->directed, "Skip the directed corner cases");
  c->add_option("--vcd", cfg->vcd_path, "Write the RTL waves to this VCD file (open with waves/arbiter.gtkw)");
  // Cycles times the 1000 ps period must stay within 64 bits.
  auto* tf = c->add_option("--trace-from", cfg->trace_begin_cycle, "First cycle dumped")
                 ->transform(whole_number(0, UINT64_MAX / kCosimPeriodPs - 1));
  auto* tt = c->add_option("--trace-to", cfg->trace_end_cycle, "Cycle where dumping stops (exclusive)")
                 ->transform(whole_number(0, UINT64_MAX / kCosimPeriodPs - 1));
  for (auto* opt : {tf, tt}) opt->needs("--vcd");
  c->callback([cfg]() { throw CLI::RuntimeError(run(*cfg)); });
}

}  // namespace ibsc::tb
