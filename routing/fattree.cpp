// `fattree` and `fattree-ar` (fattree.h; routing/README.md has the user's view).
//
// Destinations are routed one LID at a time in compute-node order (LID offset 0 of every host,
// then offset 1, ...; dummies pad short leaves), each in five steps. `load` of a switch port is
// the traffic of uniform all-to-all routed through it so far: after each destination, the hosts
// whose packets to it cross the port (the balance the whole engine rests on; OpenSM's ftree
// counts destinations instead, which is the same on a k-ary n-tree).
//   1. the switches that reach the destination's leaf going only down (its ancestors) and every
//      switch's up*/down* distance to it;
//   2. the main path: from the leaf up to a top switch, at each switch the parent whose cables
//      down toward it carry the least load per cable, then the one fewest main paths cross,
//      then the lowest index; the parent routes the destination down its least-loaded cable.
//      Another LID of the same host avoids the parents its earlier LIDs took, so each LID has
//      its own up-path;
//   3. the other ancestors route down toward the leaf (least-loaded cable);
//   4. descents from each main-path switch, lowest first: every switch below it not routed yet
//      routes up toward it, on its least-loaded cable to a switch of the descent one hop nearer;
//      so every host's packets meet the main path at the lowest common level and share its down
//      cables, one destination per cable on a k-ary n-tree: the shift permutation in this order
//      loads no channel twice. Switches no descent reached (damaged trees) take a least-loaded
//      minimal up port;
//   5. the counts: every leaf's packets followed to the destination; routes no packet crosses
//      gain a spare count, the tie-break among equally loaded cables.
// Up moves only from switches that are no ancestor, down moves only from ancestors, so every
// route (and every adaptive candidate) is up* then down* by level: the dependency graph has no
// cycle. On a tree with uneven cables the tables are kept only when uniform all-to-all loads no
// channel more than minhop's tables do (at_least_minhop).
#include <algorithm>
#include <climits>
#include <tuple>
#include <utility>

#include "routing/fattree.h"
#include "routing/generic.h"
#include "routing/graph.h"
#include "routing/lids.h"
#include "routing/pair_loads.h"

namespace ibsc::routing {
namespace {

constexpr int kFar = INT_MAX / 2;

class FatTreeRouter {
 public:
  FatTreeRouter(const Topology& t, const FatTreeIndexing& f, TableSet& ts, bool adaptive)
      : t_(t), f_(f), ts_(ts), adaptive_(adaptive), n_(t.num_switches) {
    offset_.assign(n_ + 1, 0);
    for (int s = 0; s < n_; ++s) offset_[s + 1] = offset_[s] + t.nodes[s].num_ports + 1;
    load_.assign(offset_[n_], 0);
    shared_up_.assign(offset_[n_], 0);
    up_first_.assign(1, 0);
    for (int s = 0; s < n_; ++s) {
      for (const PortGroup& g : f.up[s]) up_peer_.push_back(g.peer);
      up_first_.push_back(static_cast<int>(up_peer_.size()));
    }
    spare_.assign(offset_[n_], 0);
    through_.assign(n_, 0);
    for (int s = 0; s < n_; ++s) by_level_.push_back(s);
    std::stable_sort(by_level_.begin(), by_level_.end(), [&](int a, int b) { return f.level[a] > f.level[b]; });
    dist_.assign(n_, kFar);
    route_.assign(n_, kNoPort);
    ancestor_at_.assign(n_, 0);
    routed_at_.assign(n_, 0);
    expanded_at_.assign(n_, 0);
    seen_at_.assign(n_, 0);
  }
  int load(int s, int port) const { return load_[offset_[s] + port]; }
  // Routes one LID (host < 0: a dummy, counted only) of a host on leaf `leaf`; `earlier`: the
  // main paths of the host's earlier LIDs, to be avoided. Returns this LID's main path.
  std::vector<int> route(int leaf, int host, Lid lid, const std::vector<std::vector<int>>& earlier);

 private:
  int& load_at(int s, int port) { return load_[offset_[s] + port]; }
  void ancestors_and_distances(int leaf);
  std::vector<int> main_path(int leaf, const std::vector<std::vector<int>>& earlier);
  void route_other_ancestors(int leaf);
  void descend(int from);
  void remaining_up_ports(int leaf, int host);
  void set_route(int s, PortNum port) {
    route_[s] = port;
    routed_at_[s] = epoch_;
    routed_.push_back(s);
  }
  void count_routes(int leaf);
  void write(Lid lid);
  bool ancestor(int s) const { return ancestor_at_[s] == epoch_; }

  const Topology& t_;
  const FatTreeIndexing& f_;
  TableSet& ts_;
  const bool adaptive_;
  const int n_;
  std::vector<int> offset_, load_, by_level_;
  std::vector<int> spare_;               // routes no packet crossed, per port (a tie-break)
  std::vector<long> through_;            // main paths through each switch
  std::vector<int> up_first_, up_peer_;  // the parents of switch s: up_peer_[up_first_[s] ..]
  std::vector<uint32_t> shared_up_;      // fattree-ar: [port] the first LID listing every up-port, that one first
  // Per LID, valid where the stamp equals epoch_ (no clearing between LIDs).
  int epoch_ = 0, stamp_ = 0;
  std::vector<int> dist_, ancestor_at_, routed_at_, expanded_at_, seen_at_, routed_;
  std::vector<PortNum> route_;
  std::vector<int> ancestors_, frontier_, next_;  // ancestors_: in the order found
};

void FatTreeRouter::ancestors_and_distances(int leaf) {
  std::vector<int>& q = ancestors_;
  q.assign(1, leaf);
  ancestor_at_[leaf] = epoch_;
  dist_[leaf] = 0;
  for (size_t head = 0; head < q.size(); ++head)
    for (const PortGroup& g : f_.up[q[head]])
      if (!ancestor(g.peer)) ancestor_at_[g.peer] = epoch_, dist_[g.peer] = dist_[q[head]] + 1, q.push_back(g.peer);
  for (int s : by_level_) {  // parents first
    if (ancestor(s)) continue;
    int d = kFar;
    for (int i = up_first_[s]; i < up_first_[s + 1]; ++i) d = std::min(d, dist_[up_peer_[i]] + 1);
    dist_[s] = d;
  }
}

std::vector<int> FatTreeRouter::main_path(int leaf, const std::vector<std::vector<int>>& earlier) {
  std::vector<int> path{leaf};
  for (int x = leaf; !f_.up[x].empty();) {
    const size_t step = path.size() - 1;
    // The parent whose cables down toward x carry the least load per cable (a LAG takes more),
    // then the one fewest main paths pass (so leaves that tie do not all favour the same
    // parents), then the lowest index (the groups' order).
    const PortGroup* best = nullptr;
    long best_taken = 0, best_load = 0;
    for (const PortGroup& g : f_.up[x]) {
      long taken = 0, load = 0;
      for (const std::vector<int>& e : earlier) taken += e.size() > step + 1 && e[step] == x && e[step + 1] == g.peer;
      for (PortNum r : g.remote) load += this->load(g.peer, r);
      if (best) {
        const long a = load * static_cast<long>(best->remote.size()),
                   b = best_load * static_cast<long>(g.remote.size());
        if (std::tie(taken, a, through_[g.peer]) >= std::tie(best_taken, b, through_[best->peer])) continue;
      }
      best = &g, best_taken = taken, best_load = load;
    }
    size_t cable = 0;
    for (size_t i = 1; i < best->remote.size(); ++i)
      if (load(best->peer, best->remote[i]) < load(best->peer, best->remote[cable])) cable = i;
    x = best->peer;
    set_route(x, best->remote[cable]);
    ++through_[x];
    path.push_back(x);
  }
  return path;
}

void FatTreeRouter::route_other_ancestors(int leaf) {
  for (int s : ancestors_) {
    if (s == leaf || routed_at_[s] == epoch_) continue;
    PortNum best = kNoPort;
    for (const PortGroup& g : f_.down[s])
      if (ancestor(g.peer))
        for (PortNum p : g.ports)
          if (best == kNoPort ||
              std::pair(load(s, p), spare_[offset_[s] + p]) < std::pair(load(s, best), spare_[offset_[s] + best]))
            best = p;
    set_route(s, best);
  }
}

// Every switch below `from` not routed yet routes up toward it, level by level.
void FatTreeRouter::descend(int from) {
  if (expanded_at_[from] == epoch_) return;
  expanded_at_[from] = epoch_;
  frontier_.assign(1, from);
  while (!frontier_.empty()) {
    next_.clear();
    ++stamp_;
    for (int p : frontier_)
      for (const PortGroup& g : f_.down[p]) {
        const int c = g.peer;
        if (ancestor(c)) {  // routes down already; the switches below it still route up
          if (expanded_at_[c] != epoch_) expanded_at_[c] = epoch_, next_.push_back(c);
          continue;
        }
        if (routed_at_[c] == epoch_ || dist_[p] + 1 != dist_[c]) continue;
        for (PortNum r : g.remote)
          if (seen_at_[c] != stamp_ || load(c, r) < load(c, route_[c])) {
            if (seen_at_[c] != stamp_) seen_at_[c] = stamp_, next_.push_back(c);
            route_[c] = r;
          }
      }
    for (int c : next_)
      if (!ancestor(c)) set_route(c, route_[c]), expanded_at_[c] = epoch_;
    frontier_.swap(next_);
  }
}

void FatTreeRouter::remaining_up_ports(int leaf, int host) {
  for (int s : by_level_) {
    if (ancestor(s) || routed_at_[s] == epoch_) continue;
    if (dist_[s] >= kFar) {  // cut off from the leaf: only a leaf's entry is ever used by hosts
      if (f_.level[s] == 0 && host >= 0)
        throw RoutingError(ts_.algorithm + ": leaf switch " + t_.nodes[s].name + " cannot reach host " +
                           t_.nodes[t_.host_node(host)].name + " (on " + t_.nodes[leaf].name +
                           ") going up and then down: the tree is cut; minhop or updown-bfs route it");
      continue;
    }
    PortNum best = kNoPort;
    for (const PortGroup& g : f_.up[s])
      if (dist_[g.peer] == dist_[s] - 1)
        for (PortNum p : g.ports)
          if (best == kNoPort ||
              std::pair(load(s, p), spare_[offset_[s] + p]) < std::pair(load(s, best), spare_[offset_[s] + best]))
            best = p;
    set_route(s, best);
  }
}

// Each port gains the hosts whose packets to this destination cross it (every leaf's followed
// up and down), so the balance weighs routes by the traffic of uniform all-to-all; routes no
// host's packets cross gain a spare count instead.
void FatTreeRouter::count_routes(int leaf) {
  ++stamp_;
  for (size_t i = 0; i < f_.leaves.size(); ++i) {
    const int hosts = static_cast<int>(f_.leaf_hosts[i].size());
    for (int x = f_.leaves[i], hops = 0; x != leaf && routed_at_[x] == epoch_ && hops < n_; ++hops) {
      seen_at_[x] = stamp_;
      load_at(x, route_[x]) += hosts;
      x = t_.nodes[x].ports[route_[x]].node;
    }
  }
  for (int s : routed_)
    if (seen_at_[s] != stamp_) ++spare_[offset_[s] + route_[s]];
}

void FatTreeRouter::write(Lid lid) {
  std::vector<PortCandidate> cands;
  for (int s : routed_) {
    Lft& lft = ts_.switches[s].lft;
    if (!adaptive_) {
      lft.set(lid, route_[s]);
      continue;
    }
    // Every minimal port: down toward the leaf from an ancestor, up from any other switch.
    // Below the common ancestors of a pure tree that is every up-port: such lists differ only in
    // the static port, so the entries share one list per port instead of a copy per LID.
    const bool up = !ancestor(s);
    bool all_up = up;
    for (int i = up_first_[s]; all_up && i < up_first_[s + 1]; ++i) all_up = dist_[up_peer_[i]] == dist_[s] - 1;
    uint32_t& first = shared_up_[offset_[s] + route_[s]];
    if (all_up && first != 0) {
      lft.share(lid, first);
      continue;
    }
    // The static port at level 0, the others at 1: the switch takes the static port while it
    // can and another minimal one when it cannot (switch.ar_fallback says when). All at one
    // level, equal credits (idle outputs) went to the arbiter's tie-break, which restarts at
    // the lowest up-port after each grant to a host port: every leaf preferred the same spines
    // (reports/fat-trees/findings.md). The static ports are balanced by the steps above.
    cands.assign(1, {route_[s], 0, false});
    for (const PortGroup& g : up ? f_.up[s] : f_.down[s])
      if (dist_[g.peer] == dist_[s] - 1)
        for (PortNum p : g.ports)
          if (p != route_[s]) cands.push_back({p, 1, false});
    lft.set(lid, cands);
    if (all_up && cands.size() > 1) first = lid;
  }
}

std::vector<int> FatTreeRouter::route(int leaf, int host, Lid lid, const std::vector<std::vector<int>>& earlier) {
  ++epoch_;
  routed_.clear();
  ancestors_and_distances(leaf);
  std::vector<int> path = main_path(leaf, earlier);
  route_other_ancestors(leaf);
  for (size_t j = 1; j < path.size(); ++j) descend(path[j]);
  remaining_up_ports(leaf, host);
  count_routes(leaf);
  if (host >= 0) {
    write(lid);
    ts_.switches[leaf].lft.set(lid, static_cast<PortNum>(t_.host_switch_port(host)));
  }
  return path;
}

// Every switch of a level has as many cables up, and as many down to switches, as the others
// (hosts per leaf may differ: dummies pad them).
bool uniform_cables(const FatTreeIndexing& f) {
  std::vector<std::pair<long, long>> per_level(f.top + 1, {-1, -1});
  for (size_t s = 0; s < f.level.size(); ++s) {
    long up = 0, down = 0;
    for (const PortGroup& g : f.up[s]) up += static_cast<long>(g.ports.size());
    for (const PortGroup& g : f.down[s]) down += static_cast<long>(g.ports.size());
    std::pair<long, long>& ref = per_level[f.level[s]];
    if (ref.first < 0) ref = {up, down};
    else if (ref != std::pair(up, down)) return false;
  }
  return true;
}

// On a tree with cables missing or spread unevenly, a destination's packets all meeting its main
// path can load a cable more than minimum-hop routing does (a leaf with fewer cables up than
// hosts): such tables are refused rather than given as the better fat-tree routing.
void at_least_minhop(const Topology& t, const RoutingOptions& opt, const TableSet& ts) {
  RoutingOptions mo = opt;
  mo.algorithm = Algorithm::Minhop;
  const long ours = uniform_pair_loads(t, ts).busiest(), minhop = uniform_pair_loads(t, route_minhop(t, mo)).busiest();
  if (ours > minhop)
    throw RoutingError(ts.algorithm + ": on this tree (cables missing or uneven) its busiest channel would carry " +
                       std::to_string(ours) + " routes of uniform all-to-all, minhop's " + std::to_string(minhop) +
                       ": refused; route it with minhop");
}

}  // namespace

TableSet route_fattree(const Topology& t, const RoutingOptions& opt, bool adaptive) {
  const std::string name = adaptive ? "fattree-ar" : "fattree";
  const int lmc = opt.lmc;
  if (lmc < 0 || lmc > kMaxLmc)
    throw RoutingError(name + ": routing.lmc must be 0..7 (got " + std::to_string(lmc) + ")");
  const long need = (static_cast<long>(t.num_hosts) + 1) * (1L << lmc) + t.num_switches - 1;
  if (need > kMaxUnicastLid) {
    int fits = lmc;
    while (fits >= 0 && (static_cast<long>(t.num_hosts) + 1) * (1L << fits) + t.num_switches - 1 > kMaxUnicastLid)
      --fits;
    throw RoutingError(name + ": routing.lmc " + std::to_string(lmc) + " gives " + std::to_string(t.num_hosts) +
                       " hosts " + std::to_string(1 << lmc) + " LIDs each, LIDs up to " + std::to_string(need) +
                       " with the " + std::to_string(t.num_switches) + " switches; unicast LIDs end at " +
                       std::to_string(kMaxUnicastLid) +
                       (fits >= 0 ? ": at most routing.lmc " + std::to_string(fits) + " on this fabric" : ""));
  }
  const FatTreeIndexing f = fat_tree_indexing(t);
  if (!f.problem.empty()) throw RoutingError(name + ": " + f.problem);
  TableSet ts;
  ts.algorithm = name;
  ts.sls_used = ts.vls_used = 1;
  assign_lids(t, lmc, ts);
  FatTreeRouter router(t, f, ts, adaptive);
  const int lids = 1 << lmc;
  std::vector<std::vector<std::vector<int>>> paths(lmc > 0 ? t.num_hosts : 0);  // [host][offset]
  const std::vector<std::vector<int>> none;
  for (int o = 0; o < lids; ++o)
    for (size_t i = 0; i < f.leaves.size(); ++i) {
      const int leaf = f.leaves[i];
      for (int h : f.leaf_hosts[i]) {
        const Lid lid = static_cast<Lid>(host_base_lid(h, lmc) + o);
        std::vector<int> path = router.route(leaf, h, lid, lmc > 0 ? paths[h] : none);
        if (lmc > 0) paths[h].push_back(std::move(path));
      }
      for (size_t d = f.leaf_hosts[i].size(); d < static_cast<size_t>(f.max_hosts_per_leaf); ++d)
        router.route(leaf, -1, 0, none);
    }
  // The same records from every source: all 2^lmc LIDs, the base first; with several, the HCA
  // draws one per packet (multipath).
  PathRow row;
  row.assign(t.num_hosts);
  std::vector<PathRecord> recs(lids);
  for (int q = 0; q < t.num_hosts; ++q) {
    if (t.host_switch(q) < 0) continue;
    for (int o = 0; o < lids; ++o) recs[o] = {static_cast<Lid>(ts.hosts[q].base_lid + o), 0};
    row.set(q, recs);
  }
  for (int h = 0; h < t.num_hosts; ++h)
    if (t.host_switch(h) >= 0) ts.hosts[h].paths = row;
  if (lids > 1) ts.path_choice = PathChoice::RandomPerPacket;
  route_switch_lids(t, SwitchGraph(t), ts);
  if (!uniform_cables(f)) at_least_minhop(t, opt, ts);
  return ts;
}

}  // namespace ibsc::routing
