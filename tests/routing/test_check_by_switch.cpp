// The deadlock check's walks per destination switch (routing/destination_groups.h, checks.cpp)
// against the walk of every DLID in full (CheckLimits::walk_by_destination_switch = false):
// on small instances of every adaptive routing, and on wrong variants that must fail (a cycle
// from VL2VL tables without a countdown, gsid on one VL, a host whose last hop leaves its
// switch again), both give the same report: counts, VLs, longest walk, the dependency graph's
// size, the same cycle and the same problems. The groups are what the premise says: a host
// whose entry differs at another switch walks alone.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "routing/checks.h"
#include "routing/destination_groups.h"
#include "routing/routing.h"
#include "routing/topo_spec.h"
#include "tests/support/route_with.h"
#include "tests/support/same_check_report.h"

using namespace ibsc;
using namespace ibsc::routing;

namespace {

// Both walks; the report by destination switch must equal the per-DLID one.
CheckReport same_both_ways(const Topology& t, const TableSet& ts) {
  CheckLimits per_dlid;
  per_dlid.walk_by_destination_switch = false;
  const CheckReport a = check_tables(t, ts), b = check_tables(t, ts, per_dlid);
  testing::expect_same_report(a, b);
  return a;
}

// Hosts walked from their switch only (in a group, not its first).
int grouped(const Topology& t, const TableSet& ts) {
  const std::vector<int> g = destination_groups(t, ts);
  int n = 0;
  for (size_t q = 0; q < g.size(); ++q) n += g[q] != static_cast<int>(q);
  return n;
}

}  // namespace

BOOST_AUTO_TEST_CASE(adaptive_routings_same_report) {
  struct Case {
    const char* spec;
    const char* algo;
    int k;
  };
  for (const Case& c :
       {Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "distance", 1},
        Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "distance", 4},
        Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "deflection", 3},
        Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "ador", 1},
        Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "twisted-mixed", 1}, Case{"dragonfly:a=4,h=2,p=2", "gsid", 1},
        Case{"dragonfly:a=4,h=2,p=2", "static", 1}, Case{"torus:4x4:hosts=2", "deflection", 3}}) {
    BOOST_TEST_CONTEXT(c.spec << " " << c.algo << " k=" << c.k) {
      const Topology t = build_topology_spec(c.spec);
      const TableSet ts = testing::route_with(t, c.algo, c.k);
      // Two hosts per switch: every second host is walked from its switch only, but where
      // the two take different dimension orders (twisted-mixed picks one per destination host)
      // and so have lists of their own at other switches.
      const bool order_per_host = std::string(c.algo) == "twisted-mixed";
      BOOST_TEST(grouped(t, ts) == (order_per_host ? 0 : t.num_hosts / 2));
      const CheckReport r = same_both_ways(t, ts);
      BOOST_TEST(r.ok(), r.text());
    }
  }
}

// VL2VL tables that keep the VL: sideways moves go round, walks loop and close a cycle.
BOOST_AUTO_TEST_CASE(no_countdown_same_cycle) {
  const Topology t = build_topology_spec("flatfly:4x4:hosts=2");
  TableSet ts = testing::route_with(t, "distance", 2);
  for (size_t s = 0; s < ts.switches.size(); ++s)
    for (int i = 0; i <= t.nodes[s].num_ports; ++i)
      for (int o = 1; o <= t.nodes[s].num_ports; ++o)
        for (int v = 0; v < ts.vls_used; ++v) ts.switches[s].sl2vl.set(i, o, v, static_cast<Vl>(v));
  const CheckReport r = same_both_ways(t, ts);
  BOOST_TEST(!r.deadlock_free);
  BOOST_TEST(!r.cycle.empty());
}

// gsid with every hop on VL 0 and the minimal tables: local-global-local cycles between groups.
BOOST_AUTO_TEST_CASE(gsid_on_one_vl_same_cycle) {
  const Topology df = build_topology_spec("dragonfly:a=4,h=2,p=2");
  TableSet ts = testing::route_with(df, "gsid", 1);
  for (size_t s = 0; s < ts.switches.size(); ++s) {
    SwitchTables& st = ts.switches[s];
    st.expand_per_vl();
    for (Lft& l : st.lft_per_input_vl) l = st.lft_per_input_vl[1];
    for (int i = 0; i <= df.nodes[s].num_ports; ++i)
      for (int o = 1; o <= df.nodes[s].num_ports; ++o) st.sl2vl.set(i, o, 0, 0);
  }
  BOOST_TEST(grouped(df, ts) == df.num_hosts / 2);
  const CheckReport r = same_both_ways(df, ts);
  BOOST_TEST(r.connected);
  BOOST_TEST(!r.deadlock_free);
}

// The second host of switch 5 gets, at its own switch, a last hop back into the fabric on
// every VL: its walks fail. It stays in the group (other switches route it as its neighbour),
// so the check walks it from its switch, finds outcomes unlike the first host's, and walks it
// pair by pair: same problems, same counts as the per-DLID walk.
BOOST_AUTO_TEST_CASE(wrong_last_hop_same_problems) {
  const Topology t = build_topology_spec("flatfly:4x4:hosts=2");
  TableSet ts = testing::route_with(t, "distance", 1);
  int q = -1;
  for (int h = 0; h < t.num_hosts && q < 0; ++h)
    if (t.host_switch(h) == 5 && h > 0 && t.host_switch(h - 1) == 5) q = h;
  BOOST_REQUIRE(q > 0);
  int back = -1;  // a port of switch 5 towards another switch
  for (int p = 1; p <= t.nodes[5].num_ports && back < 0; ++p)
    if (t.nodes[5].ports[p].node >= 0 && t.nodes[5].ports[p].node < t.num_switches) back = p;
  SwitchTables& st = ts.switches[5];
  st.expand_per_vl();
  for (Lft& l : st.lft_per_input_vl) l.set(ts.hosts[q].base_lid, static_cast<PortNum>(back));
  std::vector<int> g = destination_groups(t, ts);
  BOOST_TEST(g[q] == q - 1);
  const CheckReport r = same_both_ways(t, ts);
  // Each source's pair toward q fails: back out on VL v - 1, a switch one hop from home has no
  // entry on that VL at k = 1 (or the walk comes back), never the host.
  BOOST_TEST(r.unrouted_pairs + r.looping_pairs == t.num_hosts - 1);
  BOOST_TEST(!r.connected);
}

// A host whose entry differs at another switch (one VL) is walked in full, alone.
BOOST_AUTO_TEST_CASE(entry_differing_elsewhere_leaves_the_group) {
  const Topology t = build_topology_spec("flatfly:4x4:hosts=2");
  TableSet ts = testing::route_with(t, "distance", 2);
  const int q = 1;  // the second host of switch 0
  BOOST_TEST(destination_groups(t, ts)[q] == 0);
  SwitchTables& st = ts.switches[7];
  st.expand_per_vl();
  const LftEntry e = st.lft_per_input_vl[2][ts.hosts[q].base_lid];
  std::vector<PortCandidate> fewer(e.candidates.begin(), e.candidates.end());
  BOOST_REQUIRE(fewer.size() > 1);
  fewer.pop_back();
  st.lft_per_input_vl[2].set(ts.hosts[q].base_lid, fewer);
  BOOST_TEST(destination_groups(t, ts)[q] == q);
  same_both_ways(t, ts);
}
