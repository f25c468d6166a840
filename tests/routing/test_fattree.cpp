// IBSC's fat-tree routing (routing/fattree.h): the shift permutation in compute-node order loads
// no channel twice on k-ary n-trees; route counts per port on a 2-level tree by hand; LMC's LIDs
// of one destination on different up-ports; fattree-ar's candidates are exactly the minimal
// ports with the static entry first; the dependency check on every tree; refusals.
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>

#include "routing/checks.h"
#include "routing/fat_tree_shape.h"
#include "routing/fattree.h"
#include "routing/graph.h"
#include "routing/pair_loads.h"
#include "routing/routing.h"
#include "routing/topo_spec.h"
#include "tests/support/error_of.h"

using namespace ibsc;
using namespace ibsc::routing;
using ibsc::testing::error_of;

namespace {

TableSet route(const Topology& t, Algorithm a, int lmc = 0) {
  RoutingOptions o;
  o.algorithm = a;
  o.lmc = lmc;
  return compute_routing(t, o);
}

// Routes of host pairs per switch-to-switch channel: each pair's primary record, the first
// candidate at each switch.
struct Walker {
  const Topology& t;
  const TableSet& ts;
  SwitchGraph g{t};
  std::vector<int> load = std::vector<int>(g.channels.size(), 0);
  void walk(int src, int dst, Lid dlid = 0) {
    if (dlid == 0) dlid = ts.hosts[src].paths[dst].front().dlid;
    int x = t.host_switch(src);
    for (int hops = 0; x != t.host_switch(dst); ++hops) {
      BOOST_REQUIRE(hops <= g.n);
      const int c = g.channel_at(x, ts.switches[x].lft[dlid].primary());
      BOOST_REQUIRE(c >= 0);
      ++load[c];
      x = g.channels[c].to;
    }
    BOOST_REQUIRE(ts.switches[x].lft[dlid].primary() == t.host_switch_port(dst));
  }
  int busiest() const { return *std::max_element(load.begin(), load.end()); }
};

// The specs of the generated trees below (k-ary n-trees, XGFTs, clusters with parallel cables).
const std::vector<std::string> kTrees = {"fattree:k=2,n=2",           "fattree:k=2,n=4",
                                         "fattree:k=3,n=3",           "fattree:k=4,n=2",
                                         "fattree:k=4,n=3",           "xgft:m=4,4:w=1,4",
                                         "xgft:m=3,2,2:w=1,2,3",      "fattree:radix=8,size=32",
                                         "fattree:radix=12,size=100", "fattree:radix=8,size=48,blocking=2"};

}  // namespace

// Shift j sends compute node i to node (i + j) mod N in the CA order; on a k-ary n-tree no
// channel carries two of one shift's routes (Zahavi et al.'s property of OpenSM's ftree).
BOOST_AUTO_TEST_CASE(shift_permutation_is_congestion_free_on_k_ary_n_trees) {
  for (const std::string spec : {"fattree:k=2,n=2", "fattree:k=2,n=4", "fattree:k=3,n=3", "fattree:k=4,n=2",
                                 "fattree:k=4,n=3", "fattree:k=5,n=2"}) {
    const Topology t = build_topology_spec(spec);
    const TableSet ts = route(t, Algorithm::Fattree);
    const std::vector<int> order = fat_tree_indexing(t).ca_order;
    const int n = static_cast<int>(order.size());
    BOOST_TEST(n == t.num_hosts);
    for (int j = 1; j < n; ++j) {
      Walker w{t, ts};
      for (int i = 0; i < n; ++i) w.walk(order[i], order[(i + j) % n]);
      BOOST_TEST(w.busiest() == 1, spec << " shift " << j << ": busiest channel " << w.busiest());
    }
  }
}

// The same on the imported 4-ary 3-tree, whose levels come from the graph alone.
BOOST_AUTO_TEST_CASE(shift_permutation_is_congestion_free_on_the_imported_4_ary_3_tree) {
  const Topology t = build_topology_spec(std::string("file:") + IBSC_FABRICS_DIR +
                                         "/ibnetdiscover_synthetic_fattree_k4n3_cyberang3l.topo");
  const TableSet ts = route(t, Algorithm::Fattree);
  const std::vector<int> order = fat_tree_indexing(t).ca_order;
  BOOST_TEST(order.size() == 128u);
  for (int j = 1; j < 128; ++j) {
    Walker w{t, ts};
    for (int i = 0; i < 128; ++i) w.walk(order[i], order[(i + j) % 128]);
    BOOST_TEST(w.busiest() == 1, "shift " << j << ": busiest channel " << w.busiest());
  }
}

// 3 leaves of 4 hosts, 2 spines, 2 parallel cables from each leaf to each spine (LAG). Each
// leaf's hosts take the spines in turn (2 main paths per spine), one per cable. By hand:
//   leaf up cable: the 8 other hosts split over 4 up cables, 2 LIDs each; as routes of all
//     pairs, 4 sources x 2 destinations = 8;
//   spine down cable: every spine routes all 4 hosts of a leaf down its 2 cables, 2 LIDs each
//     (main paths 1 per cable, the other spine's hosts spread over both); as routes, each
//     host's main path cable carries its 8 foreign sources = 8;
//   leaf host port: its host's LID alone.
BOOST_AUTO_TEST_CASE(route_counts_per_port_on_a_two_level_tree_equal_the_hand_count) {
  Topology t;
  t.kind = "test";
  for (int l = 0; l < 3; ++l) add_switch(t, "leaf" + std::to_string(l), 8);
  for (int s = 0; s < 2; ++s) add_switch(t, "spine" + std::to_string(s), 6);
  for (int l = 0; l < 3; ++l)
    for (int c = 0; c < 4; ++c) connect(t, l, 5 + c, 3 + c / 2, 1 + 2 * l + c % 2);
  for (int l = 0; l < 3; ++l)
    for (int h = 0; h < 4; ++h) connect(t, add_host(t, "h" + std::to_string(4 * l + h)), 1, l, 1 + h);
  const TableSet ts = route(t, Algorithm::Fattree);
  for (int s = 0; s < 5; ++s)
    for (int p = 1; p <= t.nodes[s].num_ports; ++p) {
      int lids = 0;
      for (int h = 0; h < 12; ++h) lids += ts.switches[s].lft[ts.hosts[h].base_lid].primary() == p;
      BOOST_TEST(lids == (s < 3 && p <= 4 ? 1 : 2), t.nodes[s].name << " port " << p);
    }
  Walker w{t, ts};
  for (int a = 0; a < 12; ++a)
    for (int b = 0; b < 12; ++b)
      if (a / 4 != b / 4) w.walk(a, b);
  for (size_t c = 0; c < w.load.size(); ++c) BOOST_TEST(w.load[c] == 8, "channel " << c);
}

// With LMC l, a destination's 2^l LIDs leave every other leaf on 2^l different up-ports, and
// its base LID routes exactly as with LMC 0 (offset 0 of every host is routed first).
BOOST_AUTO_TEST_CASE(lids_of_one_destination_leave_a_leaf_on_different_up_ports) {
  for (const std::string spec : {"fattree:k=4,n=3", "fattree:k=4,n=2", "xgft:m=4,4:w=1,4"})
    for (int lmc : {1, 2}) {
      const Topology t = build_topology_spec(spec);
      const FatTreeIndexing f = fat_tree_indexing(t);
      const TableSet ts = route(t, Algorithm::Fattree, lmc), plain = route(t, Algorithm::Fattree);
      BOOST_TEST((ts.path_choice == PathChoice::RandomPerPacket));
      for (int d = 0; d < t.num_hosts; ++d) {
        BOOST_TEST(ts.hosts[0].paths[d].size() == size_t(1) << lmc);
        for (int leaf : f.leaves) {
          if (leaf == t.host_switch(d)) continue;
          std::set<int> ports;
          for (int o = 0; o < 1 << lmc; ++o) {
            const PortNum p = ts.switches[leaf].lft[ts.hosts[d].base_lid + o].primary();
            BOOST_TEST((t.nodes[t.nodes[leaf].ports[p].node].kind == NodeKind::Switch));
            ports.insert(p);
          }
          BOOST_TEST(ports.size() == size_t(1) << lmc, spec << " LMC " << lmc << " host " << d);
        }
        for (int s = 0; s < t.num_switches; ++s)
          BOOST_TEST(ts.switches[s].lft[ts.hosts[d].base_lid].primary() ==
                     plain.switches[s].lft[plain.hosts[d].base_lid].primary());
      }
    }
}

// fattree-ar: at each switch, each host LID lists exactly the ports one hop nearer the
// destination's leaf (hop distances of the switch graph, no routing rule), which are the up-ports
// below the common ancestors and the cables down (all of a LAG) above; fattree's port first, the
// only one at priority level 0 (the fallback the switch takes while it can), the others at 1.
BOOST_AUTO_TEST_CASE(ar_candidates_are_the_minimal_ports_with_the_static_entry_first) {
  for (const std::string spec : {"fattree:k=4,n=3", "xgft:m=3,2,2:w=1,2,3", "fattree:radix=12,size=100"}) {
    const Topology t = build_topology_spec(spec);
    const FatTreeIndexing f = fat_tree_indexing(t);
    const TableSet ar = route(t, Algorithm::FattreeAr), st = route(t, Algorithm::Fattree);
    const SwitchGraph g(t);
    long up_lists = 0, several = 0;
    for (int d = 0; d < t.num_hosts; ++d) {
      const std::vector<int> dist = bfs_distances(g, t.host_switch(d));
      const Lid lid = ar.hosts[d].base_lid;
      for (int s = 0; s < t.num_switches; ++s) {
        if (s == t.host_switch(d)) continue;
        std::set<int> minimal, listed;
        bool all_up = true;
        for (int c : g.out[s])
          if (dist[g.channels[c].to] == dist[s] - 1) {
            minimal.insert(g.channels[c].port);
            all_up &= f.level[g.channels[c].to] > f.level[s];
          }
        const LftEntry e = ar.switches[s].lft[lid];
        for (const PortCandidate& c : e.candidates) {
          listed.insert(c.port);
          BOOST_TEST(int(c.priority) == (c.port == e.primary() ? 0 : 1));
          BOOST_TEST(!c.escape);
        }
        BOOST_TEST(listed.size() == e.candidates.size());
        BOOST_TEST(listed == minimal, spec << " switch " << s << " host " << d);
        BOOST_TEST(e.primary() == st.switches[s].lft[lid].primary());
        up_lists += all_up;
        several += e.candidates.size() > 1;
      }
    }
    BOOST_TEST(up_lists > 0);
    BOOST_TEST(several > 0);
  }
}

// Connected, loop-free and deadlock-free by the dependency check, on every tree of the tests.
BOOST_AUTO_TEST_CASE(check_passes_for_fattree_lmc_and_ar_on_every_generated_tree) {
  for (const std::string& spec : kTrees) {
    const Topology t = build_topology_spec(spec);
    for (auto [a, lmc] : {std::pair{Algorithm::Fattree, 0}, std::pair{Algorithm::Fattree, 2},
                          std::pair{Algorithm::FattreeAr, 0}, std::pair{Algorithm::FattreeAr, 1}}) {
      BOOST_TEST(algorithm_applies(a, t));
      const CheckReport r = check_tables(t, route(t, a, lmc));
      BOOST_TEST(r.ok(), spec << " " << enum_name(a) << " LMC " << lmc);
      BOOST_TEST(r.deadlock_free);
    }
  }
}

// Uniform all-to-all on a k-ary n-tree: a leaf's k hosts send to the N - k others over its k
// up-cables, so some cable carries at least N - k routes; fattree meets that bound (minhop's
// per-switch paths put 16 pairs on each switch pair's path: 240 on the imported 4-ary 3-tree).
BOOST_AUTO_TEST_CASE(uniform_traffic_meets_the_leaf_cable_bound) {
  for (const std::string spec : {"fattree:k=4,n=3", "fattree:k=3,n=3", "fattree:k=5,n=2"}) {
    const Topology t = build_topology_spec(spec);
    const int k = t.num_hosts / static_cast<int>(fat_tree_indexing(t).leaves.size());
    const PairLoads u = uniform_pair_loads(t, route(t, Algorithm::Fattree));
    BOOST_TEST(u.pairs == long(t.num_hosts) * (t.num_hosts - 1));
    BOOST_TEST(u.broken == 0);
    BOOST_TEST(u.busiest() == t.num_hosts - k, spec);
  }
  const Topology f = build_topology_spec(std::string("file:") + IBSC_FABRICS_DIR +
                                         "/ibnetdiscover_synthetic_fattree_k4n3_cyberang3l.topo");
  BOOST_TEST(uniform_pair_loads(f, route(f, Algorithm::Fattree)).busiest() == 124);
  BOOST_TEST(uniform_pair_loads(f, route(f, Algorithm::Minhop)).busiest() == 240);
}

// uniform_pair_loads shares walks between sources; it must count as one walk per pair does,
// also with destination renaming (minhop's LIDs differ between source switches).
BOOST_AUTO_TEST_CASE(uniform_pair_loads_count_as_walking_every_pair) {
  const Topology t = build_topology_spec("irregular:12:seed=3");
  for (Algorithm a : {Algorithm::Minhop, Algorithm::UpdownDfs}) {
    const TableSet ts = route(t, a);
    std::vector<std::pair<int, int>> all;
    for (int s = 0; s < t.num_hosts; ++s)
      for (int d = 0; d < t.num_hosts; ++d)
        if (s != d) all.push_back({s, d});
    const PairLoads u = uniform_pair_loads(t, ts), w = pair_loads(t, ts, all);
    BOOST_TEST(u.channel_load == w.channel_load, enum_name(a));
    BOOST_TEST(u.pairs == w.pairs);
    BOOST_TEST(u.pairs == long(all.size()));
  }
}

// Damaged trees (cables cut at random, levels kept): fattree routes them with a busiest channel
// at or below minhop's for uniform traffic and for the shifts in CA order, or refuses by name.
BOOST_AUTO_TEST_CASE(damaged_trees_route_at_least_as_well_as_minhop_or_are_refused) {
  int routed = 0, refused = 0;
  for (int cuts : {1, 2, 12})
    for (unsigned seed = 1; seed <= 4; ++seed) {
      Topology t = build_topology_spec("fattree:k=4,n=3");
      std::mt19937 rng(seed);
      for (int done = 0, tries = 0; done < cuts && tries < 10000; ++tries) {
        const int s = static_cast<int>(rng() % t.num_switches), p = 1 + static_cast<int>(rng() % t.nodes[s].num_ports);
        const PortPeer peer = t.nodes[s].ports[p];
        if (peer.node < 0 || peer.node >= t.num_switches) continue;
        Topology u = t;
        u.nodes[s].ports[p] = PortPeer{};
        u.nodes[peer.node].ports[peer.port] = PortPeer{};
        if (fat_tree_shape(u).fat_tree) t = u, ++done;
      }
      const TableSet mh = route(t, Algorithm::Minhop);
      TableSet ft;
      const std::string e = error_of([&] { ft = route(t, Algorithm::Fattree); });
      if (!e.empty()) {
        BOOST_TEST((e.find("route it with minhop") != std::string::npos ||
                    e.find("the tree is cut; minhop or updown-bfs route it") != std::string::npos),
                   e);
        ++refused;
        continue;
      }
      ++routed;
      BOOST_TEST(check_tables(t, ft).ok());
      const std::vector<int> order = fat_tree_indexing(t).ca_order;
      BOOST_TEST(uniform_pair_loads(t, ft).busiest() <= uniform_pair_loads(t, mh).busiest());
      BOOST_TEST(busiest_shift(t, ft, order) <= busiest_shift(t, mh, order), cuts << " cuts, seed " << seed);
    }
  BOOST_TEST(routed > 0);
  BOOST_TEST(refused > 0);
}

// opensm-ftree-ca-order.dump as OpenSM's ftree writes it: the CA order, each leaf padded with
// DUMMY lines to the fullest leaf's hosts (17 leaves of 5 or 6 hosts: 2 dummies).
BOOST_AUTO_TEST_CASE(ca_order_dump_lists_the_order_and_the_dummies) {
  const Topology t = build_topology_spec("fattree:radix=12,size=100");
  const TableSet ts = route(t, Algorithm::Fattree);
  const std::string path = (std::filesystem::temp_directory_path() / "ibsc_test_ftree_ca_order.dump").string();
  write_ftree_ca_order(t, ts, path);
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::filesystem::remove(path);
  BOOST_TEST(lines.size() == 17u * 6u);
  std::vector<std::string> expect;
  const FatTreeIndexing f = fat_tree_indexing(t);
  for (const std::vector<int>& hosts : f.leaf_hosts) {
    for (int h : hosts) {
      char lid[16];
      std::snprintf(lid, sizeof lid, "0x%04x", unsigned(ts.hosts[h].base_lid));
      expect.push_back(std::string(lid) + "\t" + t.nodes[t.host_node(h)].name);
    }
    for (size_t d = hosts.size(); d < 6; ++d) expect.push_back("0xFFFF\tDUMMY");
  }
  BOOST_TEST(lines == expect, boost::test_tools::per_element());
  BOOST_TEST(std::count(lines.begin(), lines.end(), "0xFFFF\tDUMMY") == 2);
}

// The real OpenSM's ftree on a 3-ary 3-tree with random GUIDs and port numbers
// (data/ftree/README.md): the compute-node order is OpenSM's line for line (by LID), and
// fattree's busiest channels equal those of OpenSM's tables (uniform 24, shift 1).
BOOST_AUTO_TEST_CASE(matches_opensm_ftree_on_a_scrambled_tree) {
  const std::string dir = std::string(IBSC_ROUTING_DATA_DIR) + "/ftree/k3_scrambled/";
  const Topology t = build_topology_spec("file:" + dir + "ibnetdiscover.txt");
  std::vector<Lid> opensm_order;
  std::ifstream in(dir + "opensm-ftree-ca-order.dump");
  for (std::string l; std::getline(in, l);) opensm_order.push_back(static_cast<Lid>(std::stoul(l, nullptr, 16)));
  std::vector<Lid> ours;
  for (int h : fat_tree_indexing(t).ca_order) ours.push_back(t.nodes[t.host_node(h)].lid);
  BOOST_TEST(ours == opensm_order, boost::test_tools::per_element());
  RoutingOptions o;
  o.algorithm = Algorithm::File;
  o.lft_file = dir + "opensm-lfts.dump";
  const TableSet opensm = compute_routing(t, o), ft = route(t, Algorithm::Fattree);
  BOOST_TEST(check_tables(t, ft).ok());
  const std::vector<int> order = fat_tree_indexing(t).ca_order;
  BOOST_TEST(uniform_pair_loads(t, opensm).busiest() == 24);
  BOOST_TEST(uniform_pair_loads(t, ft).busiest() == 24);
  BOOST_TEST(busiest_shift(t, opensm, order) == 1);
  BOOST_TEST(busiest_shift(t, ft, order) == 1);
}

BOOST_AUTO_TEST_CASE(refusals_name_the_reason) {
  const Topology torus = build_topology_spec("torus:4x4");
  BOOST_TEST(!algorithm_applies(Algorithm::Fattree, torus));
  BOOST_TEST(error_of([&] { route(torus, Algorithm::Fattree); }).find("fattree: not a fat tree") == 0u);
  // 16,384 hosts: LMC 1 fits the unicast LIDs, LMC 2 does not.
  const Topology big = build_topology_spec("fattree:radix=64,size=16384");
  const std::string e = error_of([&] { route(big, Algorithm::Fattree, 2); });
  BOOST_TEST(e.find("routing.lmc 2") != std::string::npos, e);
  BOOST_TEST(e.find("at most routing.lmc 1") != std::string::npos, e);
  BOOST_TEST(e.find("49151") != std::string::npos, e);
}

// Two islands, each a leaf with its own spine: every switch is some leaf's BFS descendant, so a
// connectivity check from the leaves alone passed; the shape must refuse it (and fattree with it).
BOOST_AUTO_TEST_CASE(an_island_with_a_leaf_of_its_own_is_not_a_fat_tree) {
  Topology t;
  t.kind = "test";
  for (int l = 0; l < 2; ++l) add_switch(t, "leaf" + std::to_string(l), 4);
  for (int s = 0; s < 2; ++s) add_switch(t, "spine" + std::to_string(s), 4);
  for (int l = 0; l < 2; ++l) connect(t, l, 3, 2 + l, 1);  // leaf l - spine l only
  for (int l = 0; l < 2; ++l)
    for (int h = 0; h < 2; ++h) connect(t, add_host(t, "h" + std::to_string(2 * l + h)), 1, l, 1 + h);
  const FatTreeShape f = fat_tree_shape(t);
  BOOST_TEST(!f.fat_tree);
  BOOST_TEST(f.why_not == "the switches are not connected");
  BOOST_TEST(!algorithm_applies(Algorithm::Fattree, t));
  // Joined by one cable between the spines it is connected, but that cable joins level 1 to 1.
  connect(t, 2, 2, 3, 2);
  BOOST_TEST(fat_tree_shape(t).why_not.find("joins levels 1 and 1") != std::string::npos);
}
