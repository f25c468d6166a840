// Fat-tree generators (fattree:k=,n=, xgft:m=,w=): the switch, host and cable counts of their
// definitions, the wiring rule and port layout generators.h documents, the routings that must
// route them, and bad specs named by their key.
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>
#include <map>

#include "routing/bisection.h"
#include "routing/checks.h"
#include "routing/fat_tree_shape.h"
#include "routing/generators.h"
#include "routing/routing.h"
#include "routing/topo_spec.h"
#include "tests/support/error_of.h"

using namespace ibsc::routing;
using ibsc::testing::error_of;
namespace bdata = boost::unit_test::data;

namespace {

long power(long b, int e) {
  long r = 1;
  while (e-- > 0) r *= b;
  return r;
}

// Switch-to-switch cables between level l and l + 1, with switches numbered level by level
// from `per_level` counts.
std::vector<long> cables_per_level(const Topology& t, const std::vector<long>& per_level) {
  std::vector<int> level(t.num_switches);
  for (int s = 0, l = 0, first = 0; s < t.num_switches; ++s) {
    while (s >= first + per_level[l]) first += static_cast<int>(per_level[l++]);
    level[s] = l;
  }
  std::vector<long> up(per_level.size(), 0);
  for (int s = 0; s < t.num_switches; ++s)
    for (int p = 1; p <= t.nodes[s].num_ports; ++p) {
      const int o = t.nodes[s].ports[p].node;
      if (o < 0 || o >= t.num_switches) continue;
      BOOST_TEST(std::abs(level[o] - level[s]) == 1);  // only adjacent levels are joined
      if (level[o] == level[s] + 1) ++up[level[s]];
    }
  return up;
}

bool routes_and_checks(const Topology& t, Algorithm a) {
  RoutingOptions o;
  o.algorithm = a;
  const CheckReport r = check_tables(t, compute_routing(t, o));
  if (!r.ok()) BOOST_TEST_MESSAGE(r.text());
  return r.ok();
}

}  // namespace

// k-ary n-tree: n levels of k^(n-1) switches, k^n hosts, (n-1) k^n switch cables, each level
// below the top sending k^n cables up; every switch has k down and k up ports (2k in all).
const std::vector<std::pair<int, int>> kKaryCases = {{2, 1}, {2, 3}, {3, 2}, {4, 3}, {18, 2}, {5, 4}, {2, 6}};

BOOST_DATA_TEST_CASE(kary_ntree_has_its_counts, bdata::xrange(kKaryCases.size()), i) {
  const auto [k, n] = kKaryCases[i];
  const Topology t = build_topology_spec("fattree:k=" + std::to_string(k) + ",n=" + std::to_string(n));
  BOOST_TEST(t.kind == "fattree");
  BOOST_TEST(t.num_switches == n * power(k, n - 1));
  BOOST_TEST(t.num_hosts == power(k, n));
  BOOST_TEST(count_switch_links(t) == (n - 1) * power(k, n));
  const std::vector<long> up = cables_per_level(t, std::vector<long>(n, power(k, n - 1)));
  for (int l = 0; l < n; ++l) BOOST_TEST(up[l] == (l < n - 1 ? power(k, n) : 0));
  for (int s = 0; s < t.num_switches; ++s) {
    BOOST_TEST(t.nodes[s].num_ports == 2 * k);
    const bool top = s >= (n - 1) * power(k, n - 1);
    for (int p = 1; p <= 2 * k; ++p) BOOST_TEST((t.nodes[s].ports[p].node >= 0) == (p <= k || !top));
  }
}

// The wiring rule of generators.h, written out independently: switch <w, l>'s up port k+1+j
// reaches <w with digit l = j, l+1> on its down port 1 + w_l; leaf w's port 1+j holds host k*w+j.
BOOST_AUTO_TEST_CASE(kary_ntree_wiring_follows_petrini_vanneschi) {
  const int k = 3, n = 4;
  const Topology t = make_kary_ntree(k, n);
  const int per = static_cast<int>(power(k, n - 1));
  for (int l = 0; l + 1 < n; ++l)
    for (int w = 0; w < per; ++w) {
      const int digit = static_cast<int>(w / power(k, l) % k);
      for (int j = 0; j < k; ++j) {
        const int parent = static_cast<int>(w + (j - digit) * power(k, l));
        const PortPeer& pp = t.nodes[l * per + w].ports[k + 1 + j];
        BOOST_TEST(pp.node == (l + 1) * per + parent);
        BOOST_TEST(pp.port == 1 + digit);
      }
    }
  for (int h = 0; h < t.num_hosts; ++h) {
    BOOST_TEST(t.host_switch(h) == h / k);
    BOOST_TEST(t.host_switch_port(h) == 1 + h % k);
  }
}

// XGFT(h; m; w): level i holds prod(m_{i+1..h}) prod(w_1..w_i) nodes, and w_{i+1} cables go up
// from each level-i node (hosts: w_1 = 1).
struct XgftCase {
  std::vector<int> m, w;
};
const std::vector<XgftCase> kXgftCases = {
    {{18, 36}, {1, 18}},  // 648 hosts, 36 leaves, 18 spines: the 36-port 2-level tree
    {{4, 4, 4}, {1, 4, 4}}, {{3, 2, 4}, {1, 2, 3}}, {{2, 3, 2, 2}, {1, 1, 2, 3}}, {{6}, {1}},
};

BOOST_DATA_TEST_CASE(xgft_has_its_counts, bdata::xrange(kXgftCases.size()), c) {
  const XgftCase& x = kXgftCases[c];
  std::string spec = "xgft:m=", ws = ":w=";
  for (size_t i = 0; i < x.m.size(); ++i) {
    spec += (i ? "," : "") + std::to_string(x.m[i]);
    ws += (i ? "," : "") + std::to_string(x.w[i]);
  }
  const Topology t = build_topology_spec(spec + ws);
  const int h = static_cast<int>(x.m.size());
  auto nodes = [&](int i) {
    long n = 1;
    for (int j = 0; j < h; ++j) n *= j < i ? x.w[j] : x.m[j];
    return n;
  };
  std::vector<long> per_level;
  long switches = 0, cables = 0;
  for (int i = 1; i <= h; ++i) {
    per_level.push_back(nodes(i));
    switches += nodes(i);
    if (i < h) cables += nodes(i) * x.w[i];
  }
  BOOST_TEST(t.num_hosts == nodes(0));
  BOOST_TEST(t.num_switches == switches);
  BOOST_TEST(count_switch_links(t) == cables);
  const std::vector<long> up = cables_per_level(t, per_level);
  for (int i = 1; i < h; ++i) BOOST_TEST(up[i - 1] == nodes(i) * x.w[i]);
  // Each level-i switch: m_i children, w_{i+1} parents, all on distinct switches.
  for (int s = 0; s < t.num_switches; ++s) {
    std::map<int, int> peers;
    for (int p = 1; p <= t.nodes[s].num_ports; ++p)
      if (t.nodes[s].ports[p].node >= 0) ++peers[t.nodes[s].ports[p].node];
    for (auto [peer, cables_to_it] : peers) BOOST_TEST(cables_to_it == 1);
  }
}

// A k-ary n-tree is XGFT(n; k,..,k; 1,k,..,k), cable for cable.
BOOST_AUTO_TEST_CASE(kary_ntree_is_the_xgft_of_its_definition) {
  const Topology a = build_topology_spec("fattree:k=4,n=3");
  const Topology b = build_topology_spec("xgft:m=4,4,4:w=1,4,4:ports=8");
  BOOST_REQUIRE(a.nodes.size() == b.nodes.size());
  for (size_t v = 0; v < a.nodes.size(); ++v)
    for (int p = 1; p <= a.nodes[v].num_ports; ++p) {
      BOOST_TEST(a.nodes[v].ports[p].node == b.nodes[v].ports[p].node);
      BOOST_TEST(a.nodes[v].ports[p].port == b.nodes[v].ports[p].port);
    }
}

// widths=2: every switch pair of adjacent levels joined by 2 cables on consecutive ports.
BOOST_AUTO_TEST_CASE(parallel_cables_between_levels) {
  const Topology t = build_topology_spec("fattree:k=4,n=3:widths=2");
  BOOST_TEST(count_switch_links(t) == 2 * 2 * 64);
  BOOST_TEST(t.nodes[0].num_ports == 8 + 8);  // the radix: a middle switch has 8 down, 8 up
  BOOST_TEST(t.nodes[0].ports[5].node == t.nodes[0].ports[6].node);
  BOOST_TEST(t.nodes[0].ports[6].port == t.nodes[0].ports[5].port + 1);
  const Topology v = build_topology_spec("xgft:m=4,4,4:w=1,4,4:widths=1,3");
  BOOST_TEST(count_switch_links(v) == 64 + 3 * 64);
}

// hosts= keeps meaning hosts per switch: on a fat tree, per leaf.
BOOST_AUTO_TEST_CASE(hosts_per_leaf) {
  const Topology t = build_topology_spec("fattree:k=4,n=2:hosts=2");
  BOOST_TEST(t.num_hosts == 4 * 2);
  BOOST_TEST(t.nodes[0].ports[3].node == -1);
  BOOST_TEST(error_of([] { build_topology_spec("fattree:k=4,n=2:hosts=5"); }).find("hosts=5") != std::string::npos);
}

BOOST_DATA_TEST_CASE(minhop_and_updown_route_them,
                     bdata::make({"fattree:k=4,n=3", "fattree:k=3,n=3:widths=2", "xgft:m=3,2,4:w=1,2,3",
                                  "fattree:k=18,n=2"}),
                     spec) {
  const Topology t = build_topology_spec(spec);
  BOOST_TEST(routes_and_checks(t, Algorithm::Minhop));
  BOOST_TEST(routes_and_checks(t, Algorithm::UpdownBfs));
}

BOOST_AUTO_TEST_CASE(bad_specs_name_the_key) {
  auto err = [](const std::string& spec) { return error_of([&] { build_topology_spec(spec); }); };
  BOOST_TEST(err("fattree:k=4").find("needs n=") != std::string::npos);
  BOOST_TEST(err("fattree").find("k= and n=") != std::string::npos);
  BOOST_TEST(err("fattree:k=4,n=2,x=1").find("unknown key 'x'") != std::string::npos);
  BOOST_TEST(err("fattree:k=four,n=2").find("k 'four'") != std::string::npos);
  BOOST_TEST(err("fattree:k=1,n=2").find("k must be") != std::string::npos);
  BOOST_TEST(err("fattree:k=4,n=0").find("n (levels)") != std::string::npos);
  BOOST_TEST(err("fattree:k=4,n=3:widths=1,2,3").find("widths=") != std::string::npos);
  BOOST_TEST(err("fattree:k=4,n=2:ports=7").find("need 8 ports") != std::string::npos);
  BOOST_TEST(err("xgft:m=4,4:w=2,4").find("w1 must be 1") != std::string::npos);
  BOOST_TEST(err("xgft:m=4,4:w=1").find("w= needs as many values as m=") != std::string::npos);
  BOOST_TEST(err("xgft:m=4,4").find("needs w=") != std::string::npos);
  BOOST_TEST(err("xgft:w=1,4").find("needs m=") != std::string::npos);
  BOOST_TEST(err("xgft:m=4,0:w=1,4").find("m values") != std::string::npos);
  BOOST_TEST(err("xgft:m=2,2,2,2,2,2,2,2:w=1,254,254,254,254,254,254,254").find("2^22 nodes") != std::string::npos);
  BOOST_TEST(err("fattree:k=40,n=4").find("more than 2^20 hosts") != std::string::npos);
}

// ---- fattree:radix=,size= (clusters) ----

namespace {

// Expected counts, worked out by hand from the construction in generators.h.
struct ClusterCase {
  std::string spec;
  long leaves, spines, cores, leaf_spine_cables, spine_core_cables;
};
const std::vector<ClusterCase> kClusterCases = {
    // 36 ports, non-blocking: 18 hosts + 18 up per leaf; 36 leaves on 18 spines of 36 down.
    {"fattree:radix=36,size=648", 36, 18, 0, 648, 0},
    // Half of it: 18 leaves x 18 up = 324 cables on ceil(324 / 36) = 9 spines (2 cables a pair).
    {"fattree:radix=36,size=324", 18, 9, 0, 324, 0},
    // ceil(100 / 18) = 6 leaves, 108 cables on 3 spines.
    {"fattree:radix=36,size=100", 6, 3, 0, 108, 0},
    // 3 levels: 36 pods of 18 leaves and 18 spines, 18 groups of 18 cores: 11,664 = 36^3 / 4.
    {"fattree:radix=36,size=11664", 648, 648, 324, 11664, 11664},
    // 649 hosts: 37 leaves in 3 pods (13, 12, 12), 13 spines each (13 x 18 / 18), each spine
    // 18 cables up, 13 groups of ceil(3 x 18 / 36) = 2 cores.
    {"fattree:radix=36,size=649", 37, 39, 26, 37 * 18, 39 * 18},
    {"fattree:radix=64,size=2048", 64, 32, 0, 2048, 0},
    // 64^3 / 4: 64 pods of 32 + 32, 32 groups of 32 cores.
    {"fattree:radix=64,size=65536", 2048, 2048, 1024, 65536, 65536},
    // 2:1 at the leaves: 24 hosts + 12 up; 36 leaves x 12 on 12 spines: 864 = 36 x 24.
    {"fattree:radix=36,size=864,blocking=2", 36, 12, 0, 432, 0},
    // 3:1 on 48 ports: 36 + 12; ceil(1000 / 36) = 28 leaves, 336 cables on 7 spines.
    {"fattree:radix=48,size=1000,blocking=3", 28, 7, 0, 336, 0},
    // 2:1 beyond 864: 84 leaves in 5 pods (17, 17, 17, 17, 16), ceil(17 x 12 / 18) = 12 spines
    // each taking at most 17 cables and sending 17 up, 12 groups of ceil(5 x 17 / 36) = 3 cores.
    {"fattree:radix=36,size=2000,blocking=2", 84, 60, 36, 84 * 12, 60 * 17},
    // Pairs of cables: a leaf's 18 up ports are 9 bundles, a spine takes 18 bundles.
    {"fattree:radix=36,size=324,widths=2", 18, 9, 0, 324, 0},
    // levels=3 on a size 2 levels would hold: one pod, spines with 18 up to 9 groups... of one core.
    {"fattree:radix=36,size=324,levels=3", 18, 18, 18, 324, 18 * 18},
    {"fattree:radix=36,size=36", 1, 0, 0, 0, 0},
    {"fattree:radix=40,size=800", 40, 20, 0, 800, 0},
};

int level_of(const std::string& name) { return name.rfind("leaf", 0) == 0 ? 0 : name.rfind("spine", 0) == 0 ? 1 : 2; }

}  // namespace

BOOST_DATA_TEST_CASE(cluster_has_its_counts, bdata::xrange(kClusterCases.size()), c) {
  const ClusterCase& x = kClusterCases[c];
  BOOST_TEST_MESSAGE(x.spec);
  const Topology t = build_topology_spec(x.spec);
  long count[3] = {0, 0, 0}, cables[3] = {0, 0, 0};
  for (int s = 0; s < t.num_switches; ++s) {
    const int l = level_of(t.nodes[s].name);
    ++count[l];
    BOOST_TEST(s == (l == 0 ? 0 : l == 1 ? count[0] : count[0] + count[1]) + count[l] - 1);  // level by level
    for (int p = 1; p <= t.nodes[s].num_ports; ++p) {
      const int o = t.nodes[s].ports[p].node;
      if (o < 0 || o >= t.num_switches) continue;
      const int lo = level_of(t.nodes[o].name);
      BOOST_TEST(std::abs(lo - l) == 1);
      if (lo == l + 1) ++cables[l];
    }
  }
  const int size = std::stoi(x.spec.substr(x.spec.find("size=") + 5));
  BOOST_TEST(t.num_hosts == size);
  BOOST_TEST(count[0] == x.leaves);
  BOOST_TEST(count[1] == x.spines);
  BOOST_TEST(count[2] == x.cores);
  BOOST_TEST(cables[0] == x.leaf_spine_cables);
  BOOST_TEST(cables[1] == x.spine_core_cables);
  // Hosts spread evenly over the leaves.
  std::vector<int> hosts(t.num_switches, 0);
  for (int h = 0; h < t.num_hosts; ++h) ++hosts[t.host_switch(h)];
  for (int s = 0; s < x.leaves; ++s) BOOST_TEST(hosts[s] == size / x.leaves + (s < size % x.leaves));
}

// Every leaf reaches every spine of its pod (all, in 2 levels), its cables spread evenly:
// a leaf's cable counts to its spines differ by at most one (one bundle with widths).
BOOST_DATA_TEST_CASE(cluster_leaves_spread_over_their_spines, bdata::xrange(kClusterCases.size()), c) {
  const Topology t = build_topology_spec(kClusterCases[c].spec);
  const long spines = kClusterCases[c].spines, cores = kClusterCases[c].cores;
  const int width = kClusterCases[c].spec.find("widths=2") != std::string::npos ? 2 : 1;
  for (int s = 0; s < t.num_switches; ++s) {
    if (level_of(t.nodes[s].name) != 0 || spines == 0) continue;
    std::map<int, int> to;
    for (int p = 1; p <= t.nodes[s].num_ports; ++p) {
      const int o = t.nodes[s].ports[p].node;
      if (o >= 0 && o < t.num_switches) ++to[o];
    }
    int lo = 1 << 30, hi = 0;
    for (auto [o, n] : to) lo = std::min(lo, n), hi = std::max(hi, n);
    BOOST_TEST(hi - lo <= width);
    if (cores == 0) BOOST_TEST(static_cast<long>(to.size()) == spines);
  }
}

BOOST_DATA_TEST_CASE(clusters_route_and_check,
                     bdata::make({"fattree:radix=12,size=72", "fattree:radix=8,size=128", "fattree:radix=8,size=50",
                                  "fattree:radix=12,size=100,blocking=2", "fattree:radix=8,size=16,widths=2",
                                  "fattree:radix=8,size=30,widths=2"}),
                     spec) {
  const Topology t = build_topology_spec(spec);
  BOOST_TEST(routes_and_checks(t, Algorithm::Minhop));
  BOOST_TEST(routes_and_checks(t, Algorithm::UpdownBfs));
}

BOOST_AUTO_TEST_CASE(cluster_bad_specs_name_the_key) {
  auto err = [](const std::string& spec) { return error_of([&] { build_topology_spec(spec); }); };
  BOOST_TEST(err("fattree:radix=35,size=100").find("radix=35 must be even") != std::string::npos);
  BOOST_TEST(err("fattree:radix=36").find("needs size=") != std::string::npos);
  BOOST_TEST(err("fattree:size=36").find("needs radix=") != std::string::npos);
  BOOST_TEST(err("fattree:radix=36,size=700,levels=2").find("size=700 hosts do not fit 2 levels of radix 36") !=
             std::string::npos);
  BOOST_TEST(err("fattree:radix=36,size=700,levels=2").find("at most 648") != std::string::npos);
  BOOST_TEST(err("fattree:radix=36,size=11665").find("at most 11664") != std::string::npos);
  BOOST_TEST(err("fattree:radix=36,size=865,blocking=2,levels=2").find("blocking 2:1") != std::string::npos);
  BOOST_TEST(err("fattree:radix=36,size=100,levels=4").find("levels=4") != std::string::npos);
  BOOST_TEST(err("fattree:radix=36,size=100,levels=0").find("levels=0") != std::string::npos);
  BOOST_TEST(err("fattree:radix=36,size=100,blocking=0").find("blocking=0") != std::string::npos);
  BOOST_TEST(err("fattree:radix=36,size=100,widths=4").find("widths=4 does not divide") != std::string::npos);
  BOOST_TEST(err("fattree:radix=36,size=100,hosts=4").find("hosts=") != std::string::npos);
  BOOST_TEST(err("fattree:radix=36,size=100,k=4").find("k=") != std::string::npos);
  BOOST_TEST(err("fattree:radix=36,size=0").find("size=0 hosts: 1..2^20") != std::string::npos);
  BOOST_TEST(err("fattree:radix=254,size=2000000").find("size=2000000 hosts: 1..2^20") != std::string::npos);
  BOOST_TEST(err("fattree:radix=36,size=100,oversub=2").find("unknown key 'oversub'") != std::string::npos);
}

// ---- levels read from the graph, and the fat-tree bisection ----

// The shape read back has the generator's levels; the fat-tree cut meets the known bisection:
// a k-ary n-tree with even k is full (k^n / 2 cables for k^n / 2 hosts), a cluster at B:1
// crosses U / D of it (36 ports at 2:1: 12 / 24; 48 at 3:1: 12 / 36).
struct BisectionCase {
  std::string spec;
  std::vector<int> switches;  // per level
  long cables;                // across the fat-tree cut
  double relative;
};
const std::vector<BisectionCase> kBisectionCases = {
    {"fattree:k=4,n=3", {16, 16, 16}, 32, 1.0},
    {"fattree:k=6,n=2", {6, 6}, 18, 1.0},
    {"fattree:k=2,n=5", {16, 16, 16, 16, 16}, 16, 1.0},
    {"xgft:m=18,36:w=1,18", {36, 18}, 324, 1.0},
    {"fattree:radix=36,size=648", {36, 18}, 324, 1.0},
    {"fattree:radix=36,size=11664", {648, 648, 324}, 5832, 1.0},
    {"fattree:radix=36,size=864,blocking=2", {36, 12}, 216, 0.5},
    {"fattree:radix=48,size=1728,blocking=3", {48, 12}, 288, 1.0 / 3},
    {"fattree:radix=64,size=65536", {2048, 2048, 1024}, 32768, 1.0},
};

BOOST_DATA_TEST_CASE(shape_and_bisection, bdata::xrange(kBisectionCases.size()), c) {
  const BisectionCase& x = kBisectionCases[c];
  BOOST_TEST_MESSAGE(x.spec);
  const Topology t = build_topology_spec(x.spec);
  const FatTreeShape f = fat_tree_shape(t);
  BOOST_REQUIRE(f.fat_tree);
  BOOST_TEST(f.switches == x.switches, boost::test_tools::per_element());
  long below = 0;
  for (int l = 0; l < f.levels(); ++l) {  // switches numbered level by level
    for (int s = 0; s < x.switches[l]; ++s) BOOST_TEST(f.level[below + s] == l);
    below += x.switches[l];
  }
  const BisectionCut b = fat_tree_bisection(t, f.level);
  BOOST_TEST(b.cables == x.cables);
  BOOST_TEST(cut_cables(t, b.left) == b.cables);
  BOOST_TEST(b.relative == x.relative, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(other_topologies_are_not_fat_trees) {
  const FatTreeShape torus = fat_tree_shape(build_topology_spec("torus:4x4"));
  BOOST_TEST(!torus.fat_tree);
  BOOST_TEST(torus.why_not.find("joins levels 0 and 0") != std::string::npos);
  BOOST_TEST(!fat_tree_shape(build_topology_spec("torus:4x4:hosts=0")).fat_tree);
  // An odd ring with hosts on one switch: its two farthest switches are on one level, joined.
  Topology ring = make_torus({5}, 0, true, 3);
  add_host(ring, "H0");
  connect(ring, ring.host_node(0), 1, 0, 3);
  const FatTreeShape r = fat_tree_shape(ring);
  BOOST_TEST(!r.fat_tree);
  BOOST_TEST(r.why_not.find("joins levels") != std::string::npos);
  BOOST_TEST(error_of([] {
               const Topology one = build_topology_spec("fattree:radix=8,size=8");
               fat_tree_bisection(one, fat_tree_shape(one).level);
             }).find("one leaf") != std::string::npos);
}

// Every size small radixes can hold, at every blocking: the fewest levels that hold it,
// ceil(size / D) leaves each using all U up ports, a fat tree by the shape's rules (so minhop
// and up*/down* have its up/down structure), and routed by minhop with a clean check on a
// sample of the sizes.
BOOST_AUTO_TEST_CASE(cluster_every_small_size) {
  int checked = 0;
  for (int radix : {4, 6, 8})
    for (int blocking = 1; blocking <= 3; ++blocking) {
      const int d = radix * blocking / (blocking + 1), u = radix - d;
      const int max2 = radix * d, max3 = radix * (radix / 2) * d;
      for (int size = 1; size <= max3; ++size) {
        const std::string spec = "fattree:radix=" + std::to_string(radix) + ",size=" + std::to_string(size) +
                                 ",blocking=" + std::to_string(blocking);
        const Topology t = build_topology_spec(spec);
        BOOST_TEST_CONTEXT(spec) {
          BOOST_TEST(t.num_hosts == size);
          const FatTreeShape f = fat_tree_shape(t);
          BOOST_REQUIRE(f.fat_tree);
          BOOST_TEST(f.levels() == (size <= radix ? 1 : size <= max2 ? 2 : 3));
          if (f.levels() == 1) continue;
          BOOST_TEST(f.switches[0] == (size + d - 1) / d);
          BOOST_TEST(f.cables_up[0] == static_cast<long>(f.switches[0]) * u);
          for (int s = 0; s < t.num_switches; ++s) BOOST_TEST(t.nodes[s].num_ports == radix);
          if (size % 5 == 0) {
            BOOST_TEST(routes_and_checks(t, Algorithm::Minhop));
            ++checked;
          }
        }
      }
    }
  BOOST_TEST(checked > 100);
}
