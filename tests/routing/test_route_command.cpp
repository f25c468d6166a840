#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/routing/route_cli.h"

namespace {

// `ibsc route ARGS...` in process (route_cli.h).
int run(std::vector<std::string> args, std::string& out) { return run_route(std::move(args), out); }

}  // namespace

BOOST_AUTO_TEST_CASE(json_has_the_promised_fields) {
  std::string out;
  BOOST_TEST(run({"--topology", "torus:4x4", "--routing", "ecube", "--json"}, out) == 0);
  auto j = nlohmann::json::parse(out);
  BOOST_TEST(j["switches"] == 16);
  BOOST_TEST(j["hosts"] == 64);
  BOOST_TEST(j["links"] == 32 + 64);
  BOOST_TEST(j["sls"] == 4);
  BOOST_TEST(j["vls"] == 2);
  BOOST_TEST(j["deadlock_free"] == true);
  BOOST_TEST(j["crossing_path"] == 8);
  BOOST_TEST(j["average_distance"].get<double>() == 32.0 / 15, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(j["average_topological_distance"].get<double>() == 32.0 / 15, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(j["deviation_crossing"].get<double>() == 0.0);
}

// 4x4 torus, 4 hosts per switch: 2 x 4 cables cross a half cut, 32 hosts per half: 25 %.
BOOST_AUTO_TEST_CASE(describe_prints_the_seeds_001_figures) {
  std::string out;
  BOOST_TEST(run({"--topology", "torus:4x4", "--describe"}, out) == 0);
  BOOST_TEST(out.find("switches: 16, hosts: 64, ports used: 8, diameter: 4, switch cables: 32") != std::string::npos);
  BOOST_TEST(out.find("half cut across dimension 0: 25.0 % (8 cables)") != std::string::npos);
  BOOST_TEST(out.find("best balanced cut found") != std::string::npos);
  BOOST_TEST(out.find(": 25.0 % (8 cables)\n", out.find("best balanced")) != std::string::npos);
  BOOST_TEST(run({"--topology", "torus:3x3", "--describe"}, out) == 0);
  BOOST_TEST(out.find("relative bisection: not computed (bisection: needs an even number of switches") !=
             std::string::npos);
}

// A 4-ary 3-tree: 3 levels of 16 switches, 64 cables up from each level below the top, and
// the 32 cables into the top level from one half's side carry half the hosts: 100 %.
BOOST_AUTO_TEST_CASE(describe_prints_a_fat_tree_by_level) {
  std::string out;
  BOOST_TEST(run({"--topology", "fattree:k=4,n=3", "--describe"}, out) == 0);
  BOOST_TEST(out.find("switches: 48, hosts: 64, ports used: 4..8, diameter: 4, switch cables: 128") !=
             std::string::npos);
  BOOST_TEST(out.find("fat tree: 3 levels, 64 hosts on 16 leaves (4 per leaf)\n"
                      "  level 0 (leaves): 16 switches, 64 host cables, 64 cables up\n"
                      "  level 1: 16 switches, 64 cables up\n"
                      "  level 2 (top): 16 switches\n") != std::string::npos);
  BOOST_TEST(out.find("hosts 32 | 32: 100.0 % (32 cables)") != std::string::npos);
  // 12 ports at 2:1: leaves of 8 hosts and 4 up on 4 spines; each spine takes 6 cables from
  // either half: 24 across for 48 hosts.
  BOOST_TEST(run({"--topology", "fattree:radix=12,size=96,blocking=2", "--describe"}, out) == 0);
  BOOST_TEST(out.find("level 0 (leaves): 12 switches, 96 host cables, 48 cables up") != std::string::npos);
  BOOST_TEST(out.find("50.0 % (24 cables)") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(fat_trees_pass_the_check) {
  std::string out;
  for (const char* spec : {"fattree:k=4,n=3", "xgft:m=4,3:w=1,2", "fattree:radix=8,size=100"})
    for (const char* routing : {"minhop", "updown-bfs"}) {
      BOOST_TEST_MESSAGE(spec << " " << routing);
      BOOST_TEST(run({"--topology", spec, "--routing", routing, "--check", "--json"}, out) == 0);
      BOOST_TEST(nlohmann::json::parse(out)["deadlock_free"] == true);
    }
}

// `ibsc route --check` on every generated fat tree of tests/routing/test_fattree.cpp (k-ary
// n-trees, XGFTs, clusters with partial pods and blocking): fattree, fattree with LMC 1 and
// fattree-ar are connected, loop-free and deadlock-free as the command reports it.
BOOST_AUTO_TEST_CASE(fattree_lmc_and_ar_pass_route_check_on_every_generated_fat_tree) {
  std::string out;
  for (const char* spec : {"fattree:k=2,n=2", "fattree:k=2,n=4", "fattree:k=3,n=3", "fattree:k=4,n=2",
                           "fattree:k=4,n=3", "xgft:m=4,4:w=1,4", "xgft:m=3,2,2:w=1,2,3", "fattree:radix=8,size=32",
                           "fattree:radix=12,size=100", "fattree:radix=8,size=48,blocking=2"})
    for (std::vector<std::string> routing :
         {std::vector<std::string>{"fattree"}, std::vector<std::string>{"fattree", "--lmc", "1"},
          std::vector<std::string>{"fattree-ar"}}) {
      std::vector<std::string> args{"--topology", spec, "--routing"};
      args.insert(args.end(), routing.begin(), routing.end());
      args.insert(args.end(), {"--check", "--json"});
      BOOST_TEST_MESSAGE(spec << " " << routing.front() << " " << routing.size());
      BOOST_TEST_REQUIRE(run(args, out) == 0);
      const auto j = nlohmann::json::parse(out);
      BOOST_TEST(j["deadlock_free"] == true, spec << " " << routing.front());
      BOOST_TEST(j["lmc"] == (routing.size() > 1 ? 1 : 0));
    }
}

// fattree's LIDs per host (--lmc), refused for the other routings; --metrics' busiest channel over
// all host pairs (the 4-ary 3-tree's bound: 64 - 4 = 60).
BOOST_AUTO_TEST_CASE(fattree_lmc_and_pairs_max) {
  std::string out;
  BOOST_TEST(run({"--topology", "fattree:k=4,n=3", "--routing", "fattree", "--lmc", "1", "--check", "--json"}, out) ==
             0);
  auto j = nlohmann::json::parse(out);
  BOOST_TEST(j["lmc"] == 1);
  BOOST_TEST(j["deadlock_free"] == true);
  BOOST_TEST(j["path_choice"] == "random-per-packet");
  BOOST_TEST(run({"--topology", "fattree:k=4,n=3", "--routing", "minhop", "--lmc", "1"}, out) != 0);
  BOOST_TEST(run({"--topology", "fattree:k=4,n=3", "--routing", "fattree-ar", "--metrics", "--json"}, out) == 0);
  BOOST_TEST(nlohmann::json::parse(out)["busiest_channel_host_pairs"] == 60);
}

BOOST_AUTO_TEST_CASE(deadlock_is_reported_with_its_cycle) {
  std::string out;
  BOOST_TEST(run({"--topology", "ring:8", "--routing", "dor1vl", "--json", "--check"}, out) == 2);
  auto j = nlohmann::json::parse(out);
  BOOST_TEST(j["deadlock_free"] == false);
  BOOST_TEST(j["cycle"].size() >= 3u);
  BOOST_TEST(j["cycle"][0]["vl"] == 0);
}

BOOST_AUTO_TEST_CASE(metrics_table_and_exports) {
  std::string out;
  const std::string dir = "/tmp/ibsc_route_cmd_test";
  std::filesystem::remove_all(dir);
  BOOST_TEST(
      run({"--topology", "torus:4x4:hosts=1", "--metrics", "--export-opensm", dir, "--dot", dir + ".dot"}, out) == 0);
  for (const char* a : {"ecube", "dor1vl", "minhop", "updown-bfs", "updown-dfs", "flexible"})
    BOOST_TEST(out.find(a) != std::string::npos);
  BOOST_TEST(out.find("average topological distance = 2.13") != std::string::npos);
  // One folder per algorithm, so the export loses none of them.
  BOOST_TEST(std::filesystem::exists(dir + "/ecube/opensm-lfts.dump"));
  BOOST_TEST(std::filesystem::exists(dir + "/flexible/sl2vl.txt"));
  BOOST_TEST(std::filesystem::exists(dir + "/minhop/path-records.txt"));
  BOOST_TEST(std::filesystem::file_size(dir + ".dot") > 100u);
}

BOOST_AUTO_TEST_CASE(bad_input_is_named) {
  std::string out;
  BOOST_TEST(run({"--topology", "torus:4x4x4", "--routing", "ecube", "--max-sls", "4"}, out) == 1);
  BOOST_TEST(out.find("needs 8 SLs") != std::string::npos);
  BOOST_TEST(run({"--topology", "tor:4"}, out) == 1);
  BOOST_TEST(out.find("unknown kind 'tor'") != std::string::npos);
  BOOST_TEST(run({"--topology", "slimfly:q=9", "--routing", "updown-bfs"}, out) == 1);
  BOOST_TEST(out.find("odd prime powers") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(hosts_and_ports_options) {
  std::string out;
  BOOST_TEST(
      run({"--topology", "torus:4x4", "--hosts", "1", "--ports", "8", "--routing", "updown-dfs", "--json"}, out) == 0);
  auto j = nlohmann::json::parse(out);
  BOOST_TEST(j["switches"] == 16);
  BOOST_TEST(j["hosts"] == 16);
  BOOST_TEST(j["deadlock_free"] == true);
  BOOST_TEST(run({"--topology", "mesh:3x3", "--hosts", "2", "--json"}, out) == 0);
  BOOST_TEST(nlohmann::json::parse(out)["hosts"] == 18);
  // Too few ports for 4 links and 4 hosts, the same value twice, and a file spec are named.
  BOOST_TEST(run({"--topology", "torus:4x4", "--ports", "6"}, out) == 1);
  BOOST_TEST(run({"--topology", "torus:4x4:hosts=2", "--hosts", "1"}, out) == 1);
  BOOST_TEST(out.find("--hosts given twice") != std::string::npos);
  BOOST_TEST(run({"--topology", "file:/nonexistent", "--hosts", "1"}, out) == 1);
  BOOST_TEST(out.find("does not apply to file:") != std::string::npos);
}

// --export-opensm then --import-opensm: the imported tables check out with the same figures.
BOOST_AUTO_TEST_CASE(import_opensm_checks_exported_tables) {
  const std::string dir = (std::filesystem::temp_directory_path() / "ibsc_route_import").string();
  std::filesystem::remove_all(dir);
  std::string out, back;
  BOOST_TEST(run({"--topology", "torus:4x4", "--routing", "ecube", "--json", "--export-opensm", dir}, out) == 0);
  BOOST_TEST(run({"--topology", "torus:4x4", "--import-opensm", dir, "--check", "--metrics", "--json"}, back) == 0);
  auto a = nlohmann::json::parse(out), b = nlohmann::json::parse(back);
  BOOST_TEST(b["routing"] == "file");
  for (const char* k : {"sls", "vls", "deadlock_free", "crossing_path", "max_lid", "routed_pairs"})
    BOOST_TEST(a[k] == b[k], k);
  BOOST_TEST(run({"--topology", "torus:4x4", "--import-opensm", dir + "/nothing"}, back) == 1);
  BOOST_TEST(back == "error: " + dir + "/nothing: cannot open the LFT dump (No such file or directory)");
  BOOST_TEST(run({"--topology", "torus:4x4", "--import-opensm", dir, "--routing", "minhop"}, back) == 1);
}

// With several algorithms the export keeps each in its own folder, and the JSON top level
// has the required fields even when the first algorithm is refused.
BOOST_AUTO_TEST_CASE(metrics_export_and_json_with_a_refused_first_algorithm) {
  const std::string dir = (std::filesystem::temp_directory_path() / "ibsc_route_multi").string();
  std::filesystem::remove_all(dir);
  std::string out;
  // 1 SL: e-cube (4 SLs) is refused; the others route.
  BOOST_TEST(run({"--topology", "torus:4x4", "--metrics", "--json", "--max-sls", "1", "--export-opensm", dir}, out) ==
             0);
  auto j = nlohmann::json::parse(out);
  for (const char* k : {"switches", "hosts", "links", "average_distance", "average_topological_distance",
                        "crossing_path", "deviation_crossing", "sls", "vls", "deadlock_free"})
    BOOST_TEST(!j[k].is_null(), k);
  BOOST_TEST(j["routings"][0]["routing"] == "ecube");
  BOOST_TEST(j["routings"][0].contains("error"));
  BOOST_TEST(!std::filesystem::exists(dir + "/ecube"));
  for (const char* a : {"dor1vl", "minhop", "updown-bfs", "updown-dfs", "flexible"})
    BOOST_TEST(std::filesystem::exists(dir + "/" + a + "/opensm-lfts.dump"), a);
}

BOOST_AUTO_TEST_CASE(max_lmc_option) {
  std::string out;
  BOOST_TEST(run({"--topology", "irregular:32:seed=7:hosts=2", "--routing", "updown-dfs", "--max-lmc", "0", "--check",
                  "--json"},
                 out) == 0);
  auto j = nlohmann::json::parse(out);
  BOOST_TEST(j["lmc"] == 0);
  BOOST_TEST(j["deadlock_free"] == true);
  BOOST_TEST(run({"--topology", "torus:4x4", "--max-lmc", "8"}, out) != 0);
}

// seeds/002: --paths counts disjoint paths, --fault-analysis finds singular cases (4x4 TFTR:
// none up to 3 faults), --fault names the pairs a cable set cuts; a bad cable is an error.
BOOST_AUTO_TEST_CASE(tftr_paths_and_fault_analysis) {
  std::string out;
  BOOST_TEST(run({"--topology", "torus:4x4:hosts=1", "--routing", "tftr", "--paths", "--check", "--fault-analysis", "4",
                  "--fault", "S(0,0):1", "--fault", "S(0,0):2", "--fault", "S(1,0):3", "--fault", "S(1,0):4"},
                 out) == 0);
  BOOST_TEST(out.find("n=4   100.00 %") != std::string::npos);
  BOOST_TEST(out.find("acyclic: deadlock-free") != std::string::npos);
  BOOST_TEST(out.find("     3           4960              all          0") != std::string::npos);
  BOOST_TEST(out.find("H0 -> H1 loses all 4 paths") != std::string::npos);
  BOOST_TEST(out.find("the network stays connected") != std::string::npos);
  BOOST_TEST(run({"--topology", "torus:4x4:hosts=1", "--routing", "tftr", "--fault", "S(0,0):7"}, out) == 1);
  BOOST_TEST(out.find("--fault S(0,0):7") != std::string::npos);
}

// The first line gives the switches' port range, not switch 0's count as the fabric's.
BOOST_AUTO_TEST_CASE(port_count_is_the_range_over_switches) {
  std::string out;
  BOOST_TEST(run({"--topology", "torus:4x4"}, out) == 0);
  BOOST_TEST(out.rfind("torus:4x4: torus (8 ports): 16 switches,", 0) == 0u, out);
  const std::string file = (std::filesystem::temp_directory_path() / "ibsc_route_ports.edges").string();
  std::ofstream(file) << "switch a 4\nswitch b 12\nhost h1\nhost h2\nlink a b\nlink h1 a\nlink h2 b\n";
  BOOST_TEST(run({"--topology", "file:" + file}, out) == 0);
  BOOST_TEST(out.find("(4-12 ports): 2 switches, 2 hosts") != std::string::npos, out);
  std::filesystem::remove(file);
}

// Adaptive routing with an escape (seeds/003): `--check` passes by Duato's condition and says so;
// the same candidates without the escape rule (minhop) fail on the same ring.
BOOST_AUTO_TEST_CASE(adaptive_updown_checked_by_duato) {
  std::string out;
  BOOST_TEST(run({"--topology", "ring:8", "--routing", "adaptive-updown", "--check"}, out) == 0);
  BOOST_TEST(out.find("escape channel dependency graph (Duato, virtual cut-through)") != std::string::npos, out);
  BOOST_TEST(out.find("acyclic: deadlock-free") != std::string::npos);
  BOOST_TEST(run({"--topology", "ring:8", "--routing", "adaptive-updown", "--json"}, out) == 0);
  BOOST_TEST(nlohmann::json::parse(out)["deadlock_rule"] == "duato-escape");
  BOOST_TEST(run({"--topology", "ring:8", "--routing", "minhop", "--check"}, out) == 2);
}

// --bound on a ring of 8 switches, one host each. Uniform: the 8 x 7 flows cross 8 x 16 / 7
// channel-hops (distances 1, 1, 2, 2, 3, 3, 4 from each host) over 16 channels, 8/7 host rates
// each on average; no minimal routing has a busiest channel below that, and e-cube's is at it:
// 7/8 of injection bandwidth. Bit-complement (host i -> 7 - i): the cable between switches 0
// and 7 carries 0 -> 7 and 1 -> 6 (1, 0, 7, 6 is the only minimal path) in one direction, so
// every minimal routing, e-cube included, is held to half.
BOOST_AUTO_TEST_CASE(bound_gives_the_channel_load_bounds_of_a_ring) {
  std::string out;
  BOOST_TEST(run({"--topology", "torus:8:hosts=1", "--routing", "ecube", "--bound", "uniform,bit-complement", "--json"},
                 out) == 0);
  const auto b = nlohmann::json::parse(out)["bounds"];
  BOOST_REQUIRE(b.size() == 2u);
  BOOST_TEST(b[0]["pattern"] == "uniform");
  BOOST_TEST(b[0]["routed_percent"].get<double>() == 87.5, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(b[0]["busiest_share"].get<double>() == 8.0 / 7, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(b[0]["paths"] == 56);
  BOOST_TEST(b[0]["non_minimal_paths"] == 0);
  BOOST_TEST(b[0]["primary_ports_only"] == false);
  BOOST_TEST(b[1]["routed_percent"].get<double>() == 50.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(b[1]["minimal_percent"].get<double>() == 50.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(b[1]["paths"] == 8);
  BOOST_TEST(run({"--topology", "torus:8:hosts=1", "--routing", "ecube", "--bound", "bit-complement"}, out) == 0);
  BOOST_TEST(out.find("bound ecube bit-complement: 50.0 % of injection bandwidth, routed") != std::string::npos);
  BOOST_TEST(out.find("bound ecube bit-complement: 50.0 % for any minimal routing") != std::string::npos);
}

// GSID's modulus (routing.h) on dragonflies of a = 4, h = 2, p = 2. The figures were computed
// apart from IBSC, by a walk of the rule of routing/dragonfly_routing.cpp over the `--dot`
// wiring: with 8 groups (one short of a x h + 1; 64 hosts) each group's G?S3 has one cable, and
// by its own count it sends every far destination over it: G7S3 port 4 carries 208 of the 63
// shares a host's rate is split into (3.30 host rates, bound 30.3%); by h the busiest carries
// 112/63 (56.25%). With 9 groups (72 hosts) both give 120/71 (59.2%).
BOOST_AUTO_TEST_CASE(bound_of_gsid_by_its_modulus) {
  const auto bound = [](const std::string& spec, const std::string& modulus) {
    std::string out;
    BOOST_TEST(run({"--topology", spec, "--routing", "gsid", "--gsid-modulus", modulus, "--bound", "uniform", "--json"},
                   out) == 0,
               out);
    return nlohmann::json::parse(out)["bounds"][0];
  };
  const auto own = bound("dragonfly:a=4,h=2,p=2,g=8", "cables"), by_h = bound("dragonfly:a=4,h=2,p=2,g=8", "h");
  const auto tol = boost::test_tools::tolerance(1e-9);
  BOOST_TEST(own["busiest_share"].get<double>() == 208.0 / 63, tol);
  BOOST_TEST(own["busiest_channel"].get<std::string>() == "switch G7S3 port 4");
  BOOST_TEST(by_h["busiest_share"].get<double>() == 112.0 / 63, tol);
  BOOST_TEST(by_h["routed_percent"].get<double>() == 56.25, tol);
  for (const char* m : {"cables", "h"})
    BOOST_TEST(bound("dragonfly:a=4,h=2,p=2", m)["busiest_share"].get<double>() == 120.0 / 71, tol);
  std::string out;
  BOOST_TEST(run({"--topology", "dragonfly:a=4,h=2,p=2", "--routing", "static", "--gsid-modulus", "h"}, out) != 0);
  BOOST_TEST(out.find("--gsid-modulus needs --routing gsid") != std::string::npos, out);
  BOOST_TEST(run({"--topology", "dragonfly:a=4,h=2,p=2", "--routing", "gsid", "--gsid-modulus", "dst"}, out) != 0);
  BOOST_TEST(out.find("--gsid-modulus 'dst' is not one of: cables, h") != std::string::npos, out);
}

// Adaptive tables are walked along their primary ports only, and the output says so.
BOOST_AUTO_TEST_CASE(bound_says_when_the_tables_are_adaptive) {
  std::string out;
  BOOST_TEST(
      run({"--topology", "flatfly:4x4:hosts=2", "--routing", "distance", "--bound", "transpose", "--json"}, out) == 0);
  BOOST_TEST(nlohmann::json::parse(out)["bounds"][0]["primary_ports_only"] == true);
}

// Patterns without a fixed traffic matrix, or unknown, are refused by name.
BOOST_AUTO_TEST_CASE(bound_refuses_patterns_it_cannot_compute) {
  std::string out;
  BOOST_TEST(run({"--topology", "torus:4x4", "--routing", "ecube", "--bound", "nonsense"}, out) != 0);
  BOOST_TEST(out.find("--bound: 'nonsense' is not one of") != std::string::npos);
  BOOST_TEST(run({"--topology", "torus:4x4", "--routing", "ecube", "--bound", "neighbour"}, out) != 0);
  BOOST_TEST(out.find("--bound neighbour: ") != std::string::npos);
  BOOST_TEST(run({"--topology", "torus:4x4", "--routing", "ecube", "--bound", "hotspot"}, out) != 0);
  BOOST_TEST(out.find("--bound hotspot: needs settings a scenario gives") != std::string::npos);
}
