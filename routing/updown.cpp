// up*/down* routing (seeds/000 section 3) on BFS (Autonet) or DFS spanning trees, and
// minimum-hop routing; both through the generic turn-restricted router.
//   Root: the switch with the highest average topological distance to the others ([18]).
//   BFS: switches labelled by (tree level, index), as Autonet orders by level then UID.
//   DFS: from the switch last added that still has neighbours outside the tree, the next
//        switch is the neighbour with the most links into the tree; ties go to the higher
//        average topological distance, then to the lower index ([18]).
//   Labels decrease in visiting order (the root has the highest), and a channel is "up" when
//   it leads to the higher label, so tree paths are legal. A legal path never takes an up
//   channel after a down one: the turn (down -> up) is the one prohibited.
// Among legal shortest paths each pair gets the least-loaded one, hop by hop (traffic
// balancing in the spirit of [18]); LFTs come from destination renaming. routing.updown_paths
// picks otherwise (first, random, highest: nearest the root), or `tree`: non-minimal paths
// along the spanning tree through the pair's lowest common ancestor (tree_paths below).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "routing/generic.h"

namespace ibsc::routing {
namespace {

std::vector<double> average_distance(const SwitchGraph& g) {
  std::vector<double> avg(g.n, 0);
  for (int s = 0; s < g.n; ++s) {
    std::vector<int> d = bfs_distances(g, s);
    long sum = 0;
    for (int x : d) sum += std::max(x, 0);
    avg[s] = g.n > 1 ? static_cast<double>(sum) / (g.n - 1) : 0;
  }
  return avg;
}

void require_connected(const Topology& t, const SwitchGraph& g, const std::string& name) {
  if (g.n == 0) throw RoutingError(name + ": the topology has no switches");
  std::vector<int> d = bfs_distances(g, 0);
  for (int x = 0; x < g.n; ++x)
    if (d[x] < 0)
      throw RoutingError(name + ": switch " + t.nodes[x].name + " is not connected to switch " + t.nodes[0].name);
}

// routing.updown_paths: tree. Each switch but the root climbs by its channel to the neighbour
// with the highest label above its own (the lowest port among parallel cables): the labels
// strictly grow along these channels, so they form a spanning tree rooted at the root (on BFS
// labels, a parent one level up). A pair's path goes up the tree to the lowest common ancestor
// and down it: only up channels, then only down ones, so legal; one port per (switch,
// destination), so destination-only LFTs without renaming.
PathSet tree_paths(const SwitchGraph& g, const std::vector<int>& label, const std::string& name) {
  const int n = g.n;
  std::vector<int> up(n, -1), depth(n, 0);
  for (int x = 0; x < n; ++x)
    for (int c : g.out[x]) {
      const int y = g.channels[c].to;
      if (label[y] > label[x] && (up[x] < 0 || label[y] > label[g.channels[up[x]].to])) up[x] = c;
    }
  std::vector<int> by_label(n);
  std::iota(by_label.begin(), by_label.end(), 0);
  std::sort(by_label.begin(), by_label.end(), [&](int a, int b) { return label[a] > label[b]; });
  for (int x : by_label) {
    if (up[x] >= 0) depth[x] = depth[g.channels[up[x]].to] + 1;
    else if (x != by_label.front()) throw RoutingError(name + ": switch " + std::to_string(x) + " has no up channel");
  }
  PathSet p;
  p.n = n;
  p.offset.push_back(0);
  std::vector<int32_t> down;
  for (int d = 0; d < n; ++d)
    for (int s = 0; s < n; ++s) {
      int a = s, b = d;
      down.clear();
      while (a != b) {
        if (depth[a] >= depth[b]) {
          p.chans.push_back(up[a]);
          a = g.channels[up[a]].to;
        } else {
          down.push_back(g.reverse[up[b]]);
          b = g.channels[up[b]].to;
        }
      }
      p.chans.insert(p.chans.end(), down.rbegin(), down.rend());
      p.offset.push_back(static_cast<uint32_t>(p.chans.size()));
    }
  return p;
}

}  // namespace

int updown_root(const SwitchGraph& g) {
  std::vector<double> avg = average_distance(g);
  int best = 0;
  for (int s = 1; s < g.n; ++s)
    if (avg[s] > avg[best] + 1e-12) best = s;
  return best;
}

std::vector<int> updown_labels(const SwitchGraph& g, TreeKind kind, int root) {
  std::vector<int> order;  // visiting order
  std::vector<char> in_tree(g.n, 0);
  if (kind == TreeKind::Bfs) {
    std::vector<int> level = bfs_distances(g, root);
    order.resize(g.n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      if (a == root || b == root) return a == root && b != root;
      return level[a] < level[b];
    });
  } else {
    const std::vector<double> avg = average_distance(g);
    std::vector<int> links_in(g.n, 0), stack{root};
    auto add = [&](int x) {
      in_tree[x] = 1;
      order.push_back(x);
      for (int c : g.out[x]) ++links_in[g.channels[c].to];
    };
    add(root);
    while (!stack.empty()) {
      int best = -1;
      for (int c : g.out[stack.back()]) {
        int y = g.channels[c].to;
        if (in_tree[y]) continue;
        if (best < 0 || links_in[y] > links_in[best] ||
            (links_in[y] == links_in[best] &&
             (avg[y] > avg[best] + 1e-12 || (std::abs(avg[y] - avg[best]) <= 1e-12 && y < best))))
          best = y;
      }
      if (best < 0) {
        stack.pop_back();
      } else {
        add(best);
        stack.push_back(best);
      }
    }
  }
  std::vector<int> label(g.n, 0);
  for (size_t i = 0; i < order.size(); ++i) label[order[i]] = g.n - static_cast<int>(i);
  return label;
}

TurnRules updown_rules(const SwitchGraph& g, const std::vector<int>& label) {
  TurnRules r = TurnRules::all_but_u_turns(g);
  auto up = [&](int c) { return label[g.channels[c].to] > label[g.channels[c].from]; };
  for (size_t c = 0; c < g.channels.size(); ++c) {
    if (up(static_cast<int>(c))) continue;
    const auto& outs = g.out[g.channels[c].to];
    for (size_t k = 0; k < outs.size(); ++k)
      if (up(outs[k])) r.allowed[c][k] = 0;
  }
  r.kind = TurnRules::Kind::UpDown;
  r.updown_label = label;
  return r;
}

TableSet route_updown(const Topology& t, const RoutingOptions& opt, TreeKind kind) {
  const std::string name = kind == TreeKind::Bfs ? "updown-bfs" : "updown-dfs";
  SwitchGraph g(t);
  require_connected(t, g, name);
  if (opt.root >= g.n) throw RoutingError(name + ": root switch " + std::to_string(opt.root) + " does not exist");
  const int root = opt.root >= 0 ? opt.root : updown_root(g);
  TurnRules rules = updown_rules(g, updown_labels(g, kind, root));
  if (opt.updown_paths == ShortestPathChoice::Tree)
    return tables_from_paths(t, g, tree_paths(g, rules.updown_label, name), opt, name);
  return tables_with_fallback(
      t, g, rules,
      g.n > kFreeChoiceSwitches ? RouteResult{} : route_with_turns(g, rules, opt.seed, false, opt.updown_paths), opt,
      name, false);
}

TableSet route_minhop(const Topology& t, const RoutingOptions& opt) {
  SwitchGraph g(t);
  require_connected(t, g, "minhop");
  if (opt.updown_paths == ShortestPathChoice::Highest || opt.updown_paths == ShortestPathChoice::Tree)
    throw RoutingError(std::string("minhop: paths '") + enum_name(opt.updown_paths) +
                       "' need an up*/down* root (updown-bfs, updown-dfs)");
  TurnRules rules = TurnRules::all_but_u_turns(g);
  return tables_with_fallback(
      t, g, rules,
      g.n > kFreeChoiceSwitches ? RouteResult{} : route_with_turns(g, rules, opt.seed, false, opt.updown_paths), opt,
      "minhop", false);
}

}  // namespace ibsc::routing
