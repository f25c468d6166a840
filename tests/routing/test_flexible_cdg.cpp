#include <algorithm>
#include <boost/test/unit_test.hpp>

#include "routing/checks.h"
#include "routing/flexible_anneal.h"
#include "routing/flexible_cdg.h"
#include "routing/generators.h"
#include "routing/metrics.h"
#include "routing/routing.h"

using namespace ibsc::routing;

namespace {

int max_load(const RouteResult& r) { return *std::max_element(r.load.begin(), r.load.end()); }

// Loads recounted from the paths, to catch bookkeeping drift in improve_acyclic.
std::vector<int> recount(const SwitchGraph& g, const PathSet& p) {
  std::vector<int> load(g.channels.size(), 0);
  for (int c : p.chans) ++load[c];
  return load;
}

}  // namespace

// The path-space stage starts from up*/down* paths (acyclic) and must keep every pair routed,
// the dependency graph acyclic, paths no longer and the most loaded channel no more loaded.
BOOST_AUTO_TEST_CASE(rebalancing_keeps_paths_acyclic_and_never_worse) {
  std::vector<Topology> nets{make_torus({4, 4}, 1), make_torus({3, 3, 3}, 1), make_torus({5, 4}, 1, false)};
  for (uint64_t seed : {1, 2, 3, 4}) nets.push_back(make_irregular(32, 8, 1, seed));
  for (const Topology& t : nets) {
    SwitchGraph g(t);
    RouteResult r = route_with_turns(g, updown_rules(g, updown_labels(g, TreeKind::Dfs, updown_root(g))), 1);
    BOOST_TEST_REQUIRE(path_cdg_cycle(g, r.paths).empty());
    const size_t length = r.paths.chans.size();
    const int before = max_load(r);
    const bool changed = improve_acyclic(g, r);
    BOOST_TEST_MESSAGE(t.kind << " " << t.num_switches << ": crossing " << before << " -> " << max_load(r) << ", links "
                              << length << " -> " << r.paths.chans.size() << (changed ? "" : " (unchanged)"));
    BOOST_TEST_INFO(t.kind << " " << t.num_switches);
    BOOST_TEST(path_cdg_cycle(g, r.paths).empty());
    BOOST_TEST(r.paths.chans.size() <= length);
    BOOST_TEST(max_load(r) <= before);
    BOOST_TEST(recount(g, r.paths) == r.load);
    for (int d = 0; d < g.n; ++d)
      for (int s = 0; s < g.n; ++s) {
        if (s == d) continue;
        const size_t b = r.paths.begin(s, d), e = r.paths.end(s, d);
        BOOST_TEST_REQUIRE(e > b);
        BOOST_TEST(g.channels[r.paths.chans[b]].from == s);
        BOOST_TEST(g.channels[r.paths.chans[e - 1]].to == d);
        for (size_t i = b; i + 1 < e; ++i)
          BOOST_TEST(g.channels[r.paths.chans[i]].to == g.channels[r.paths.chans[i + 1]].from);
      }
  }
}

// Flexible on irregular networks: the tables (not the algorithm's word) are checked.
BOOST_AUTO_TEST_CASE(flexible_tables_on_irregular_networks) {
  for (uint64_t seed : {1, 2, 3}) {
    Topology t = make_irregular(24, 8, 2, seed);
    RoutingOptions o;
    o.algorithm = Algorithm::Flexible;
    o.search_budget = 60;
    TableSet fx = compute_routing(t, o);
    o.algorithm = Algorithm::UpdownDfs;
    TableSet ud = compute_routing(t, o);
    CheckReport r = check_tables(t, fx);
    BOOST_TEST_INFO("seed " << seed << "\n" << r.text());
    BOOST_TEST(r.ok());
    BOOST_TEST(r.vls_used == 1);
    Metrics mf = compute_metrics(t, fx), mu = compute_metrics(t, ud);
    BOOST_TEST(mf.crossing_path <= mu.crossing_path);
    BOOST_TEST(mf.average_distance <= mu.average_distance + 1e-12);
  }
}

// seeds/000 Table 2: Flexible balances the small tori perfectly (4x4: 8 / 0, 3x3x3: 9 / 0,
// 4x4x4: 32 / 0) on minimal paths and one VL; with 4 hosts per switch as the simulator uses.
BOOST_AUTO_TEST_CASE(flexible_balances_small_tori_perfectly) {
  struct Want {
    std::vector<int> dims;
    int crossing;
  };
  for (const Want& w : {Want{{4, 4}, 8}, Want{{3, 3, 3}, 9}, Want{{4, 4, 4}, 32}})
    for (int hosts : {1, 4}) {
      Topology t = make_torus(w.dims, hosts);
      RoutingOptions o;
      o.algorithm = Algorithm::Flexible;
      TableSet fx = compute_routing(t, o);
      CheckReport r = check_tables(t, fx);
      BOOST_TEST_INFO(t.num_switches << " switches, " << hosts << " hosts each\n" << r.text());
      BOOST_TEST(r.ok());
      BOOST_TEST(r.deadlock_free);
      BOOST_TEST(r.vls_used == 1);
      Metrics m = compute_metrics(t, fx);
      BOOST_TEST(m.average_distance == m.average_topological_distance, boost::test_tools::tolerance(1e-12));
      BOOST_TEST(m.crossing_path == w.crossing);
      BOOST_TEST(m.deviation_crossing == 0.0, boost::test_tools::tolerance(1e-12));
      BOOST_TEST(int(fx.hosts[0].lmc) <= o.max_lmc);
    }
}

// The path-space annealing alone (no ring turn set): from up*/down* paths it keeps every pair
// routed and minimal-or-shorter, the dependency graph acyclic, and never ends worse.
BOOST_AUTO_TEST_CASE(annealing_keeps_paths_acyclic_and_never_worse) {
  std::vector<Topology> nets{make_torus({4, 4}, 1), make_torus({3, 3, 3}, 1), make_torus({6, 6}, 1)};
  for (uint64_t seed : {1, 2}) nets.push_back(make_irregular(32, 8, 1, seed));
  for (const Topology& t : nets) {
    SwitchGraph g(t);
    RouteResult r = route_with_turns(g, updown_rules(g, updown_labels(g, TreeKind::Dfs, updown_root(g))), 1);
    const size_t length = r.paths.chans.size();
    const int before = max_load(r);
    long sq_before = 0, sq_after = 0;
    for (int l : r.load) sq_before += long(l) * l;
    anneal_acyclic(g, r, 7, 20000);
    for (int l : r.load) sq_after += long(l) * l;
    BOOST_TEST_INFO(t.kind << " " << t.num_switches);
    BOOST_TEST(path_cdg_cycle(g, r.paths).empty());
    BOOST_TEST(r.paths.chans.size() <= length);
    BOOST_TEST(recount(g, r.paths) == r.load);
    BOOST_TEST((max_load(r) < before || (max_load(r) == before && sq_after <= sq_before)));
    for (int d = 0; d < g.n; ++d)
      for (int s = 0; s < g.n; ++s)
        if (s != d) BOOST_TEST_REQUIRE(r.paths.end(s, d) > r.paths.begin(s, d));
  }
}
