#include <algorithm>
#include <boost/test/unit_test.hpp>
#include <cmath>

#include "routing/checks.h"
#include "routing/generators.h"
#include "routing/generic.h"
#include "routing/metrics.h"
#include "routing/routing.h"

using namespace ibsc::routing;

namespace {

TableSet route(const Topology& t, const std::string& algo, int vls = 0) {
  RoutingOptions o;
  o.algorithm = ibsc::enum_value<Algorithm>(algo);
  o.vls = vls;
  return compute_routing(t, o);
}

// Walks every primary path through the tables and checks the up*/down* rule on the labels of
// the same tree: once a path has gone down it never goes up again.
void check_updown_rule(const Topology& t, const TableSet& ts, TreeKind kind) {
  SwitchGraph g(t);
  std::vector<int> label = updown_labels(g, kind, updown_root(g));
  int violations = 0;
  for (int h = 0; h < t.num_hosts; ++h)
    for (int q = 0; q < t.num_hosts; ++q) {
      if (h == q) continue;
      const PathRecord& rec = ts.path(h, q);
      int x = t.host_switch(h);
      bool gone_down = false;
      for (int steps = 0; x != t.host_switch(q) && steps < g.n; ++steps) {
        int c = g.channel_at(x, ts.switches[x].lft[rec.dlid].primary());
        bool up = label[g.channels[c].to] > label[x];
        if (up && gone_down) ++violations;
        gone_down |= !up;
        x = g.channels[c].to;
      }
    }
  BOOST_TEST(violations == 0);
}

}  // namespace

BOOST_AUTO_TEST_CASE(updown_on_tori_is_legal_and_deadlock_free) {
  for (auto dims : std::vector<std::vector<int>>{{4, 4}, {6, 6}, {3, 3, 3}}) {
    Topology t = make_torus(dims, 1);
    for (auto [name, kind] : {std::pair{"updown-bfs", TreeKind::Bfs}, std::pair{"updown-dfs", TreeKind::Dfs}}) {
      TableSet ts = route(t, name);
      CheckReport r = check_tables(t, ts);
      BOOST_TEST_INFO(name << " " << t.num_switches);
      BOOST_TEST(r.ok());
      BOOST_TEST(r.vls_used == 1);
      BOOST_TEST(r.sls_used == 1);
      check_updown_rule(t, ts, kind);
    }
  }
}

BOOST_AUTO_TEST_CASE(updown_on_random_irregular_networks) {
  for (int n : {8, 16, 32, 64})
    for (uint64_t seed : {1, 2, 3}) {
      Topology t = make_irregular(n, 8, 4, seed);
      for (auto [name, kind] : {std::pair{"updown-bfs", TreeKind::Bfs}, std::pair{"updown-dfs", TreeKind::Dfs}}) {
        TableSet ts = route(t, name);
        CheckReport r = check_tables(t, ts);
        BOOST_TEST_INFO(name << " n=" << n << " seed=" << seed << "\n" << r.text());
        BOOST_TEST(r.connected);
        BOOST_TEST(r.routed_pairs == static_cast<long>(t.num_hosts) * (t.num_hosts - 1));
        BOOST_TEST(r.deadlock_free);
        BOOST_TEST(r.vls_used == 1);
        check_updown_rule(t, ts, kind);
      }
    }
}

BOOST_AUTO_TEST_CASE(two_vls_spread_paths_and_stay_deadlock_free) {
  Topology t = make_irregular(16, 8, 2, 5);
  for (const char* name : {"updown-dfs", "flexible"}) {
    TableSet ts = route(t, name, 2);
    CheckReport r = check_tables(t, ts);
    BOOST_TEST(r.ok());
    BOOST_TEST(r.vls_used == 2);
    BOOST_TEST(r.sls_used == 2);
  }
  RoutingOptions o;
  o.algorithm = Algorithm::UpdownDfs;
  o.vls = 2;
  o.max_vls = 1;
  BOOST_CHECK_THROW(compute_routing(t, o), RoutingError);
}

BOOST_AUTO_TEST_CASE(minhop_is_minimal_and_deadlock_prone_on_rings) {
  Topology t = make_torus({8, 8}, 1);
  TableSet ts = route(t, "minhop");
  CheckReport r = check_tables(t, ts);
  BOOST_TEST(r.connected);
  BOOST_TEST(!r.deadlock_free);
  Metrics m = compute_metrics(t, ts);
  BOOST_TEST(m.average_distance == m.average_topological_distance, boost::test_tools::tolerance(1e-12));
}

// seeds/000 Table 2 compares up*/down* on a DFS tree with Flexible on the same tree. Ours must
// keep Flexible's guarantees and stay at or below the paper's UD_DFS crossing paths and
// average distances (our balancing is stronger; README.md lists both).
BOOST_AUTO_TEST_CASE(flexible_on_tori_deadlock_free_and_no_worse_than_updown) {
  struct Paper {
    std::vector<int> dims;
    double ud_avg;
    int ud_crossing;
  };
  const std::vector<Paper> table2{
      {{4, 4}, 2.13, 12}, {{6, 6}, 3.31, 56}, {{8, 8}, 4.57, 209}, {{3, 3, 3}, 2.07, 15}, {{4, 4, 4}, 3.04, 75}};
  for (const Paper& p : table2) {
    Topology t = make_torus(p.dims, 1);
    TableSet ud = route(t, "updown-dfs"), fx = route(t, "flexible");
    CheckReport r = check_tables(t, fx);
    BOOST_TEST(r.ok());
    BOOST_TEST(r.vls_used == 1);
    Metrics mu = compute_metrics(t, ud), mf = compute_metrics(t, fx);
    BOOST_TEST_MESSAGE(t.num_switches << " switches: UD_DFS avg " << mu.average_distance << " crossing "
                                      << mu.crossing_path << " dev " << mu.deviation_crossing << " | FX avg "
                                      << mf.average_distance << " crossing " << mf.crossing_path << " dev "
                                      << mf.deviation_crossing << " LMC " << int(fx.hosts[0].lmc));
    BOOST_TEST(mf.crossing_path <= mu.crossing_path);
    BOOST_TEST(mf.average_distance <= mu.average_distance + 1e-12);
    BOOST_TEST(mu.crossing_path <= p.ud_crossing);
    BOOST_TEST(std::floor(mu.average_distance * 100) / 100 <= p.ud_avg + 1e-9);
  }
}

BOOST_AUTO_TEST_CASE(destination_renaming_counts_lids) {
  Topology t = make_torus({6, 6}, 2);
  TableSet ts = route(t, "updown-dfs");
  const int lmc = ts.hosts[0].lmc;
  BOOST_TEST(lmc <= 7);
  BOOST_TEST(ts.max_lid == (t.num_hosts + 1) * (1 << lmc) + t.num_switches - 1);
  for (int h = 0; h < t.num_hosts; ++h) BOOST_TEST(ts.hosts[h].base_lid % (1 << lmc) == 0);
  // Per-pair balanced minimal paths disagree at switches: renaming gives them several LIDs.
  Topology t8 = make_torus({8, 8}, 1);
  RoutingOptions o;
  o.algorithm = Algorithm::Minhop;
  TableSet free_choice = compute_routing(t8, o);
  BOOST_TEST(free_choice.hosts[0].lmc > 0);
  // With one LID per host the router falls back to destination-consistent choices.
  o.max_lmc = 0;
  TableSet one_lid = compute_routing(t8, o);
  BOOST_TEST(one_lid.hosts[0].lmc == 0);
  BOOST_TEST(check_tables(t8, one_lid).connected);
  Metrics m = compute_metrics(t8, one_lid);
  BOOST_TEST(m.average_distance == m.average_topological_distance, boost::test_tools::tolerance(1e-12));
}

// The check shares walks between hosts of one switch (dense, deterministic LFTs); the general
// walker (forced by per-input-VL LFTs holding the same table) walks every pair. Both must see
// the same: a broken entry mid-path, and a first-hop SL2VL entry that only one host's input
// port selects.
BOOST_AUTO_TEST_CASE(shared_walks_match_per_pair_walks) {
  Topology t = make_torus({4, 4}, 3);
  TableSet ts = route(t, "ecube");
  const int victim = t.num_switches + 4;  // a host LID's switch-side entry is cut at switch 5
  ts.switches[5].lft.clear(ts.hosts[victim - t.num_switches].base_lid);
  const int h = 7, sw = t.host_switch(h), port = t.host_switch_port(h);
  for (int o = 1; o <= t.nodes[sw].num_ports; ++o) ts.switches[sw].sl2vl.set(port, o, 0, 5);  // only host 7
  CheckReport fast = check_tables(t, ts);
  TableSet slow_ts = ts;
  for (auto& st : slow_ts.switches) st.lft_per_input_vl.assign(ibsc::kNumSls, st.lft);
  CheckReport slow = check_tables(t, slow_ts);
  BOOST_TEST(fast.unrouted_pairs > 0);
  BOOST_TEST(fast.vls_used == 3);  // VL 5 from host 7's port, beyond the 2 declared
  BOOST_TEST(!fast.within_budget);
  BOOST_TEST(fast.pairs == slow.pairs);
  BOOST_TEST(fast.routed_pairs == slow.routed_pairs);
  BOOST_TEST(fast.unrouted_pairs == slow.unrouted_pairs);
  BOOST_TEST(fast.looping_pairs == slow.looping_pairs);
  BOOST_TEST(fast.max_hops == slow.max_hops);
  BOOST_TEST(fast.vls_used == slow.vls_used);
  BOOST_TEST(fast.cdg_edges == slow.cdg_edges);
  BOOST_TEST(fast.deadlock_free == slow.deadlock_free);
}

// LID budget: refused before routing when even LMC 0 does not fit; renaming held to the LMC
// that fits (seeds/001: 16,384 hosts, 2,048 switches: LMC 1, not 2); max_lmc lowers it.
BOOST_AUTO_TEST_CASE(lid_budget_is_settled_before_routing) {
  Topology big = make_torus({200, 200}, 1);
  RoutingOptions o;
  o.algorithm = Algorithm::UpdownBfs;
  std::string err;
  try {
    compute_routing(big, o);
  } catch (const RoutingError& e) {
    err = e.what();
  }
  BOOST_TEST(err ==
             "40000 hosts and 40000 switches need LIDs up to 80000 even with LMC 0; the unicast range ends at 49151");
  Topology ff = make_flatfly({4, 8, 8, 8}, {2, 1, 1, 1}, 8);
  BOOST_TEST(largest_fitting_lmc(ff, 7) == 1);
  BOOST_TEST(largest_fitting_lmc(ff, 0) == 0);
  BOOST_TEST(largest_fitting_lmc(make_torus({4, 4}, 1), 7) == 7);
  Topology irr = make_irregular(32, 8, 2, 7);
  o.algorithm = Algorithm::UpdownDfs;
  TableSet free_lmc = compute_routing(irr, o);
  BOOST_TEST(free_lmc.hosts[0].lmc > 0);
  o.max_lmc = 0;
  TableSet lmc0 = compute_routing(irr, o);
  BOOST_TEST(lmc0.hosts[0].lmc == 0);
  BOOST_TEST(check_tables(irr, lmc0).ok());
}

// Minimum-hop and up*/down* rules find distances by a BFS over switches (and up/down phase)
// instead of over channel turns; the paths chosen must be exactly those of the channel BFS,
// in both the free and the consistent (destination-only LFT) mode.
BOOST_AUTO_TEST_CASE(switch_level_distances_give_the_channel_bfs_paths) {
  for (const Topology& t :
       {make_torus({4, 4}, 4, true, 8), make_torus({6, 6}, 4, true, 8), make_torus({3, 3, 3}, 4, true, 10),
        make_irregular(32, 8, 4, 7), make_irregular(64, 8, 4, 11)}) {
    SwitchGraph g(t);
    for (int kind = 0; kind < 3; ++kind) {
      TurnRules fast =
          kind == 0 ? TurnRules::all_but_u_turns(g)
                    : updown_rules(g, updown_labels(g, kind == 1 ? TreeKind::Bfs : TreeKind::Dfs, updown_root(g)));
      BOOST_TEST((fast.kind != TurnRules::Kind::General));
      TurnRules general = fast;
      general.kind = TurnRules::Kind::General;
      for (bool consistent : {false, true}) {
        RouteResult a = route_with_turns(g, fast, 1, consistent), b = route_with_turns(g, general, 1, consistent);
        BOOST_TEST(a.paths.offset == b.paths.offset);
        BOOST_TEST(a.paths.chans == b.paths.chans);
        BOOST_TEST(a.load == b.load);
      }
    }
  }
}

// routing.updown_paths: every choice takes shortest legal up*/down* paths (same lengths, acyclic
// dependencies); balanced has the least loaded busiest channel; first ignores the seed (the lowest
// port at each hop), random follows it.
BOOST_AUTO_TEST_CASE(updown_path_choices) {
  const Topology t = make_irregular(16, 8, 4, 3);
  SwitchGraph g(t);
  const TurnRules rules = updown_rules(g, updown_labels(g, TreeKind::Bfs, updown_root(g)));
  auto run = [&](ShortestPathChoice c, uint64_t seed) { return route_with_turns(g, rules, seed, false, c); };
  const RouteResult bal = run(ShortestPathChoice::Balanced, 1), first = run(ShortestPathChoice::First, 1),
                    first7 = run(ShortestPathChoice::First, 7), rnd = run(ShortestPathChoice::Random, 1),
                    rnd7 = run(ShortestPathChoice::Random, 7);
  auto busiest = [](const RouteResult& r) { return *std::max_element(r.load.begin(), r.load.end()); };
  for (const RouteResult* r : {&first, &rnd, &rnd7}) {
    BOOST_TEST(path_cdg_cycle(g, r->paths).empty());
    for (int s = 0; s < g.n; ++s)
      for (int d = 0; d < g.n; ++d) BOOST_TEST(r->paths.length(s, d) == bal.paths.length(s, d));
    BOOST_TEST(busiest(bal) <= busiest(*r));
  }
  BOOST_TEST(busiest(bal) < busiest(first));
  BOOST_TEST(first.paths.chans == first7.paths.chans);
  BOOST_TEST(rnd.paths.chans != rnd7.paths.chans);
  // First: the walk that takes, at every hop, the lowest port still on a shortest legal path.
  std::vector<int> dist(g.channels.size());
  for (int d = 0; d < g.n; ++d) {
    std::fill(dist.begin(), dist.end(), -1);
    std::vector<int> queue;
    for (int c : g.in[d]) dist[c] = 0, queue.push_back(c);
    for (size_t i = 0; i < queue.size(); ++i)
      for (int p : g.in[g.channels[queue[i]].from])
        if (dist[p] < 0 && rules.allows(g, p, queue[i])) dist[p] = dist[queue[i]] + 1, queue.push_back(p);
    for (int s = 0; s < g.n; ++s) {
      if (s == d) continue;
      std::vector<int> walk;
      int cur = -1;
      for (int c : g.out[s])
        if (dist[c] >= 0 &&
            (cur < 0 || dist[c] < dist[cur] || (dist[c] == dist[cur] && g.channels[c].port < g.channels[cur].port)))
          cur = c;
      while (cur >= 0) {
        walk.push_back(cur);
        int next = -1;
        if (dist[cur] > 0)
          for (int y : g.out[g.channels[cur].to])
            if (dist[y] == dist[cur] - 1 && rules.allows(g, cur, y) &&
                (next < 0 || g.channels[y].port < g.channels[next].port))
              next = y;
        cur = next;
      }
      const std::vector<int> chosen(first.paths.chans.begin() + first.paths.begin(s, d),
                                    first.paths.chans.begin() + first.paths.end(s, d));
      BOOST_TEST(chosen == walk);
    }
  }
}

// routing.updown_paths: highest takes shortest legal paths (the balanced lengths, acyclic
// dependencies) that climb at least as near the root as the balanced and first choices, per pair,
// and on this network strictly nearer for some pairs; minhop (no root) refuses it.
BOOST_AUTO_TEST_CASE(updown_highest_paths_climb_nearest_the_root) {
  const Topology t = make_irregular(16, 8, 4, 3, true);
  SwitchGraph g(t);
  const TurnRules rules = updown_rules(g, updown_labels(g, TreeKind::Bfs, updown_root(g)));
  auto run = [&](ShortestPathChoice c) { return route_with_turns(g, rules, 1, false, c); };
  const RouteResult high = run(ShortestPathChoice::Highest), bal = run(ShortestPathChoice::Balanced),
                    first = run(ShortestPathChoice::First);
  BOOST_TEST(path_cdg_cycle(g, high.paths).empty());
  auto peak = [&](const RouteResult& r, int s, int d) {
    int p = rules.updown_label[s];
    for (size_t i = r.paths.begin(s, d); i < r.paths.end(s, d); ++i)
      p = std::max(p, rules.updown_label[g.channels[r.paths.chans[i]].to]);
    return p;
  };
  long higher = 0;
  for (int s = 0; s < g.n; ++s)
    for (int d = 0; d < g.n; ++d) {
      BOOST_TEST(high.paths.length(s, d) == bal.paths.length(s, d));
      BOOST_TEST(peak(high, s, d) >= peak(bal, s, d));
      BOOST_TEST(peak(high, s, d) >= peak(first, s, d));
      higher += peak(high, s, d) > peak(bal, s, d);
    }
  BOOST_TEST(higher > 0);
  RoutingOptions o;
  o.algorithm = Algorithm::Minhop;
  o.updown_paths = ShortestPathChoice::Highest;
  BOOST_CHECK_THROW(compute_routing(t, o), RoutingError);
}

// routing.updown_paths: tree, counted by hand on a ring of 4 rooted at switch 0. BFS labels 0 > 1
// > 3 > 2, so 2 climbs to 1: the tree is the line 3-0-1-2, and every pair takes its tree path
// (3 to 2: 3 hops through the root, where the shortest legal path is the direct cable).
// Switch-to-switch hops over the 12 ordered pairs: 2 x (1+2+3+1+2+1) = 20, mean 5/3; the busiest
// channels (0-1 both ways) carry the 4 pairs between {3, 0} and {1, 2}. Destination-only LFTs
// without renaming (LMC 0), connected and deadlock-free; balanced paths stay minimal (mean 4/3).
BOOST_AUTO_TEST_CASE(updown_tree_paths_by_hand) {
  const Topology ring = make_torus({4}, 1);
  RoutingOptions o;
  o.algorithm = Algorithm::UpdownBfs;
  o.root = 0;
  o.updown_paths = ShortestPathChoice::Tree;
  const TableSet tree = compute_routing(ring, o);
  BOOST_TEST(check_tables(ring, tree).ok());
  BOOST_TEST(tree.hosts[0].lmc == 0);
  const Metrics m = compute_metrics(ring, tree);
  BOOST_TEST(m.average_distance == 5.0 / 3, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(m.crossing_path == 4);
  o.updown_paths = ShortestPathChoice::Balanced;
  BOOST_TEST(compute_metrics(ring, compute_routing(ring, o)).average_distance == 4.0 / 3,
             boost::test_tools::tolerance(1e-9));
  // Larger: legal and deadlock-free on a random irregular network, longer on average.
  const Topology irr = make_irregular(16, 8, 4, 3, true);
  o.root = -1;
  const double minimal = compute_metrics(irr, compute_routing(irr, o)).average_distance;
  o.updown_paths = ShortestPathChoice::Tree;
  const TableSet t16 = compute_routing(irr, o);
  BOOST_TEST(check_tables(irr, t16).ok());
  BOOST_TEST(compute_metrics(irr, t16).average_distance > minimal);
}
