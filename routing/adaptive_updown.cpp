// Fully adaptive minimal routing with an up*/down* escape ("adaptive-updown"; seeds/003 section
// 4.1, after Martinez et al.'s adaptive routing for InfiniBand): each LFT entry lists every
// output port on a shortest path to the destination switch (priority 0, adaptive queue) and
// the up*/down* port (priority 1, escape queue). One VL, LMC 0: the switch's queue split, not
// destination renaming, provides the escape channel.
//
// The escape sub-network must be destination-based (a packet may enter it at any switch, after
// adaptive hops), so its next hop depends on (switch, destination) only:
//   - D = switches with an all-down path to d; they route down along a shortest one;
//   - the others go up, to the neighbour whose own escape route to d is shortest.
// A packet on an up channel may go on up or down; one on a down channel only meets switches of
// D (a switch of D routes down into D), so every escape walk is a legal up*/down* path and the
// escape channel dependency graph is acyclic (checked on the tables by duato_check.h).
// Ties go to the channel fewest destinations already use as their escape (load balance).
// "updown-escape" is that escape sub-network alone as a deterministic routing: one port per
// entry, no escape queues needed (the deterministic baseline on the same up*/down* tree).
#include <algorithm>
#include <queue>
#include <string>

#include "routing/generic.h"
#include "routing/lids.h"

namespace ibsc::routing {

namespace {

constexpr int kUnset = -1;

bool is_up(const SwitchGraph& g, const std::vector<int>& label, int c) {
  return label[g.channels[c].to] > label[g.channels[c].from];
}

// down[x]: shortest all-down path x -> d (BFS backwards over down channels), or kUnset.
std::vector<int> down_lengths(const SwitchGraph& g, const std::vector<int>& label, int d) {
  std::vector<int> down(g.n, kUnset);
  std::queue<int> q;
  down[d] = 0;
  q.push(d);
  while (!q.empty()) {
    const int y = q.front();
    q.pop();
    for (int c : g.in[y])
      if (!is_up(g, label, c) && down[g.channels[c].from] == kUnset) {
        down[g.channels[c].from] = down[y] + 1;
        q.push(g.channels[c].from);
      }
  }
  return down;
}

// esc[x]: length of x's escape route: down[x] in D, else 1 + the best up neighbour's
// (Dijkstra with unit steps from D's values; a min-heap on (length, switch)).
std::vector<int> escape_lengths(const SwitchGraph& g, const std::vector<int>& label, const std::vector<int>& down) {
  std::vector<int> esc(g.n, kUnset);
  using Item = std::pair<int, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
  for (int x = 0; x < g.n; ++x)
    if (down[x] != kUnset) pq.push({esc[x] = down[x], x});
  while (!pq.empty()) {
    const auto [len, y] = pq.top();
    pq.pop();
    if (len != esc[y]) continue;
    for (int c : g.in[y]) {
      const int x = g.channels[c].from;
      if (!is_up(g, label, c) || down[x] != kUnset) continue;
      if (esc[x] == kUnset || len + 1 < esc[x]) pq.push({esc[x] = len + 1, x});
    }
  }
  return esc;
}

// The ports of x on minimal paths (dist: to the destination), ascending, each once.
std::vector<PortCandidate> minimal_candidates(const SwitchGraph& g, const std::vector<int>& dist, int x) {
  std::vector<PortCandidate> cands;
  for (int c : g.out[x])
    if (dist[g.channels[c].to] == dist[x] - 1) cands.push_back({static_cast<PortNum>(g.channels[c].port), 0, false});
  std::sort(cands.begin(), cands.end(), [](const PortCandidate& a, const PortCandidate& b) { return a.port < b.port; });
  cands.erase(std::unique(cands.begin(), cands.end(),
                          [](const PortCandidate& a, const PortCandidate& b) { return a.port == b.port; }),
              cands.end());
  return cands;
}

// The up*/down* orientation, after the options and the graph are checked.
std::vector<int> checked_labels(const Topology& t, const SwitchGraph& g, const RoutingOptions& opt,
                                const std::string& name) {
  if (g.n == 0) throw RoutingError(name + ": the topology has no switches");
  if (opt.vls > 1) throw RoutingError(name + " uses one VL (asked for " + std::to_string(opt.vls) + ")");
  const std::vector<int> d0 = bfs_distances(g, 0);
  for (int x = 0; x < g.n; ++x)
    if (d0[x] < 0)
      throw RoutingError(name + ": switch " + t.nodes[x].name + " is not connected to switch " + t.nodes[0].name);
  if (opt.root >= g.n) throw RoutingError(name + ": root switch " + std::to_string(opt.root) + " does not exist");
  return updown_labels(g, TreeKind::Bfs, opt.root >= 0 ? opt.root : updown_root(g));
}

}  // namespace

TableSet route_adaptive_updown(const Topology& t, const RoutingOptions& opt, bool escape_only) {
  const std::string name = escape_only ? "updown-escape" : "adaptive-updown";
  SwitchGraph g(t);
  const std::vector<int> label = checked_labels(t, g, opt, name);
  TableSet ts;
  ts.algorithm = name;
  ts.sls_used = ts.vls_used = 1;
  assign_lids(t, 0, ts);
  const auto by_switch = hosts_by_switch(t);
  std::vector<int> escape_load(g.channels.size(), 0);
  for (int d = 0; d < g.n; ++d) {
    if (by_switch[d].empty()) continue;
    const std::vector<int> dist = bfs_distances(g, d);  // cables are bidirectional: x -> d
    const std::vector<int> down = down_lengths(g, label, d);
    const std::vector<int> esc = escape_lengths(g, label, down);
    for (int x = 0; x < g.n; ++x) {
      if (x == d) continue;
      std::vector<PortCandidate> cands = minimal_candidates(g, dist, x);
      int best = -1;
      for (int c : g.out[x]) {
        const int y = g.channels[c].to;
        const bool up = is_up(g, label, c);
        const bool fits = down[x] != kUnset ? !up && down[y] == down[x] - 1 : up && esc[y] == esc[x] - 1;
        if (fits && (best < 0 || escape_load[c] < escape_load[best])) best = c;
      }
      if (best < 0)
        throw RoutingError(name + ": no up*/down* route from " + t.nodes[x].name + " to " + t.nodes[d].name);
      ++escape_load[best];
      if (escape_only) cands.clear();
      cands.push_back(
          {static_cast<PortNum>(g.channels[best].port), static_cast<uint8_t>(escape_only ? 0 : 1), !escape_only});
      for (int h : by_switch[d]) ts.switches[x].lft.set(ts.hosts[h].base_lid, cands);
    }
    // At the destination's switch the host port is the only way: an escape candidate, since the
    // HCA keeps no adaptive queue that would need room beyond the packet.
    for (int h : by_switch[d])
      ts.switches[d].lft.set(ts.hosts[h].base_lid, {{static_cast<PortNum>(t.host_switch_port(h)), 0, !escape_only}});
  }
  PathRow row;  // the same records from every source (one LID per host, SL 0): one row for all
  row.assign(t.num_hosts);
  for (int q = 0; q < t.num_hosts; ++q)
    if (t.host_switch(q) >= 0) row.set(q, {ts.hosts[q].base_lid, 0});
  for (int h = 0; h < t.num_hosts; ++h)
    if (t.host_switch(h) >= 0) ts.hosts[h].paths = row;
  route_switch_lids(t, g, ts);
  return ts;
}

}  // namespace ibsc::routing
