// The channel dependency graph built from the walks' switch dependencies (routing/switch_deps.h)
// against the graph built the plain way (a list of (from, to) pairs, compress_edges, find_cycle):
// on random dependencies of a flattened butterfly and a torus, with and without cycles, the
// same node and edge counts, verdict and cycle (the cycle search sees the same graph in the
// same order, so it finds the same cycle).
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <random>
#include <string>

#include "routing/cycle.h"
#include "routing/switch_deps.h"
#include "routing/topo_spec.h"

using namespace ibsc::routing;

namespace {

// Random dependencies between cabled ports; lowering: output VL below input VL only (acyclic).
std::vector<SwitchDeps> random_deps(const Topology& t, double p, bool lowering, unsigned seed) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution take(p);
  std::vector<SwitchDeps> deps(t.num_switches);
  for (int s = 0; s < t.num_switches; ++s) {
    deps[s].init(t.nodes[s].num_ports);
    const int P = t.nodes[s].num_ports;
    for (int ip = 1; ip <= P; ++ip)
      for (int op = 1; op <= P; ++op)
        for (int iv = 0; iv < 4; ++iv)
          for (int ov = 0; ov < 4; ++ov)
            if (op != ip && t.nodes[s].ports[ip].node >= 0 && t.nodes[s].ports[op].node >= 0 &&
                (!lowering || ov < iv) && take(rng))
              deps[s].set(ip, iv, op, ov);
  }
  return deps;
}

// The plain construction.
CheckReport by_pairs(const Topology& t, const std::vector<SwitchDeps>& deps) {
  constexpr int kV = kDepVls;
  std::vector<int> chan_base(t.nodes.size() + 1, 0);
  for (size_t v = 0; v < t.nodes.size(); ++v) chan_base[v + 1] = chan_base[v] + t.nodes[v].num_ports + 1;
  const int nodes = chan_base.back() * kV;
  std::vector<std::pair<int, int>> edges;
  for (int s = 0; s < t.num_switches; ++s)
    for (int ip = 0; ip < deps[s].ports; ++ip)
      for (int iv = 0; iv < kV; ++iv)
        for (int op = 0; op < deps[s].ports; ++op)
          for (int ov = 0; ov < kV; ++ov) {
            const size_t i = deps[s].index(ip, iv, op, ov);
            if (!(deps[s].bits[i >> 6] >> (i & 63) & 1)) continue;
            const PortPeer& from = t.nodes[s].ports[ip];
            edges.emplace_back((chan_base[from.node] + from.port) * kV + iv, (chan_base[s] + op) * kV + ov);
          }
  std::vector<uint32_t> off;
  std::vector<int> tgt;
  compress_edges(nodes, edges, off, tgt);
  CheckReport r;
  r.cdg_edges = tgt.size();
  std::vector<char> used(nodes, 0);
  for (const auto& e : edges) used[e.first] = used[e.second] = 1;
  r.cdg_nodes = static_cast<size_t>(std::count(used.begin(), used.end(), 1));
  for (int c : find_cycle(off, tgt)) r.cycle.push_back({0, "", c / kV, c % kV});
  r.deadlock_free = r.cycle.empty();
  return r;
}

// Returns whether the graph is free of cycles.
bool same_graph(const Topology& t, double p, bool lowering, unsigned seed) {
  const std::vector<SwitchDeps> deps = random_deps(t, p, lowering, seed);
  CheckReport a;
  dependency_graph(t, deps, a);
  const CheckReport b = by_pairs(t, deps);
  BOOST_TEST(a.cdg_edges > 0u);
  BOOST_TEST(a.cdg_nodes == b.cdg_nodes);
  BOOST_TEST(a.cdg_edges == b.cdg_edges);
  BOOST_TEST(a.deadlock_free == b.deadlock_free);
  BOOST_REQUIRE(a.cycle.size() == b.cycle.size());
  std::vector<int> chan_base(t.nodes.size() + 1, 0);  // a's hops as b's flat channel numbers
  for (size_t v = 0; v < t.nodes.size(); ++v) chan_base[v + 1] = chan_base[v] + t.nodes[v].num_ports + 1;
  for (size_t i = 0; i < a.cycle.size(); ++i) {
    BOOST_TEST(chan_base[a.cycle[i].node] + a.cycle[i].port == b.cycle[i].port);
    BOOST_TEST(a.cycle[i].vl == b.cycle[i].vl);
  }
  return a.deadlock_free;
}

}  // namespace

BOOST_AUTO_TEST_CASE(flattened_butterfly_with_cycles) {
  const Topology t = build_topology_spec("flatfly:4x4:widths=2,1:hosts=2");
  BOOST_TEST(!same_graph(t, 0.05, false, 1));
  same_graph(t, 0.002, false, 2);  // sparse: with or without a cycle
}

BOOST_AUTO_TEST_CASE(torus_lowering_is_acyclic) {
  const Topology t = build_topology_spec("torus:4x4");
  BOOST_TEST(same_graph(t, 0.3, true, 3));  // output VL below input VL on every hop: no loop
}
