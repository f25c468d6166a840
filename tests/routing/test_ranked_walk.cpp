// The deadlock check's walk in VL order (routing/ranked_walk.h) against the walk by state
// (walk_in_vl_order = false) and the walk of every DLID in full: on seeds/001's routings,
// whose hops between switches all lower the VL, it must be taken and give the same report
// (counts, SLs, VLs, longest walk, the dependency graph's size), on one thread or two; on
// tables where a hop keeps the VL or an entry is missing it must give up, and the report is
// then the walk's, with its cycle and its problem texts.
#include <boost/test/unit_test.hpp>

#include <string>

#include "routing/checks.h"
#include "routing/routing.h"
#include "routing/topo_spec.h"
#include "tests/support/route_with.h"

using namespace ibsc;
using namespace ibsc::routing;

namespace {

CheckReport check_with(const Topology& t, const TableSet& ts, bool by_switch, bool in_vl_order, int threads = 1) {
  CheckLimits l;
  l.walk_by_destination_switch = by_switch;
  l.walk_in_vl_order = in_vl_order;
  l.threads = threads;
  return check_tables(t, ts, l);
}

// Every way of walking gives the report of the per-DLID walk; returns the default one.
CheckReport same_every_way(const Topology& t, const TableSet& ts) {
  const CheckReport ranked = check_with(t, ts, true, true), two = check_with(t, ts, true, true, 2);
  const CheckReport by_state = check_with(t, ts, true, false), per_dlid = check_with(t, ts, false, true);
  BOOST_TEST(ranked.text() == per_dlid.text());
  BOOST_TEST(two.text() == per_dlid.text());
  BOOST_TEST(by_state.text() == per_dlid.text());
  BOOST_TEST(ranked.cdg_edges == per_dlid.cdg_edges);
  BOOST_TEST(ranked.max_hops == per_dlid.max_hops);
  BOOST_TEST(two.walked_in_vl_order == ranked.walked_in_vl_order);
  BOOST_TEST(!by_state.walked_in_vl_order);
  BOOST_TEST(!per_dlid.walked_in_vl_order);
  return ranked;
}

}  // namespace

BOOST_AUTO_TEST_CASE(seeds001_routings_walked_in_vl_order) {
  struct Case {
    const char* spec;
    const char* algo;
    int k;
  };
  for (const Case& c :
       {Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "distance", 1},
        Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "distance", 4},
        Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "deflection", 3},
        // 3 dimensions: hosts three coordinates away send on VL 0, a first hop
        // that raises the VL (visited before the others)
        Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "ador", 1},
        Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "mixed-ador", 1},
        Case{"flatfly:4x4x4:widths=2,1,1:hosts=2", "twisted-mixed", 1}, Case{"hypercube:4:hosts=3", "ador", 1},
        Case{"torus:4x4:hosts=2", "deflection", 3}, Case{"slimfly:q=5:hosts=2", "distance", 2}}) {
    BOOST_TEST_CONTEXT(c.spec << " " << c.algo << " k=" << c.k) {
      const Topology t = build_topology_spec(c.spec);
      const TableSet ts = testing::route_with(t, c.algo, c.k);
      const CheckReport r = same_every_way(t, ts);
      BOOST_TEST(r.walked_in_vl_order);
      BOOST_TEST(r.ok(), r.text());
      BOOST_TEST(r.pairs == static_cast<long>(t.num_hosts) * (t.num_hosts - 1));
    }
  }
}

// Distance+2 with every hop on the VL it came in on: sideways moves go round, a cycle. The
// walk in VL order meets a hop that keeps the VL and gives up; the walk finds the cycle.
BOOST_AUTO_TEST_CASE(vl_kept_on_every_hop_gives_up_and_the_cycle_is_found) {
  const Topology t = build_topology_spec("flatfly:4x4:hosts=2");
  TableSet ts = testing::route_with(t, "distance", 2);
  for (size_t s = 0; s < ts.switches.size(); ++s)
    for (int i = 0; i <= t.nodes[s].num_ports; ++i)
      for (int o = 1; o <= t.nodes[s].num_ports; ++o)
        for (int v = 0; v < ts.vls_used; ++v) ts.switches[s].sl2vl.set(i, o, v, static_cast<Vl>(v));
  const CheckReport r = same_every_way(t, ts);
  BOOST_TEST(!r.walked_in_vl_order);
  BOOST_TEST(!r.deadlock_free);
  BOOST_TEST(!r.cycle.empty());
}

// One switch keeps the VL on its hops: no cycle (the other switches still count down), but
// the ranking no longer holds there, so the walk in VL order must give up all the same.
BOOST_AUTO_TEST_CASE(vl_kept_at_one_switch_gives_up) {
  const Topology t = build_topology_spec("flatfly:4x4:hosts=2");
  TableSet ts = testing::route_with(t, "distance", 2);
  const int s = 5;
  for (int i = 0; i <= t.nodes[s].num_ports; ++i)
    for (int o = 1; o <= t.nodes[s].num_ports; ++o)
      for (int v = 0; v < ts.vls_used; ++v) ts.switches[s].sl2vl.set(i, o, v, static_cast<Vl>(v));
  const CheckReport r = same_every_way(t, ts);
  BOOST_TEST(!r.walked_in_vl_order);
}

// A missing entry on a VL that walks reach: the walk in VL order gives up, and the problems
// are named as the per-DLID walk names them.
BOOST_AUTO_TEST_CASE(missing_entry_gives_up_with_the_walks_problems) {
  const Topology t = build_topology_spec("flatfly:4x4:hosts=2");
  TableSet ts = testing::route_with(t, "distance", 1);
  const int q = t.num_hosts - 1, s = 0;
  BOOST_REQUIRE(t.host_switch(q) != s);
  SwitchTables& st = ts.switches[s];
  st.expand_per_vl();
  for (Lft& l : st.lft_per_input_vl) l.clear(ts.hosts[q].base_lid);
  const CheckReport r = same_every_way(t, ts);
  BOOST_TEST(!r.walked_in_vl_order);
  BOOST_TEST(!r.connected);
  BOOST_TEST(!r.problems.empty());
  BOOST_TEST(r.problems.front().find("has no LFT entry") != std::string::npos, r.problems.front());
}
