// Results files: results.json byte-identical for identical inputs (no wall time), CSV with one
// row per point, JSON round trip, saturation summary, aligned summary table, plot with and
// without gnuplot.
#include <boost/test/unit_test.hpp>

#include <sys/resource.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <tuple>

#include "tb/stats/results.h"
#include "tb_test_util.h"

using namespace ibsc;
using tb::test::scratch;
using tb::test::slurp;

namespace {

std::vector<tb::LoadPointResult> sweep() {
  std::vector<tb::LoadPointResult> pts;
  for (int i = 1; i <= 4; ++i) {
    tb::LoadPointResult r;
    r.offered_load = 0.1 * i;
    r.offered_bytes_per_ns_per_host = 0.025 * i;
    r.accepted_bytes_per_ns_per_switch = i < 4 ? 0.1 * i + 1.0 / 3 : 1.1;
    r.accepted_fraction = r.accepted_bytes_per_ns_per_switch / 1.0;
    r.avg_latency_ns = 1000.0 / 7 * i * i;
    r.p50_latency_ns = 900 * i;
    r.p99_latency_ns = 5000 * i;
    r.max_latency_ns = 9000 * i;
    r.packets_generated = 1000 * i;
    r.packets_injected = 990 * i;
    r.packets_delivered = 980 * i;
    r.packets_in_flight = 10 * i;
    r.measured_packets = 500 * i;
    r.saturated = i >= 3;
    r.links = {{"sw0.p1", 0.1 * i, {0.05 * i, 0.05 * i}}, {"sw1.p2", 0.2, {0.2}}};
    r.max_link_utilisation = 0.2 * i;
    r.avg_link_utilisation = 0.15;
    r.sim_time_ns = 123456.789;
    r.wall_seconds = 0.5 * i;
    pts.push_back(r);
  }
  return pts;
}

nlohmann::ordered_json scenario() {
  nlohmann::ordered_json s;
  s["name"] = "it's a test";  // a quote in the plot title
  s["topology"]["spec"] = "torus:4x4";
  s["switch"]["num_vls"] = 2;
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(results)

BOOST_AUTO_TEST_CASE(results_json_is_byte_identical) {
  auto pts = sweep();
  const std::string a = scratch("res_a"), b = scratch("res_b");
  tb::write_results(a, scenario(), 7, pts);
  for (auto& p : pts) p.wall_seconds *= 3;  // wall time differs from run to run
  tb::write_results(b, scenario(), 7, pts);
  const std::string ja = slurp(a + "/results.json");
  BOOST_TEST(!ja.empty());
  BOOST_TEST(ja == slurp(b + "/results.json"));
  BOOST_TEST(slurp(a + "/results.csv") == slurp(b + "/results.csv"));
  BOOST_TEST(ja.find("wall") == std::string::npos);
  // Top-level layout and key order are part of the format.
  auto j = nlohmann::ordered_json::parse(ja);
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  BOOST_TEST(keys == (std::vector<std::string>{"scenario", "seed", "saturation", "points"}),
             boost::test_tools::per_element());
  BOOST_TEST(j["seed"] == 7);
  BOOST_TEST(j["scenario"]["topology"]["spec"] == "torus:4x4");
  BOOST_TEST(j["points"].size() == 4u);
  BOOST_TEST(j["points"][0]["accepted_bytes_per_ns_per_switch"].get<double>() == 0.433333);  // 6 decimals
  BOOST_TEST(j["points"][0]["avg_latency_ns"].get<double>() == 142.857);                     // 3 decimals
  // Saturation: the first saturated point's load and the best accepted traffic.
  BOOST_TEST(j["saturation"]["found"] == true);
  BOOST_TEST(j["saturation"]["offered_load"].get<double>() == 0.3);
  BOOST_TEST(j["saturation"]["throughput_bytes_per_ns_per_switch"].get<double>() == 1.1);
  std::filesystem::remove_all(a);
  std::filesystem::remove_all(b);
}

// The two readings: the accepted traffic at the saturation load (0.3: 0.3 + 1/3), and the best
// of the points above it that warmed up to a steady rate (0.95 at 0.6); the 0.4 point warmed up
// for a fixed time and the 0.7 point did not settle, so neither counts however high.
BOOST_AUTO_TEST_CASE(both_readings_past_saturation) {
  auto pts = sweep();
  const std::string plain = scratch("res_plain");
  tb::write_results(plain, scenario(), 7, pts);
  const std::string before = slurp(plain + "/results.json"), csv_before = slurp(plain + "/results.csv");
  BOOST_TEST(before.find("steady_past") == std::string::npos);  // no beyond points: bytes as before
  BOOST_TEST(csv_before.find("warmup_settled") == std::string::npos);
  for (auto [load, acc, settled] :
       {std::tuple{0.5, 0.9, true}, std::tuple{0.6, 0.95, true}, std::tuple{0.7, 1.3, false}}) {
    tb::LoadPointResult r = pts.back();
    r.offered_load = load;
    r.accepted_bytes_per_ns_per_switch = acc;
    r.warmup.on = r.warmup.rate = true;
    r.warmup.settled = settled;
    r.warmup.ns = 40000;
    r.warmup.accepted = {acc, 0.01, 8};
    r.warmup.previous_accepted = acc + 0.005;
    pts.push_back(r);
  }
  const tb::ThroughputReadings t = tb::throughput_readings(pts);
  BOOST_TEST(t.found);
  BOOST_TEST(t.at_saturation == 0.3 + 1.0 / 3, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(t.past_found);
  BOOST_TEST(t.past == 0.95);
  BOOST_TEST(t.unsettled == 1);
  const std::string dir = scratch("res_beyond");
  tb::write_results(dir, scenario(), 7, pts);
  auto j = nlohmann::ordered_json::parse(slurp(dir + "/results.json"));
  BOOST_TEST(j["saturation"]["at_saturation_bytes_per_ns_per_switch"].get<double>() == 0.633333);
  BOOST_TEST(j["saturation"]["steady_past_bytes_per_ns_per_switch"].get<double>() == 0.95);
  BOOST_TEST(j["saturation"]["unsettled_points"] == 1);
  BOOST_TEST(j["points"][6]["warmup"]["accepted_bytes_per_ns_per_switch"]["half_width"].get<double>() == 0.01);
  BOOST_TEST(j["points"][6]["warmup"]["previous_accepted_bytes_per_ns_per_switch"].get<double>() == 1.305);
  const auto back = tb::point_from_json(j["points"][6]);
  BOOST_TEST(back.warmup.rate);
  BOOST_TEST(!back.warmup.settled);
  BOOST_TEST(back.warmup.accepted.batches == 8);
  const std::string csv = slurp(dir + "/results.csv");
  BOOST_TEST(csv.find(",saturated,warmup_settled\n") != std::string::npos);
  BOOST_TEST(csv.find(",true,true\n") != std::string::npos);   // 0.5, 0.6: saturated, settled
  BOOST_TEST(csv.find(",true,false\n") != std::string::npos);  // 0.7: did not settle
  BOOST_TEST(csv.find(",true,\n") != std::string::npos);       // 0.3, 0.4: fixed warm-up
  // Nothing settled past the knee: no second reading (null), never the transient's value.
  for (auto& p : pts) p.warmup.settled = false;
  const tb::ThroughputReadings none = tb::throughput_readings(pts);
  BOOST_TEST(!none.past_found);
  BOOST_TEST(none.unsettled == 3);
  std::filesystem::remove_all(plain);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(json_round_trip) {
  for (const auto& r : sweep()) {
    auto back = tb::point_from_json(nlohmann::json::parse(tb::to_json(r).dump()));
    BOOST_TEST(back.offered_load == r.offered_load, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(back.avg_latency_ns == r.avg_latency_ns, boost::test_tools::tolerance(1e-5));
    BOOST_TEST(back.packets_delivered == r.packets_delivered);
    BOOST_TEST(back.saturated == r.saturated);
    BOOST_TEST(back.wall_seconds == 0.0);
    BOOST_REQUIRE(back.links.size() == 2u);
    BOOST_TEST(back.links[0].name == "sw0.p1");
    BOOST_TEST(back.links[0].per_vl.size() == 2u);
    BOOST_TEST(tb::to_json(back).dump() == tb::to_json(r).dump());  // rounding is idempotent
  }
}

BOOST_AUTO_TEST_CASE(csv_has_a_header_and_one_row_per_point) {
  const std::string dir = scratch("res_csv");
  tb::write_results(dir, scenario(), 1, sweep());
  std::istringstream in(slurp(dir + "/results.csv"));
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  BOOST_REQUIRE(lines.size() == 5u);
  auto fields = [](const std::string& l) { return std::count(l.begin(), l.end(), ',') + 1; };
  BOOST_TEST(lines[0].rfind("offered_load,", 0) == 0u);
  BOOST_TEST(lines[0].find("wall") == std::string::npos);
  for (const auto& l : lines) BOOST_TEST(fields(l) == fields(lines[0]), l);
  BOOST_TEST(lines[1].rfind("0.1,0.025,0.433333,", 0) == 0u, lines[1]);
  BOOST_TEST(lines[4].substr(lines[4].size() - 5) == ",true");
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(summary_table_is_aligned) {
  std::ostringstream os;
  tb::print_summary(os, sweep());
  std::istringstream in(os.str());
  std::string line;
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  BOOST_REQUIRE(lines.size() == 5u);
  for (const char* col :
       {"load", "acc B/ns/sw", "acc %", "avg ns", "p50 ns", "p99 ns", "injected", "delivered", "in flight"})
    BOOST_TEST(lines[0].find(col) != std::string::npos, col);
  // Right-aligned columns: every row ends its numbers where the header ends its titles.
  const size_t end_inflight = lines[0].find("in flight") + 9, end_pct = lines[0].find("acc %") + 5;
  for (size_t i = 1; i < lines.size(); ++i) {
    BOOST_TEST(lines[i][end_pct - 1] == '%', lines[i]);
    BOOST_TEST(lines[i][end_inflight - 1] != ' ', lines[i]);
    BOOST_TEST((lines[i].size() <= end_inflight || lines[i][end_inflight] == ' '), lines[i]);
  }
  BOOST_TEST(lines[3].find("saturated") != std::string::npos);
  BOOST_TEST(os.str().find("wall") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(plot_with_and_without_gnuplot) {
  const std::string dir = scratch("plot");
  std::filesystem::create_directories(dir);
  auto pts = sweep();
  auto other = pts;
  for (auto& p : other) p.avg_latency_ns *= 1.5;
  std::vector<tb::LoadPointResult> empty_series(2);  // nothing measured: left out of the plot
  tb::write_plot(dir + "/two.svg", "it's two", {{"e-cube", pts}, {"none", empty_series}, {"FX 2VL", other}});
  BOOST_TEST(std::filesystem::exists(dir + "/two.gp"));
  const std::string dat = slurp(dir + "/two.dat");
  BOOST_TEST(dat.find("# e-cube") != std::string::npos);
  BOOST_TEST(dat.find("# none") == std::string::npos);
  if (std::system("command -v gnuplot >/dev/null 2>&1") == 0) {
    BOOST_TEST(slurp(dir + "/two.svg").find("<svg") != std::string::npos);
  } else {
    BOOST_TEST_MESSAGE("gnuplot not installed: SVG not checked");
  }
  // Without gnuplot on the PATH: a note on stderr, the script and data still written.
  const std::string path = std::getenv("PATH") ? std::getenv("PATH") : "";
  setenv("PATH", "/nonexistent", 1);
  std::ostringstream err;
  auto* old = std::cerr.rdbuf(err.rdbuf());
  tb::write_plot(dir + "/nognu.svg", "t", {{"a", pts}});
  std::cerr.rdbuf(old);
  setenv("PATH", path.c_str(), 1);
  BOOST_TEST(err.str().find("gnuplot not found") != std::string::npos, err.str());
  BOOST_TEST(std::filesystem::exists(dir + "/nognu.gp"));
  BOOST_TEST(std::filesystem::exists(dir + "/nognu.dat"));
  BOOST_TEST(!std::filesystem::exists(dir + "/nognu.svg"));
  std::filesystem::remove_all(dir);
}

// A point whose window measured no packet has no latency: null in JSON (not 0, which reads as
// an infinitely fast fabric), an empty CSV cell, "-" in the table; reading it back keeps that.
BOOST_AUTO_TEST_CASE(point_without_measured_packets_has_null_latency) {
  auto pts = sweep();
  tb::LoadPointResult& idle = pts[0];
  idle.measured_packets = 0;
  idle.avg_latency_ns = idle.p50_latency_ns = idle.p99_latency_ns = idle.max_latency_ns = 0;
  const auto j = tb::to_json(idle);
  for (const char* k : {"avg_latency_ns", "p50_latency_ns", "p99_latency_ns", "max_latency_ns"})
    BOOST_TEST(j[k].is_null(), k);
  BOOST_TEST(tb::to_json(pts[1])["avg_latency_ns"].get<double>() == 571.429);
  const auto back = tb::point_from_json(nlohmann::json::parse(j.dump()));
  BOOST_TEST(back.measured_packets == 0u);
  BOOST_TEST(tb::to_json(back).dump() == j.dump());
  const std::string dir = scratch("res_null");
  tb::write_results(dir, scenario(), 1, pts);
  std::istringstream in(slurp(dir + "/results.csv"));
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  // offered_load,offered_bytes,accepted,accepted_fraction, then the four latency cells empty.
  BOOST_TEST(row.rfind("0.1,0.025,0.433333,0.433333,,,,,1000,", 0) == 0u, row);
  std::ostringstream table;
  tb::print_summary(table, pts);
  BOOST_TEST(table.str().find("         -          -          -") != std::string::npos, table.str());
  std::filesystem::remove_all(dir);
}

// Loads far below 0.001 keep 6 significant digits instead of rounding to 0.
BOOST_AUTO_TEST_CASE(tiny_offered_load_is_not_written_as_zero) {
  tb::LoadPointResult r = sweep()[0];
  r.offered_load = 1.234567e-17;
  r.offered_bytes_per_ns_per_host = 0.25 * r.offered_load;
  const auto j = tb::to_json(r);
  BOOST_TEST(j["offered_load"].get<double>() == 1.23457e-17);
  BOOST_TEST(j["offered_bytes_per_ns_per_host"].get<double>() == 3.08642e-18);
  BOOST_TEST(tb::to_json(sweep()[2])["offered_load"].get<double>() == 0.3);  // 6 decimals as before
}

// A write that fails part-way (here: a file size limit, as a full disk would) leaves the
// previous results.json whole and no temporary file; the old code truncated it first.
BOOST_AUTO_TEST_CASE(failed_rewrite_keeps_the_previous_file) {
  const std::string dir = scratch("res_atomic");
  tb::write_results(dir, scenario(), 1, sweep());
  const std::string before = slurp(dir + "/results.json");
  BOOST_REQUIRE(before.size() > 2000u);
  rlimit old{};
  getrlimit(RLIMIT_FSIZE, &old);
  rlimit small = old;
  small.rlim_cur = 1000;
  std::signal(SIGXFSZ, SIG_IGN);  // the write fails with EFBIG instead of killing the process
  setrlimit(RLIMIT_FSIZE, &small);
  std::string error;
  try {
    tb::write_results(dir, scenario(), 2, sweep());
  } catch (const std::exception& e) {
    error = e.what();
  }
  setrlimit(RLIMIT_FSIZE, &old);
  BOOST_TEST(error.find("results.json: cannot write") != std::string::npos, error);
  BOOST_TEST(slurp(dir + "/results.json") == before);
  for (const auto& e : std::filesystem::directory_iterator(dir))
    BOOST_TEST(e.path().filename().string()[0] != '.', e.path());  // no temporary left
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(unwritable_directory_is_an_error) {
  BOOST_CHECK_THROW(tb::write_results("/proc/ibsc_no_such_dir", scenario(), 1, sweep()), std::exception);
}

BOOST_AUTO_TEST_SUITE_END()
