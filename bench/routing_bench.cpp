// Routing benchmark: for 2,048-switch fabrics, the time to compute the tables, to check them
// (walks of every host pair, channel dependency graph, cycle search) and to compute the
// seeds/000 metrics. Goal: each step under 10 s. Usage: routing_bench [SPEC ALGORITHM ...]
// routing_bench --tables [--repeat N] SPEC ALGORITHM[:K] ...: routing alone, N times each, in CPU
// seconds (the machine is shared; building the topology apart), with the tables' fingerprint (routing/table_hash.h),
// which a faster routing must leave as it is.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

#include "routing/checks.h"
#include "routing/metrics.h"
#include "routing/routing.h"
#include "routing/table_hash.h"
#include "routing/topo_spec.h"

using namespace ibsc::routing;

namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double cpu_since(std::clock_t t0) { return static_cast<double>(std::clock() - t0) / CLOCKS_PER_SEC; }

// --tables: the routing's CPU time (topology excluded) and the tables' fingerprint.
int time_tables(int argc, char** argv) {
  int repeat = 1, i = 2;
  if (i + 1 < argc && std::string(argv[i]) == "--repeat") repeat = std::stoi(argv[i + 1]), i += 2;
  for (; i + 1 < argc; i += 2) {
    const std::clock_t t_topo = std::clock();
    const Topology t = build_topology_spec(argv[i]);
    const double topo_s = cpu_since(t_topo);
    std::string algo = argv[i + 1];
    RoutingOptions o;
    if (const auto colon = algo.find(':'); colon != std::string::npos)
      o.k = std::stoi(algo.substr(colon + 1)), algo.resize(colon);
    o.algorithm = ibsc::enum_value<Algorithm>(algo);
    std::printf("%-40s %-14s", argv[i], argv[i + 1]);
    uint64_t hash = 0;
    for (int r = 0; r < repeat; ++r) {
      const std::clock_t t0 = std::clock();
      TableSet ts;
      try {
        ts = compute_routing(t, o);
      } catch (const RoutingError& e) {
        std::printf(" %s", e.what());
        break;
      }
      std::printf(" %6.3f", cpu_since(t0));
      std::fflush(stdout);
      const uint64_t h = table_fingerprint(ts);
      if (r > 0 && h != hash) std::printf(" (fingerprint changed!)");
      hash = h;
    }
    std::printf("  CPU s (topology %.3f), tables %016llx\n", topo_s, static_cast<unsigned long long>(hash));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string(argv[1]) == "--tables") return time_tables(argc, argv);
  std::vector<std::pair<std::string, std::string>> runs;
  for (int i = 1; i + 1 < argc; i += 2) runs.emplace_back(argv[i], argv[i + 1]);
  if (runs.empty())
    runs = {{"torus:32x64:hosts=1", "ecube"},
            {"torus:32x64:hosts=1", "updown-dfs"},
            {"irregular:2048:hosts=1:ports=8:seed=1", "updown-dfs"},
            {"irregular:2048:hosts=1:ports=8:seed=1", "minhop"},
            // several hosts per switch: checks walk every host pair (65 M with 4 x 2048)
            {"torus:32x64:hosts=4", "ecube"},
            {"irregular:2048:hosts=4:ports=12:seed=1", "updown-dfs"},
            // seeds/001: flattened butterfly 4x8x8x8 widths 2,1,1,1 and dragonfly, 1 host per switch
            {"flatfly:4x8x8x8:widths=2,1,1,1:hosts=1", "minhop"},
            {"flatfly:4x8x8x8:widths=2,1,1,1:hosts=1", "updown-bfs"},
            {"dragonfly:a=16,h=8,p=1,g=128", "minhop"}};
  std::printf("%-40s %-11s %7s %7s %9s %8s %8s %8s %5s %8s %9s %9s\n", "topology", "routing", "switch", "hosts",
              "topo s", "route s", "check s", "metric s", "LMC", "avg", "crossing", "deadlock");
  for (const auto& [spec, algo] : runs) {
    auto t0 = std::chrono::steady_clock::now();
    Topology t = build_topology_spec(spec);
    double t_topo = since(t0);
    RoutingOptions o;
    o.algorithm = ibsc::enum_value<Algorithm>(algo);
    t0 = std::chrono::steady_clock::now();
    TableSet ts = compute_routing(t, o);
    double t_route = since(t0);
    t0 = std::chrono::steady_clock::now();
    CheckReport r = check_tables(t, ts);
    double t_check = since(t0);
    t0 = std::chrono::steady_clock::now();
    Metrics m = compute_metrics(t, ts);
    double t_metrics = since(t0);
    std::printf("%-40s %-11s %7d %7d %9.2f %8.2f %8.2f %8.2f %5d %8.3f %9d %9s\n", spec.c_str(), algo.c_str(),
                t.num_switches, t.num_hosts, t_topo, t_route, t_check, t_metrics, int(ts.hosts[0].lmc),
                m.average_distance, m.crossing_path, r.deadlock_free ? "free" : "CYCLE");
    std::fflush(stdout);
  }
  return 0;
}
