// Fat-tree generators (fattree:k=,n=, xgft:m=,w=): the switch, host and cable counts of their
// definitions, the wiring rule and port layout generators.h documents, the routings that must
// route them, and bad specs named by their key.
#define BOOST_TEST_MODULE routing_fat_tree_generators
#include <boost/test/data/test_case.hpp>
#include <boost/test/unit_test.hpp>
#include <map>

#include "routing/checks.h"
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
  const Topology t =
      build_topology_spec("fattree:k=" + std::to_string(k) + ",n=" + std::to_string(n));
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
    {{4, 4, 4}, {1, 4, 4}},
    {{3, 2, 4}, {1, 2, 3}},
    {{2, 3, 2, 2}, {1, 1, 2, 3}},
    {{6}, {1}},
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
  BOOST_TEST(error_of([] { build_topology_spec("fattree:k=4,n=2:hosts=5"); }).find("hosts=5") !=
             std::string::npos);
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
}
