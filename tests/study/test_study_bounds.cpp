// Studies: channel-load bounds, hand-computed for tori and hypercubes; fair shares; the bound
// minimal routing cannot avoid.
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <fstream>
#include <iterator>

#include "routing/generators.h"
#include "routing/graph.h"
#include "routing/routing.h"
#include "routing/topo_spec.h"
#include "studies/study.h"
#include "studies/study_report.h"
#include "tb/scenario/scenario.h"
#include "tb/scenario/scenario_yaml.h"
#include "tb/stats/channel_load.h"
#include "tb/stats/fair_share.h"
#include "tb/stats/minimal_bound.h"
#include "tb/traffic/traffic_driver.h"
#include "tests/study/routed_torus.h"
#include "tests/support/error_of.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using ibsc::testing::Routed;

BOOST_AUTO_TEST_CASE(uniform_bound_is_the_bisection_bound) {
  // 4x4 torus, 4 hosts per switch: from one switch the 16 switches lie at distances summing to
  // 32, so a host's mean distance to the 63 others is 4 * 32 / 63 hops; 64 channels at
  // 0.25 B/ns carry 64 hosts at r: r = 0.25 * 64 / (64 * 128 / 63); per switch 4r = 0.4921875.
  Routed r({4, 4}, "ecube");
  tb::ChannelLoadBound b = r.bound("uniform");
  BOOST_TEST(b.topology == 0.4921875, boost::test_tools::tolerance(1e-12));
  // e-cube on 4x4 loads every channel equally (crossing path 8, deviation 0): the same bound.
  BOOST_TEST(b.routed == b.topology, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(b.paths == 64 * 63);
  BOOST_TEST(b.non_minimal_paths == 0);
  // 8x8: ring distances sum to 16, a switch's to 2 * 8 * 16 = 256; 4 * 256 / 255 hops per host.
  Routed r8({8, 8}, "ecube");
  BOOST_TEST(r8.bound("uniform").topology == 0.25 * 255 / 1024 * 4, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(routed_bound_below_topology_bound_and_detours_counted) {
  Routed ud({8, 8}, "updown-dfs");
  tb::ChannelLoadBound b = ud.bound("uniform");
  BOOST_TEST(b.routed < b.topology);
  BOOST_TEST(b.non_minimal_paths > 0);  // up*/down* cannot route 8x8 minimally (seeds/000 Table 2)
  BOOST_TEST(b.busiest.find("port") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(permutation_bound) {
  // Bit-reversal on 64 hosts: 8 fixed points send nothing; the rest cross the network once.
  Routed r({4, 4}, "ecube");
  tb::ChannelLoadBound b = r.bound("bit-reversal");
  BOOST_TEST(b.paths == 56);
  BOOST_TEST(b.non_minimal_paths == 0);
  BOOST_TEST(b.routed <= b.topology + 1e-12);
  // No routing can give more than every sender at link rate.
  BOOST_TEST(b.topology <= 56 * 0.25 / 16 + 1e-12);
}

namespace {
tb::ChannelLoadBound pattern_bound(const routing::Topology& t, const routing::TableSet& ts, const std::string& p) {
  tb::TrafficConfig tc;
  tc.pattern = enum_value<tb::TrafficPattern>(p);
  return tb::channel_load_bound(t, ts, tc, 0.25);
}
routing::TableSet route(const routing::Topology& t, const std::string& algorithm) {
  routing::RoutingOptions ro;
  ro.algorithm = enum_value<routing::Algorithm>(algorithm);
  return routing::compute_routing(t, ro);
}
}  // namespace

// Mixed DOR's order per destination host (routing/mixed_dor.cpp). Bit complement on a 6-D
// hypercube with 2 cables per dimension and 8 hosts per switch: under DOR every stage moves a
// permutation of the switches, 8 host rates per (switch, dimension) on 2 cables, bound 1/4.
// With the order per destination host each order carries 2 of a switch's 8 hosts, again a
// permutation per order and stage: at most 4 x 2 rates per (switch, dimension), 1/4 too. With
// one order per destination switch (all 8 hosts alike) up to four source switches' 8 meet.
BOOST_AUTO_TEST_CASE(mixed_dor_orders_per_host_keep_the_complement_bound) {
  const routing::Topology cube = routing::build_topology_spec("hypercube:6:widths=2:hosts=8");
  for (const char* algo : {"dor", "mixed-dor"}) BOOST_TEST_CONTEXT(algo) {
      const tb::ChannelLoadBound b = pattern_bound(cube, route(cube, algo), "bit-complement");
      BOOST_TEST(tb::bound_fraction(b) == 0.25, boost::test_tools::tolerance(1e-12));
    }
}

BOOST_AUTO_TEST_CASE(fair_share_ceilings_by_hand) {
  // Two switches on one cable, 4 hosts each, uniform: each host sends 1/7 of its rate to each
  // of 7 others, 4 of them across the cable. Each direction of the cable carries 16 pairs.
  const routing::Topology two = routing::make_hypercube(1, 4);
  const routing::TableSet ts = route(two, "minhop");
  tb::TrafficConfig tc;
  const std::vector<tb::Demand> demand = tb::traffic_matrix(tc, two);
  const tb::FairShareCeiling c = tb::fair_share_ceiling(two, ts, demand, 0.25);
  // One queue per pair: the 16 crossing pairs of a direction share the cable, 1/16 of link rate
  // each; the 3 local pairs of a host reach their full 1/7. Per host 4/16 + 3/7 = 19/28 of link
  // rate, per switch 4 hosts at 0.25 B/ns.
  BOOST_TEST(c.per_pair == 4 * 19.0 / 28 * 0.25, boost::test_tools::tolerance(1e-12));
  // One stream per source: 4/7 of each host's rate crosses, 4 hosts fill the cable at 7/16 of
  // link rate each, local traffic held to the same stream: the routed bound itself.
  BOOST_TEST(c.per_source == 4 * 7.0 / 16 * 0.25, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(c.per_source == tb::channel_load_bound(two, ts, demand, 0.25).routed, boost::test_tools::tolerance(1e-12));
  // Any paths: max-min fair rates have their smallest at least the bound's common rate, so the
  // per-source ceiling never falls below the routed bound (up*/down* on a random network, whose
  // root channels are far busier than the rest, lets the other sources go faster).
  const routing::Topology irr = routing::make_irregular(16, 8, 4, 1, true);
  const routing::TableSet ud = route(irr, "updown-bfs");
  const std::vector<tb::Demand> u = tb::traffic_matrix(tc, irr);
  const tb::FairShareCeiling ci = tb::fair_share_ceiling(irr, ud, u, 0.25);
  const double bound = tb::channel_load_bound(irr, ud, u, 0.25).routed;
  BOOST_TEST(ci.per_source > bound * 1.01);
  BOOST_TEST(ci.per_pair > ci.per_source);
}

BOOST_AUTO_TEST_CASE(uniform_bound_without_a_matrix_equals_the_matrix_walk) {
  // The uniform walk per switch and path record row against one walk per host pair: same
  // channel sums, same bounds, same pair counts (e-cube with dateline SLs; Mixed DOR with 4 SLs).
  const Routed torus({4, 4}, "ecube");
  const routing::Topology cube = routing::make_hypercube(4, 3);
  const routing::TableSet mixed = route(cube, "mixed-dor");
  using Case = std::pair<const routing::Topology*, const routing::TableSet*>;
  for (auto [t, ts] : {Case{&torus.topo, &torus.tables}, Case{&cube, &mixed}}) {
    tb::TrafficConfig tc;
    const tb::ChannelLoadBound a = tb::channel_load_bound(*t, *ts, tb::traffic_matrix(tc, *t), 0.25);
    const tb::ChannelLoadBound b = pattern_bound(*t, *ts, "uniform");
    BOOST_TEST(a.max_channel_share == b.max_channel_share, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(a.routed == b.routed, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(a.topology == b.topology, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(a.paths == b.paths);
    BOOST_TEST(a.non_minimal_paths == b.non_minimal_paths);
  }
}

BOOST_AUTO_TEST_CASE(hypercube_dor_bounds_by_hand) {
  // 5-cube, 2 hosts per switch (host = 2 x switch + local), DOR.
  const routing::Topology cube = routing::make_hypercube(5, 2);
  const routing::TableSet dor = route(cube, "dor");
  // Bit complement: both hosts of switch s go to switch ~s, crossing every dimension; DOR's
  // path from s is in dimension i at s with bits 0..i-1 flipped, one source switch per channel,
  // so the busiest channel carries 2 host rates: 50% of injection bandwidth.
  const tb::ChannelLoadBound c = pattern_bound(cube, dor, "bit-complement");
  BOOST_TEST(c.max_channel_share == 2.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(tb::bound_fraction(c) == 0.5, boost::test_tools::tolerance(1e-12));
  // Uniform: 32 of a host's 63 destinations differ in a given switch bit, so dimension i carries
  // 64 x 32/63 host rates over its 32 channels, 64/63 each (e-cube balances them): 63/64.
  const tb::ChannelLoadBound u = pattern_bound(cube, dor, "uniform");
  BOOST_TEST(u.max_channel_share == 64.0 / 63, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(tb::bound_fraction(u) == 63.0 / 64, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(u.paths == 64 * 63);
}

BOOST_AUTO_TEST_CASE(hotspot_bound_is_the_hot_host_link) {
  // One hot-spot, host 3 of 64, half the traffic: each of the 63 others sends it 0.5 + 0.5/63 of
  // its rate, and host 3's own hot draws fall back to uniform, so its link takes 62 x 0.5 + 1 = 32
  // host rates. At the offered mix it is the busiest channel: 32 r <= 0.25 B/ns, i.e. 64 r / 16
  // switches = 0.03125 B/ns/switch whatever the routing (the routed bound). The topology bound
  // does not hold the mix (a saturated source may deliver other packets while hot ones wait),
  // so it stays above.
  Routed r({4, 4}, "ecube");
  tb::TrafficConfig hot;
  hot.pattern = tb::TrafficPattern::Hotspot;
  hot.hotspot_hosts = {3};
  hot.hotspot_fraction = 0.5;
  const auto m = tb::traffic_matrix(hot, r.topo);
  std::vector<double> out(64, 0.0), in(64, 0.0);
  for (const auto& d : m) {
    out[d.src] += d.share;
    in[d.dst] += d.share;
  }
  for (double o : out) BOOST_TEST(o == 1.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(in[3] == 32.0, boost::test_tools::tolerance(1e-12));
  tb::ChannelLoadBound b = tb::channel_load_bound(r.topo, r.tables, m, 0.25);
  BOOST_TEST(b.routed == 0.03125, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(b.topology > b.routed);
}

// The bound any minimal routing obeys (tb/stats/minimal_bound.h), by hand on a 4x4 torus with 4
// hosts per switch: a switch and its neighbour are joined by one minimal path (one cable), so
// two hosts sending all their rate across it load it with 2 host rates: bound 1/2. A pair two
// hops apart has two minimal paths in a 4x4 torus (both ways round a ring, or either dimension
// first), so its rate is not tied to any cable and leaves the bound where it is; a pair on one
// switch needs no cable.
BOOST_AUTO_TEST_CASE(minimal_bound_counts_only_unavoidable_cables) {
  const routing::Topology t = routing::make_torus({4, 4}, 4, true, 8);
  const routing::SwitchGraph g(t);
  const int s = 0, next = g.channels[g.out[0][0]].to;
  const std::vector<int> d = routing::bfs_distances(g, s);
  int far = -1;
  for (int x = 0; x < g.n && far < 0; ++x)
    if (d[x] == 2) far = x;
  std::vector<int> on_s, on_next, on_far;
  for (int h = 0; h < t.num_hosts; ++h) {
    if (t.host_switch(h) == s) on_s.push_back(h);
    if (t.host_switch(h) == next) on_next.push_back(h);
    if (t.host_switch(h) == far) on_far.push_back(h);
  }
  BOOST_REQUIRE(on_s.size() == 4 && on_next.size() == 4 && far >= 0);
  std::vector<tb::Demand> demand{{on_s[0], on_next[0], 1.0}, {on_s[1], on_next[1], 1.0}};
  tb::MinimalBound b = tb::minimal_unavoidable_bound(t, demand);
  BOOST_TEST(b.busiest == 2.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(b.fraction == 0.5, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(b.where.find("(1 cable)") != std::string::npos);
  demand.push_back({on_s[2], on_far[0], 1.0});   // two minimal paths: no unavoidable cable
  demand.push_back({on_s[3], on_s[0], 1.0});     // same switch: none
  demand.push_back({on_next[2], on_s[2], 0.5});  // the other direction: its own cable
  b = tb::minimal_unavoidable_bound(t, demand);
  BOOST_TEST(b.fraction == 0.5, boost::test_tools::tolerance(1e-12));
  // Nothing unavoidable at all: the host links bound it (1).
  BOOST_TEST(tb::minimal_unavoidable_bound(t, {{on_s[2], on_far[0], 1.0}}).fraction == 1.0);
}
