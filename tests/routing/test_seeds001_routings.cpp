// seeds/001's routings on per-input-VL LFTs with VL2VL tables (routing/distance.cpp, ador.cpp,
// dragonfly_routing.cpp): hand-checked candidates and VLs for one destination, every pair
// routed and deadlock-free by the channel dependency graph check, wrong variants refused, and
// the VL budget (the talk's 8).
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "routing/checks.h"
#include "routing/graph.h"
#include "routing/routing.h"
#include "routing/table_io.h"
#include "routing/topo_spec.h"
#include "tests/support/error_of.h"

using namespace ibsc;
using namespace ibsc::routing;

namespace {

TableSet route(const Topology& t, const std::string& algo, int k = 0, GsidModulus gsid_modulus = GsidModulus::Cables) {
  RoutingOptions opt;
  opt.algorithm = enum_value<Algorithm>(algo);
  opt.k = k;
  opt.gsid_modulus = gsid_modulus;
  return compute_routing(t, opt);
}

// The LFT candidates of switch s, input VL v, for the first host of switch b, as
// (next switch, priority), in table order.
std::vector<std::pair<int, int>> cands(const Topology& t, const TableSet& ts, int s, int v, int b) {
  int h = 0;
  while (t.host_switch(h) != b) ++h;
  std::vector<std::pair<int, int>> r;
  for (const PortCandidate& c : ts.switches[s].route(ts.hosts[h].base_lid, static_cast<Vl>(v)).candidates)
    r.emplace_back(t.nodes[s].ports[c.port].node, c.priority);
  return r;
}

std::set<int> next_of(const std::vector<std::pair<int, int>>& c, int priority) {
  std::set<int> r;
  for (auto [n, p] : c)
    if (p == priority) r.insert(n);
  return r;
}

// The walk from host h to host g: (switch, input VL) per switch, taking the primary candidate,
// or with `detour` the first priority-2 (our 1) candidate wherever there is one.
std::vector<std::pair<int, int>> walk(const Topology& t, const TableSet& ts, int h, int g, bool detour = false) {
  const PathRecord& rec = ts.path(h, g);
  int node = t.host_switch(h), in = t.host_switch_port(h), vl = ts.hosts[h].sl2vl[rec.sl];
  std::vector<std::pair<int, int>> w;
  while (node < t.num_switches && w.size() < 20) {
    w.emplace_back(node, vl);
    const LftEntry& e = ts.switches[node].route(rec.dlid, static_cast<Vl>(vl));
    int out = e.primary();
    for (const PortCandidate& c : e.candidates)
      if (detour && c.priority == 1) {
        out = c.port;
        break;
      }
    const int ov = ts.switches[node].sl2vl.get(in, out, vl);
    in = t.nodes[node].ports[out].port;
    node = t.nodes[node].ports[out].node;
    vl = ov;
  }
  return w;
}

}  // namespace

// 4x4 flattened butterfly (switch = c0 + 4 c1), one host each, Distance+2: diameter 2, so 4 VLs;
// from switch 0 to (1,1) (distance 2) the source sends on VL 2 + 2 - 1 = 3, and switch 0 keeps
// it. The lists of input VL v offer what a hop on v - 1 allows: on VL 3 (>= 2) the two minimal
// neighbours come first, then the four sideways ones; on VL 2 only the minimal ones; VL 1 is
// reached only from a host with k = 0 (minimal); VL 0 < distance 2 never.
BOOST_AUTO_TEST_CASE(distance_candidates_and_vls_by_hand) {
  const Topology t = build_topology_spec("flatfly:4x4:hosts=1");
  const TableSet ts = route(t, "distance", 2);
  BOOST_TEST(ts.vls_used == 4);
  BOOST_TEST(ts.switches[0].per_vl_copies() == 4);
  BOOST_TEST((ts.switches[0].sl2vl.key() == Sl2VlTable::Key::InputVl));
  const auto c3 = cands(t, ts, 0, 3, 5);
  BOOST_TEST(c3.size() == 6u);
  BOOST_TEST((next_of(c3, 0) == std::set<int>{1, 4}));
  BOOST_TEST((next_of(c3, 1) == std::set<int>{2, 3, 8, 12}));
  BOOST_TEST(c3.front().second == 0);  // minimal first
  BOOST_TEST((next_of(cands(t, ts, 0, 2, 5), 0) == std::set<int>{1, 4}));
  BOOST_TEST(cands(t, ts, 0, 2, 5).size() == 2u);
  BOOST_TEST(cands(t, ts, 0, 1, 5).size() == 2u);
  BOOST_TEST(cands(t, ts, 0, 0, 5).empty());
  BOOST_TEST(ts.path(0, 5).sl == 3);
  BOOST_TEST(ts.hosts[0].sl2vl[3] == 3);
  // VL2VL: kept from a host and toward one, one VL less from a switch to a switch.
  const int to_switch = ts.switches[0].route(ts.hosts[5].base_lid, 3).primary();
  BOOST_TEST(ts.switches[0].sl2vl.get(t.host_switch_port(0), to_switch, 3) == 3);
  const int in_from_0 = t.nodes[0].ports[to_switch].port, at = t.nodes[0].ports[to_switch].node;
  const int onward = ts.switches[at].route(ts.hosts[5].base_lid, 3).primary();
  BOOST_TEST(ts.switches[at].sl2vl.get(in_from_0, onward, 3) == 2);
  BOOST_TEST(ts.switches[5].sl2vl.get(1, t.host_switch_port(5), 1) == 1);
  // "+2" is two hops beyond the minimal path: the walk that detours wherever it may goes
  // sideways twice (VL 3 kept at the source's switch, then 2), then minimally on VLs 1 and 0.
  using W = std::vector<std::pair<int, int>>;
  const W d = walk(t, ts, 0, 5, true);
  BOOST_TEST(d.size() == 5u);
  BOOST_TEST(d.back().first == 5);
  std::vector<int> vls;
  for (auto [sw, v] : d) vls.push_back(v);
  BOOST_TEST((vls == std::vector<int>{3, 3, 2, 1, 0}));
  // k = 0 is the talk's plain Distance: minimal moves only, first VL = distance - 1.
  const TableSet d0 = route(t, "distance", 0);
  BOOST_TEST(d0.vls_used == 2);
  BOOST_TEST(d0.path(0, 5).sl == 1);
  BOOST_TEST(cands(t, d0, 0, 1, 5).size() == 2u);
  BOOST_TEST(walk(t, d0, 0, 5, true).size() == 3u);
}

// "+k" is k hops beyond a minimal path, for every pair: on 4x4x4 (diameter 3) the walk that
// goes sideways wherever it may takes exactly d + k switch-to-switch hops for k >= 2 (the
// source's switch may already detour) and ends at the destination, the minimal walk d hops.
BOOST_AUTO_TEST_CASE(distance_k_allows_k_extra_hops) {
  const Topology t = build_topology_spec("flatfly:4x4x4:hosts=1");
  const SwitchGraph g(t);
  const std::vector<uint16_t> dist = all_pairs_distances(g);
  for (int k : {2, 3, 4, 5}) {
    const TableSet ts = route(t, "distance", k);
    BOOST_TEST(ts.vls_used == 3 + k);
    int longest = 0;
    for (int h = 0; h < t.num_hosts; ++h)
      for (int j = 0; j < t.num_hosts; ++j) {
        const int d = dist[static_cast<size_t>(t.host_switch(h)) * g.n + t.host_switch(j)];
        if (d == 0) continue;
        const auto detour = walk(t, ts, h, j, true), minimal = walk(t, ts, h, j);
        BOOST_TEST_CONTEXT("k " << k << ", host " << h << " -> " << j) {
          BOOST_TEST(static_cast<int>(detour.size()) == d + k + 1);
          BOOST_TEST(detour.back().first == t.host_switch(j));
          BOOST_TEST(static_cast<int>(minimal.size()) == d + 1);
          BOOST_TEST(detour.back().second == 0);
        }
        longest = std::max(longest, static_cast<int>(detour.size()) - 1);
      }
    BOOST_TEST(longest == 3 + k);
  }
}

// 4x4x4 flattened butterfly, Deflection+3 from switch 0 to (1,1,0) = 5 (distance 2): first VL
// 4; on VL 4 (3 after the hop) 2 minimal, 4 sideways and 3 deflecting neighbours (distance 3,
// the third dimension); on VL 3 (2 after) no deflection.
BOOST_AUTO_TEST_CASE(deflection_candidates_by_hand) {
  const Topology t = build_topology_spec("flatfly:4x4x4:hosts=1");
  const TableSet ts = route(t, "deflection", 3);
  BOOST_TEST(ts.vls_used == 6);
  BOOST_TEST(ts.path(0, 5).sl == 4);
  const auto c4 = cands(t, ts, 0, 4, 5);
  BOOST_TEST((next_of(c4, 0) == std::set<int>{1, 4}));
  BOOST_TEST((next_of(c4, 1) == std::set<int>{2, 3, 8, 12}));
  BOOST_TEST((next_of(c4, 2) == std::set<int>{16, 32, 48}));
  BOOST_TEST(next_of(cands(t, ts, 0, 3, 5), 2).empty());
  BOOST_TEST(next_of(cands(t, ts, 0, 3, 5), 1).size() == 4u);
}

// ADOR family on 4x4x4 (n = 3: 2 VLs per dimension, 6), from switch 0. To (1,1,1) = 21 (3
// coordinates differ = n) the HCA sends on VL 0 (VL 2n = 6 is beyond the budget; no packet with
// 3 coordinates left carries VL 0 otherwise); ador corrects the highest dimension first:
// minimal 16, the detours 32, 48. On VL 5 = 2d - 1 (just detoured in this dimension) minimal
// only; VL 3 < 2d - 1 is never reached. To (1,1,0) = 5 (2 differ) the HCA sends on VL 4:
// ador takes dimension 1 (4; 8, 12); mixed-ador's order for coordinate sum 2 is (2,0,1),
// dimension 2 agrees, so dimension 0 (1; 2, 3); twisted-ador at switch 0 (sum 2 + 1 shared
// coordinate) starts at dimension 0, at switch 1 (sum 2 + 2 shared) at dimension 1.
BOOST_AUTO_TEST_CASE(ador_family_candidates_by_hand) {
  const Topology t = build_topology_spec("flatfly:4x4x4:hosts=1");
  const TableSet ador = route(t, "ador"), mixed = route(t, "mixed-ador"), twisted = route(t, "twisted-ador");
  BOOST_TEST(ador.vls_used == 6);
  BOOST_TEST(ador.path(0, 21).sl == 0);
  BOOST_TEST(ador.path(0, 5).sl == 4);
  const auto a0 = cands(t, ador, 0, 0, 21);
  BOOST_TEST((next_of(a0, 0) == std::set<int>{16}));
  BOOST_TEST((next_of(a0, 1) == std::set<int>{32, 48}));
  BOOST_TEST((next_of(cands(t, ador, 0, 5, 21), 0) == std::set<int>{16}));
  BOOST_TEST((next_of(cands(t, ador, 0, 5, 21), 1).empty()));
  BOOST_TEST(cands(t, ador, 0, 3, 21).empty());
  BOOST_TEST((next_of(cands(t, ador, 0, 4, 5), 0) == std::set<int>{4}));
  BOOST_TEST((next_of(cands(t, ador, 0, 4, 5), 1) == std::set<int>{8, 12}));
  BOOST_TEST((next_of(cands(t, mixed, 0, 4, 5), 0) == std::set<int>{1}));
  BOOST_TEST((next_of(cands(t, mixed, 0, 4, 5), 1) == std::set<int>{2, 3}));
  BOOST_TEST((next_of(cands(t, twisted, 0, 4, 5), 0) == std::set<int>{1}));
  BOOST_TEST((next_of(cands(t, twisted, 1, 3, 5), 0) == std::set<int>{5}));
}

// The order is picked per destination host (routing/ador.cpp, the talk's "based on
// destination, encoded in SL"): on 4x4x4 with 4 hosts per switch, the hosts of switch (1,1,0)
// = 5 (coordinate sum 2) are in classes 0..3: mixed-ador's order (2 + class) mod 4 gives
// (2,0,1) for the first host, so dimension 0 first (switch 1), and (2,1,0) for the second,
// dimension 1 (switch 4). Each host of a switch is one class: two of them share no list at
// other switches, and the path records carry the same first VL (it counts coordinates only).
BOOST_AUTO_TEST_CASE(ador_orders_per_destination_host) {
  const Topology t = build_topology_spec("flatfly:4x4x4:hosts=4");
  const TableSet mixed = route(t, "mixed-ador"), ador = route(t, "ador");
  auto first_hop = [&](const TableSet& ts, int g) {
    const auto& e = ts.switches[0].route(ts.hosts[g].base_lid, Vl{4});
    return t.nodes[0].ports[e.primary()].node;
  };
  const int h5 = 4 * 5;  // the first host of switch 5
  BOOST_TEST(t.host_switch(h5) == 5);
  BOOST_TEST(first_hop(mixed, h5) == 1);
  BOOST_TEST(first_hop(mixed, h5 + 1) == 4);
  // ador: one order for every host.
  for (int i = 0; i < 4; ++i) BOOST_TEST(first_hop(ador, h5 + i) == 4);
  for (int i = 0; i < 4; ++i) BOOST_TEST(mixed.path(0, h5 + i).sl == 4);
  BOOST_TEST(check_tables(t, mixed).ok());
}

// One detour per dimension: the walk that takes a detour wherever one is offered goes 0 ->
// (0,0,2) 32 -> (0,0,1) 16 -> (0,2,1) 24 -> (0,1,1) 20 -> (2,1,1) 22 -> 21, 2n = 6 hops on VLs
// 5, 4, 3, 2, 1, 0 (HCA VL 0 read as 6); the minimal walk enters each dimension on the next odd
// VL below: 5, 3, 1. The same on a 2-D one (flatfly-512 of the study, complement 0 -> 63):
// 4 hops on VLs 3 .. 0, where one VL short (the former count-down from min(2d, V - 1)) allowed
// one detour only.
BOOST_AUTO_TEST_CASE(ador_takes_one_detour_per_dimension) {
  using W = std::vector<std::pair<int, int>>;
  const Topology t = build_topology_spec("flatfly:4x4x4:hosts=1");
  for (const char* algo : {"ador", "mixed-ador", "twisted-ador", "twisted-mixed"}) {
    BOOST_TEST_CONTEXT(algo) {
      const TableSet ts = route(t, algo);
      const W d = walk(t, ts, 0, 21, true), m = walk(t, ts, 0, 21);
      BOOST_TEST(d.size() == 7u);  // 6 switch hops
      BOOST_TEST(m.size() == 4u);
      for (size_t i = 1; i < d.size(); ++i) BOOST_TEST(d[i].second == static_cast<int>(6 - i));
      BOOST_TEST((std::vector<int>{m[1].second, m[2].second, m[3].second} == std::vector<int>{5, 3, 1}));
    }
  }
  BOOST_TEST(
      (walk(t, route(t, "ador"), 0, 21, true) == W{{0, 0}, {32, 5}, {16, 4}, {24, 3}, {20, 2}, {22, 1}, {21, 0}}));
  const Topology ff = build_topology_spec("flatfly:8x8:hosts=8");
  const W c = walk(ff, route(ff, "ador"), 0, 511, true);
  BOOST_TEST(c.size() == 5u);
  BOOST_TEST(c.back().first == 63);
  BOOST_TEST(c.back().second == 0);
}

// The dimension orders on 4 dimensions (4x4x4x4, one host per switch), read off the minimal
// walks of the pairs whose every coordinate differs (bit complement's pairs), dimensions
// 1-based as the talk writes them, S = the destination's coordinate sum: ador always 4321;
// mixed-ador the talk's 1234, 2413, 3142, 4321 by S mod 4; twisted-ador the rotation of 1234
// starting at dimension S mod 4 + 1 (it turns by one at every corrected coordinate, so a
// packet with all four left goes round the dimensions once); twisted-mixed, picking mixed
// order (S + corrected coordinates) mod 4 at every switch, takes the same rotations on these
// pairs (1234 on order 0, then order 1 = 2413 from dimension 2, ...) and differs from both
// only on pairs that share a coordinate.
BOOST_AUTO_TEST_CASE(ador_orders_on_four_dimensions) {
  const Topology t = build_topology_spec("flatfly:4x4x4x4:hosts=1");
  auto order = [&](const TableSet& ts, int h, int g) {
    const auto w = walk(t, ts, h, g);
    std::string o;
    for (size_t i = 1; i < w.size(); ++i)
      for (int d = 0; d < 4; ++d)
        if (t.nodes[w[i].first].coord[d] != t.nodes[w[i - 1].first].coord[d]) o += static_cast<char>('1' + d);
    return o;
  };
  const std::vector<std::string> mixed_orders{"1234", "2413", "3142", "4321"}, turns{"1234", "2341", "3412", "4123"};
  std::map<std::string, TableSet> ts;
  for (const char* algo : {"ador", "mixed-ador", "twisted-ador", "twisted-mixed"}) ts[algo] = route(t, algo);
  std::map<std::string, std::set<std::string>> seen;
  int full = 0, twisted_mixed_own = 0;
  for (int h = 0; h < t.num_switches; ++h)
    for (int g = 0; g < t.num_switches; ++g) {
      int differ = 0, sum = 0;
      for (int d = 0; d < 4; ++d) {
        differ += t.nodes[h].coord[d] != t.nodes[g].coord[d];
        sum += t.nodes[g].coord[d];
      }
      std::map<std::string, std::string> o;
      for (auto& [algo, tables] : ts) seen[algo].insert(o[algo] = order(tables, h, g));
      if (differ < 4) {
        twisted_mixed_own += o["twisted-mixed"] != o["twisted-ador"] && o["twisted-mixed"] != o["mixed-ador"];
        continue;
      }
      ++full;
      BOOST_TEST_CONTEXT(h << " -> " << g) {
        BOOST_TEST(o["ador"] == "4321");
        BOOST_TEST(o["mixed-ador"] == mixed_orders[sum % 4]);
        BOOST_TEST(o["twisted-ador"] == turns[sum % 4]);
        BOOST_TEST(o["twisted-mixed"] == turns[sum % 4]);
      }
    }
  BOOST_TEST(full == 256 * 81);
  BOOST_TEST(twisted_mixed_own > 0);  // a combination of its own elsewhere
  BOOST_TEST(seen["mixed-ador"].count("2413") == 1u);
  BOOST_TEST(seen["mixed-ador"].count("3142") == 1u);
}

// Dragonfly a=4, h=2, 9 groups (one cable per pair of groups), switch = 4 g + s. Static from
// G0S1 to G2S0 = 8: the cable between groups 0 and 2 is G0S0's, so G0S1 -> G0S0 -> G2S0 on
// VLs 0, 0, then 1 after the global hop. GSID: G0S1 leaves by its own global cable picked by
// the destination switch (8 mod 2 = 0: its first, to group 3, arriving at G3S0 = 12), then
// minimally: G3S1 = 13 owns the cable to group 2 (landing on G2S1 = 9), last a local hop to 8.
BOOST_AUTO_TEST_CASE(static_and_gsid_walks_by_hand) {
  const Topology t = build_topology_spec("dragonfly:a=4,h=2,p=1");
  const TableSet st = route(t, "static"), gs = route(t, "gsid");
  BOOST_TEST(st.vls_used == 2);
  BOOST_TEST(gs.vls_used == 3);
  using W = std::vector<std::pair<int, int>>;
  BOOST_TEST((walk(t, st, 1, 8) == W{{1, 0}, {0, 0}, {8, 1}}));
  BOOST_TEST((walk(t, gs, 1, 8) == W{{1, 0}, {12, 1}, {13, 1}, {9, 2}, {8, 2}}));
  // Within the group: the direct local hop for both.
  BOOST_TEST((walk(t, gs, 1, 3) == W{{1, 0}, {3, 0}}));
}

// GSID's modulus on a dragonfly short of groups: a=4, h=2, 8 groups (9 would give every switch
// its 2 cables), so each group's G?S3 has one global cable (G0S3 = 3: port 4 to G7S0 = 28).
// The cables, from `ibsc route --dot`: G0S0 = 0 to G2S0 = 8 (port 5); G7S1 = 29 to G2S3 = 11.
// To G2S1 = 9: by its own count (9 mod 1 = 0) switch 3 takes its one cable to group 7, then
// minimally 28 -> 29 -> 11 -> 9; by h (9 mod 2 = 1, a cable it lacks) the static way: a local
// hop to 0, on VL 1 so that switch 0 routes it minimally, 0's cable to 8, a local hop to 9.
// To G2S0 = 8 (8 mod 2 = 0) both take the one cable. On the full dragonfly (9 groups) the two
// moduli give the same tables.
BOOST_AUTO_TEST_CASE(gsid_modulus_on_a_dragonfly_short_of_groups) {
  const Topology t = build_topology_spec("dragonfly:a=4,h=2,p=1,g=8");
  const TableSet own = route(t, "gsid"), by_h = route(t, "gsid", 0, GsidModulus::H);
  using W = std::vector<std::pair<int, int>>;
  BOOST_TEST((walk(t, own, 3, 9) == W{{3, 0}, {28, 1}, {29, 1}, {11, 2}, {9, 2}}));
  BOOST_TEST((walk(t, by_h, 3, 9) == W{{3, 0}, {0, 1}, {8, 2}, {9, 2}}));
  BOOST_TEST((walk(t, own, 3, 8) == W{{3, 0}, {28, 1}, {29, 1}, {11, 2}, {8, 2}}));
  BOOST_TEST((walk(t, by_h, 3, 8) == walk(t, own, 3, 8)));
  // Within the group, the direct hop (on VL 1 with h: a host's packet leaving by a local hop).
  BOOST_TEST((walk(t, own, 3, 1) == W{{3, 0}, {1, 0}}));
  BOOST_TEST((walk(t, by_h, 3, 1) == W{{3, 0}, {1, 1}}));
  BOOST_TEST(by_h.vls_used == 3);
  for (const TableSet* ts : {&own, &by_h}) {
    const CheckReport r = check_tables(t, *ts);
    BOOST_TEST(r.ok(), r.text());
    BOOST_TEST(r.routed_pairs == r.pairs);
  }

  const Topology full = build_topology_spec("dragonfly:a=4,h=2,p=1");
  const TableSet f_own = route(full, "gsid"), f_h = route(full, "gsid", 0, GsidModulus::H);
  for (int h = 0; h < full.num_hosts; ++h)
    for (int g = 0; g < full.num_hosts; ++g)
      if (full.host_switch(h) / 4 != full.host_switch(g) / 4)  // within a group, h's VL differs
        BOOST_TEST((walk(full, f_own, h, g) == walk(full, f_h, h, g)), h << " -> " << g);
}

// Every routing on a small instance: all pairs routed, walks end, within budget, acyclic.
BOOST_AUTO_TEST_CASE(all_pairs_routed_and_deadlock_free) {
  struct Case {
    const char* spec;
    const char* algo;
    int k;
  };
  for (const Case& c :
       {Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "distance", 0},
        Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "distance", 1},
        Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "distance", 4},
        Case{"flatfly:3x3x3x3:hosts=1", "distance", 4},  // the talk's +4 on 4 dimensions: 8 VLs
        Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "deflection", 4},
        Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "ador", 1},
        Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "mixed-ador", 1},
        Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "twisted-ador", 1},
        Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "twisted-mixed", 1}, Case{"dragonfly:a=4,h=2,p=2", "static", 1},
        Case{"dragonfly:a=4,h=2,p=2", "gsid", 1}, Case{"dragonfly:a=4,h=2,p=2", "distance", 2},
        Case{"dragonfly:a=4,h=2,p=2", "deflection", 3}, Case{"product:slimfly:q=5*flatfly:3:hosts=1", "distance", 2},
        Case{"torus:4x4:hosts=1", "deflection", 3}}) {
    BOOST_TEST_CONTEXT(c.spec << " " << c.algo << " k=" << c.k) {
      const Topology t = build_topology_spec(c.spec);
      const TableSet ts = route(t, c.algo, c.k);
      const CheckReport r = check_tables(t, ts);
      BOOST_TEST(r.ok(), r.text());
      BOOST_TEST(r.routed_pairs == r.pairs);
      BOOST_TEST(r.vls_used <= ts.vls_used);
    }
  }
}

// Wrong variants fail the check: VL2VL tables that keep the VL (no countdown) let sideways
// moves go round for ever (walks loop, dependencies close a cycle); mixed-ador whose second hop
// in a dimension stays on the VL of the detour closes cycles within a dimension's full graph
// (a -> b -> c, b -> c -> a, c -> a -> b on one VL): the two hops in a dimension need two VLs;
// gsid with every hop on VL 0 and the minimal tables closes local-global-local dependency
// cycles between groups.
BOOST_AUTO_TEST_CASE(wrong_variants_fail_the_check) {
  const Topology ff = build_topology_spec("flatfly:4x4:hosts=1");
  for (const char* algo : {"distance", "ador"}) {
    BOOST_TEST_CONTEXT(algo) {
      TableSet ts = route(ff, algo, 2);
      for (size_t s = 0; s < ts.switches.size(); ++s)
        for (int i = 0; i <= ff.nodes[s].num_ports; ++i)
          for (int o = 1; o <= ff.nodes[s].num_ports; ++o)
            for (int v = 0; v < ts.vls_used; ++v) ts.switches[s].sl2vl.set(i, o, v, static_cast<Vl>(v));
      const CheckReport r = check_tables(ff, ts);
      BOOST_TEST(!r.ok());
      BOOST_TEST(!r.deadlock_free);
    }
  }
  {
    TableSet ts = route(ff, "mixed-ador");
    BOOST_TEST(check_tables(ff, ts).ok());
    auto dim = [&](size_t s, int p) {  // the dimension of a switch port's cable, -1 for a host
      const int x = ff.nodes[s].ports[p].node;
      if (p == 0 || x < 0 || x >= ff.num_switches) return -1;
      return ff.nodes[x].coord[0] != ff.nodes[s].coord[0] ? 0 : 1;
    };
    for (size_t s = 0; s < ts.switches.size(); ++s)
      for (int i = 1; i <= ff.nodes[s].num_ports; ++i)
        for (int o = 1; o <= ff.nodes[s].num_ports; ++o)
          if (dim(s, i) >= 0 && dim(s, i) == dim(s, o))
            for (int v = 0; v < ts.vls_used; ++v) ts.switches[s].sl2vl.set(i, o, v, static_cast<Vl>(v));
    const CheckReport r = check_tables(ff, ts);
    BOOST_TEST(r.connected);
    BOOST_TEST(!r.deadlock_free);
  }
  const Topology df = build_topology_spec("dragonfly:a=4,h=2,p=1");
  TableSet ts = route(df, "gsid");
  BOOST_TEST(check_tables(df, ts).ok());
  for (size_t s = 0; s < ts.switches.size(); ++s) {
    SwitchTables& st = ts.switches[s];
    st.expand_per_vl();
    for (Lft& l : st.lft_per_input_vl) l = st.lft_per_input_vl[1];  // minimal everywhere
    for (int i = 0; i <= df.nodes[s].num_ports; ++i)
      for (int o = 1; o <= df.nodes[s].num_ports; ++o) st.sl2vl.set(i, o, 0, 0);
  }
  const CheckReport r = check_tables(df, ts);
  BOOST_TEST(r.connected);
  BOOST_TEST(!r.deadlock_free);
}

// The VL budget: diameter + k VLs within routing.vls, else the talk's 8; refused by name.
BOOST_AUTO_TEST_CASE(vl_budget_is_diameter_plus_k) {
  const Topology t = build_topology_spec("flatfly:4x4x4:hosts=1");  // diameter 3
  BOOST_TEST(route(t, "distance", 5).vls_used == 8);
  BOOST_TEST(testing::error_of([&] { route(t, "distance", 6); }) ==
             "distance needs 9 VLs (diameter 3 + k 6); the budget is 8 (seeds/001's 8; routing.vls / --vls raises it "
             "up to 15)");
  RoutingOptions o;
  o.algorithm = Algorithm::Deflection;
  o.k = 6;
  o.vls = 9;
  BOOST_TEST(compute_routing(t, o).vls_used == 9);
  o.k = -1;
  BOOST_TEST(testing::error_of([&] { compute_routing(t, o); }) == "deflection: k must be >= 0 (0: minimal moves only)");
  BOOST_TEST(testing::error_of([&] { route(build_topology_spec("torus:4x4:hosts=1"), "ador"); }) ==
             "ador needs a flattened butterfly or a hypercube (topology is 'torus')");
  BOOST_TEST(testing::error_of([&] { route(build_topology_spec("hypercube:5:hosts=1"), "ador"); }) ==
             "ador needs 10 VLs (2 per dimension, 5 dimensions); the budget is 8 (seeds/001's 8; routing.vls / --vls "
             "raises it up to 15)");
  BOOST_TEST(testing::error_of([&] { route(t, "gsid"); }) == "gsid needs a dragonfly (topology is 'flatfly')");
}

// An OpenSM LFT dump holds one LFT per switch: tables with per-VL copies are not exported.
BOOST_AUTO_TEST_CASE(export_of_per_vl_lfts_is_refused) {
  const Topology t = build_topology_spec("dragonfly:a=4,h=2,p=1");
  const TableSet ts = route(t, "gsid");
  BOOST_TEST(testing::error_of([&] { export_tables(t, ts, "seeds001_export"); }) ==
             "routing 'gsid' programs one LFT per input VL, which an OpenSM LFT dump cannot hold: not exported");
}
