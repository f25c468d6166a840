// LFT port sets in the fabric: two switches joined by two parallel cables, remote hosts routed
// over both (the first cable at priority 0, the second at 1). The arbiter must take the second
// cable when the first is busy, conserve every packet, and the Verilated RTL arbiter must give
// exactly the model's results. Every fabric is elaborated in its own forked process.
#include <boost/test/unit_test.hpp>

#include <map>

#include <nlohmann/json.hpp>

#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tb/run/run_point.h"
#include "tb/run/sweep.h"
#include "tests/support/manual_fabric.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using models::Picos;

namespace {
testing::ScStrict strict;
constexpr Picos kNs = 1000;

// Hosts 0, 1, 2 (sw_0) each send one 512-byte packet to hosts 4, 5, 6 (sw_1) at time 0, with
// the given arbiter. Returns bytes per inter-switch cable and the deliveries, as JSON.
std::string scripted(const std::string& kind, bool fallback_on_credits = false) {
  return tb::run_forked(1, 1, [&](int) {
    routing::Topology topo = testing::parallel_pair(4);
    routing::TableSet tables = testing::parallel_pair_tables(topo);
    testing::ScriptedTraffic traffic(topo.num_hosts, {{0, 0, 4, 512}, {0, 1, 5, 512}, {0, 2, 6, 512}});
    tb::FabricParams params;
    params.sw.num_vls = 1;
    params.sw.ar_fallback = fallback_on_credits ? models::ArFallback::Credits : models::ArFallback::Free;
    tb::ArbiterChoice ac;
    ac.name = kind;
    tb::Fabric fabric(topo, tables, params, traffic, tb::make_arbiter_factory(ac));
    sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_US));
    nlohmann::ordered_json j;
    for (const tb::LinkInfo& l : fabric.links()) {
      if (l.from_node != 0 || l.to_node != 1) continue;
      uint64_t bytes = 0;
      for (uint64_t b : l.link->bytes_per_vl()) bytes += b;
      j["bytes"][std::to_string(l.from_port)] = bytes;
    }
    for (const auto& d : traffic.deliveries) j["deliveries"].push_back({d.id, d.src, d.dst, d.gen, d.done, d.hops});
    return j.dump();
  })[0];
}

// The delivery times of a scripted() run, earliest first.
std::vector<Picos> delivery_times(const nlohmann::json& j) {
  std::vector<Picos> done;
  for (const auto& d : j["deliveries"]) done.push_back(d[4].get<Picos>());
  std::sort(done.begin(), done.end());
  return done;
}

tb::PointSetup random_setup(const routing::Topology& topo, const routing::TableSet& tables) {
  tb::PointSetup ps;
  ps.topo = &topo;
  ps.tables = &tables;
  ps.fabric.sw.num_vls = 1;
  ps.run.warmup_ns = 5000;
  ps.run.window_ns = 30000;
  ps.run.drain_ns = 20000;
  ps.run.check_ns = 5000;
  ps.run.progress = false;
  return ps;
}
}  // namespace

// Three packets want the same pair of cables at once: the preferred cable (p1) takes one, the
// second (p3) takes another while p1 is busy, and the third goes on p1 when it frees (both
// free then; priority decides). The RTL does exactly the same.
BOOST_AUTO_TEST_CASE(second_candidate_when_first_busy) {
  const std::string model = scripted("model");
  const nlohmann::json j = nlohmann::json::parse(model);
  BOOST_TEST_MESSAGE(model);
  BOOST_TEST_REQUIRE(j["deliveries"].size() == 3u);
  BOOST_TEST(j["bytes"]["1"].get<uint64_t>() == 1024u);
  BOOST_TEST(j["bytes"]["3"].get<uint64_t>() == 512u);
  // The two first packets travel side by side: delivered at the same time, the third one
  // packet time (512 x 4 ns) later.
  const std::vector<Picos> done = delivery_times(j);
  BOOST_TEST(done[0] == done[1]);
  BOOST_TEST(done[2] - done[0] == 512 * 4 * kNs);
  BOOST_TEST(scripted("rtl") == model);
}

// switch.ar_fallback: credits: the preferred cable is busy but has credits for the packets, so
// they wait for it instead of taking the second cable: p1 carries all three, delivered one
// packet time (512 x 4 ns) apart; p3 none.
BOOST_AUTO_TEST_CASE(fallback_on_credits_waits_for_busy_preferred_cable) {
  const nlohmann::json j = nlohmann::json::parse(scripted("model", true));
  BOOST_TEST_REQUIRE(j["deliveries"].size() == 3u);
  BOOST_TEST(j["bytes"]["1"].get<uint64_t>() == 1536u);
  BOOST_TEST(j["bytes"]["3"].get<uint64_t>() == 0u);
  const std::vector<Picos> done = delivery_times(j);
  BOOST_TEST(done[1] - done[0] == 512 * 4 * kNs);
  BOOST_TEST(done[2] - done[1] == 512 * 4 * kNs);
}

// Uniform random traffic beyond what one cable carries: every packet is accounted for, both
// cables carry traffic (the preferred one more), and the RTL arbiter gives the same results.
BOOST_AUTO_TEST_CASE(random_traffic_conserved_and_rtl_identical) {
  const routing::Topology topo = testing::parallel_pair(4);
  const routing::TableSet tables = testing::parallel_pair_tables(topo);
  tb::PointSetup ps = random_setup(topo, tables);
  auto once = [&](const std::string& kind) {
    ps.arbiter.name = kind;
    return tb::run_forked(1, 1, [&](int) { return tb::to_json(tb::run_load_point(ps, 0.8, "test")).dump(); })[0];
  };
  const std::string model = once("model");
  const tb::LoadPointResult r = tb::point_from_json(nlohmann::json::parse(model));
  BOOST_TEST(r.packets_injected == r.packets_delivered + r.packets_in_flight);
  BOOST_TEST(r.packets_generated == r.packets_injected + r.packets_queued_at_source);
  BOOST_TEST(r.packets_delivered > 80u);
  std::map<std::string, double> util;
  for (const auto& l : r.links) util[l.name] = l.utilisation;
  BOOST_TEST_REQUIRE(util.count("sw_0_p1_to_sw_1_p2"));
  BOOST_TEST_REQUIRE(util.count("sw_0_p3_to_sw_1_p4"));
  BOOST_TEST_MESSAGE("p1 " << util["sw_0_p1_to_sw_1_p2"] << ", p3 " << util["sw_0_p3_to_sw_1_p4"]);
  BOOST_TEST(util["sw_0_p3_to_sw_1_p4"] > 0.2);
  BOOST_TEST(util["sw_0_p1_to_sw_1_p2"] > util["sw_0_p3_to_sw_1_p4"]);
  BOOST_TEST(util["sw_1_p4_to_sw_0_p3"] > 0.2);
  BOOST_TEST(once("rtl") == model);
}
