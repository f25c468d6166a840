// compute_routing: the one entry point, dispatching on the algorithm name.
#include "routing/routing.h"

#include <algorithm>
#include <cstdio>

#include "routing/generic.h"
#include "routing/lids.h"
#include "routing/memory_estimate.h"
#include "routing/table_io.h"
#include "routing/tftr.h"
#include "routing/voqsw.h"

namespace ibsc::routing {

const std::vector<std::string>& routing_algorithms() {
  static const std::vector<std::string> names{"ecube",
                                              "dor1vl",
                                              "minhop",
                                              "updown-bfs",
                                              "updown-dfs",
                                              "flexible",
                                              "voqsw",
                                              "vn",
                                              "tftr",
                                              "updown-disjoint",
                                              "dor",
                                              "mixed-dor",
                                              "adaptive-updown",
                                              "updown-escape",
                                              "distance",
                                              "deflection",
                                              "ador",
                                              "mixed-ador",
                                              "twisted-ador",
                                              "twisted-mixed",
                                              "gsid",
                                              "static"};
  return names;
}

std::vector<std::string> routing_algorithm_choices() {
  std::vector<std::string> c = routing_algorithms();
  c.push_back("file");
  return c;
}

bool programs_per_vl_lfts(const std::string& algorithm) {
  for (const char* a :
       {"distance", "deflection", "ador", "mixed-ador", "twisted-ador", "twisted-mixed", "gsid", "static"})
    if (algorithm == a) return true;
  return false;
}

bool algorithm_applies(const std::string& algorithm, const Topology& topo) {
  if (algorithm == "ecube" || algorithm == "dor1vl")
    return topo.kind == "torus" || topo.kind == "mesh" || topo.kind == "hypercube";
  if (algorithm == "dor" || algorithm == "mixed-dor" || algorithm == "ador" || algorithm == "mixed-ador" ||
      algorithm == "twisted-ador" || algorithm == "twisted-mixed")
    return topo.kind == "flatfly" || topo.kind == "hypercube";
  if (algorithm == "gsid" || algorithm == "static") return topo.kind == "dragonfly";
  for (const auto& n : routing_algorithms())
    if (n == algorithm) return true;
  return false;
}

int largest_fitting_lmc(const Topology& topo, int max_lmc) {
  for (int l = std::min(max_lmc, kMaxLmc); l >= 0; --l)
    if ((static_cast<long>(topo.num_hosts) + 1) * (1L << l) + topo.num_switches - 1 <= kMaxUnicastLid) return l;
  return -1;
}

TableSet compute_routing(const Topology& topo, const RoutingOptions& given) {
  if (given.max_sls < 1 || given.max_sls > kNumSls) throw RoutingError("max_sls must be 1..16");
  if (given.max_vls < 1 || given.max_vls > kMaxDataVls) throw RoutingError("max_vls must be 1..15");
  if (given.sls < 0 || given.sls > kNumSls) throw RoutingError("sls must be 0..16 (0: the algorithm's choice)");
  if (given.max_lmc < 0 || given.max_lmc > kMaxLmc) throw RoutingError("max_lmc must be 0..7");
  if (!(given.max_memory_gb >= 0)) throw RoutingError("max_memory_gb must be >= 0");
  RoutingOptions opt = given;
  if (opt.algorithm != "file") {
    // Checked before routing (which can take minutes on such fabrics), and renaming is held to
    // the LMC whose LIDs fit, so it falls back to fewer LIDs instead of failing at the end.
    const int lmc = largest_fitting_lmc(topo, opt.max_lmc);
    if (lmc < 0)
      throw RoutingError(std::to_string(topo.num_hosts) + " hosts and " + std::to_string(topo.num_switches) +
                         " switches need LIDs up to " + std::to_string(topo.num_hosts + topo.num_switches) +
                         " even with LMC 0; the unicast range ends at " + std::to_string(kMaxUnicastLid));
    opt.max_lmc = lmc;
  }
  // Then the memory: a fabric whose LIDs do not fit is told so first.
  const TableMemory need = estimate_table_memory(topo, opt.algorithm);
  const double limit = opt.max_memory_gb > 0 ? opt.max_memory_gb * 1e9 : default_table_memory_limit_bytes();
  if (limit > 0 && need.total() > limit) {
    char lim[64];
    std::snprintf(lim, sizeof lim, "%.1f GB", limit / 1e9);
    throw RoutingError(
        std::to_string(topo.num_switches) + " switches and " + std::to_string(topo.num_hosts) +
        " hosts: the routing tables would need " + need.text() + ", above the limit of " + lim +
        (opt.max_memory_gb > 0 ? " (--max-memory-gb)" : " (half the physical memory; --max-memory-gb sets another)"));
  }
  if (opt.algorithm == "ecube") return route_ecube(topo, opt, false);
  if (opt.algorithm == "dor1vl") return route_ecube(topo, opt, true);
  if (opt.algorithm == "dor") return route_dor_flatfly(topo, opt, false);
  if (opt.algorithm == "mixed-dor") return route_dor_flatfly(topo, opt, true);
  if (opt.algorithm == "minhop") return route_minhop(topo, opt);
  if (opt.algorithm == "updown-bfs") return route_updown(topo, opt, TreeKind::Bfs);
  if (opt.algorithm == "updown-dfs") return route_updown(topo, opt, TreeKind::Dfs);
  if (opt.algorithm == "flexible") return route_flexible(topo, opt);
  if (opt.algorithm == "voqsw") return route_voqsw(topo, opt);
  if (opt.algorithm == "vn") return route_vn(topo, opt);
  if (opt.algorithm == "tftr") return route_tftr(topo, opt);
  if (opt.algorithm == "adaptive-updown") return route_adaptive_updown(topo, opt);
  if (opt.algorithm == "updown-escape") return route_adaptive_updown(topo, opt, true);
  if (opt.algorithm == "distance") return route_distance(topo, opt, false);
  if (opt.algorithm == "deflection") return route_distance(topo, opt, true);
  if (opt.algorithm == "ador" || opt.algorithm == "mixed-ador" || opt.algorithm == "twisted-ador" ||
      opt.algorithm == "twisted-mixed")
    return route_ador(topo, opt, opt.algorithm);
  if (opt.algorithm == "gsid" || opt.algorithm == "static") return route_dragonfly(topo, opt, opt.algorithm == "gsid");
  if (opt.algorithm == "updown-disjoint") return route_updown_disjoint(topo, opt);
  if (opt.algorithm == "file") {
    if (opt.lft_file.empty()) throw RoutingError("routing 'file' needs an LFT dump (lft_file / --import-opensm)");
    return import_opensm_tables(topo, opt.lft_file);
  }
  std::string names;
  for (const auto& n : routing_algorithms()) names += (names.empty() ? "" : ", ") + n;
  throw RoutingError("routing algorithm '" + opt.algorithm + "' is not available (available: " + names + ")");
}

}  // namespace ibsc::routing
