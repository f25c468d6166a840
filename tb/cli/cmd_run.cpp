#include "tb/cli/cmd_run.h"

#include <chrono>
#include <cstdio>
#include <iostream>

#include "routing/routing.h"
#include "tb/cli/cli_numbers.h"
#include "tb/run/sweep.h"
#include "tb/scenario/scenario.h"
#include "tb/scenario/scenario_check.h"
#include "tb/stats/output_files.h"
#include "tb/stats/port_counters_report.h"
#include "tb/stats/results.h"
#include "tb/waves/wave_savefile.h"

namespace ibsc::tb {
namespace {

struct RunOptions {
  std::string scenario;
  std::vector<std::string> sets;
  std::string out;
  std::string seed;  // as text: the scenario reader checks it as a 64-bit unsigned number
  int jobs = -1;
  bool quiet = false;
  std::string waves;  // VCD file; set: one load point only, with waves
  std::string wave_switches = "0";
  std::string wave_ports;  // empty: every connected port
  double wave_start = 0;
  double wave_end = -1;  // < 0: start + 20 us
  double wave_load = 0.3;
  double max_memory_gb = 0;  // routing tables above this estimate are refused; 0: half the RAM
};

// --waves: one load point in a child process (SystemC elaborates once per process), with the
// probe on. A whole sweep would overwrite one file per point and take far longer.
std::vector<LoadPointResult> run_with_waves(Scenario& s, const RunOptions& o) {
  WaveOptions& w = s.point.run.waves;
  w.file = o.waves;
  w.switches = parse_switch_list(o.wave_switches);
  if (!o.wave_ports.empty()) w.ports = parse_switch_list(o.wave_ports, "port");
  w.start_ns = o.wave_start;
  w.end_ns = o.wave_end < 0 ? o.wave_start + 20000 : o.wave_end;
  w.validate(*s.point.topo);
  // Here, in the parent: a worker failing to open them would only report that it died.
  check_writable(w.vcd_path());
  check_writable(gtkw_path(w.vcd_path()));
  for (int sw : w.switches)
    if (s.point.arbiter.uses_rtl(sw)) check_writable(rtl_wave_path(w.file, sw));
  std::fprintf(stderr,
               "ibsc: waves of switch(es) %s from %.0f ns to %.0f ns at offered load %.3f -> %s (open with: gtkwave "
               "%s)\n",
               o.wave_switches.c_str(), w.start_ns, w.end_ns, o.wave_load, w.file.c_str(),
               gtkw_path(w.vcd_path()).c_str());
  const PointSetup& ps = s.point;
  const double load = o.wave_load;
  std::string text = run_forked(1, 1, [&](int) { return to_json(run_load_point(ps, load, "waves")).dump(); })[0];
  return {point_from_json(nlohmann::json::parse(text))};
}

int run(const RunOptions& o) {
  auto sets = o.sets;
  if (!o.seed.empty()) sets.push_back("seed=" + o.seed);
  if (o.jobs >= 0) sets.push_back("sweep.jobs=" + std::to_string(o.jobs));
  Scenario s = load_scenario(o.scenario, sets);
  s.routing.max_memory_gb = o.max_memory_gb;
  s.point.run.progress = !o.quiet;
  const auto wall0 = std::chrono::steady_clock::now();

  routing::Topology topo;
  routing::TableSet tables;
  prepare_scenario(s, topo, tables);  // every check that needs the tables, before any point runs
  // The output folder is made (and proven writable) before hours of simulation, not after.
  std::string out = o.out.empty() ? "out/" + s.name : o.out;
  check_output_folder(out, "--out");
  s.point.topo = &topo;
  s.point.tables = &tables;
  std::fprintf(stderr, "ibsc: %s: %d switches, %d hosts, routing %s (%d SLs, %d VLs), seed %llu\n", s.name.c_str(),
               topo.num_switches, topo.num_hosts, tables.algorithm.c_str(), tables.sls_used, tables.vls_used,
               static_cast<unsigned long long>(s.point.seed));

  std::vector<LoadPointResult> points = o.waves.empty() ? run_sweep(s.point, s.sweep) : run_with_waves(s, o);
  SaturationPoint sat = find_saturation(points);

  nlohmann::ordered_json built;
  built["switches"] = topo.num_switches;
  built["hosts"] = topo.num_hosts;
  built["switch_links"] = routing::count_switch_links(topo);
  built["routing"] = tables.algorithm;
  built["sls_used"] = tables.sls_used;
  built["vls_used"] = tables.vls_used;
  built["lmc"] = tables.hosts.empty() ? 0 : tables.hosts[0].lmc;
  if (tables.external) {  // the external engine that made the tables, its log beside results.json
    const routing::ExternalRun& x = *tables.external;
    write_file_atomically(out + "/opensm.log", x.log);
    built["external_routing"] = {{"tool", x.tool}, {"engine", x.engine}, {"log", "opensm.log"}};
    std::fprintf(stderr, "ibsc: tables by %s, engine %s, in %.1f s (ibsim and OpenSM); its log: %s/opensm.log\n",
                 x.tool.c_str(), x.engine.c_str(), x.seconds, out.c_str());
  }
  if (s.point.fabric.sw.vl_buffers == models::VlBuffers::Operational) {  // what the VLs got
    const models::SwitchParams op = s.point.fabric.sw.for_vls_used(tables.vls_used);
    built["operational_vls"] = op.num_vls;
    built["buffer_bytes_per_vl"] = op.buffer_bytes_per_vl;
    built["output_buffer_bytes_per_vl"] = op.output_buffer_bytes_per_vl;
  }
  write_results(out, s.resolved, s.point.seed, points, built);
  print_summary(std::cout, points);
  if (!o.quiet) print_most_stalled(std::cout, points);
  if (sat.found)
    std::printf("saturation: offered load %.3f of link capacity; throughput %.4f bytes/ns/switch\n", sat.load,
                sat.max_accepted_bytes_per_ns_per_switch);
  else
    std::printf("no saturation up to the highest load; best accepted %.4f bytes/ns/switch\n",
                sat.max_accepted_bytes_per_ns_per_switch);
  for (const LoadPointResult& p : points)
    if (p.has_faults)  // link faults: what they cost, and pairs that no path reaches any more
      std::printf(
          "link faults at load %.3f: %llu of %zu cables failed; %llu packets dropped, %llu re-sent, %llu "
          "connections migrated; %llu host pairs unreachable (%llu packets given up)\n",
          p.offered_load, static_cast<unsigned long long>(p.faults.applied), p.faults.cables.size(),
          static_cast<unsigned long long>(p.faults.packets_dropped),
          static_cast<unsigned long long>(p.faults.retransmitted), static_cast<unsigned long long>(p.faults.migrations),
          static_cast<unsigned long long>(p.faults.unreachable_pairs),
          static_cast<unsigned long long>(p.faults.packets_abandoned));
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  std::printf("results: %s/results.json, %s/results.csv, %s/latency.svg  (%.1f s)\n", out.c_str(), out.c_str(),
              out.c_str(), secs);
  return 0;
}

}  // namespace

void add_set_option(CLI::App& c, std::vector<std::string>& sets) {
  // One value per --set, so that a scenario file after it is not taken as another assignment.
  c.add_option("--set", sets, "Override a scenario key: key.path=value (repeatable)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

void add_run_command(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* c = app.add_subcommand("run", "Simulate a scenario: load sweep, saturation point, results and plot");
  c->add_option("scenario", o->scenario, "Scenario YAML file")->required()->check(CLI::ExistingFile);
  add_set_option(*c, o->sets);
  c->add_option("--out", o->out, "Output folder (default out/<scenario name>)");
  c->add_option("--seed", o->seed, "Random seed (overrides the scenario's)")->transform(whole_number(0, UINT64_MAX));
  c->add_option("--jobs", o->jobs, "Load points simulated at once (default: one per core)")
      ->transform(whole_number(0, kMaxJobs));
  c->add_flag("--quiet", o->quiet, "No progress lines on stderr");
  c->add_option("--max-memory-gb", o->max_memory_gb,
                "Refuse routing tables estimated to need more memory, GB (default: half the physical memory)")
      ->check(CLI::Range(0.001, 1e6));
  c->add_option("--waves", o->waves,
                "Write a VCD (.vcd added if missing) of the selected switches, and beside it a GTKWave save file "
                "for it (run.vcd -> run.gtkw, opening at the window). "
                "Runs ONE load point (--wave-load) instead of the sweep; with switch.arbiter: rtl the RTL "
                "arbiters also write <FILE stem>.sw_<i>.rtl.vcd");
  auto* ws = c->add_option("--wave-switches", o->wave_switches, "Switches to trace, comma-separated (default 0)");
  auto* wp = c->add_option("--wave-ports", o->wave_ports,
                           "Ports of each traced switch, comma-separated (default: every connected port)");
  auto* wb = c->add_option("--wave-start", o->wave_start, "Waves: first time sampled, ns (default 0)")
                 ->check(CLI::NonNegativeNumber);
  auto* we =
      c->add_option("--wave-end", o->wave_end,
                    "Waves: sampling stops at this time, ns (default start + 20000; the dump grows with the window)");
  auto* wl = c->add_option("--wave-load", o->wave_load,
                           "Waves: offered load of the single point, fraction of link capacity (default 0.3)")
                 ->check(CLI::PositiveNumber);
  for (auto* opt : {ws, wp, wb, we, wl}) opt->needs("--waves");
  c->callback([o]() { throw CLI::RuntimeError(run(*o)); });
}

}  // namespace ibsc::tb
