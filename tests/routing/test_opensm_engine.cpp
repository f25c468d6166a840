// The real OpenSM as a routing engine under ibsim (routing/opensm_engine.h): its tables pass the
// checks on fat trees, a fallback, a missing program, a time-out and an SL engine are clean
// errors, and two runs at once do not share ibsim's socket. The cases that run OpenSM are
// skipped, with the reason, where the Debian packages opensm and ibsim-utils are absent.
#include <boost/test/unit_test.hpp>

#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <queue>
#include <sstream>
#include <thread>

#include "routing/checks.h"
#include "routing/ibsim_net_writer.h"
#include "routing/opensm_engine.h"
#include "routing/topo_import.h"
#include "routing/topo_spec.h"
#include "tests/support/error_of.h"

using namespace ibsc;
using namespace ibsc::routing;
using ibsc::testing::error_of;

namespace {

// A 2-level fat tree: `leaves` leaf switches with `down` hosts and one cable to each of `spines`
// spine switches (leaf ports 1..down hosts, then the spines; spine port l+1 to leaf l).
Topology two_level_tree(int leaves, int spines, int down) {
  Topology t;
  t.kind = "file";
  for (int s = 0; s < spines; ++s) add_switch(t, "spine" + std::to_string(s), leaves);
  for (int l = 0; l < leaves; ++l) add_switch(t, "leaf" + std::to_string(l), down + spines);
  for (int l = 0; l < leaves; ++l)
    for (int s = 0; s < spines; ++s) connect(t, spines + l, down + 1 + s, s, l + 1);
  for (int l = 0; l < leaves; ++l)
    for (int h = 0; h < down; ++h) {
      const int n = add_host(t, "h" + std::to_string(l) + "_" + std::to_string(h));
      connect(t, n, 1, spines + l, h + 1);
    }
  return t;
}

boost::test_tools::assertion_result tools_present(boost::unit_test::test_unit_id) {
  const std::string why = opensm_tools_missing();
  boost::test_tools::assertion_result r(why.empty());
  r.message() << "OpenSM cannot run here: " << why;
  return r;
}

RoutingOptions options(const std::string& engine) {
  RoutingOptions o;
  o.algorithm = Algorithm::Opensm;
  o.opensm_engine = engine;
  o.opensm_timeout_s = 60;
  return o;
}

// Switch-to-switch hop counts from switch `from` (breadth first).
std::vector<int> switch_distances(const Topology& t, int from) {
  std::vector<int> d(t.num_switches, -1);
  std::queue<int> q;
  d[from] = 0;
  q.push(from);
  while (!q.empty()) {
    const int s = q.front();
    q.pop();
    for (int p = 1; p <= t.nodes[s].num_ports; ++p) {
      const int n = t.nodes[s].ports[p].node;
      if (n >= 0 && t.is_switch(n) && d[n] < 0) d[n] = d[s] + 1, q.push(n);
    }
  }
  return d;
}

// Every pair's primary path, walked through the LFTs, reaches its host in the fewest switch hops.
void every_path_minimal(const Topology& t, const TableSet& ts) {
  long pairs = 0, minimal = 0;
  for (int a = 0; a < t.num_hosts; ++a) {
    const std::vector<int> dist = switch_distances(t, t.host_switch(a));
    for (int b = 0; b < t.num_hosts; ++b) {
      if (a == b) continue;
      ++pairs;
      const Lid dlid = ts.path(a, b).dlid;
      int sw = t.host_switch(a), hops = 0;
      while (hops <= t.num_switches) {
        const PortNum p = ts.switches[sw].lft[dlid].primary();
        if (p == kNoPort) break;
        const int next = t.nodes[sw].ports[p].node;
        if (next == t.host_node(b)) {
          if (hops == dist[t.host_switch(b)]) ++minimal;
          break;
        }
        if (next < 0 || !t.is_switch(next)) break;
        sw = next;
        ++hops;
      }
    }
  }
  BOOST_TEST(minimal == pairs);
}

void passes_checks(const Topology& t, const TableSet& ts) {
  const CheckReport rep = check_tables(t, ts);
  BOOST_TEST(rep.ok(), rep.text());
  BOOST_TEST(rep.routed_pairs == static_cast<long>(t.num_hosts) * (t.num_hosts - 1));
}

std::string temp_dir(const std::string& leaf) {
  const auto d = std::filesystem::temp_directory_path() / ("ibsc_opensm_" + leaf + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  return d.string();
}

}  // namespace

// 4 leaves of 2 hosts, 2 spines: 6 switches, 8 hosts, 8 + 8 cables, each written from both ends.
BOOST_AUTO_TEST_CASE(net_file_has_the_topology_and_its_limits) {
  const Topology t = two_level_tree(4, 2, 2);
  std::ostringstream net;
  const IbsimNetSize size = write_ibsim_net(t, net);
  BOOST_TEST(size.nodes == 14);
  BOOST_TEST(size.switches == 6);
  BOOST_TEST(size.ports == 6 * 5 + 8 * 2);  // every switch 4 ports + port 0, every HCA 1 port + 1
  const std::string text = net.str();
  auto count = [&](const std::string& what) {
    long n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
  };
  BOOST_TEST(count("\nswitchguid=") == 6);
  BOOST_TEST(count("\ncaguid=") == 8);
  BOOST_TEST(count("\n[") == 2 * (8 + 8));
  BOOST_TEST(text.find("switchguid=0x0002c90300000005\nSwitch 4 \"S5\"") != std::string::npos);
  BOOST_TEST(text.find("caguid=0x0002c9040000000e\nHca 1 \"H7\"") != std::string::npos);  // port GUID ...0f
  BOOST_TEST(ibsim_host_port_guid(7) == 0x0002c9040000000fULL);
  // IBSC's own importer reads it back as the same fabric.
  const std::string path = temp_dir("net");
  std::filesystem::create_directories(path);
  std::ofstream(path + "/net") << text;
  const Topology back = read_topology_file(path + "/net");
  BOOST_TEST(back.num_switches == 6);
  BOOST_TEST(back.num_hosts == 8);
  BOOST_TEST(count_switch_links(back) == 8);
  std::filesystem::remove_all(path);

  Topology lonely = t;
  add_host(lonely, "lonely");
  BOOST_TEST(error_of([&] {
               std::ostringstream o;
               write_ibsim_net(lonely, o);
             }) == "host lonely has no cable: OpenSM could not reach it");
}

BOOST_AUTO_TEST_CASE(bad_engines_are_refused_by_name) {
  const Topology t = two_level_tree(2, 1, 1);
  const std::string unknown = error_of([&] { route_opensm(t, options("fattree")); });
  BOOST_TEST(unknown.find("unknown engine 'fattree' (one of minhop, updn, dnup, ftree,") != std::string::npos, unknown);
  const std::string none = error_of([&] { route_opensm(t, options("")); });
  BOOST_TEST(none == "routing opensm needs an engine (routing.opensm_engine, --opensm-engine)");
  const std::string torus = error_of([&] { route_opensm(t, options("torus-2QoS")); });
  BOOST_TEST(torus.find("routing opensm, engine torus-2QoS: it routes 2D and 3D tori and meshes made by IBSC's torus "
                        "or mesh generator") == 0,
             torus);
  const std::string cube =
      error_of([&] { route_opensm(build_topology_spec("torus:2x2x2x2:hosts=1"), options("torus-2QoS")); });
  BOOST_TEST(cube.find("this topology is 'torus' with 4 dimensions") != std::string::npos, cube);
  // SL engines read each pair's SL from the SA, one query each: 45 hosts are 1,980 pairs, 46 too many.
  const std::string many = error_of([&] { route_opensm(two_level_tree(2, 1, 23), options("lash")); });
  BOOST_TEST(many.find("routing opensm, engine lash: this engine puts paths on SLs") == 0, many);
  BOOST_TEST(many.find("46 hosts are 2070 pairs, above the 2000") != std::string::npos, many);
}

// A missing package, simulated by the variables that name the programs.
BOOST_AUTO_TEST_CASE(missing_program_is_a_clean_error) {
  const Topology t = two_level_tree(2, 1, 1);
  ::setenv("IBSC_OPENSM", "/nonexistent/opensm", 1);
  const std::string no_opensm = error_of([&] { route_opensm(t, options("ftree")); });
  ::unsetenv("IBSC_OPENSM");
  BOOST_TEST(no_opensm ==
             "routing opensm, engine ftree: IBSC_OPENSM=/nonexistent/opensm: no such program (opensm, Debian package "
             "opensm)");
  ::setenv("IBSC_UMAD2SIM", "/nonexistent/libumad2sim.so", 1);
  const std::string no_sim = error_of([&] { route_opensm(t, options("updn")); });
  ::unsetenv("IBSC_UMAD2SIM");
  BOOST_TEST(no_sim.find("routing opensm, engine updn: IBSC_UMAD2SIM=/nonexistent/libumad2sim.so: no such file") == 0,
             no_sim);
  BOOST_TEST(no_sim.find("ibsim-utils") != std::string::npos);
}

// minhop, updn, dnup and ftree all route a 2-level fat tree (the 4-ary 2-tree: 4 leaves of 4
// hosts, 4 spines) minimally and deadlock-free; ftree spreads each leaf's 12 remote destinations
// evenly, 3 on each of its 4 up-links (ports 5..8: generators.h numbers a switch's down ports first).
BOOST_AUTO_TEST_CASE(two_level_tree_tables_pass_the_checks, *boost::unit_test::precondition(tools_present)) {
  const Topology t = build_topology_spec("fattree:k=4,n=2");
  BOOST_REQUIRE(t.num_switches == 8);
  BOOST_REQUIRE(t.num_hosts == 16);
  for (const char* e : {"minhop", "updn", "dnup", "ftree"}) {
    BOOST_TEST_CONTEXT("engine " << e) {
      const TableSet ts = route_opensm(t, options(e));
      BOOST_TEST(ts.algorithm == std::string("opensm-") + e);
      BOOST_REQUIRE(ts.external);
      BOOST_TEST(ts.external->tool.rfind("OpenSM ", 0) == 0);
      BOOST_TEST(ts.external->log.find(std::string(e) + " tables configured on all switches") != std::string::npos);
      passes_checks(t, ts);
      every_path_minimal(t, ts);
      if (std::string(e) == "ftree")
        for (int leaf = 0; leaf < 4; ++leaf) {
          int on_port[4] = {};
          for (int b = 0; b < t.num_hosts; ++b) {
            if (t.host_switch(b) == leaf) continue;
            const PortNum p = ts.switches[leaf].lft[ts.hosts[b].base_lid].primary();
            BOOST_REQUIRE((p >= 5 && p <= 8));
            ++on_port[p - 5];
          }
          for (int n : on_port) BOOST_TEST(n == 3);
        }
    }
  }
}

// LMC 1 (`-l 1` passed through): every host has 2 LIDs, every pair 2 path records (base LID
// first), and the check walks both; ftree refuses LMC > 0 and says so, which is a clean error.
BOOST_AUTO_TEST_CASE(lmc_passed_through_gives_alternate_records, *boost::unit_test::precondition(tools_present)) {
  const Topology t = build_topology_spec("fattree:k=4,n=2");
  RoutingOptions o = options("updn");
  o.opensm_options = "-l 1";
  const TableSet ts = route_opensm(t, o);
  for (int h = 0; h < t.num_hosts; ++h) {
    BOOST_TEST(ts.hosts[h].lmc == 1);
    BOOST_TEST(ts.hosts[h].base_lid % 2 == 0);
  }
  BOOST_TEST(ts.hosts[0].paths[5].size() == 2u);
  BOOST_TEST(ts.hosts[0].paths[5][1].dlid == ts.hosts[5].base_lid + 1);
  passes_checks(t, ts);
  o.opensm_engine = "ftree";
  o.opensm_dir = temp_dir("lmc-ftree");  // a failed run keeps its folder for the user: ours, to remove
  const std::string e = error_of([&] { route_opensm(t, o); });
  BOOST_TEST(e.find("LMC > 0 is not supported by fat-tree routing") != std::string::npos, e);
  std::filesystem::remove_all(o.opensm_dir);
}

// The 4-ary 3-tree (48 switches, 64 hosts) and a published 4-ary 3-tree ibnetdiscover file (80
// switches, 128 hosts): ftree routes both minimally and deadlock-free.
BOOST_AUTO_TEST_CASE(kary_3tree_ftree_passes_the_checks, *boost::unit_test::precondition(tools_present)) {
  const Topology gen = build_topology_spec("fattree:k=4,n=3");
  BOOST_REQUIRE(gen.num_switches == 48);
  BOOST_REQUIRE(gen.num_hosts == 64);
  const Topology file =
      read_topology_file(std::string(IBSC_FABRICS_DIR) + "/ibnetdiscover_synthetic_fattree_k4n3_cyberang3l.topo");
  BOOST_REQUIRE(file.num_switches == 80);
  BOOST_REQUIRE(file.num_hosts == 128);
  for (const Topology* t : {&gen, &file}) {
    const TableSet ts = route_opensm(*t, options("ftree"));
    passes_checks(*t, ts);
    every_path_minimal(*t, ts);
  }
}

// LASH on a ring of 4 switches: two layers (SLs) make it deadlock-free, as its log says; the SLs
// come from the SA, the SL2VL tables from opensm-sl2vl.dump, and IBSC's check agrees.
BOOST_AUTO_TEST_CASE(lash_on_a_ring_uses_two_sls, *boost::unit_test::precondition(tools_present)) {
  const Topology t = build_topology_spec("ring:4:hosts=1");
  const TableSet ts = route_opensm(t, options("lash"));
  BOOST_TEST(ts.external->log.find("lash_core: Lanes needed: 2") != std::string::npos);
  BOOST_TEST(ts.sls_used == 2);
  BOOST_TEST(ts.vls_used == 2);
  passes_checks(t, ts);
  for (int h = 0; h < t.num_hosts; ++h)  // OpenSM's QoS SL2VL at the HCAs: SL k on VL k for the 8 VLs of ibsim
    for (int k = 0; k < 8; ++k) BOOST_TEST(ts.hosts[h].sl2vl[k] == k);
}

// torus-2QoS on a 3x3 torus, with the torus configuration IBSC writes from the generator's
// coordinates: OpenSM builds the 3 x 3 x 1 torus and routes it. torus-2QoS(8): one SL bit per
// dimension's dateline (2D: SLs 0-3), SL bit 3 the QoS level; switch links map a QoS level onto
// VLs 0-3 (bit 0 the dateline, bit 1 for y-x turns), endports onto VL 0 (SLs 0-7) and 1 (8-15).
// Its dimension-order paths make no y-x turn, so the walks meet VLs 0 and 1 only; deadlock-free.
BOOST_AUTO_TEST_CASE(torus_2qos_on_a_torus, *boost::unit_test::precondition(tools_present)) {
  const Topology t = build_topology_spec("torus:3x3:hosts=1");
  RoutingOptions o = options("torus-2QoS");
  o.opensm_dir = temp_dir("torus");
  const TableSet ts = route_opensm(t, o);
  std::ifstream conf(o.opensm_dir + "/torus-2QoS.conf");
  std::stringstream text;
  text << conf.rdbuf();
  BOOST_TEST(text.str().find("torus 3 3 1\nxp_link 0x0002c90300000000 0x0002c90300000001\n"
                             "xm_link 0x0002c90300000000 0x0002c90300000002\n"
                             "yp_link 0x0002c90300000000 0x0002c90300000003\n"
                             "ym_link 0x0002c90300000000 0x0002c90300000006\n") != std::string::npos,
             text.str());
  BOOST_TEST(ts.external->log.find("Built 3 x 3 x 1 torus w/ 27 links, 9 switches, 9 CA ports") != std::string::npos);
  passes_checks(t, ts);
  BOOST_TEST(ts.sls_used == 4);
  BOOST_TEST(ts.vls_used == 4);  // what the tables map the used SLs to
  BOOST_TEST(check_tables(t, ts).vls_used == 2);
  for (int h = 0; h < t.num_hosts; ++h)
    for (int k = 0; k < 16; ++k) BOOST_TEST(ts.hosts[h].sl2vl[k] == (k < 8 ? 0 : 1));
  std::filesystem::remove_all(o.opensm_dir);
}

// ftree on a torus: OpenSM falls back to minhop and says so; IBSC refuses, quoting the log.
BOOST_AUTO_TEST_CASE(fallback_is_an_error, *boost::unit_test::precondition(tools_present)) {
  RoutingOptions o = options("ftree");
  o.opensm_dir = temp_dir("fallback");
  const std::string e = error_of([&] { route_opensm(build_topology_spec("torus:3x3:hosts=1"), o); });
  BOOST_TEST(e.find("routing opensm, engine ftree: OpenSM did not route with it") == 0, e);
  BOOST_TEST(e.find("minhop tables configured on all switches") != std::string::npos, e);
  BOOST_TEST(e.find("ftree: cannot build lid matrices") != std::string::npos, e);
  BOOST_TEST(std::filesystem::exists(o.opensm_dir + "/opensm.log"));
  std::filesystem::remove_all(o.opensm_dir);
}

BOOST_AUTO_TEST_CASE(time_limit_stops_opensm, *boost::unit_test::precondition(tools_present)) {
  RoutingOptions o = options("minhop");
  o.opensm_timeout_s = 0.005;
  o.opensm_dir = temp_dir("timeout");
  const std::string e = error_of([&] { route_opensm(two_level_tree(4, 2, 2), o); });
  BOOST_TEST(e.find("routing opensm, engine minhop: OpenSM did not finish within 0.005 s") == 0, e);
  std::filesystem::remove_all(o.opensm_dir);
}

// Two runs at once, each with its own ibsim: both get their own engine's tables.
BOOST_AUTO_TEST_CASE(two_runs_at_once_do_not_collide, *boost::unit_test::precondition(tools_present)) {
  const Topology t = two_level_tree(4, 2, 2);
  TableSet a, b;
  std::string ea, eb;
  std::thread ta([&] { ea = error_of([&] { a = route_opensm(t, options("ftree")); }); });
  std::thread tb([&] { eb = error_of([&] { b = route_opensm(t, options("updn")); }); });
  ta.join();
  tb.join();
  BOOST_TEST(ea == "");
  BOOST_TEST(eb == "");
  BOOST_TEST(a.algorithm == "opensm-ftree");
  BOOST_TEST(b.algorithm == "opensm-updn");
  passes_checks(t, a);
  passes_checks(t, b);
}
