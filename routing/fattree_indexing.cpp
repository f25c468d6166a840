// The fat-tree shape the `fattree` engine routes on: levels, port groups, OpenSM's ftree
// indexing and the compute-node order (fattree.h says how each is defined).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>

#include "routing/fat_tree_shape.h"
#include "routing/fattree.h"
#include "routing/routing.h"
#include "routing/table_io.h"

namespace ibsc::routing {
namespace {

using Index = std::vector<uint16_t>;  // (rank, digit 1, ..., digit top), as OpenSM's tuple

// OpenSM keys its switch table by the GUID as stored (network byte order) and walks it as a
// little-endian integer: the first leaf it meets is the least of these keys.
uint64_t opensm_table_key(uint64_t guid) {
  uint64_t k = 0;
  for (int i = 0; i < 8; ++i) k |= ((guid >> (8 * i)) & 0xFF) << (8 * (7 - i));
  return k;
}

// Groups of the cables from switch s to the level `toward`, in port order of their first cable.
std::vector<PortGroup> groups_toward(const Topology& t, const std::vector<int>& level, int s, int toward) {
  std::vector<PortGroup> groups;
  const Node& n = t.nodes[s];
  for (int p = 1; p <= n.num_ports; ++p) {
    const PortPeer& pp = n.ports[p];
    if (pp.node < 0 || pp.node >= t.num_switches || pp.node == s || level[pp.node] != toward) continue;
    auto g = std::find_if(groups.begin(), groups.end(), [&](const PortGroup& x) { return x.peer == pp.node; });
    if (g == groups.end()) g = groups.insert(groups.end(), PortGroup{pp.node, {}, {}});
    g->ports.push_back(static_cast<PortNum>(p));
    g->remote.push_back(static_cast<PortNum>(pp.port));
  }
  return groups;
}

// OpenSM ftree's indexing: a breadth-first walk from the first leaf (fattree.h).
std::vector<Index> opensm_indices(const Topology& t, const FatTreeIndexing& f) {
  const int n = t.num_switches;
  std::vector<Index> index(n);
  std::set<Index> taken;
  auto assign = [&](int s, Index from, int rank, int digit) {
    from[0] = static_cast<uint16_t>(rank);
    for (uint16_t v = 0;; ++v) {
      from[digit] = v;
      if (!taken.count(from)) break;
    }
    taken.insert(from);
    index[s] = std::move(from);
  };
  int first = -1;
  for (int s = 0; s < n; ++s)
    if (f.level[s] == 0 && (first < 0 || opensm_table_key(switch_guid(t, s)) < opensm_table_key(switch_guid(t, first))))
      first = s;
  index[first] = Index(f.top + 1, 0);
  index[first][0] = static_cast<uint16_t>(f.top);
  taken.insert(index[first]);
  std::vector<int> queue{first};
  for (size_t head = 0; head < queue.size(); ++head) {
    const int x = queue[head], rank = f.top - f.level[x];
    if (rank < f.top)  // a leaf's down ports lead to hosts only
      for (const PortGroup& g : f.down[x])
        if (index[g.peer].empty()) assign(g.peer, index[x], rank + 1, rank + 1), queue.push_back(g.peer);
    if (rank != 0)
      for (const PortGroup& g : f.up[x])
        if (index[g.peer].empty()) assign(g.peer, index[x], rank - 1, rank), queue.push_back(g.peer);
  }
  return index;
}

}  // namespace

FatTreeIndexing fat_tree_indexing(const Topology& t) {
  FatTreeIndexing f;
  const int n = t.num_switches;
  {
    const FatTreeShape shape = fat_tree_shape(t);  // the one definition of a fat tree's levels
    if (!shape.fat_tree) {
      f.problem = "not a fat tree: " + shape.why_not;
      return f;
    }
    f.level = shape.level;
    f.top = shape.levels() - 1;
  }
  f.up.resize(n);
  f.down.resize(n);
  for (int s = 0; s < n; ++s) {
    f.up[s] = groups_toward(t, f.level, s, f.level[s] + 1);
    f.down[s] = groups_toward(t, f.level, s, f.level[s] - 1);
  }
  const std::vector<Index> index = opensm_indices(t, f);
  for (int s = 0; s < n; ++s)
    if (index[s].empty()) {
      f.problem = "switch " + t.nodes[s].name + " is not connected to the other switches";
      return f;
    }
  std::vector<int> by_index(n);
  for (int s = 0; s < n; ++s) by_index[s] = s;
  std::sort(by_index.begin(), by_index.end(), [&](int a, int b) { return index[a] < index[b]; });
  f.index_order.assign(n, 0);
  for (int i = 0; i < n; ++i) f.index_order[by_index[i]] = i;
  auto by_peer_index = [&](const PortGroup& a, const PortGroup& b) {
    return f.index_order[a.peer] < f.index_order[b.peer];
  };
  for (int s = 0; s < n; ++s) {
    std::sort(f.up[s].begin(), f.up[s].end(), by_peer_index);
    std::sort(f.down[s].begin(), f.down[s].end(), by_peer_index);
  }
  for (int s : by_index) {
    if (f.level[s] != 0) continue;
    f.leaves.push_back(s);
    std::vector<int> hosts;
    const Node& node = t.nodes[s];
    for (int p = 1; p <= node.num_ports; ++p)
      if (node.ports[p].node >= n && t.nodes[node.ports[p].node].ports[1].node == s)
        hosts.push_back(t.host_index(node.ports[p].node));
    f.max_hosts_per_leaf = std::max(f.max_hosts_per_leaf, static_cast<int>(hosts.size()));
    f.ca_order.insert(f.ca_order.end(), hosts.begin(), hosts.end());
    f.leaf_hosts.push_back(std::move(hosts));
  }
  return f;
}

void write_ftree_ca_order(const Topology& t, const TableSet& ts, const std::string& path) {
  const FatTreeIndexing f = fat_tree_indexing(t);
  if (!f.problem.empty()) throw RoutingError("opensm-ftree-ca-order.dump: " + f.problem);
  std::ofstream out(path);
  char lid[16];
  for (const std::vector<int>& hosts : f.leaf_hosts) {
    for (int h : hosts) {
      std::snprintf(lid, sizeof lid, "0x%04x", static_cast<unsigned>(ts.hosts[h].base_lid));
      out << lid << '\t' << t.nodes[t.host_node(h)].name << '\n';
    }
    for (size_t d = hosts.size(); d < static_cast<size_t>(f.max_hosts_per_leaf); ++d) out << "0xFFFF\tDUMMY\n";
  }
  if (!out) throw RoutingError("cannot write " + path);
}

}  // namespace ibsc::routing
