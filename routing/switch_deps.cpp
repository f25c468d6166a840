#include "routing/switch_deps.h"

#include <algorithm>
#include <utility>

#include "routing/cycle.h"

namespace ibsc::routing {

namespace {

// Calls f(first bit) for each bit set in [b, e) of bits.
template <class F>
void for_each_bit(const std::vector<uint64_t>& bits, size_t b, size_t e, F f) {
  for (size_t w = b >> 6; w < bits.size() && w * 64 < e; ++w) {
    uint64_t x = bits[w];
    if (w * 64 < b) x &= ~0ULL << (b - w * 64);
    if (e < w * 64 + 64) x &= (1ULL << (e - w * 64)) - 1;
    for (; x; x &= x - 1) f(w * 64 + __builtin_ctzll(x));
  }
}

}  // namespace

void dependency_graph(const Topology& t, const std::vector<SwitchDeps>& deps, CheckReport& rep) {
  constexpr int kV = kDepVls;
  const int S = t.num_switches;
  // Channel dependency graph: node = (channel, VL); a channel is (node, output port).
  std::vector<int> chan_base(t.nodes.size() + 1, 0);
  for (size_t v = 0; v < t.nodes.size(); ++v) chan_base[v + 1] = chan_base[v] + t.nodes[v].num_ports + 1;
  const int nodes = chan_base.back() * kV;
  // In compressed form directly: the dependencies of one (input port, input VL) of a switch
  // are one run of its bits, and they are all those of the graph node (the channel into that
  // port, VL), in the order of their targets ((switch's channel base + output port) * VLs +
  // output VL is the run's base plus the bit's place in it): counted, then copied, with no
  // list of pairs and no sort (millions of edges at 16,384 hosts).
  auto each_run = [&](auto f) {  // f(switch, graph node, first bit, end bit)
    for (int s = 0; s < S; ++s) {
      const SwitchDeps& sd = deps[s];
      const size_t run = static_cast<size_t>(sd.ports) * kV;
      for (int ip = 0; ip < sd.ports; ++ip) {
        const PortPeer& from = t.nodes[s].ports[ip];
        if (from.node < 0) continue;  // not cabled: nothing enters
        for (int iv = 0; iv < kV; ++iv) {
          const size_t b = (static_cast<size_t>(ip) * kV + iv) * run;
          f(s, (chan_base[from.node] + from.port) * kV + iv, b, b + run);
        }
      }
    }
  };
  std::vector<uint32_t> off(static_cast<size_t>(nodes) + 1, 0);
  bool once = true;  // each graph node from one run only (a well-formed topology)
  each_run([&](int s, int src, size_t b, size_t e) {
    uint32_t n = 0;
    for_each_bit(deps[s].bits, b, e, [&](size_t) { ++n; });
    if (!n) return;
    once = once && off[src + 1] == 0;
    off[src + 1] += n;
  });
  for (int v = 0; v < nodes; ++v) off[v + 1] += off[v];
  std::vector<int> tgt(off[nodes]);
  std::vector<uint32_t> next(off.begin(), off.end() - 1);
  each_run([&](int s, int src, size_t b, size_t e) {
    const int base = chan_base[s] * kV - static_cast<int>(b);
    for_each_bit(deps[s].bits, b, e, [&](size_t i) { tgt[next[src]++] = base + static_cast<int>(i); });
  });
  if (!once) {  // several runs into one node: sorted and without duplicates as compress_edges does
    std::vector<std::pair<int, int>> edges;
    for (int v = 0; v < nodes; ++v)
      for (uint32_t i = off[v]; i < off[v + 1]; ++i) edges.emplace_back(v, tgt[i]);
    compress_edges(nodes, edges, off, tgt);
  }
  rep.cdg_edges = tgt.size();
  {
    std::vector<char> used(nodes, 0);
    for (int v = 0; v < nodes; ++v)
      if (off[v + 1] > off[v]) used[v] = 1;
    for (int x : tgt) used[x] = 1;
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
