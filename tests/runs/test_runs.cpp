// Whole-fabric runs: conservation at and beyond saturation, the deadlock watchdog (fires for
// dimension-order routing on one VL, silent for e-cube on two), determinism, and the
// channel-load bound on accepted traffic. Each case is its own process (one elaboration).
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "routing/routing.h"
#include "tb/run/run_point.h"
#include "tb/run/sweep.h"
#include "tb/scenario/scenario.h"
#include "tests/support/manual_fabric.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;

namespace {
testing::ScStrict strict;

struct Setup {
  routing::Topology topo;
  routing::TableSet tables;
  tb::PointSetup ps;
  Setup(const std::vector<int>& dims, const std::string& algorithm, int vls, uint32_t length = 512) {
    topo = routing::make_torus(dims, 4, true, 2 * static_cast<int>(dims.size()) + 4);
    routing::RoutingOptions ro;
    ro.algorithm = enum_value<routing::Algorithm>(algorithm);
    tables = routing::compute_routing(topo, ro);
    ps.topo = &topo;
    ps.tables = &tables;
    ps.fabric.sw.num_vls = vls;
    ps.injection.length_mix = {{length, 1.0}};
    ps.run.warmup_ns = 10000;
    ps.run.window_ns = 40000;
    ps.run.drain_ns = 100000;
    ps.run.progress = false;
  }
};
}  // namespace

// Far beyond saturation the source queues grow, but every packet is accounted for: the run's
// own conservation check passes every 10 us, and at the end generated = delivered + in flight.
BOOST_AUTO_TEST_CASE(conservation_beyond_saturation) {
  Setup s({4, 4}, "ecube", 2);
  s.ps.run.drain_ns = 0;
  tb::LoadPointResult r = tb::run_load_point(s.ps, 1.0, "test");
  BOOST_TEST(r.saturated);
  BOOST_TEST(r.packets_injected == r.packets_delivered + r.packets_in_flight);
  BOOST_TEST(r.packets_generated == r.packets_injected + r.packets_queued_at_source);
  BOOST_TEST(r.packets_in_flight > 100u);
  // Channel-load bound, uniform traffic, 4x4 torus, 4 hosts/switch, 1X links (0.25 B/ns):
  // a packet crosses E[d0] = 16 x 4 / 63 = 64/63 channels of dimension 0 (dest hosts uniform
  // over the 63 others), spread evenly over the 32 dimension-0 channels, so each carries
  // 64 x lambda x (64/63) / 32 <= 0.25  =>  lambda <= 0.12305 B/ns/host = 0.4922 B/ns/switch.
  // A finite window may deliver a little more than it accepts in steady state: 2% slack.
  const double bound = 4 * 0.25 * 32 / (64.0 * 64.0 / 63.0);
  BOOST_TEST(bound == 0.4922, boost::test_tools::tolerance(0.001));
  BOOST_TEST(r.accepted_bytes_per_ns_per_switch <= bound * 1.02);
  BOOST_TEST(r.accepted_bytes_per_ns_per_switch > 0.25);
}

// Dimension-order routing on one VL on a ring has a cyclic channel dependency; under heavy
// load the buffers fill around the ring and nothing moves. The watchdog must name the cycle.
BOOST_AUTO_TEST_CASE(watchdog_fires_for_dor_on_one_vl) {
  Setup s({8}, "dor1vl", 1);
  s.ps.run.watchdog_ns = 20000;
  s.ps.run.window_ns = 400000;
  bool fired = false;
  try {
    tb::run_load_point(s.ps, 1.0, "test");
  } catch (const tb::DeadlockError& e) {
    fired = true;
    std::string m = e.what();
    BOOST_TEST_MESSAGE(m);
    BOOST_TEST(m.find("cycle of waiting channels") != std::string::npos);
    BOOST_TEST(m.find("VL 0") != std::string::npos);
    // "N packets in flight" counts the fabric only: 8 switches x 6 ports x one VL of 2048 bytes
    // hold at most 4 packets of 512 bytes each, and each of the 32 HCAs receives at most one at
    // a time: <= 224. The sources, still generating at load 1, queue far more (said apart).
    const std::string lead = "deadlock watchdog: ";
    BOOST_REQUIRE(m.rfind(lead, 0) == 0u);
    const unsigned long in_flight = std::stoul(m.substr(lead.size()));
    BOOST_TEST(in_flight > 0u);
    BOOST_TEST(in_flight <= 8u * 6 * 4 + 32);
    BOOST_TEST(m.find("more queued at sources") != std::string::npos);
  }
  BOOST_TEST(fired);
}

BOOST_AUTO_TEST_CASE(watchdog_silent_for_ecube_on_two_vls) {
  Setup s({8}, "ecube", 2);
  s.ps.run.watchdog_ns = 20000;
  s.ps.run.window_ns = 400000;
  s.ps.run.drain_ns = 0;
  tb::LoadPointResult r = tb::run_load_point(s.ps, 1.0, "test");
  BOOST_TEST(r.packets_delivered > 300u);  // kept moving to the end: no deadlock
}

// Same scenario and seed: identical results; another seed: different results.
BOOST_AUTO_TEST_CASE(determinism_same_seed_same_results) {
  Setup s({4, 4}, "ecube", 2);
  auto once = [&](uint64_t seed) {
    s.ps.seed = seed;
    return tb::run_forked(1, 1, [&](int) { return tb::to_json(tb::run_load_point(s.ps, 0.3, "test")).dump(); })[0];
  };
  std::string a = once(7), b = once(7), c = once(8);
  BOOST_TEST(a == b);
  BOOST_TEST(a != c);
}

// The Verilated RTL arbiter in every switch gives exactly the results of the C++ model: the
// quick start through the sweep and write_results, as `ibsc run` does; results.json differs
// only in the echoed switch.arbiter key (every point, the saturation and the seed equal).
BOOST_AUTO_TEST_CASE(rtl_arbiter_in_fabric_matches_model) {
  auto once = [&](const std::string& kind) {
    tb::Scenario sc = tb::load_scenario(IBSC_SOURCE_DIR "/scenarios/quickstart.yaml",
                                        {"switch.arbiter=" + kind, "run.warmup_ns=10000", "run.window_ns=40000",
                                         "run.drain_ns=100000", "sweep.loads=[0.2, 0.35, 0.6]", "sweep.jobs=2"});
    sc.point.run.progress = false;
    routing::Topology topo = tb::build_topology(sc.topology);
    routing::TableSet tables = routing::compute_routing(topo, sc.routing);
    sc.point.topo = &topo;
    sc.point.tables = &tables;
    const std::string dir = "rtl_vs_model_" + kind;
    std::filesystem::create_directories(dir);
    tb::write_results(dir, sc.resolved, sc.point.seed, tb::run_sweep(sc.point, sc.sweep));
    std::ifstream f(dir + "/results.json");
    return nlohmann::json::parse(f);
  };
  nlohmann::json model = once("model"), rtl = once("rtl");
  BOOST_TEST_REQUIRE(model["points"].size() >= 3u);  // the three loads, and any refinement
  BOOST_TEST(model["points"].dump() == rtl["points"].dump());
  BOOST_TEST(model["points"][0]["packets_delivered"].get<uint64_t>() > 0u);
  BOOST_TEST(rtl["scenario"]["switch"]["arbiter"] == "rtl");
  for (nlohmann::json* j : {&model, &rtl}) (*j)["scenario"]["switch"].erase("arbiter");
  BOOST_TEST(model.dump() == rtl.dump());
}

// Head-of-line blocking: one 8-port switch with a FIFO per input, 8 hosts, uniform traffic,
// fixed-size packets, saturates at the classic input-queueing limit for N = 8, 0.6184 of
// link capacity (Karol, Hluchyj and Morgan, 1987; 0.586 as N grows).
BOOST_AUTO_TEST_CASE(hol_blocking_limit_single_switch) {
  routing::Topology topo = testing::chain(1, 8, 0, 10);
  routing::TableSet tables = testing::chain_tables(topo, 1);
  tb::PointSetup ps;
  ps.topo = &topo;
  ps.tables = &tables;
  ps.fabric.sw.num_vls = 1;
  ps.run.warmup_ns = 100000;
  ps.run.window_ns = 2000000;
  ps.run.drain_ns = 0;
  ps.run.progress = false;
  tb::LoadPointResult r = tb::run_load_point(ps, 1.0, "test");
  BOOST_TEST_MESSAGE("accepted fraction " << r.accepted_fraction);
  BOOST_TEST(r.accepted_fraction == 0.6184, boost::test_tools::tolerance(0.03));
}

// Event-driven equals clocked: arbitrating on every core-clock edge while anything is queued
// (the reference a clocked design would be) gives exactly the same results as waking only on
// the edges where a grant may be possible. Below and beyond saturation.
BOOST_AUTO_TEST_CASE(event_driven_equals_every_edge_reference) {
  Setup s({4, 4}, "ecube", 2);
  s.ps.run.window_ns = 20000;
  for (double load : {0.2, 0.6}) {
    auto once = [&](bool every_edge) {
      s.ps.fabric.sw.every_edge = every_edge;
      return tb::run_forked(1, 1, [&](int) { return tb::to_json(tb::run_load_point(s.ps, load, "test")).dump(); })[0];
    };
    BOOST_TEST(once(false) == once(true), "load " << load);
  }
}

// Output buffers (1 KB per output port and VL, seeds/004's size) at and beyond saturation on the
// 4x4 torus: no deadlock (e-cube on two VLs: the watchdog would throw), every packet accounted
// for with those held in output buffers, and the event-driven link side equal to the clocked
// reference below saturation.
BOOST_AUTO_TEST_CASE(output_buffers_conserve_and_match_every_edge) {
  Setup s({4, 4}, "ecube", 2);
  s.ps.fabric.sw.output_buffer_bytes_per_vl = 1024;
  s.ps.fabric.sw.crossbar_speedup = 2;
  s.ps.run.drain_ns = 0;
  s.ps.run.watchdog_ns = 20000;
  // Each run in a child process: SystemC elaborates once per process.
  const nlohmann::json r = nlohmann::json::parse(
      tb::run_forked(1, 1, [&](int) { return tb::to_json(tb::run_load_point(s.ps, 1.0, "test")).dump(); })[0]);
  BOOST_TEST(r["saturated"].get<bool>());
  const uint64_t generated = r["packets_generated"], injected = r["packets_injected"],
                 delivered = r["packets_delivered"], in_flight = r["packets_in_flight"],
                 at_source = r["packets_queued_at_source"];
  BOOST_TEST(injected == delivered + in_flight);
  BOOST_TEST(generated == injected + at_source);
  BOOST_TEST(in_flight > 100u);
  const double accepted = r["accepted_bytes_per_ns_per_switch"];
  // The same channel-load bound as conservation_beyond_saturation: buffers cannot beat it.
  BOOST_TEST(accepted <= 0.4922 * 1.02);
  BOOST_TEST(accepted > 0.25);
  s.ps.run.window_ns = 20000;
  s.ps.run.drain_ns = 100000;
  auto once = [&](bool every_edge) {
    s.ps.fabric.sw.every_edge = every_edge;
    return tb::run_forked(1, 1, [&](int) { return tb::to_json(tb::run_load_point(s.ps, 0.6, "test")).dump(); })[0];
  };
  BOOST_TEST(once(false) == once(true));
}
