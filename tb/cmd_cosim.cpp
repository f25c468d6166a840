#include "tb/cmd_cosim.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include "models/verilated_arbiter.h"
#include "tb/cosim/cosim.h"

namespace ibsc::tb {
namespace {

int run(const CosimConfig& cfg) {
  if (cfg.trace_end_cycle <= cfg.trace_begin_cycle)
    throw std::invalid_argument("cosim: --trace-to (" + std::to_string(cfg.trace_end_cycle) +
                                ") must be greater than --trace-from (" + std::to_string(cfg.trace_begin_cycle) +
                                "): the dump window would be empty");
  if (!cfg.vcd_path.empty()) {  // checked now: Verilator's open failure is not an error message
    std::FILE* f = std::fopen(cfg.vcd_path.c_str(), "a");
    if (!f) throw std::runtime_error("cosim: cannot create '" + cfg.vcd_path + "': " + std::strerror(errno));
    std::fclose(f);
  }
  std::cerr << "ibsc cosim: " << cfg.ports << " ports, " << cfg.vls << " VLs, " << cfg.levels << " levels, "
            << (cfg.directed ? "directed + " : "") << cfg.cycles << " random cycles, seed " << cfg.seed
            << (cfg.broken ? ", BROKEN RTL (no credit check)" : "") << "\n";
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
  c->add_option("--cycles", cfg->cycles, "Random cycles after the directed cases")->capture_default_str();
  c->add_option("--seed", cfg->seed, "Seed of the random stimulus (std::mt19937_64)")->capture_default_str();
  c->add_flag("--broken", cfg->broken, "Use the RTL variant that skips the credit check (must fail)");
  c->add_flag("!--no-directed", cfg->directed, "Skip the directed corner cases");
  c->add_option("--vcd", cfg->vcd_path, "Write the RTL waves to this VCD file (open with waves/arbiter.gtkw)");
  auto* tf = c->add_option("--trace-from", cfg->trace_begin_cycle, "First cycle dumped");
  auto* tt = c->add_option("--trace-to", cfg->trace_end_cycle, "Cycle where dumping stops (exclusive)");
  for (auto* opt : {tf, tt}) opt->needs("--vcd");
  c->callback([cfg]() { throw CLI::RuntimeError(run(*cfg)); });
}

}  // namespace ibsc::tb
