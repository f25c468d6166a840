// Testbench building blocks: destination patterns, injection processes, the latency
// histogram, results files and scenario errors. No SystemC.
#define BOOST_TEST_MODULE tb_core
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "routing/topology.h"
#include "tb/config_reader.h"
#include "tb/injection.h"
#include "tb/latency_histogram.h"
#include "tb/results.h"
#include "tb/traffic.h"

using namespace ibsc;

namespace {
routing::Topology torus44() { return routing::make_torus({4, 4}, 4, true, 8); }  // 64 hosts
int dest(const std::string& pattern, int src) {
  tb::TrafficConfig c;
  c.pattern = pattern;
  auto t = torus44();
  auto p = tb::make_destination_pattern(c, t);
  std::mt19937_64 rng(1);
  return p->destination(src, rng);
}
std::string tmpfile(const std::string& name, const std::string& text) {
  std::string path = "/tmp/ibsc_test_" + name;
  std::ofstream(path) << text;
  return path;
}
}  // namespace

BOOST_AUTO_TEST_CASE(bit_patterns_on_64_hosts) {
  BOOST_TEST(dest("bit-reversal", 0b000001) == 0b100000);
  BOOST_TEST(dest("bit-reversal", 0b110100) == 0b001011);
  BOOST_TEST(dest("transpose", 0b000111) == 0b111000);  // halves swapped
  BOOST_TEST(dest("bit-complement", 0b000101) == 0b111010);
  BOOST_TEST(dest("bit-rotation", 0b000011) == 0b100001);  // rotate right
  BOOST_TEST(dest("shuffle", 0b100001) == 0b000011);       // rotate left
  BOOST_TEST(dest("bit-reversal", 0b100001) == -1);        // fixed point sends nothing
}

BOOST_AUTO_TEST_CASE(permutation_patterns_are_permutations) {
  auto t = torus44();
  for (std::string pat : {"bit-reversal", "transpose", "bit-complement", "bit-rotation", "shuffle"}) {
    tb::TrafficConfig c;
    c.pattern = pat;
    auto p = tb::make_destination_pattern(c, t);
    std::mt19937_64 rng(1);
    std::set<int> seen;
    for (int s = 0; s < 64; ++s) {
      int d = p->destination(s, rng);
      if (d < 0) continue;
      BOOST_TEST(d != s);
      BOOST_TEST(seen.insert(d).second, pat << ": destination " << d << " twice");
    }
  }
}

BOOST_AUTO_TEST_CASE(uniform_covers_all_but_self_evenly) {
  auto t = torus44();
  auto p = tb::make_destination_pattern({}, t);
  std::mt19937_64 rng(3);
  std::map<int, int> n;
  const int draws = 63 * 2000;
  for (int i = 0; i < draws; ++i) ++n[p->destination(5, rng)];
  BOOST_TEST(n.count(5) == 0u);
  BOOST_TEST(n.size() == 63u);
  // Binomial(126000, 1/63): mean 2000, sd 44.4; 5 sd bounds.
  for (auto [d, k] : n) BOOST_TEST(std::abs(k - 2000) < 5 * 44.4);
}

BOOST_AUTO_TEST_CASE(hotspot_share) {
  auto t = torus44();
  tb::TrafficConfig c;
  c.pattern = "hotspot";
  c.hotspot_hosts = {10};
  c.hotspot_fraction = 0.3;
  auto p = tb::make_destination_pattern(c, t);
  std::mt19937_64 rng(4);
  int hot = 0;
  const int draws = 100000;
  for (int i = 0; i < draws; ++i) hot += p->destination(0, rng) == 10;
  // P(hot) = 0.3 + 0.7/63; sd = sqrt(n p (1-p)) ~ 147.
  double expect = draws * (0.3 + 0.7 / 63);
  BOOST_TEST(std::abs(hot - expect) < 5 * 147);
}

BOOST_AUTO_TEST_CASE(permutation_file_errors_name_the_line) {
  auto t = torus44();
  tb::TrafficConfig c;
  c.pattern = "permutation";
  c.permutation_file = tmpfile("perm", "# map\n0 1\n1 0\n2 1\n");
  try {
    tb::make_destination_pattern(c, t);
    BOOST_FAIL("duplicate destination accepted");
  } catch (const std::invalid_argument& e) {
    BOOST_TEST(std::string(e.what()).find("ibsc_test_perm:4") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(injection_rates) {
  for (std::string proc : {"bernoulli", "poisson"}) {
    tb::InjectionConfig ic;
    ic.process = proc;
    ic.length_mix = {{32, 1.0}, {512, 1.0}};  // mean 272 bytes
    const double load = 0.1, link = 0.25;      // bytes/ns
    tb::InjectionProcess ip(ic, load, link, 42);
    BOOST_TEST(ip.mean_length() == 272.0);
    const int n = 200000;
    double t = 0, bytes = 0;
    for (int i = 0; i < n; ++i) {
      t += ip.next_gap_ps();
      bytes += ip.next_length();
    }
    double rate = bytes / (t / 1000.0);
    // Relative sd of the mean gap over n packets ~ 1/sqrt(n) = 0.22%; length mix adds ~0.2%.
    BOOST_TEST(rate == load, boost::test_tools::tolerance(0.02));
  }
  tb::InjectionConfig ic;
  BOOST_CHECK_THROW(tb::InjectionProcess(ic, 0.3, 0.25, 1), std::invalid_argument);  // above link rate
  BOOST_TEST(tb::InjectionProcess(ic, 0.0, 0.25, 1).next_gap_ps() == UINT64_MAX);
}

BOOST_AUTO_TEST_CASE(histogram_percentiles_match_exact_sort) {
  tb::LatencyHistogram h;
  std::mt19937_64 rng(9);
  std::vector<uint64_t> v;
  for (int i = 0; i < 100000; ++i) {
    uint64_t x = 100 + static_cast<uint64_t>(std::exp(tb::uniform01(rng) * 12.0));
    v.push_back(x);
    h.add(x);
  }
  std::sort(v.begin(), v.end());
  for (double q : {0.5, 0.9, 0.99, 0.999}) {
    uint64_t exact = v[static_cast<size_t>(std::ceil(q * v.size())) - 1];
    BOOST_TEST(static_cast<double>(h.percentile(q)) == static_cast<double>(exact), boost::test_tools::tolerance(0.004));
  }
  double mean = 0;
  for (auto x : v) mean += x;
  BOOST_TEST(h.mean() == mean / v.size(), boost::test_tools::tolerance(1e-12));
  BOOST_TEST(h.max() == v.back());
}

BOOST_AUTO_TEST_CASE(results_json_is_byte_identical) {
  tb::LoadPointResult r;
  r.offered_load = 0.3;
  r.accepted_bytes_per_ns_per_switch = 0.123456789;
  r.avg_latency_ns = 3204.5;
  r.wall_seconds = 1.5;  // must not appear
  r.measured_packets = 10;
  nlohmann::ordered_json sc = {{"name", "t"}};
  tb::write_results("/tmp/ibsc_test_res1", sc, 7, {r});
  r.wall_seconds = 9.0;
  tb::write_results("/tmp/ibsc_test_res2", sc, 7, {r});
  auto slurp = [](const std::string& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  std::string a = slurp("/tmp/ibsc_test_res1/results.json"), b = slurp("/tmp/ibsc_test_res2/results.json");
  BOOST_TEST(a == b);
  BOOST_TEST(a.find("wall") == std::string::npos);
  auto j = nlohmann::json::parse(a);
  BOOST_TEST(j["points"][0]["accepted_bytes_per_ns_per_switch"].get<double>() == 0.123457);
  BOOST_TEST(tb::point_from_json(j["points"][0]).avg_latency_ns == 3204.5);
}

namespace {
std::string config_error(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  try {
    auto r = tb::ConfigReader::from_string(yaml, "s.yaml");
    for (const auto& s : sets) r.apply_override(s);
    r.get_int("switch.num_vls", 2, 1, 15);
    r.get<std::string>("name", "x");
    r.get<std::vector<double>>("sweep.loads", {});
    r.check_all_consumed();
  } catch (const tb::ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

BOOST_AUTO_TEST_CASE(config_errors_name_file_line_and_key) {
  BOOST_TEST(config_error("name: a\nswitch:\n  num_vls: 2\n") == "");
  BOOST_TEST(config_error("name: a\nswitch:\n  num_vlz: 2\n") == "s.yaml:3: key 'switch.num_vlz': unknown key (a typo? see the README's scenario keys)");
  BOOST_TEST(config_error("switch:\n  num_vls: two\n").find("s.yaml:2: key 'switch.num_vls': expected an integer") == 0u);
  BOOST_TEST(config_error("switch:\n  num_vls: 16\n").find("s.yaml:2: key 'switch.num_vls': value 16 out of range") == 0u);
  BOOST_TEST(config_error("sweep:\n  loads: 0.5\n").find("s.yaml:2: key 'sweep.loads': expected a list") == 0u);
  BOOST_TEST(config_error("name: a\n", {"switch.num_vls=20"}).find("--set switch.num_vls: key 'switch.num_vls'") == 0u);
  BOOST_TEST(config_error("name: a\n", {"switch.numvls=2"}).find("--set switch.numvls: key 'switch.numvls': unknown key") == 0u);
  BOOST_TEST(config_error("name: [a\n").find("YAML syntax error") != std::string::npos);
}
