#include "tb/cli/cmd_cosim.h"

#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include "models/verilated_arbiter.h"
#include "tb/cli/cli_numbers.h"
#include "tb/cosim/cosim.h"

namespace ibsc::tb {
namespace {

// The options' limits are checked by run_cosim (check_cosim_config, shared with ibsc::cosim()).
int run(const CosimConfig& cfg) {
  check_cosim_config(cfg);  // before the header line: a refused run prints nothing else
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
      ->transform(whole_number(0, kMaxCosimCycles))
      ->capture_default_str();
  c->add_option("--seed", cfg->seed, "Seed of the random stimulus (std::mt19937_64)")
      ->transform(whole_number(0, UINT64_MAX))
      ->capture_default_str();
  c->add_option("--arbiter", cfg->arbiter,
                "The arbiter under test: any registered one (rtl, a user's RTL from ibsc_add_rtl_arbiter, ...)")
      ->capture_default_str();
  c->add_option("--reference", cfg->reference, "The arbiter it must match cycle by cycle (a registered one)")
      ->capture_default_str();
  c->add_flag("--broken", cfg->broken,
              "Use the RTL variant that skips the credit check (must fail; built into the tests only)");
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
