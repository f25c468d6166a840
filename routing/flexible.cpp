// Flexible routing (seeds/000 section 4, ref [20]), reconstructed. The text gives the idea but
// not the rules: like up*/down* it breaks every cycle of channel dependencies, but it may break
// the two directions of a cycle at different switches and may add restrictions only to balance
// traffic. What is implemented here:
//   1. Start from up*/down* on the DFS spanning tree (same root and ordering heuristics), i.e.
//      the turn set with every down->up turn prohibited; route with the same balanced router.
//      On tori with rings of 3 or 4 switches, start instead from the ring-breaking turn set
//      (flexible_rings.cpp) when it balances better; perfectly balanced paths skip steps 2-5.
//   2. Local search over turn restrictions: re-allow one prohibited turn; re-route; while the
//      channel dependency graph of the chosen paths has a cycle, prohibit the turn of that
//      cycle used by the fewest paths (never the one just re-allowed), at most 4 times. This
//      moves the break point of a cycle direction to another switch.
//   3. Keep the move when every pair stays connected, no path passes a switch twice, the
//      dependency graph is acyclic, the total path length does not grow, and the channel
//      loads improve (lower maximum, then lower sum of squares).
//   4. Up to kFlexibleCdgSwitches switches, move single paths off the most loaded channels
//      while the dependency graph of the paths stays acyclic (flexible_cdg.cpp); this never
//      lengthens a path or raises a load maximum.
//   5. Up to kFlexibleCdgSwitches switches, simulated annealing over the same path choices
//      (flexible_anneal.cpp), seeded, bounded, keeping the best state seen.
// So the result needs one VL and one SL, is deadlock-free by construction (step 3 checks the
// actual paths), and its crossing path is never above up*/down* on the same tree (step 1 is
// that routing and only improvements are kept). The search is bounded by
// RoutingOptions::search_budget routings; the visiting order of turns follows the seed.
#include <algorithm>
#include <random>
#include <string>
#include <unordered_map>

#include "routing/flexible_anneal.h"
#include "routing/flexible_cdg.h"
#include "routing/flexible_rings.h"
#include "routing/generic.h"

namespace ibsc::routing {
namespace {

struct Score {
  int max_load = 0;
  uint64_t sumsq = 0;
  size_t length = 0;
};

Score score(const RouteResult& r) {
  Score s;
  for (int l : r.load) {
    s.max_load = std::max(s.max_load, l);
    s.sumsq += static_cast<uint64_t>(l) * l;
  }
  s.length = r.paths.chans.size();
  return s;
}

bool better(const Score& a, const Score& b) {
  return a.max_load < b.max_load || (a.max_load == b.max_load && a.sumsq < b.sumsq);
}

// Whether every channel carries the average load (nothing left for the searches to gain).
bool balanced(const RouteResult& r) {
  const auto [lo, hi] = std::minmax_element(r.load.begin(), r.load.end());
  return lo == r.load.end() || *hi - *lo <= 1;
}

// Uses of each turn of the cycle (pairs of consecutive channels) by the paths.
std::vector<int> turn_uses(const PathSet& p, const std::vector<int>& cycle) {
  std::unordered_map<uint64_t, int> index;
  const size_t m = cycle.size();
  for (size_t i = 0; i < m; ++i)
    index[static_cast<uint64_t>(cycle[i]) << 32 | static_cast<uint32_t>(cycle[(i + 1) % m])] = static_cast<int>(i);
  std::vector<int> uses(m, 0);
  for (int d = 0; d < p.n; ++d)
    for (int s = 0; s < p.n; ++s)
      for (size_t i = p.begin(s, d); i + 1 < p.end(s, d); ++i) {
        auto it = index.find(static_cast<uint64_t>(p.chans[i]) << 32 | static_cast<uint32_t>(p.chans[i + 1]));
        if (it != index.end()) ++uses[it->second];
      }
  return uses;
}

// The turns `rules` forbid, U-turns aside, as (in channel, out channel), in a seeded order.
std::vector<std::pair<int, int>> prohibited_turns(const SwitchGraph& g, const TurnRules& rules, uint64_t seed) {
  std::vector<std::pair<int, int>> prohibited;
  for (size_t c = 0; c < g.channels.size(); ++c) {
    const auto& outs = g.out[g.channels[c].to];
    for (size_t k = 0; k < outs.size(); ++k)
      if (!rules.allowed[c][k] && outs[k] != g.reverse[c]) prohibited.emplace_back(static_cast<int>(c), outs[k]);
  }
  std::mt19937_64 rng(seed);
  std::shuffle(prohibited.begin(), prohibited.end(), rng);
  return prohibited;
}

// Routes under `trial` (turn a -> b just allowed); while the paths' dependency graph has a
// cycle, forbids its least used turn other than a -> b and tries again (5 attempts, each
// from `budget`). True: r holds acyclic paths no longer than base_length in total.
bool route_allowing(const SwitchGraph& g, TurnRules& trial, int a, int b, uint64_t seed, size_t base_length,
                    int& budget, RouteResult& r) {
  for (int attempt = 0; attempt < 5 && budget > 0; ++attempt) {
    r = route_with_turns(g, trial, seed);
    --budget;
    if (r.unreachable_src >= 0 || r.revisits || r.paths.chans.size() > base_length) return false;
    std::vector<int> cycle = path_cdg_cycle(g, r.paths);
    if (cycle.empty()) return true;
    if (attempt == 4) return false;
    std::vector<int> uses = turn_uses(r.paths, cycle);
    int pick = -1;
    for (size_t i = 0; i < cycle.size(); ++i) {
      int x = cycle[i], y = cycle[(i + 1) % cycle.size()];
      if (x == a && y == b) continue;
      if (pick < 0 || uses[i] < uses[pick]) pick = static_cast<int>(i);
    }
    if (pick < 0) return false;
    trial.set(g, cycle[pick], cycle[(pick + 1) % cycle.size()], false);
  }
  return false;
}

}  // namespace

TableSet route_flexible(const Topology& t, const RoutingOptions& opt) {
  SwitchGraph g(t);
  if (g.n == 0) throw RoutingError("flexible: the topology has no switches");
  {
    std::vector<int> d = bfs_distances(g, 0);
    for (int x = 0; x < g.n; ++x)
      if (d[x] < 0) throw RoutingError("flexible: switch " + t.nodes[x].name + " is not connected");
  }
  if (opt.root >= g.n) throw RoutingError("flexible: root switch " + std::to_string(opt.root) + " does not exist");
  const int root = opt.root >= 0 ? opt.root : updown_root(g);
  TurnRules rules = updown_rules(g, updown_labels(g, TreeKind::Dfs, root));
  RouteResult best = route_with_turns(g, rules, opt.seed);
  Score best_score = score(best);
  const size_t base_length = best_score.length;
  // Small tori: the ring-breaking turn set (flexible_rings.cpp) when it balances better.
  if (TurnRules ring; ring_break_rules(t, g, ring)) {
    RouteResult r = route_with_turns(g, ring, opt.seed);
    const Score s = score(r);
    if (r.unreachable_src < 0 && !r.revisits && s.length <= base_length && path_cdg_cycle(g, r.paths).empty() &&
        better(s, best_score)) {
      rules = std::move(ring);
      best = std::move(r);
      best_score = s;
    }
  }
  const std::vector<std::pair<int, int>> prohibited = prohibited_turns(g, rules, opt.seed);
  int budget = opt.search_budget;
  for (bool improved = !balanced(best); improved && budget > 0;) {
    improved = false;
    for (const auto& [a, b] : prohibited) {
      if (budget <= 0) break;
      if (rules.allows(g, a, b)) continue;
      TurnRules trial = rules;
      trial.set(g, a, b, true);
      RouteResult r;
      if (!route_allowing(g, trial, a, b, opt.seed, base_length, budget, r)) continue;
      Score s = score(r);
      if (better(s, best_score)) {
        rules = std::move(trial);
        best = std::move(r);
        best_score = s;
        improved = true;
      }
    }
  }
  // Second stage (flexible_cdg.cpp): single paths move off the hot channels while the
  // dependency graph of the paths stays acyclic. The paths then need no turn rule beyond their
  // own; should destination renaming overflow the LIDs, tables_with_fallback re-routes under
  // `rules`, the turn-space result, which is deadlock-free as well.
  if (g.n <= kFlexibleCdgSwitches && !balanced(best)) {
    improve_acyclic(g, best);
    const long pairs = static_cast<long>(g.n) * (g.n - 1);
    anneal_acyclic(g, best, opt.seed,
                   opt.anneal_moves >= 0 ? opt.anneal_moves : std::min(kAnnealMovesPerPair * pairs, kAnnealMaxMoves));
  }
  return tables_with_fallback(t, g, rules, best, opt, "flexible", true);
}

}  // namespace ibsc::routing
