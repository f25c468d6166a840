// The switches' named counters per port and VL (models/port_counters.h, run.port_counters)
// against a case worked by hand: one switch, hosts 0 and 1 both send to host 2 back to back.
// Each run in a child process (SystemC elaborates once per process).
#include <boost/test/unit_test.hpp>

#include <nlohmann/json.hpp>

#include "tb/run/run_point.h"
#include "tb/run/sweep.h"
#include "tests/support/manual_fabric.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;

namespace {
testing::ScStrict strict;

// One 8-port switch, hosts 0, 1, 2 on ports 3, 4, 5; hosts 0 and 1 send to host 2 at full
// link rate (host 2 sends to hosts 0 and 1, on other outputs), 512-byte packets on VL 0.
nlohmann::json run_two_to_one(bool counters, int buffer_bytes = 4096) {
  routing::Topology topo = testing::chain(1, 3, 0);
  routing::TableSet tables = testing::chain_tables(topo, 1);
  tb::PointSetup ps;
  ps.topo = &topo;
  ps.tables = &tables;
  ps.fabric.sw.num_vls = 1;
  ps.fabric.sw.buffer_bytes_per_vl = buffer_bytes;
  ps.traffic.pattern = tb::TrafficPattern::Hotspot;  // every packet to host 2; host 2 itself sends to 0 and 1
  ps.traffic.hotspot_hosts = {2};
  ps.traffic.hotspot_fraction = 1.0;
  ps.run.warmup_ns = 20000;
  ps.run.window_ns = 200000;
  ps.run.drain_ns = 0;
  ps.run.progress = false;
  ps.run.port_counters = counters;
  const std::string out =
      tb::run_forked(1, 1, [&](int) { return tb::to_json(tb::run_load_point(ps, 1.0, "test")).dump(); })[0];
  return nlohmann::json::parse(out);
}

const nlohmann::json* find(const nlohmann::json& ports, int port) {
  for (const auto& c : ports)
    if (c["port"] == port && c["vl"] == 0) return &c;
  return nullptr;
}
}  // namespace

// Output port 5 (to host 2) sends all the time: 100% busy. At any moment one of the two input
// heads is on the wire and the other waits for it with credits in hand (host 2 drains at link
// rate): the output-busy stall of port 5 is the whole window, made of the waits of inputs 3
// and 4 (about half each), and there is no credit stall. Every byte granted to port 5 is a byte its link
// sent in the window. Without the key the section is absent.
BOOST_AUTO_TEST_CASE(two_to_one_output_busy_and_conservation) {
  const nlohmann::json r = run_two_to_one(true);
  const nlohmann::json& sc = r.at("switch_counters");
  const double window = sc.at("window_ns");
  BOOST_TEST(window == 200000.0);
  const nlohmann::json& ports = sc.at("switches").at(0).at("ports");
  const nlohmann::json* out = find(ports, 5);
  const nlohmann::json* in3 = find(ports, 3);
  const nlohmann::json* in4 = find(ports, 4);
  BOOST_REQUIRE(out && in3 && in4);
  BOOST_TEST_MESSAGE("port 5: " << out->dump() << "\nport 3: " << in3->dump() << "\nport 4: " << in4->dump());
  const double busy = (*out)["output_busy_stall_ns"], credit = (*out)["credit_stall_ns"];
  BOOST_TEST(busy / window == 1.0, boost::test_tools::tolerance(0.03));
  BOOST_TEST(credit / window < 0.01);
  for (const nlohmann::json* in : {in3, in4}) {
    const double wait = (*in)["head_wait_ns"];
    BOOST_TEST(wait / window > 0.25);  // about half each: the arbiter alternates only roughly
    BOOST_TEST(wait / window < 0.75);
    BOOST_TEST((*in)["hol_blocked_ns"].get<double>() == 0.0);  // every packet goes to port 5
    // Each input always holds at least its head's 512-byte packet (it sends at full rate and
    // gets half the output): the mean is at least that, the maximum at least the mean.
    BOOST_TEST((*in)["occupancy_mean_bytes"].get<double>() >= 512.0);
    BOOST_TEST((*in)["occupancy_max_bytes"].get<double>() >= (*in)["occupancy_mean_bytes"].get<double>());
  }
  // The inputs' waits add up to port 5's stall: one head always waits, only for the output.
  BOOST_TEST((*in3)["head_wait_ns"].get<double>() + (*in4)["head_wait_ns"].get<double>() == busy,
             boost::test_tools::tolerance(0.01));
  // Conservation: grant bytes of port 5 = bytes its link sent in the window (utilisation x
  // window / byte time; 1X SDR: 4 ns a byte), within the utilisation's 6 decimals.
  double util = -1;
  for (const auto& l : r.at("links"))
    if (l.at("link").get<std::string>().rfind("sw_0_p5_to_", 0) == 0) util = l.at("utilisation");
  BOOST_REQUIRE(util > 0);
  BOOST_TEST(util > 0.99);
  const double grant_bytes = (*out)["grant_bytes"];
  BOOST_TEST(grant_bytes == util * window / 4.0, boost::test_tools::tolerance(1e-5));

  const nlohmann::json off = run_two_to_one(false);
  BOOST_TEST(!off.contains("switch_counters"));
}

// The same with buffers of one packet (512 bytes, 8 credits) everywhere: port 5's credits for
// the next packet are all back only when host 2 has received the last byte and its credit has
// flown back. Defaults: 1X SDR, 4 ns a byte; fly time 100 ns; routing delay 100 ns; 4 ns clock.
// Grant at t: the link sends until t + 2048; the last byte reaches host 2 at t + 2148, its
// credit is back at t + 2248: period 2248 ns. The other input's head (its host could send only
// once its previous packet left the 512-byte buffer: ready at t - 2248 + 2348 = t + 100) waits
// with the output busy and credits short until t + 2048, then for credits alone until t + 2248.
// So per window: credit stall 200 / 2248, no output-busy stall (credits are never there while
// the output sends), the inputs' head waits 2148 / 2248 together, link busy 2048 / 2248.
BOOST_AUTO_TEST_CASE(credit_starved_one_packet_buffers) {
  const nlohmann::json r = run_two_to_one(true, 512);
  const nlohmann::json& sc = r.at("switch_counters");
  const double window = sc.at("window_ns");
  const nlohmann::json* out = find(sc.at("switches").at(0).at("ports"), 5);
  BOOST_REQUIRE(out);
  BOOST_TEST_MESSAGE("port 5: " << out->dump());
  const double period = 2248;
  BOOST_TEST((*out)["credit_stall_ns"].get<double>() / window == 200 / period, boost::test_tools::tolerance(0.03));
  BOOST_TEST((*out)["output_busy_stall_ns"].get<double>() == 0.0);
  const nlohmann::json& ports = sc.at("switches").at(0).at("ports");
  const double waits =
      (*find(ports, 3))["head_wait_ns"].get<double>() + (*find(ports, 4))["head_wait_ns"].get<double>();
  BOOST_TEST(waits / window == 2148 / period, boost::test_tools::tolerance(0.03));
  BOOST_TEST((*out)["grant_packets"].get<double>() == window / period, boost::test_tools::tolerance(0.02));
}
