#include <boost/test/unit_test.hpp>
#include <cmath>
#include <set>

#include "routing/checks.h"
#include "routing/generators.h"
#include "routing/metrics.h"
#include "routing/routing.h"
#include "routing/topo_spec.h"

using namespace ibsc::routing;

namespace {

TableSet route(const Topology& t, const std::string& algo) {
  RoutingOptions o;
  o.algorithm = ibsc::enum_value<Algorithm>(algo);
  return compute_routing(t, o);
}

struct Expect {
  std::vector<int> dims;
  int sls;
  double avg;        // seeds/000 Table 2 prints it truncated to two decimals
  int crossing;      // ours (Table 2: 10, 30, 70, 9, 48: its path selection balances less)
  double deviation;  // ours (Table 2: 0.75, 1.35, 2.19, 0, 8.89)
};

}  // namespace

BOOST_AUTO_TEST_CASE(torus_port_numbering_and_counts) {
  Topology t = make_torus({4, 4}, 4, true, 8);
  BOOST_TEST(t.num_switches == 16);
  BOOST_TEST(t.num_hosts == 64);
  // S(1,0) port 1 (+ in dimension 0) reaches S(2,0) port 2.
  BOOST_TEST(t.nodes[1].ports[1].node == 2);
  BOOST_TEST(t.nodes[1].ports[1].port == 2);
  // dimension 1 +: switch 0 -> switch 4; wraparound of dimension 1: switch 12 -> 0.
  BOOST_TEST(t.nodes[0].ports[3].node == 4);
  BOOST_TEST(t.nodes[12].ports[3].node == 0);
  // host 5 on switch 1, port 2n+1+1 = 6
  BOOST_TEST(t.host_switch(5) == 1);
  BOOST_TEST(t.host_switch_port(5) == 6);
  Topology wide = make_torus({4, 4}, 2, true, 12);
  BOOST_TEST(wide.nodes[0].num_ports == 12);
  BOOST_TEST(wide.nodes[0].ports[12].node == -1);
  BOOST_CHECK_THROW(make_torus({4, 4}, 4, true, 6), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(ecube_on_tori_matches_table2) {
  const std::vector<Expect> cases{{{4, 4}, 4, 2.13, 8, 0},
                                  {{6, 6}, 4, 3.08, 30, 2.12},
                                  {{8, 8}, 4, 4.06, 64, 0},
                                  {{3, 3, 3}, 8, 2.07, 9, 0},
                                  {{4, 4, 4}, 8, 3.04, 32, 0}};
  for (const Expect& e : cases) {
    Topology t = make_torus(e.dims, 1);
    TableSet ts = route(t, "ecube");
    BOOST_TEST(ts.sls_used == e.sls);
    BOOST_TEST(ts.vls_used == 2);
    BOOST_TEST(ts.max_lid == t.num_hosts + t.num_switches);
    for (const auto& sw : ts.switches) BOOST_TEST(sw.lft.size() == ts.max_lid + 1u);
    CheckReport r = check_tables(t, ts);
    BOOST_TEST_MESSAGE(r.text());
    BOOST_TEST(r.ok());
    BOOST_TEST(r.sls_used == e.sls);
    Metrics m = compute_metrics(t, ts);
    BOOST_TEST_MESSAGE("ecube " << e.dims.size() << "D k=" << e.dims[0] << ": avg " << m.average_distance << " topo "
                                << m.average_topological_distance << " crossing " << m.crossing_path << " deviation "
                                << m.deviation_crossing);
    BOOST_TEST(m.average_distance == m.average_topological_distance, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(std::floor(m.average_topological_distance * 100) / 100 == e.avg, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(m.crossing_path == e.crossing);
    BOOST_TEST(m.deviation_crossing == e.deviation, boost::test_tools::tolerance(0.01));
  }
}

BOOST_AUTO_TEST_CASE(dor_on_one_vl_deadlocks_on_tori) {
  // A 3-ring has no two-hop minimal path, so 3x3x3 DOR has no cycle even on one VL.
  BOOST_TEST(check_tables(make_torus({3, 3, 3}, 1), route(make_torus({3, 3, 3}, 1), "dor1vl")).deadlock_free);
  for (auto dims : std::vector<std::vector<int>>{{8}, {4, 4}, {6, 6}, {8, 8}, {4, 4, 4}}) {
    Topology t = make_torus(dims, 1);
    TableSet ts = route(t, "dor1vl");
    CheckReport r = check_tables(t, ts);
    BOOST_TEST(r.connected);
    BOOST_TEST(r.sls_used == 1);
    BOOST_TEST(r.vls_used == 1);
    BOOST_TEST(!r.deadlock_free);
    BOOST_TEST(r.cycle.size() >= 3u);
    for (const CycleHop& h : r.cycle) BOOST_TEST(h.vl == 0);
  }
}

BOOST_AUTO_TEST_CASE(ecube_on_meshes_needs_one_vl) {
  Topology t = make_torus({5, 3}, 2, false);
  TableSet ts = route(t, "ecube");
  BOOST_TEST(ts.sls_used == 1);
  CheckReport r = check_tables(t, ts);
  BOOST_TEST(r.ok());
  Metrics m = compute_metrics(t, ts);
  BOOST_TEST(m.average_distance == m.average_topological_distance, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(budgets_are_refused_clearly) {
  Topology t = make_torus({4, 4, 4}, 1);
  RoutingOptions o;
  o.max_sls = 4;
  try {
    compute_routing(t, o);
    BOOST_FAIL("expected a RoutingError");
  } catch (const RoutingError& e) {
    BOOST_TEST(std::string(e.what()).find("needs 8 SLs") != std::string::npos);
  }
  o.max_sls = 16;
  o.max_vls = 1;
  BOOST_CHECK_THROW(compute_routing(t, o), RoutingError);
  // An unknown name never reaches compute_routing: the one name table refuses it.
  BOOST_CHECK_THROW(ibsc::enum_value<Algorithm>("nonsense"), std::invalid_argument);
  // A 2-D torus needs 4 SLs (Table 1); a budget of 2 is refused and the message says why.
  RoutingOptions two;
  two.max_sls = 2;
  try {
    compute_routing(make_torus({4, 4}, 1), two);
    BOOST_FAIL("expected a RoutingError");
  } catch (const RoutingError& e) {
    BOOST_TEST(std::string(e.what()).find("needs 4 SLs; the budget is 2") != std::string::npos);
  }
  Topology five = make_torus({3, 3, 3, 3, 3}, 1);
  BOOST_CHECK_THROW(route(five, "ecube"), RoutingError);  // 32 SLs
}

BOOST_AUTO_TEST_CASE(ecube_on_hypercubes_and_2_rings) {
  Topology h = make_hypercube(5, 2);
  TableSet ts = route(h, "ecube");
  BOOST_TEST(ts.sls_used == 1);  // no wraparound anywhere
  CheckReport r = check_tables(h, ts);
  BOOST_TEST(r.ok());
  Metrics m = compute_metrics(h, ts);
  BOOST_TEST(m.average_distance == m.average_topological_distance, boost::test_tools::tolerance(1e-12));
  Topology wide = make_torus_widths({4, 6}, {2, 3}, 2);  // lanes spread destinations
  TableSet tw = route(wide, "ecube");
  BOOST_TEST(check_tables(wide, tw).ok());
  Metrics mw = compute_metrics(wide, tw);
  BOOST_TEST(mw.average_distance == mw.average_topological_distance, boost::test_tools::tolerance(1e-12));
  // seeds/001's hypercube with 2 cables per dimension (scaled to 5-D): both lanes carry traffic.
  Topology cube2 = build_topology_spec("hypercube:5:widths=2:hosts=2");
  TableSet tc = route(cube2, "ecube");
  BOOST_TEST(check_tables(cube2, tc).ok());
  Metrics mc = compute_metrics(cube2, tc);
  BOOST_TEST(mc.average_distance == mc.average_topological_distance, boost::test_tools::tolerance(1e-12));
  std::set<int> lanes_used;
  for (size_t lid = 0; lid < tc.switches[0].lft.size(); ++lid)
    for (const PortCandidate& c : tc.switches[0].lft[lid].candidates) lanes_used.insert(c.port);
  BOOST_TEST(lanes_used.count(1) == 1);
  BOOST_TEST(lanes_used.count(2) == 1);       // dimension 0, lane 1
  Topology mixed = make_torus({2, 5, 4}, 1);  // the 2-ring needs no SL bit: 4 SLs
  TableSet tm = route(mixed, "ecube");
  BOOST_TEST(tm.sls_used == 4);
  BOOST_TEST(check_tables(mixed, tm).ok());
}

// Adaptive LFT entries: every candidate is followed and creates dependencies. On a 4-ring the
// destination-parity tie rule on one VL has no cycle; letting tied packets take either
// direction closes the cycle of each direction.
BOOST_AUTO_TEST_CASE(checks_follow_every_adaptive_candidate) {
  Topology t = make_torus({4}, 1);
  TableSet ts = route(t, "ecube");
  for (auto& sw : ts.switches) sw.sl2vl.reset(t.nodes[0].num_ports);  // one VL: everything on VL0
  for (auto& h : ts.hosts)
    for (auto& v : h.sl2vl) v = 0;
  BOOST_TEST(check_tables(t, ts).deadlock_free);
  for (int s = 0; s < 4; ++s) {
    const int far = (s + 2) % 4;  // the tied destination
    const ibsc::Lid lid = ts.hosts[far].base_lid;
    ts.switches[s].lft.add(lid, {static_cast<ibsc::PortNum>(ts.switches[s].lft[lid].primary() == 1 ? 2 : 1), 0});
  }
  CheckReport r = check_tables(t, ts);
  BOOST_TEST(r.connected);
  BOOST_TEST(!r.deadlock_free);
  BOOST_TEST(r.cycle.size() == 4u);
  // A candidate that leads back where the packet came from is a loop.
  ts.switches[1].lft.add(ts.hosts[3].base_lid, {2, 1});
  ts.switches[0].lft.set(ts.hosts[3].base_lid, 1);
  CheckReport loop = check_tables(t, ts);
  BOOST_TEST(!loop.paths_end);
  BOOST_TEST(loop.looping_pairs > 0);
}

BOOST_AUTO_TEST_CASE(checks_hold_tables_to_their_declared_counts) {
  // The fabric sets up only the declared VLs and SLs: tables that use more are over budget
  // even when the absolute limits (16 SLs, 15 VLs) are met.
  Topology t = make_torus({4, 4}, 1);
  TableSet ts = route(t, "ecube");
  BOOST_TEST(check_tables(t, ts).within_budget);
  TableSet fewer_vls = ts;
  fewer_vls.vls_used = 1;
  CheckReport r = check_tables(t, fewer_vls);
  BOOST_TEST(!r.within_budget);
  BOOST_TEST(r.text().find("declare 1 VLs") != std::string::npos);
  TableSet fewer_sls = ts;
  fewer_sls.sls_used = 2;
  BOOST_TEST(!check_tables(t, fewer_sls).within_budget);
}

BOOST_AUTO_TEST_CASE(cycle_text_names_switch_port_and_vl) {
  Topology t = make_torus({4, 4}, 1);
  CheckReport r = check_tables(t, route(t, "dor1vl"));
  BOOST_TEST_REQUIRE(!r.deadlock_free);
  const std::string text = r.text();
  BOOST_TEST(text.find(r.cycle.front().name + " port " + std::to_string(r.cycle.front().port) + " VL0 -> ") !=
             std::string::npos);
  BOOST_TEST(text.find("-> back to " + r.cycle.front().name) != std::string::npos);
}
