// Adaptive routing with escape queues in the switch (seeds/003; input_buffer.h, switch.h):
//   - zero load: a packet's latency is the analytic one of its path,
//       (switches + 1) x fly + switches x routing delay + length x byte time
//     (100 ns fly for 20 m at 5 ns/m, 100 ns routing delay, 4 ns a byte at 1X SDR), the path
//     is minimal, and where up*/down* is minimal too the deterministic fabric gives the same
//     latency to the picosecond: the escape reserve and the candidate choice cost nothing;
//   - saturation (offered load 0.9, far beyond what the networks accept) on an irregular
//     network and a torus: every packet accounted for, the deadlock watchdog silent, adaptive
//     above 1.5x up*/down*'s throughput (seeds/003 Figure 5: about x2 on 16 switches);
//   - out of order: under a burst, packets of a flow overtake each other with adaptive routing
//     (none with up*/down*), and every one is delivered: nothing downstream assumes order;
//   - the Verilated RTL arbiter gives the model's results bit for bit (the model's one-head
//     shortcut included);
//   - the event-driven switch equals the every-edge reference with escape queues, and escape
//     queues work with a crossbar input per VL and with output buffers (seeds/003's switch: 8 KB
//     at crossbar input and output, escape queues in both).
// Each fabric is elaborated in its own forked process.
#include <boost/test/unit_test.hpp>

#include <map>

#include <nlohmann/json.hpp>

#include "routing/generators.h"
#include "routing/graph.h"
#include "routing/routing.h"
#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tb/run/run_point.h"
#include "tb/run/sweep.h"
#include "tb/scenario/scenario.h"
#include "tb/scenario/scenario_check.h"
#include "tests/support/manual_fabric.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using models::Picos;

namespace {
testing::ScStrict strict;
constexpr Picos kNs = 1000;
constexpr Picos kFly = 100 * kNs, kRouting = 100 * kNs, kByte = 4 * kNs;

routing::TableSet route(const routing::Topology& t, const std::string& algo) {
  routing::RoutingOptions o;
  o.algorithm = enum_value<routing::Algorithm>(algo);
  return routing::compute_routing(t, o);
}

models::SwitchParams adaptive_switch(bool adaptive) {
  models::SwitchParams sw;
  sw.num_vls = 1;
  sw.buffer_bytes_per_vl = 2048;
  sw.escape_queue_bytes = adaptive ? 256 : 0;
  return sw;
}

// Host 0 sends one 256-byte packet to every other host, 20 us apart (zero load); per
// destination: (latency ps, switches passed), as JSON.
std::string zero_load(const std::string& algo) {
  return tb::run_forked(1, 1, [&](int) {
    const routing::Topology topo = routing::make_torus({4, 4}, 1);
    const routing::TableSet tables = route(topo, algo);
    std::vector<testing::Scripted> script;
    for (int q = 1; q < topo.num_hosts; ++q) script.push_back({(q - 1) * 20000 * kNs, 0, q, 256});
    testing::ScriptedTraffic traffic(topo.num_hosts, script);
    tb::FabricParams params;
    params.sw = adaptive_switch(algo == "adaptive-updown");
    tb::Fabric fabric(topo, tables, params, traffic, tb::make_arbiter_factory({}));
    sc_core::sc_start(sc_core::sc_time(400, sc_core::SC_US));
    fabric.check_conservation();
    nlohmann::json j;
    for (const auto& d : traffic.deliveries) j[std::to_string(d.dst)] = {d.done - d.gen, d.hops};
    return j.dump();
  })[0];
}

tb::PointSetup saturated(const routing::Topology& topo, const routing::TableSet& tables, bool adaptive) {
  tb::PointSetup ps;
  ps.topo = &topo;
  ps.tables = &tables;
  ps.fabric.sw = adaptive_switch(adaptive);
  ps.fabric.sw.buffer_bytes_per_vl = 8192;  // seeds/003's input buffer
  ps.injection.length_mix = {{256, 1.0}};
  ps.run.warmup_ns = 100000;  // 8 KB buffers take a while to fill: measure the steady state
  ps.run.window_ns = 100000;
  ps.run.drain_ns = 20000;
  ps.run.check_ns = 5000;
  ps.run.progress = false;
  return ps;
}

tb::LoadPointResult run_point(const tb::PointSetup& ps, double load) {
  const std::string j =
      tb::run_forked(1, 1, [&](int) { return tb::to_json(tb::run_load_point(ps, load, "test")).dump(); })[0];
  return tb::point_from_json(nlohmann::json::parse(j));
}

void conserved(const tb::LoadPointResult& r, uint64_t at_least = 1000) {
  BOOST_TEST(r.packets_injected == r.packets_delivered + r.packets_in_flight);
  BOOST_TEST(r.packets_generated == r.packets_injected + r.packets_queued_at_source);
  BOOST_TEST(r.packets_delivered > at_least);
}
}  // namespace

BOOST_AUTO_TEST_CASE(zero_load_latency_is_analytic_and_equals_deterministic) {
  const nlohmann::json a = nlohmann::json::parse(zero_load("adaptive-updown"));
  const nlohmann::json d = nlohmann::json::parse(zero_load("updown-bfs"));
  const routing::Topology topo = routing::make_torus({4, 4}, 1);
  const std::vector<int> dist = routing::bfs_distances(routing::SwitchGraph(topo), topo.host_switch(0));
  BOOST_TEST_REQUIRE(a.size() == 15u);
  BOOST_TEST_REQUIRE(d.size() == 15u);
  int same_path_length = 0;
  for (int q = 1; q < topo.num_hosts; ++q) {
    const std::string k = std::to_string(q);
    const int switches = a[k][1].get<int>();
    BOOST_TEST_INFO("host " << q);
    BOOST_TEST(switches == dist[topo.host_switch(q)] + 1);  // minimal
    BOOST_TEST(a[k][0].get<Picos>() == (switches + 1) * kFly + switches * kRouting + 256 * kByte);
    const int det_switches = d[k][1].get<int>();
    BOOST_TEST(d[k][0].get<Picos>() == (det_switches + 1) * kFly + det_switches * kRouting + 256 * kByte);
    if (det_switches == switches) {
      ++same_path_length;
      BOOST_TEST(a[k][0].get<Picos>() == d[k][0].get<Picos>());
    }
  }
  BOOST_TEST(same_path_length >= 10);
}

BOOST_AUTO_TEST_CASE(saturated_irregular_network_conserves_and_beats_updown) {
  const routing::Topology topo = routing::make_irregular(16, 8, 4, 1);
  const routing::TableSet adaptive = route(topo, "adaptive-updown"), det = route(topo, "updown-bfs");
  const tb::LoadPointResult a = run_point(saturated(topo, adaptive, true), 0.9);
  const tb::LoadPointResult d = run_point(saturated(topo, det, false), 0.9);
  conserved(a);
  conserved(d);
  BOOST_TEST(a.saturated);
  BOOST_TEST_MESSAGE("accepted B/ns/switch: adaptive " << a.accepted_bytes_per_ns_per_switch << ", up*/down* "
                                                       << d.accepted_bytes_per_ns_per_switch);
  BOOST_TEST(a.accepted_bytes_per_ns_per_switch > 1.5 * d.accepted_bytes_per_ns_per_switch);
}

BOOST_AUTO_TEST_CASE(saturated_torus_conserves) {
  const routing::Topology topo = routing::make_torus({4, 4}, 4, 8);
  const routing::TableSet adaptive = route(topo, "adaptive-updown");
  const tb::LoadPointResult a = run_point(saturated(topo, adaptive, true), 0.9);
  conserved(a);
  BOOST_TEST(a.saturated);
}

BOOST_AUTO_TEST_CASE(event_driven_equals_every_edge_with_escape_queues) {
  const routing::Topology topo = routing::make_irregular(8, 8, 4, 2);
  const routing::TableSet adaptive = route(topo, "adaptive-updown");
  tb::PointSetup ps = saturated(topo, adaptive, true);
  ps.fabric.sw.buffer_bytes_per_vl = 1024;  // small buffers: the escape queues fill often
  ps.run.warmup_ns = 20000;
  ps.run.window_ns = 40000;
  const tb::LoadPointResult ev = run_point(ps, 0.7);
  ps.fabric.sw.every_edge = true;
  const tb::LoadPointResult edge = run_point(ps, 0.7);
  conserved(ev);
  BOOST_TEST(ev.packets_delivered == edge.packets_delivered);
  BOOST_TEST(ev.packet_hops == edge.packet_hops);
  BOOST_TEST(ev.avg_latency_ns == edge.avg_latency_ns);
  BOOST_TEST(ev.max_latency_ns == edge.max_latency_ns);
}

BOOST_AUTO_TEST_CASE(escape_queues_with_a_crossbar_input_per_vl) {
  const routing::Topology topo = routing::make_irregular(16, 8, 4, 1);
  const routing::TableSet adaptive = route(topo, "adaptive-updown");
  tb::PointSetup ps = saturated(topo, adaptive, true);
  ps.fabric.sw.crossbar_inputs = models::CrossbarInputs::Vl;
  ps.fabric.sw.num_vls = 2;  // the tables use VL 0; VL 1 idles
  const tb::LoadPointResult a = run_point(ps, 0.9);
  conserved(a);
}

BOOST_AUTO_TEST_CASE(escape_queues_with_output_buffers) {
  const routing::Topology topo = routing::make_irregular(16, 8, 4, 1);
  const routing::TableSet adaptive = route(topo, "adaptive-updown"), det = route(topo, "updown-bfs");
  tb::PointSetup ps = saturated(topo, adaptive, true);
  ps.fabric.sw.output_buffer_bytes_per_vl = 8192;
  const tb::LoadPointResult a = run_point(ps, 0.9);
  tb::PointSetup pd = saturated(topo, det, false);
  pd.fabric.sw.output_buffer_bytes_per_vl = 8192;
  const tb::LoadPointResult d = run_point(pd, 0.9);
  conserved(a);
  conserved(d);
  BOOST_TEST_MESSAGE("with output buffers, accepted B/ns/switch: adaptive "
                     << a.accepted_bytes_per_ns_per_switch << ", up*/down* " << d.accepted_bytes_per_ns_per_switch);
  BOOST_TEST(a.accepted_bytes_per_ns_per_switch > 1.3 * d.accepted_bytes_per_ns_per_switch);  // 1.50x here
  // Small buffers, where escape queues fill often: event-driven equals every edge.
  ps.fabric.sw.buffer_bytes_per_vl = ps.fabric.sw.output_buffer_bytes_per_vl = 1024;
  ps.run.warmup_ns = 20000;
  ps.run.window_ns = 40000;
  const tb::LoadPointResult ev = run_point(ps, 0.7);
  ps.fabric.sw.every_edge = true;
  const tb::LoadPointResult edge = run_point(ps, 0.7);
  conserved(ev);
  BOOST_TEST(ev.packets_delivered == edge.packets_delivered);
  BOOST_TEST(ev.avg_latency_ns == edge.avg_latency_ns);
}

// The scenario key: default none (no echo), read when given; every misuse refused with the key.
BOOST_AUTO_TEST_CASE(escape_queue_scenario_key) {
  const std::string q = IBSC_SOURCE_DIR "/scenarios/seeds003/adaptive-irregular16.yaml";
  const std::string quick = IBSC_SOURCE_DIR "/scenarios/quickstart.yaml";
  BOOST_TEST(tb::load_scenario(quick, {}).point.fabric.sw.escape_queue_bytes == 0u);
  BOOST_TEST(tb::load_scenario(quick, {}).resolved.dump().find("escape_queue_bytes") == std::string::npos);
  BOOST_TEST(tb::load_scenario(q, {}).point.fabric.sw.escape_queue_bytes == 256u);
  auto error_of = [&](const std::string& file, const std::vector<std::string>& set) {
    try {
      tb::Scenario s = tb::load_scenario(file, set);
      routing::Topology topo;
      routing::TableSet tables;
      tb::prepare_scenario(s, topo, tables);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  BOOST_TEST(error_of(q, {}) == "");
  BOOST_TEST(error_of(q, {"switch.output_buffer_bytes_per_vl=8192"}) == "");
  BOOST_TEST(error_of(q, {"switch.escape_queue_bytes=100"}).find("multiple of 64") != std::string::npos);
  BOOST_TEST(error_of(q, {"switch.escape_queue_bytes=8192"}).find("below switch.buffer_bytes_per_vl") !=
             std::string::npos);
  BOOST_TEST(error_of(q, {"switch.escape_queue_bytes=0"}).find("needs escape queues") != std::string::npos);
  BOOST_TEST(error_of(q, {"routing.algorithm=updown-bfs"}).find("has no escape candidates") != std::string::npos);
  BOOST_TEST(error_of(q, {"traffic.length=512"}).find("does not fit the 256-byte escape queue") != std::string::npos);
  BOOST_TEST(error_of(q, {"switch.num_vls=9"}).find("num_vls <= 8") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(rtl_arbiter_gives_the_models_results) {
  const routing::Topology topo = routing::make_irregular(8, 8, 4, 2);
  const routing::TableSet adaptive = route(topo, "adaptive-updown");
  tb::PointSetup ps = saturated(topo, adaptive, true);
  ps.fabric.sw.buffer_bytes_per_vl = 1024;
  ps.run.warmup_ns = 10000;
  ps.run.window_ns = 20000;
  auto once = [&](const std::string& kind) {
    ps.arbiter.name = kind;
    return tb::run_forked(1, 1, [&](int) { return tb::to_json(tb::run_load_point(ps, 0.6, "test")).dump(); })[0];
  };
  const std::string model = once("model");
  conserved(tb::point_from_json(nlohmann::json::parse(model)), 500);
  BOOST_TEST(once("rtl") == model);
}

// Every host of a 4x4 torus sends 8 packets to each of 3 far hosts at time 0, interleaved.
// Returns (deliveries, packets that arrived after a later one of their flow).
std::pair<size_t, int> burst(const std::string& algo) {
  const std::string j = tb::run_forked(1, 1, [&](int) {
    const routing::Topology topo = routing::make_torus({4, 4}, 1);
    const routing::TableSet tables = route(topo, algo);
    std::vector<testing::Scripted> script;
    for (int h = 0; h < topo.num_hosts; ++h)
      for (int k = 0; k < 8; ++k)
        for (int d : {5, 10, 15}) script.push_back({0, h, (h + d) % topo.num_hosts, 256});
    testing::ScriptedTraffic traffic(topo.num_hosts, script);
    tb::FabricParams params;
    params.sw = adaptive_switch(algo == "adaptive-updown");
    tb::Fabric fabric(topo, tables, params, traffic, tb::make_arbiter_factory({}));
    sc_core::sc_start(sc_core::sc_time(400, sc_core::SC_US));
    fabric.check_conservation();
    std::map<std::pair<int, int>, uint64_t> last;  // flow -> highest id delivered
    int late = 0;
    for (const auto& d : traffic.deliveries) {
      auto [it, fresh] = last.emplace(std::pair{d.src, d.dst}, d.id);
      if (!fresh && d.id < it->second) ++late;
      it->second = std::max(it->second, d.id);
    }
    return nlohmann::json{traffic.deliveries.size(), late}.dump();
  })[0];
  const nlohmann::json r = nlohmann::json::parse(j);
  return {r[0].get<size_t>(), r[1].get<int>()};
}

BOOST_AUTO_TEST_CASE(adaptive_delivers_out_of_order_and_everything) {
  const auto [det_n, det_late] = burst("updown-escape");
  const auto [ad_n, ad_late] = burst("adaptive-updown");
  BOOST_TEST(det_n == 16u * 24u);
  BOOST_TEST(ad_n == 16u * 24u);
  BOOST_TEST(det_late == 0);
  BOOST_TEST_MESSAGE("out of order with adaptive routing: " << ad_late << " of " << ad_n);
  BOOST_TEST(ad_late > 0);
}
