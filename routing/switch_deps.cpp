#include "routing/switch_deps.h"

#include <algorithm>
#include <utility>

#include "routing/cycle.h"

namespace ibsc::routing {

void dependency_graph(const Topology& t, const std::vector<SwitchDeps>& deps, CheckReport& rep) {
  constexpr int kV = kDepVls;
  const int S = t.num_switches;
  // Channel dependency graph: node = (channel, VL); a channel is (node, output port).
  std::vector<int> chan_base(t.nodes.size() + 1, 0);
  for (size_t v = 0; v < t.nodes.size(); ++v) chan_base[v + 1] = chan_base[v] + t.nodes[v].num_ports + 1;
  const int nodes = chan_base.back() * kV;
  std::vector<std::pair<int, int>> edges;
  for (int s = 0; s < S; ++s) {
    const SwitchDeps& sd = deps[s];
    const Node& node = t.nodes[s];
    for (size_t w = 0; w < sd.bits.size(); ++w) {
      for (uint64_t b = sd.bits[w]; b; b &= b - 1) {
        size_t i = w * 64 + __builtin_ctzll(b);
        const int ov = static_cast<int>(i % kV), op = static_cast<int>(i / kV % sd.ports);
        const int iv = static_cast<int>(i / kV / sd.ports % kV), ip = static_cast<int>(i / kV / sd.ports / kV);
        const PortPeer& from = node.ports[ip];
        edges.emplace_back((chan_base[from.node] + from.port) * kV + iv, (chan_base[s] + op) * kV + ov);
      }
    }
  }
  std::vector<uint32_t> off;
  std::vector<int> tgt;
  compress_edges(nodes, edges, off, tgt);
  rep.cdg_edges = tgt.size();
  {
    std::vector<char> used(nodes, 0);
    for (const auto& e : edges) used[e.first] = used[e.second] = 1;
    rep.cdg_nodes = static_cast<size_t>(std::count(used.begin(), used.end(), 1));
  }
  std::vector<int> cyc = find_cycle(off, tgt);
  rep.deadlock_free = cyc.empty();
  for (int c : cyc) {
    const int ch = c / kV;
    const int nd = static_cast<int>(std::upper_bound(chan_base.begin(), chan_base.end(), ch) - chan_base.begin()) - 1;
    rep.cycle.push_back({nd, t.nodes[nd].name, ch - chan_base[nd], c % kV});
  }
}

}  // namespace ibsc::routing
