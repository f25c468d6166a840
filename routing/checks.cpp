#include "routing/checks.h"

#include <algorithm>
#include <optional>
#include <string>

#include "routing/dense_lft.h"
#include "routing/deterministic_walk.h"
#include "routing/duato_check.h"
#include "routing/pair_checker.h"
#include "routing/ranked_walk.h"
#include "routing/switch_deps.h"

namespace ibsc::routing {

// Which walk checks the tables: the fastest that applies (ranked_walk.h for VL-ordered tables,
// deterministic_walk.h for destination-only LFTs), else pair by pair (pair_checker.h).
CheckReport check_tables(const Topology& t, const TableSet& ts, const CheckLimits& limits) {
  // One LFT per switch: the dense copy reads every entry, so it also tells whether an entry
  // has an escape candidate (only the rare tables with several candidates are searched again).
  std::optional<DenseLft> dense_first;
  if (std::none_of(ts.switches.begin(), ts.switches.end(), [](const SwitchTables& st) { return st.per_vl(); }))
    dense_first.emplace(ts);
  if (!(dense_first && dense_first->exact && !dense_first->escape) &&
      has_escape_candidates(ts)) {  // walks, budgets on the escape sub-network; then Duato
    CheckReport rep = check_tables(t, escape_subnetwork(ts), limits);
    check_escape_channels(t, ts, limits, rep);
    return rep;
  }
  CheckReport rep;
  const int S = t.num_switches;
  std::vector<SwitchDeps> deps(S);
  for (int s = 0; s < S; ++s) deps[s].init(t.nodes[s].num_ports);
  if (static_cast<int>(ts.switches.size()) != S || static_cast<int>(ts.hosts.size()) != t.num_hosts) {
    if (limits.max_problems > 0)
      rep.problems.push_back("the table set has " + std::to_string(ts.switches.size()) + " switches and " +
                             std::to_string(ts.hosts.size()) + " hosts; the topology has " + std::to_string(S) +
                             " and " + std::to_string(t.num_hosts));
    rep.text();
    return rep;
  }
  if (limits.walk_by_destination_switch && limits.walk_in_vl_order && ranked_walk_applies(t, ts)) {
    RankedWalk rw;
    if (ranked_walk(t, ts, deps, rw, limits.threads)) {
      rep.pairs = rep.routed_pairs = rw.pairs;
      rep.max_hops = rw.max_hops;
      rep.walked_in_vl_order = true;
      check_verdict(t, ts, limits, rw.sl_seen, rw.vl_seen, rw.vl15, false, deps, rep);
      return rep;
    }
    for (int s = 0; s < S; ++s) deps[s].init(t.nodes[s].num_ports);  // gave up: walk again from scratch
  }
  if (!dense_first) dense_first.emplace(ts);
  const DenseLft& dense = *dense_first;
  PairClasses classes = dense.exact ? pair_classes(t, ts) : PairClasses{};
  if (!classes.list.empty() && limits.walk_by_destination_switch) {  // deterministic_walk.h
    WalkSeen seen;
    if (walk_deterministic_by_switch(t, ts, dense, classes, deps, seen, rep)) {
      rep.walked_by_switch = true;
      check_verdict(t, ts, limits, seen.sl, seen.vl, seen.vl15, false, deps, rep);
      return rep;
    }  // else some walk fails: pair by pair below, for the problems' names
  }
  // Pair by pair (pair_checker.h): adaptive tables, and deterministic ones whose walks by
  // switch met a problem (for the problems' names).
  PairChecker pairs(t, ts, limits, dense, std::move(classes), deps, rep);
  if (pairs.run()) return rep;
  CheckLimits by_dlid = limits;
  by_dlid.walk_by_destination_switch = false;
  return check_tables(t, ts, by_dlid);
}

}  // namespace ibsc::routing
