// Fabric speed benchmark (issue: the cycle-accurate fabric). Reports simulated packet-hops per
// wall second, simulated ns per wall second and peak memory for an 8x8 torus, e-cube, uniform
// traffic, 512-byte packets, at 10%, 50% and 90% of its saturation load, and the cost of an
// idle 16x16 torus relative to a loaded one. Each measurement runs in its own process.
//   fabric_bench [--sim-us N] [--only FRACTION [--sat LOAD]] [--routing NAME] [--dims AxB[xC]]
//                [--hosts-per-switch H] [--find-sat 1]
// --only runs one point at FRACTION of saturation LOAD (default 0.150, what the sweep finds for
// the 8x8 torus) in this process, without the sweep: for profilers, and for bench/vs_booksim.py,
// which reads its last line (hops, CPU s, instructions-free figures).
// --find-sat 1: the saturation sweep alone (its first line), no timed points.
// --dims: another torus (default 8x8), e.g. 4x4x4 or 16x16; --hosts-per-switch: hosts on each
// switch (default 4; BookSim's torus has 1 node per router, vs_booksim.py runs 1).
// --routing: e-cube (the default), or any routing of the 8x8 torus; adaptive-updown (seeds/003)
// runs with escape queues of one packet (512 bytes) in each input VL buffer.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>

#include <nlohmann/json.hpp>

#include "routing/routing.h"
#include "tb/fabric/fabric.h"
#include "tb/run/sweep.h"
#include "tb/traffic/traffic_driver.h"

using namespace ibsc;

namespace {

struct Measure {
  double wall_s, sim_ns, hops, peak_mb, delivered, wakes;
  double cpu_s = 0;  // process CPU time of the run: less disturbed by other jobs on the machine
};

std::string g_routing = "ecube";
std::vector<int> g_dims = {8, 8};
int g_hosts_per_switch = 4;

// "4x4x4" -> {4, 4, 4}; empty on a malformed spec.
std::vector<int> parse_dims(const char* s) {
  std::vector<int> d;
  for (const char* p = s; *p;) {
    char* end = nullptr;
    const long v = std::strtol(p, &end, 10);
    if (end == p || v < 2 || v > 64) return {};
    d.push_back(static_cast<int>(v));
    if (*end == 0) break;
    if (*end != 'x') return {};
    p = end + 1;
  }
  return d.size() >= 1 && d.size() <= 4 ? d : std::vector<int>{};
}
std::string dims_name(const std::vector<int>& d) {
  std::string s;
  for (size_t k = 0; k < d.size(); ++k) s += (k ? "x" : "") + std::to_string(d[k]);
  return s;
}

// The switch for g_routing: escape queues of one 512-byte packet when it has escape candidates.
tb::FabricParams fabric_params() {
  tb::FabricParams fp;
  if (g_routing == "adaptive-updown") fp.sw.escape_queue_bytes = 512;
  return fp;
}

Measure measure(const std::vector<int>& dims, double load, double sim_us) {
  routing::Topology topo =
      routing::make_torus(dims, g_hosts_per_switch, true, 2 * static_cast<int>(dims.size()) + g_hosts_per_switch);
  routing::RoutingOptions ro;
  ro.algorithm = enum_value<routing::Algorithm>(g_routing);
  routing::TableSet tables = routing::compute_routing(topo, ro);
  tb::FabricParams fp = fabric_params();
  fp.planned_ns = sim_us * 1000.0;  // 2 MB pages as `ibsc run` takes them (4,096 hosts, 500 us or more)
  tb::TrafficConfig tc;
  tb::InjectionConfig ic;
  const double rate = fp.link.bytes_per_ns();
  tb::TrafficDriver driver(topo, tc, ic, load * rate, rate, 1);
  tb::Fabric fabric(topo, tables, fp, driver, tb::make_arbiter_factory({}));
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaboration is not what we measure
  // CPU time read outside the wall-clock interval: clock() is a system call, several us in a VM.
  const std::clock_t c0 = std::clock();
  auto t0 = std::chrono::steady_clock::now();
  // As `ibsc run` does (tb/run/run_point.cpp); IBSC_RUN_AHEAD=off compares without.
  fabric.scheduler().run_ahead_until(models::now_ps() + static_cast<models::Picos>(sim_us * 1e6));
  sc_core::sc_start(sc_core::sc_time(sim_us, sc_core::SC_US));
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
  fabric.check_conservation();
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  const auto& mon = fabric.monitor();
  return {wall,
          sim_us * 1000.0,
          static_cast<double>(mon.hops),
          ru.ru_maxrss / 1024.0,
          static_cast<double>(mon.delivered),
          static_cast<double>(mon.switch_wakes + mon.hca_wakes),
          cpu};
}

std::string to_text(const Measure& m) {
  return nlohmann::json{{"wall_s", m.wall_s},   {"sim_ns", m.sim_ns},       {"hops", m.hops},
                        {"peak_mb", m.peak_mb}, {"delivered", m.delivered}, {"wakes", m.wakes}}
      .dump();
}
Measure from_text(const std::string& s) {
  auto j = nlohmann::json::parse(s);
  return {j["wall_s"], j["sim_ns"], j["hops"], j["peak_mb"], j["delivered"], j["wakes"]};
}

}  // namespace

int sc_main(int argc, char** argv) {
  double sim_us = 10000, given_sat = 0.150, only = 0;
  bool find_sat = false;
  for (int i = 1; i < argc; i += 2) {
    if (!std::strcmp(argv[i], "--routing") && i + 1 < argc) {
      g_routing = argv[i + 1];
      continue;
    }
    if (!std::strcmp(argv[i], "--dims") && i + 1 < argc) {
      g_dims = parse_dims(argv[i + 1]);
      if (g_dims.empty()) {
        std::fprintf(stderr, "fabric_bench: --dims '%s': want sizes 2..64 joined by x, e.g. 4x4x4\n", argv[i + 1]);
        return 2;
      }
      continue;
    }
    const bool known = !std::strcmp(argv[i], "--sim-us") || !std::strcmp(argv[i], "--sat") ||
                       !std::strcmp(argv[i], "--only") || !std::strcmp(argv[i], "--hosts-per-switch") ||
                       !std::strcmp(argv[i], "--find-sat");
    char* end = nullptr;
    const double v = i + 1 < argc ? std::strtod(argv[i + 1], &end) : 0;
    if (!known || i + 1 >= argc || end == argv[i + 1] || *end) {
      std::fprintf(stderr,
                   "usage: fabric_bench [--sim-us N] [--only FRACTION [--sat LOAD]] [--routing NAME] [--dims AxB[xC]] "
                   "[--hosts-per-switch H] [--find-sat 1]  (bad argument '%s')\n",
                   argv[i]);
      return 2;
    }
    if (!std::strcmp(argv[i], "--sim-us")) sim_us = v;
    if (!std::strcmp(argv[i], "--sat")) given_sat = v;
    if (!std::strcmp(argv[i], "--only")) only = v;
    if (!std::strcmp(argv[i], "--find-sat")) find_sat = v != 0;
    if (!std::strcmp(argv[i], "--hosts-per-switch")) {
      if (v < 1 || v > 16 || v != static_cast<int>(v)) {
        std::fprintf(stderr, "fabric_bench: --hosts-per-switch must be 1..16\n");
        return 2;
      }
      g_hosts_per_switch = static_cast<int>(v);
    }
  }
  const std::string dn = dims_name(g_dims);
  if (only < 0) {  // --only -1: the idle 16x16 torus alone
    Measure m = measure({16, 16}, 0.0, sim_us * 20);
    std::printf("16x16 idle: %.1f us wall for %.0f simulated ns\n", m.wall_s * 1e6, m.sim_ns);
    return 0;
  }
  if (only > 0) {
    Measure m = measure(g_dims, only * given_sat, sim_us);
    std::printf("%s %s at %.0f%%: %.2f Mhops/s, %.0f hops, %.2f wakes/hop, %.2f Mhops per CPU s\n", dn.c_str(),
                g_routing.c_str(), only * 100, m.hops / m.wall_s / 1e6, m.hops, m.wakes / m.hops,
                m.hops / m.cpu_s / 1e6);
    std::printf("hops %.0f cpu_s %.6f delivered %.0f\n", m.hops, m.cpu_s, m.delivered);
    return 0;
  }

  // Saturation load of the torus: a short sweep.
  routing::Topology topo =
      routing::make_torus(g_dims, g_hosts_per_switch, true, 2 * static_cast<int>(g_dims.size()) + g_hosts_per_switch);
  routing::RoutingOptions ro;
  ro.algorithm = enum_value<routing::Algorithm>(g_routing);
  routing::TableSet tables = routing::compute_routing(topo, ro);
  tb::PointSetup ps;
  ps.topo = &topo;
  ps.tables = &tables;
  ps.fabric = fabric_params();
  ps.run.warmup_ns = 10000;
  ps.run.window_ns = 40000;
  ps.run.drain_ns = 100000;
  ps.run.progress = false;
  tb::SweepConfig sc;
  sc.start = 0.05;
  sc.step = 0.05;
  sc.refine = 2;
  auto pts = tb::run_sweep(ps, sc);
  tb::SaturationPoint sat = tb::find_saturation(pts);
  double sat_load = sat.found ? sat.load : 1.0;
  std::printf("%s torus, %d hosts/switch, %s, uniform, 512 B: saturation at offered load %.3f (%.4f bytes/ns/switch)\n",
              dn.c_str(), g_hosts_per_switch, g_routing.c_str(), sat_load, sat.max_accepted_bytes_per_ns_per_switch);
  if (find_sat) return 0;

  std::printf("%-28s %10s %10s %14s %10s %10s %12s\n", "run", "wall s", "Mhops/s", "sim ns/s", "peak MB", "hops",
              "wakes/hop");
  double loaded_cost_per_ns = 0;
  for (double f : {0.1, 0.5, 0.9}) {
    auto r = tb::run_forked(1, 1, [&](int) { return to_text(measure(g_dims, f * sat_load, sim_us)); });
    Measure m = from_text(r[0]);
    char name[64];
    std::snprintf(name, sizeof name, "%s at %.0f%% of saturation", dn.c_str(), f * 100);
    std::printf("%-28s %10.2f %10.2f %14.0f %10.1f %10.0f %12.2f\n", name, m.wall_s, m.hops / m.wall_s / 1e6,
                m.sim_ns / m.wall_s, m.peak_mb, m.hops, m.wakes / m.hops);
    if (f == 0.5) loaded_cost_per_ns = m.wall_s / m.sim_ns;
  }
  auto r = tb::run_forked(1, 1, [&](int) { return to_text(measure({16, 16}, 0.0, sim_us * 20)); });
  Measure idle = from_text(r[0]);
  std::printf("%-28s %10.4f %10s %14.3g %10.1f %10.0f %12s\n", "16x16 idle", idle.wall_s, "-",
              idle.sim_ns / idle.wall_s, idle.peak_mb, idle.hops, "-");
  std::printf("idle 16x16 cost per simulated ns / loaded 8x8 (50%%) cost: %.5f%%\n",
              100.0 * (idle.wall_s / idle.sim_ns) / loaded_cost_per_ns);
  return 0;
}

// Our own main, so the SystemC banner does not clutter the report.
int main(int argc, char** argv) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
