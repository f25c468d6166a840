#include "tb/stats/minimal_bound.h"

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "routing/graph.h"

namespace ibsc::tb {

MinimalBound minimal_unavoidable_bound(const routing::Topology& topo, const std::vector<Demand>& demand) {
  const routing::SwitchGraph g(topo);
  // Rate per ordered switch pair (hosts on one switch need no cable).
  std::map<std::pair<int, int>, double> pair_rate;
  for (const Demand& d : demand) {
    const int a = topo.host_switch(d.src), b = topo.host_switch(d.dst);
    if (a != b && d.share > 0) pair_rate[{a, b}] += d.share;
  }
  std::map<int, std::vector<int>> dist;  // BFS from each switch a pair starts or ends at
  auto from = [&](int s) -> const std::vector<int>& {
    auto it = dist.find(s);
    return it != dist.end() ? it->second : dist.emplace(s, routing::bfs_distances(g, s)).first->second;
  };
  // Load per directed switch pair (u, v) whose cables form a whole layer of some pair.
  std::map<std::pair<int, int>, double> load;
  std::vector<std::pair<int, int>> layer_group;  // per layer: the one (u, v) seen, or (-1, -1) for several
  for (const auto& [ab, rate] : pair_rate) {
    const std::vector<int>& da = from(ab.first);
    const std::vector<int>& db = from(ab.second);
    const int hops = da[ab.second];
    if (hops <= 0) continue;  // unreachable: no path, no bound from it
    layer_group.assign(hops, {-2, -2});
    for (int u = 0; u < g.n; ++u) {
      if (da[u] < 0 || db[u] < 0 || da[u] + db[u] != hops || db[u] == 0) continue;
      for (int c : g.out[u]) {
        const int v = g.channels[c].to;
        if (db[v] != db[u] - 1) continue;
        auto& grp = layer_group[da[u]];
        if (grp.first == -2) grp = {u, v};
        else if (grp != std::make_pair(u, v)) grp = {-1, -1};
      }
    }
    for (const auto& grp : layer_group)
      if (grp.first >= 0) load[grp] += rate;
  }
  MinimalBound b;
  for (const auto& [uv, rate] : load) {
    int cables = 0;
    for (int c : g.out[uv.first]) cables += g.channels[c].to == uv.second;
    const double per_cable = rate / std::max(1, cables);
    if (per_cable > b.busiest) {
      b.busiest = per_cable;
      b.where = fmt::format("{} -> {} ({} cable{})", topo.nodes[uv.first].name, topo.nodes[uv.second].name, cables,
                            cables == 1 ? "" : "s");
    }
  }
  b.fraction = b.busiest > 1 ? 1 / b.busiest : 1;
  return b;
}

}  // namespace ibsc::tb
