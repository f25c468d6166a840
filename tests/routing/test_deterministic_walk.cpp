// The deadlock check's walk of deterministic tables by destination switch
// (routing/deterministic_walk.h) against the walk of every pair (walk_by_destination_switch =
// false): on deterministic routings of flattened butterflies, tori (dateline VLs), hypercubes,
// meshes and irregular fabrics it must be taken and give the same report (counts, SLs, VLs,
// longest walk, the dependency graph's size, its cycle where there is one). On tables that a
// group's premise no longer fits (a host whose records or entries elsewhere differ) it must
// still be taken, with that host walked alone; on broken tables (a missing entry, a loop, a
// wrong host, an uncabled port, a record for another host) it must give up, and the report,
// problems and their order included, is the pair walk's.
#include <boost/test/unit_test.hpp>

#include <string>

#include "routing/checks.h"
#include "routing/routing.h"
#include "routing/topo_spec.h"
#include "tests/support/route_with.h"
#include "tests/support/same_check_report.h"

using namespace ibsc;
using namespace ibsc::routing;

namespace {

// Both walks; the default report must equal the pair walk's. Returns the default one.
CheckReport same_both_ways(const Topology& t, const TableSet& ts) {
  CheckLimits per_pair;
  per_pair.walk_by_destination_switch = false;
  const CheckReport a = check_tables(t, ts), b = check_tables(t, ts, per_pair);
  BOOST_TEST(!b.walked_by_switch);
  BOOST_TEST(a.text() == b.text());
  testing::expect_same_report(a, b);
  BOOST_TEST(a.within_budget == b.within_budget);
  return a;
}

struct Case {
  const char* spec;
  const char* algo;
};

// A switch port toward another switch whose entry for `lid` leads straight to switch `d`,
// other than `not_port`; -1 if none.
int port_toward(const Topology& t, const TableSet& ts, int s, int d, Lid lid, int not_port) {
  for (int p = 1; p <= t.nodes[s].num_ports; ++p) {
    const int n = t.nodes[s].ports[p].node;
    if (p == not_port || n < 0 || n >= t.num_switches || n == d) continue;
    const PortNum o = ts.switches[n].lft[lid].primary();
    if (o != kNoPort && t.nodes[n].ports[o].node == d) return p;
  }
  return -1;
}

}  // namespace

BOOST_AUTO_TEST_CASE(deterministic_routings_same_report) {
  for (const Case& c :
       {Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "dor"}, Case{"flatfly:4x4:hosts=3", "mixed-dor"},
        Case{"torus:4x4:hosts=2", "ecube"}, Case{"torus:5x4:hosts=1", "ecube"}, Case{"torus:4x4x3:hosts=2", "ecube"},
        Case{"hypercube:4:widths=2:hosts=3", "dor"}, Case{"hypercube:4:widths=2:hosts=3", "mixed-dor"},
        Case{"mesh:4x4:hosts=2", "minhop"}, Case{"irregular:16:seed=3", "updown-bfs"},
        Case{"irregular:16:seed=3", "updown-dfs"}, Case{"slimfly:q=5:hosts=2", "minhop"}}) {
    BOOST_TEST_CONTEXT(c.spec << " " << c.algo) {
      const Topology t = build_topology_spec(c.spec);
      const TableSet ts = testing::route_with(t, c.algo);
      const CheckReport r = same_both_ways(t, ts);
      BOOST_TEST(r.walked_by_switch);
      BOOST_TEST(r.connected, r.text());
      BOOST_TEST(r.pairs == static_cast<long>(t.num_hosts) * (t.num_hosts - 1));
    }
  }
}

// Cyclic deterministic tables: a ring with one VL (DOR without its dateline) and minhop on
// an irregular fabric. The walks all end, so the walk by switch is taken; it must set the very
// dependencies the pair walk sets, or the cycle found would differ.
BOOST_AUTO_TEST_CASE(cycle_same_as_the_pair_walk) {
  for (const Case& c :
       {Case{"ring:8:hosts=2", "dor1vl"}, Case{"torus:4x4:hosts=2", "dor1vl"}, Case{"irregular:16:seed=3", "minhop"}}) {
    BOOST_TEST_CONTEXT(c.spec << " " << c.algo) {
      const Topology t = build_topology_spec(c.spec);
      const TableSet ts = testing::route_with(t, c.algo);
      const CheckReport r = same_both_ways(t, ts);
      BOOST_TEST(r.walked_by_switch);
      if (std::string(c.spec).rfind("ring", 0) == 0) {
        BOOST_TEST(!r.deadlock_free);
        BOOST_TEST(!r.cycle.empty());
      }
    }
  }
}

// Premises that no longer hold for one host, tables still sound: the host walks alone.
//  - one source's record toward q on another SL (its row is its own; SL 1 is more than DOR
//    declares, so the budget problem is named too);
//  - q routed at one switch through another neighbour of its switch (still two hops).
BOOST_AUTO_TEST_CASE(host_off_its_group_walks_alone) {
  const Topology t = build_topology_spec("flatfly:4x4:hosts=3");
  const int q = 4, h = t.num_hosts - 1;  // the second host of switch 1, a host far off
  BOOST_REQUIRE(t.host_switch(q) == t.host_switch(q - 1));
  {
    TableSet ts = testing::route_with(t, "dor");
    ts.hosts[h].paths.set(q, PathRecord{ts.hosts[q].base_lid, 1});
    const CheckReport r = same_both_ways(t, ts);
    BOOST_TEST(r.walked_by_switch);
    BOOST_TEST(r.sls_used == 2);
    BOOST_TEST(!r.within_budget);
  }
  {
    TableSet ts = testing::route_with(t, "dor");
    const int d = t.host_switch(q);
    const Lid lid = ts.hosts[q].base_lid;
    int s = -1, p = -1;  // a switch two hops from d with a second way there
    for (int x = 0; x < t.num_switches && p < 0; ++x) {
      const PortNum now = ts.switches[x].lft[lid].primary();
      if (x == d || t.nodes[x].ports[now].node == d) continue;
      s = x, p = port_toward(t, ts, x, d, lid, now);
    }
    BOOST_REQUIRE(p > 0);
    ts.switches[s].lft.set(lid, static_cast<PortNum>(p));
    const CheckReport r = same_both_ways(t, ts);
    BOOST_TEST(r.walked_by_switch);
    BOOST_TEST(r.connected);
  }
}

// Broken tables: the walk by switch gives up and the pair walk names the problems.
BOOST_AUTO_TEST_CASE(broken_tables_fall_back_to_the_pair_walk) {
  for (const Case& c : {Case{"flatfly:4x4:hosts=2", "dor"}, Case{"flatfly:4x4:widths=2,1:hosts=2", "dor"},
                        Case{"torus:4x4:hosts=2", "ecube"}, Case{"hypercube:4:hosts=2", "dor"}}) {
    const char* spec = c.spec;
    const Topology t = build_topology_spec(spec);
    const TableSet good = testing::route_with(t, c.algo);
    const int q = 3, d = t.host_switch(q);  // the second host of switch 1
    const Lid lid = good.hosts[q].base_lid;
    int far = -1;  // a switch whose walk toward q takes two switch hops or more
    for (int x = 0; x < t.num_switches && far < 0; ++x) {
      const PortNum o = good.switches[x].lft[lid].primary();
      if (x != d && t.nodes[x].ports[o].node != d) far = x;
    }
    BOOST_REQUIRE(far >= 0);
    const int next = t.nodes[far].ports[good.switches[far].lft[lid].primary()].node;
    auto expect = [&](const char* what, TableSet ts, const char* text) {
      BOOST_TEST_CONTEXT(spec << ": " << what) {
        const CheckReport r = same_both_ways(t, ts);
        BOOST_TEST(!r.walked_by_switch);
        BOOST_TEST(!r.ok());
        BOOST_REQUIRE(!r.problems.empty());
        BOOST_TEST(r.problems.front().find(text) != std::string::npos, r.problems.front());
      }
    };
    TableSet ts = good;
    ts.switches[far].lft.clear(lid);
    expect("missing entry", ts, "has no LFT entry");
    ts = good;  // next sends q back to far: a loop
    for (int p = 1; p <= t.nodes[next].num_ports; ++p)
      if (t.nodes[next].ports[p].node == far) ts.switches[next].lft.set(lid, static_cast<PortNum>(p));
    expect("loop", ts, "loops at switch");
    ts = good;  // q's switch delivers to its first host
    ts.switches[d].lft.set(lid, static_cast<PortNum>(t.host_switch_port(q - 1)));
    expect("wrong host", ts, "delivered to");
    ts = good;
    ts.switches[far].lft.set(lid, 0);
    expect("uncabled port", ts, "which is not cabled");
    ts = good;  // a record toward q that carries another host's LID
    ts.hosts[t.num_hosts - 1].paths.set(q, PathRecord{good.hosts[q - 1].base_lid, 0});
    expect("record for another host", ts, "is not a LID of the destination");
  }
}
