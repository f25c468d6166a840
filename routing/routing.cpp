// compute_routing: the one entry point, dispatching on the algorithm.
#include "routing/routing.h"

#include <algorithm>
#include <cstdio>

#include "routing/fat_tree_shape.h"
#include "routing/fattree.h"
#include "routing/generic.h"
#include "routing/lids.h"
#include "routing/memory_estimate.h"
#include "routing/opensm_engine.h"
#include "routing/table_io.h"
#include "routing/tftr.h"
#include "routing/voqsw.h"

namespace ibsc::routing {

std::vector<Algorithm> routing_algorithms() {
  std::vector<Algorithm> all;
  for (const EnumName<Algorithm>& n : kAlgorithmNames)
    if (n.value != Algorithm::File && n.value != Algorithm::Opensm) all.push_back(n.value);
  return all;
}

bool programs_per_vl_lfts(Algorithm algorithm) {
  using A = Algorithm;
  switch (algorithm) {
    case A::Distance:
    case A::Deflection:
    case A::Ador:
    case A::MixedAdor:
    case A::TwistedAdor:
    case A::TwistedMixed:
    case A::Gsid:
    case A::Static:
      return true;
    default:
      return false;
  }
}

bool algorithm_applies(Algorithm algorithm, const Topology& topo) {
  using A = Algorithm;
  switch (algorithm) {
    case A::Ecube:
    case A::Dor1vl:
      return topo.kind == "torus" || topo.kind == "mesh" || topo.kind == "hypercube";
    case A::Dor:
    case A::MixedDor:
    case A::Ador:
    case A::MixedAdor:
    case A::TwistedAdor:
    case A::TwistedMixed:
      return topo.kind == "flatfly" || topo.kind == "hypercube";
    case A::Gsid:
    case A::Static:
      return topo.kind == "dragonfly";
    case A::Fattree:
    case A::FattreeAr:
      return fat_tree_shape(topo).fat_tree;
    case A::File:
    case A::Opensm:
      return false;
    default:
      return true;
  }
}

int largest_fitting_lmc(const Topology& topo, int max_lmc) {
  for (int l = std::min(max_lmc, kMaxLmc); l >= 0; --l)
    if ((static_cast<long>(topo.num_hosts) + 1) * (1L << l) + topo.num_switches - 1 <= kMaxUnicastLid) return l;
  return -1;
}

namespace {

void check_options(const RoutingOptions& given) {
  if (given.max_sls < 1 || given.max_sls > kNumSls) throw RoutingError("max_sls must be 1..16");
  if (given.max_vls < 1 || given.max_vls > kMaxDataVls) throw RoutingError("max_vls must be 1..15");
  if (given.sls < 0 || given.sls > kNumSls) throw RoutingError("sls must be 0..16 (0: the algorithm's choice)");
  if (given.max_lmc < 0 || given.max_lmc > kMaxLmc) throw RoutingError("max_lmc must be 0..7");
  if (given.lmc < 0 || given.lmc > kMaxLmc) throw RoutingError("lmc must be 0..7");
  if (!(given.max_memory_gb >= 0)) throw RoutingError("max_memory_gb must be >= 0");
}

// Refused before routing (which can take minutes on such fabrics): LIDs that do not fit, then
// tables above the memory limit. Renaming is held to the LMC whose LIDs fit, so it falls back
// to fewer LIDs instead of failing at the end.
RoutingOptions fit_lids_and_memory(const Topology& topo, RoutingOptions opt) {
  if (opt.algorithm != Algorithm::File && opt.algorithm != Algorithm::Opensm) {
    const int lmc = largest_fitting_lmc(topo, opt.max_lmc);
    if (lmc < 0)
      throw RoutingError(std::to_string(topo.num_hosts) + " hosts and " + std::to_string(topo.num_switches) +
                         " switches need LIDs up to " + std::to_string(topo.num_hosts + topo.num_switches) +
                         " even with LMC 0; the unicast range ends at " + std::to_string(kMaxUnicastLid));
    opt.max_lmc = lmc;
  }
  // Then the memory: a fabric whose LIDs do not fit is told so first.
  const TableMemory need = estimate_table_memory(topo, opt.algorithm);
  const MemoryLimit usable = opt.max_memory_gb > 0 ? MemoryLimit{} : default_table_memory_limit();
  const double limit = opt.max_memory_gb > 0 ? opt.max_memory_gb * 1e9 : usable.bytes;
  if (limit > 0 && need.total() > limit) {
    char lim[64];
    std::snprintf(lim, sizeof lim, "%.1f GB", limit / 1e9);
    throw RoutingError(std::to_string(topo.num_switches) + " switches and " + std::to_string(topo.num_hosts) +
                       " hosts: the routing tables would need " + need.text() + ", above the limit of " + lim +
                       (opt.max_memory_gb > 0 ? " (--max-memory-gb)"
                                              : " (half the memory this process may use, by its " + usable.source +
                                                    "; --max-memory-gb sets another)"));
  }
  return opt;
}

TableSet dispatch(const Topology& topo, const RoutingOptions& opt) {
  using A = Algorithm;
  switch (opt.algorithm) {
    case A::Ecube:
      return route_ecube(topo, opt, false);
    case A::Dor1vl:
      return route_ecube(topo, opt, true);
    case A::Dor:
      return route_dor_flatfly(topo, opt, false);
    case A::MixedDor:
      return route_dor_flatfly(topo, opt, true);
    case A::Minhop:
      return route_minhop(topo, opt);
    case A::UpdownBfs:
      return route_updown(topo, opt, TreeKind::Bfs);
    case A::UpdownDfs:
      return route_updown(topo, opt, TreeKind::Dfs);
    case A::Flexible:
      return route_flexible(topo, opt);
    case A::Voqsw:
      return route_voqsw(topo, opt);
    case A::Vn:
      return route_vn(topo, opt);
    case A::Tftr:
      return route_tftr(topo, opt);
    case A::AdaptiveUpdown:
      return route_adaptive_updown(topo, opt);
    case A::UpdownEscape:
      return route_adaptive_updown(topo, opt, true);
    case A::Distance:
      return route_distance(topo, opt, false);
    case A::Deflection:
      return route_distance(topo, opt, true);
    case A::Ador:
    case A::MixedAdor:
    case A::TwistedAdor:
    case A::TwistedMixed:
      return route_ador(topo, opt, opt.algorithm);
    case A::Gsid:
    case A::Static:
      return route_dragonfly(topo, opt, opt.algorithm == A::Gsid);
    case A::UpdownDisjoint:
      return route_updown_disjoint(topo, opt);
    case A::Fattree:
    case A::FattreeAr:
      return route_fattree(topo, opt, opt.algorithm == A::FattreeAr);
    case A::File:
      if (opt.lft_file.empty()) throw RoutingError("routing 'file' needs an LFT dump (lft_file / --import-opensm)");
      return import_opensm_tables(topo, opt.lft_file);
    case A::Opensm:
      return route_opensm(topo, opt);
  }
  throw std::logic_error("compute_routing: an algorithm without a case");
}

}  // namespace

TableSet compute_routing(const Topology& topo, const RoutingOptions& given) {
  check_options(given);
  TableSet ts = dispatch(topo, fit_lids_and_memory(topo, given));
  share_identical_sl2vl(ts);  // most switches hold the same SL2VL table (tables.h)
  return ts;
}

}  // namespace ibsc::routing
