// seeds/001's DOR and Mixed DOR on flattened butterflies and hypercubes (routing/mixed_dor.cpp),
// and e-cube (DOR with dateline VLs) on its tori with link widths, scaled down.
#include <boost/test/unit_test.hpp>

#include <map>
#include <set>

#include "routing/checks.h"
#include "routing/metrics.h"
#include "routing/routing.h"
#include "routing/topo_spec.h"
#include "tests/support/error_of.h"

using namespace ibsc::routing;
namespace tt = boost::test_tools;

namespace {

TableSet route(const Topology& t, const std::string& algo, int max_vls = 15) {
  RoutingOptions opt;
  opt.algorithm = ibsc::enum_value<Algorithm>(algo);
  opt.max_vls = max_vls;
  return compute_routing(t, opt);
}

// The switch the LFT of switch s sends the first host of switch b to.
int next_switch(const Topology& t, const TableSet& ts, int s, int b) {
  int h = 0;
  while (t.host_switch(h) != b) ++h;
  const auto p = ts.switches[s].lft[ts.hosts[h].base_lid].primary();
  return t.nodes[s].ports[p].node;
}

}  // namespace

// Flattened butterfly 4^4 with the talk's widths (2,1,1,1) and a hypercube with 2 cables per
// dimension: every pair routed minimally, deadlock-free on 1 (dor) or 4 (mixed-dor) VLs.
BOOST_AUTO_TEST_CASE(dor_and_mixed_dor_are_minimal_and_deadlock_free) {
  for (const char* spec : {"flatfly:4x4x4x4:widths=2,1,1,1:hosts=1", "hypercube:6:widths=2:hosts=1"}) {
    const Topology t = build_topology_spec(spec);
    for (const char* algo : {"dor", "mixed-dor"}) {
      BOOST_TEST_CONTEXT(spec << " " << algo) {
        BOOST_TEST(algorithm_applies(ibsc::enum_value<Algorithm>(algo), t));
        const TableSet ts = route(t, algo);
        const CheckReport r = check_tables(t, ts);
        BOOST_TEST(r.ok());
        BOOST_TEST(r.vls_used == (std::string(algo) == "dor" ? 1 : 4));
        const Metrics m = compute_metrics(t, ts);
        BOOST_TEST(m.average_distance == m.average_topological_distance, tt::tolerance(1e-12));
      }
    }
  }
}

// The talk's four orders 1234, 2413, 3142, 4321 (0-based 0123, 1302, 2031, 3210), picked by the
// destination's coordinate sum mod 4; dor corrects the highest dimension first.
BOOST_AUTO_TEST_CASE(mixed_dor_takes_the_talks_orders) {
  const Topology t = build_topology_spec("flatfly:4x4x4x4:hosts=1");  // switch = c0 + 4c1 + 16c2 + 64c3
  const TableSet mixed = route(t, "mixed-dor"), dor = route(t, "dor");
  auto at = [](int c0, int c1, int c2, int c3) { return c0 + 4 * c1 + 16 * c2 + 64 * c3; };
  // (1,1,0,0): sum 2, order 3142 -> dimension 0 first (dimension 2 already agrees).
  BOOST_TEST(next_switch(t, mixed, 0, at(1, 1, 0, 0)) == at(1, 0, 0, 0));
  BOOST_TEST(next_switch(t, dor, 0, at(1, 1, 0, 0)) == at(0, 1, 0, 0));
  // (2,0,0,3): sum 5, order 2413 -> dimension 3 first (dimension 1 agrees).
  BOOST_TEST(next_switch(t, mixed, 0, at(2, 0, 0, 3)) == at(0, 0, 0, 3));
  // (1,2,3,0): sum 6, order 3142 -> dimension 2 first.
  BOOST_TEST(next_switch(t, mixed, 0, at(1, 2, 3, 0)) == at(0, 0, 3, 0));
  // (3,2,3,0): sum 8, order 1234 -> dimension 0 first; (1,2,3,1): sum 7, order 4321 -> 3 first.
  BOOST_TEST(next_switch(t, mixed, 0, at(3, 2, 3, 0)) == at(3, 0, 0, 0));
  BOOST_TEST(next_switch(t, mixed, 0, at(1, 2, 3, 1)) == at(0, 0, 0, 1));
  // SL = VL = order of the destination.
  int h = 0;
  while (t.host_switch(h) != at(1, 2, 3, 1)) ++h;
  BOOST_TEST(mixed.path(0, h).sl == 3);
}

// The four orders need their VLs: on one VL they close channel-dependency cycles.
BOOST_AUTO_TEST_CASE(mixed_dor_on_one_vl_deadlocks) {
  const Topology t = build_topology_spec("flatfly:4x4x4:hosts=1");
  TableSet ts = route(t, "mixed-dor");
  BOOST_TEST(check_tables(t, ts).deadlock_free);
  for (auto& sw : ts.switches) sw.sl2vl.reset(t.nodes[0].num_ports);
  for (auto& h : ts.hosts)
    for (auto& v : h.sl2vl) v = 0;
  const CheckReport r = check_tables(t, ts);
  BOOST_TEST(r.connected);
  BOOST_TEST(!r.deadlock_free);
}

// seeds/001's 3-D and 4-D tori with link widths, scaled down: e-cube's dateline VLs (2 VLs,
// one SL bit per dimension) keep them deadlock-free; the 4-D torus takes all 16 SLs.
BOOST_AUTO_TEST_CASE(ecube_on_the_talks_tori_scaled_down) {
  const Topology t3 = build_topology_spec("torus:4x8x8:widths=3,5,5:hosts=1");
  const TableSet e3 = route(t3, "ecube");
  BOOST_TEST(check_tables(t3, e3).ok());
  BOOST_TEST(e3.sls_used == 8);
  const Topology t4 = build_topology_spec("torus:4x4x4x4:widths=2,4,4,4:hosts=1");
  const TableSet e4 = route(t4, "ecube");
  BOOST_TEST(check_tables(t4, e4).ok());
  BOOST_TEST(e4.sls_used == 16);
  BOOST_TEST(e4.vls_used == 2);
}

BOOST_AUTO_TEST_CASE(dor_refusals) {
  using ibsc::testing::error_of;
  const Topology torus = build_topology_spec("torus:4x4:hosts=1");
  BOOST_TEST(!algorithm_applies(Algorithm::MixedDor, torus));
  BOOST_TEST(error_of([&] { route(torus, "mixed-dor"); }).find("tori and meshes: ecube") != std::string::npos);
  const Topology ff = build_topology_spec("flatfly:4x4:hosts=1");
  BOOST_TEST(error_of([&] { route(ff, "mixed-dor", 2); }).find("needs 4 VLs; the budget is 2") != std::string::npos);
}

// Parallel cables by (order + dimension) (routing/mixed_dor.cpp): on a hypercube with 2 cables
// per dimension, the hosts of one destination switch that share an order (SL) leave switch 0 by
// one cable, so no input VL's stream splits over both; the four orders still use both cables.
BOOST_AUTO_TEST_CASE(mixed_dor_keeps_one_cable_per_order) {
  const Topology t = build_topology_spec("hypercube:3:widths=2:hosts=8");
  const TableSet ts = route(t, "mixed-dor");
  std::map<int, std::set<int>> ports_of_sl;
  std::set<int> ports;
  for (int g = 0; g < t.num_hosts; ++g) {
    if (t.host_switch(g) != 7) continue;
    const int port = ts.switches[0].lft[ts.hosts[g].base_lid].primary();
    ports_of_sl[ts.path(0, g).sl].insert(port);
    ports.insert(port);
  }
  BOOST_TEST(ports_of_sl.size() == 4u);
  for (const auto& [sl, p] : ports_of_sl) BOOST_TEST(p.size() == 1u, "SL " << sl);
  BOOST_TEST(ports.size() >= 2u);
}
