#define BOOST_TEST_MODULE routing_route_command
#include <boost/test/unit_test.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tb/cmd_route.h"

namespace {

// Runs `ibsc route ARGS...` in process; returns the exit code and what it printed.
int run(std::vector<std::string> args, std::string& out) {
  CLI::App app{"test"};
  ibsc::tb::add_route_command(app);
  args.insert(args.begin(), "route");
  std::vector<const char*> argv{"ibsc"};
  for (auto& a : args) argv.push_back(a.c_str());
  std::ostringstream capture;
  auto* old = std::cout.rdbuf(capture.rdbuf());
  int rc = 0;
  try {
    app.parse(static_cast<int>(argv.size()), const_cast<char**>(argv.data()));
  } catch (const CLI::RuntimeError& e) {
    rc = e.get_exit_code();
  } catch (const std::exception& e) {
    capture << "error: " << e.what();
    rc = 1;
  }
  std::cout.rdbuf(old);
  out = capture.str();
  return rc;
}

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
  BOOST_TEST(std::filesystem::exists(dir + "/opensm-lfts.dump"));
  BOOST_TEST(std::filesystem::exists(dir + "/sl2vl.txt"));
  BOOST_TEST(std::filesystem::exists(dir + "/path-records.txt"));
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
  BOOST_TEST(run({"--topology", "torus:4x4", "--hosts", "1", "--ports", "8", "--routing", "updown-dfs", "--json"},
                 out) == 0);
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
