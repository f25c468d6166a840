// TFTR (seeds/002): disjoint paths, VLs raised at forbidden transitions, deadlock freedom of
// every path set, SL counts of our Table 1, and the fault analysis.
#include <boost/test/unit_test.hpp>

#include "routing/checks.h"
#include "routing/disjoint_paths.h"
#include "routing/fault_analysis.h"
#include "routing/tftr.h"

using namespace ibsc::routing;

namespace {

TableSet route(const Topology& t, const std::string& algo, int max_sls = 16) {
  RoutingOptions o;
  o.algorithm = ibsc::enum_value<Algorithm>(algo);
  o.max_sls = max_sls;
  return compute_routing(t, o);
}

}  // namespace

// Every pair of a 4x4 torus gets 4 paths that share no cable and no intermediate switch, both
// in the algorithm's own paths and in what the tables' path records walk.
BOOST_AUTO_TEST_CASE(paths_are_disjoint_on_a_4x4_torus) {
  Topology t = make_torus({4, 4}, 1);
  SwitchGraph g(t);
  RoutingOptions o;
  o.algorithm = Algorithm::Tftr;
  TftrResult r = tftr_paths(t, g, o);
  BOOST_TEST(r.k == 4);
  int pairs = 0;
  for (int s = 0; s < 16; ++s)
    for (int d = 0; d < 16; ++d) {
      if (s == d) continue;
      std::vector<std::vector<int>> chans;
      for (const auto& p : r.paths(s, d)) chans.push_back(p.chans);
      BOOST_TEST(chans.size() == 4u);
      BOOST_TEST(paths_disjoint(g, chans));
      ++pairs;
    }
  BOOST_TEST(pairs == 240);
  PathSets ps = record_paths(t, route(t, "tftr"));
  for (const PairPaths& p : ps.pairs) {
    BOOST_TEST(p.disjoint);
    BOOST_TEST(p.walked);
    BOOST_TEST(p.cables.size() == 4u);
  }
  // paths_disjoint itself: two copies of one path share everything.
  std::vector<std::vector<int>> twice{r.paths(0, 5)[0].chans, r.paths(0, 5)[0].chans};
  BOOST_TEST(!paths_disjoint(g, twice));
}

// Hand-checked: a ring of 5 switches labelled 5,1,4,2,3 (up = toward the higher label). The
// path 0->1->2->3->4 goes down (5->1), up (1->4): a forbidden transition, VL1; down (4->2), up
// (2->3): a second one, VL2.
BOOST_AUTO_TEST_CASE(vl_rises_after_each_forbidden_transition) {
  Topology t = make_torus({5}, 1);
  SwitchGraph g(t);
  Orientation o;
  o.label = {5, 1, 4, 2, 3};
  std::vector<int> path;
  for (int x = 0; x < 4; ++x) path.push_back(g.channel_at(x, 1));  // port 1: + neighbour
  for (int x = 0; x < 4; ++x) BOOST_TEST(g.channels[path[x]].to == x + 1);
  BOOST_TEST(!o.up(g, path[0]));
  BOOST_TEST(o.up(g, path[1]));
  BOOST_TEST(transition_vls(g, o, path) == (std::vector<int>{0, 1, 1, 2}));
  BOOST_TEST(count_transitions(g, o, path) == 2);
  // Up then down is legal: 3 -> 4 (up, 2->3) then 4 -> 0 (5: up again) then 0 -> 1 (down).
  std::vector<int> legal{g.channel_at(3, 1), g.channel_at(4, 1), g.channel_at(0, 1)};
  BOOST_TEST(transition_vls(g, o, legal) == (std::vector<int>{0, 0, 0}));
}

// The tables carry what the stages decided: walking each record through the LFTs and SL2VL
// tables gives on every channel the VL of the transition count so far on the DFS orientation.
BOOST_AUTO_TEST_CASE(tables_raise_the_vl_at_each_forbidden_transition) {
  Topology t = make_torus({5, 5}, 1);
  SwitchGraph g(t);
  TableSet ts = route(t, "tftr");
  Orientation o;
  o.label = updown_labels(g, TreeKind::Dfs, updown_root(g));
  long transitions = 0, balanced = 0;
  for (int h = 0; h < t.num_hosts; ++h)
    for (int q = 0; q < t.num_hosts; ++q) {
      if (h == q) continue;
      for (const PathRecord& rec : ts.hosts[h].paths[q]) {
        std::vector<int> chans, vls;
        int x = t.host_switch(h), in = t.host_switch_port(h);
        while (x != t.host_switch(q)) {
          const int port = ts.switches[x].lft[rec.dlid].primary();
          vls.push_back(ts.switches[x].sl2vl.get(in, port, rec.sl));
          chans.push_back(g.channel_at(x, port));
          in = g.channels[chans.back()].to_port;
          x = g.channels[chans.back()].to;
        }
        const std::vector<int> expect = transition_vls(g, o, chans);
        BOOST_TEST(expect.back() <= 1);  // 2 VLs: at most one transition
        transitions += expect.back();
        if (vls != expect) {  // stage 5 may lift a legal path to VL1 from end to end
          BOOST_TEST(expect.back() == 0);
          BOOST_TEST(vls == std::vector<int>(chans.size(), 1));
          ++balanced;
        }
      }
    }
  BOOST_TEST(transitions > 0);
  BOOST_TEST(balanced > 0);
}

// Every path set of the paper's topologies, primaries and alternates together, is deadlock-free
// over (link, VL), within 2 VLs, and our Table 1 SL counts hold (within 1 of the paper's).
BOOST_AUTO_TEST_CASE(paper_tori_are_deadlock_free_with_table1_sls) {
  struct Row {
    std::vector<int> dims;
    int sls, paper_sls, paths;
  };
  const std::vector<Row> rows{{{4, 4}, 3, 3, 4}, {{5, 5}, 4, 3, 4}, {{6, 6}, 4, 4, 4},   {{7, 7}, 5, 4, 4},
                              {{8, 8}, 6, 5, 4}, {{9, 9}, 7, 6, 4}, {{10, 10}, 7, 7, 4}, {{4, 4, 4}, 4, 3, 6}};
  for (const Row& row : rows) {
    Topology t = make_torus(row.dims, 1);
    TableSet ts = route(t, "tftr");
    BOOST_TEST_INFO("torus of " << t.num_switches << " switches");
    CheckReport rep = check_tables(t, ts);
    BOOST_TEST(rep.ok());
    BOOST_TEST(rep.vls_used == 2);
    BOOST_TEST(ts.sls_used == row.sls);
    BOOST_TEST(rep.sls_used == row.sls);
    BOOST_TEST(std::abs(row.sls - row.paper_sls) <= 1);
    PathCensus c = path_census(record_paths(t, ts));
    BOOST_TEST(c.with_n.size() == static_cast<size_t>(row.paths + 1));
    BOOST_TEST(c.with_n.back() == c.pairs);  // every pair has all its disjoint paths
    BOOST_TEST(c.not_disjoint == 0);
  }
}

// Bounded SLs (Table 2): the budget holds, paths are dropped instead, and what remains is still
// deadlock-free; the up*/down* baseline is deadlock-free with one VL and one SL.
BOOST_AUTO_TEST_CASE(bounded_sls_and_updown_baseline_are_deadlock_free) {
  for (int sls : {2, 3}) {
    Topology t = make_torus({6, 6}, 2);
    TableSet ts = route(t, "tftr", sls);
    CheckLimits lim;
    lim.max_sls = sls;
    CheckReport rep = check_tables(t, ts, lim);
    BOOST_TEST(rep.ok());
    BOOST_TEST(rep.sls_used == sls);
    PathCensus c = path_census(record_paths(t, ts));
    BOOST_TEST(c.with_n[4] < c.pairs);  // some pairs lost a path
    BOOST_TEST(c.with_n[4] > c.pairs / 2);
  }
  Topology t = make_torus({6, 6}, 1);
  TableSet ts = route(t, "updown-disjoint");
  CheckReport rep = check_tables(t, ts);
  BOOST_TEST(rep.ok());
  BOOST_TEST(rep.vls_used == 1);
  BOOST_TEST(rep.sls_used == 1);
}

// A fault set that cuts a pair is reported by pair; the counts of the analysis agree with a
// plain enumeration of every combination.
BOOST_AUTO_TEST_CASE(fault_analysis_reports_the_pairs_cut) {
  Topology t = make_torus({4, 4}, 1);
  PathSets ps = record_paths(t, route(t, "tftr"));
  BOOST_TEST(ps.cable_ends.size() == 32u);
  // H0 -> H1 (switches (0,0) and (1,0)): the direct cable, the other cable at (0,0) on the x
  // ring, and two cables at (1,0) toward y; found by the analysis as a singular case.
  FaultOptions fo;
  fo.max_faults = 4;
  auto levels = analyse_faults(t, ps, fo);
  BOOST_TEST(levels.size() == 4u);
  for (int m = 0; m < 3; ++m) BOOST_TEST(levels[m].singular == 0);  // 4 disjoint paths: 3 faults tolerated
  BOOST_TEST(levels[3].singular > 0);
  BOOST_TEST(levels[3].disconnecting == 16);  // the 4 cables of any one switch
  BOOST_REQUIRE(!levels[3].examples.empty());
  const SingularCase& ex = levels[3].examples.front();
  CutReport cut = pairs_cut(t, ps, ex.faults);
  BOOST_TEST(!cut.disconnects);
  bool named = false;
  for (const PairPaths* p : cut.cut) named |= p->src_host == ex.src_host && p->dst_host == ex.dst_host;
  BOOST_TEST(named);
  // Isolating switch (0,0): every pair with host 0 is cut, and the network is disconnected.
  std::vector<int> around;
  for (int port = 1; port <= 4; ++port) around.push_back(find_cable(t, ps, "S(0,0):" + std::to_string(port)));
  BOOST_TEST(find_cable(t, ps, "S(0,0):9") == -1);
  CutReport iso = pairs_cut(t, ps, around);
  BOOST_TEST(iso.disconnects);
  BOOST_TEST(iso.cut.size() == 30u);
  // Brute force on the up*/down* baseline, 1 to 3 faults.
  PathSets ud = record_paths(t, route(t, "updown-disjoint"));
  fo.max_faults = 3;
  levels = analyse_faults(t, ud, fo);
  const int L = 32;
  std::vector<long> singular(4, 0), disconnecting(4, 0);
  auto count = [&](const std::vector<int>& f) {
    CutReport r = pairs_cut(t, ud, f);
    if (r.disconnects) ++disconnecting[f.size()];
    else if (!r.cut.empty()) ++singular[f.size()];
  };
  for (int a = 0; a < L; ++a) {
    count({a});
    for (int b = a + 1; b < L; ++b) {
      count({a, b});
      for (int c = b + 1; c < L; ++c) count({a, b, c});
    }
  }
  for (int m = 1; m <= 3; ++m) {
    BOOST_TEST_INFO(m << " faults");
    BOOST_TEST(levels[m - 1].singular == singular[m]);
    BOOST_TEST(levels[m - 1].disconnecting == disconnecting[m]);
  }
  BOOST_TEST(levels[0].singular > 0);  // one fault already cuts pairs with a single path
}
