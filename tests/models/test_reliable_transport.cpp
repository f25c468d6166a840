// The HCA's reliable transport (seeds/003) in a fabric.
//   Analytic: on an idle one-switch fabric (fly 100 ns, routing 100 ns, 4 ns per byte), a
//   512-byte packet reaches its host at 2 x 100 + 100 + 512 x 4 = 2348 ns, and its 32-byte ACK,
//   sent by the destination at once, is back at the source 2 x 100 + 100 + 32 x 4 = 428 ns later.
//   Random contention: irregular:8:seed=1:regular=1 (8 switches, 32 hosts), routing vn with
//   4 virtual networks, each packet on a random one: packets of a connection take different
//   paths and overtake each other. Every host sends kPackets 256-byte packets to uniformly
//   drawn hosts, one every kGap (about 60% of a 1X link). Whatever the memory and injection
//   control: every packet reaches its host exactly once and in order (the fabric's invariant
//   check throws otherwise), and nothing stays behind. With updown-bfs (one path per pair, no
//   overtaking) nothing is rejected and each packet gets its own ACK: waste is exactly the ACK
//   bytes, 32 / (256 + 32) = 1/9, and no re-send.
#include <algorithm>
#include <boost/test/unit_test.hpp>

#include <random>

#include "routing/routing.h"
#include "routing/topo_spec.h"
#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tb/run/run_point.h"
#include "tb/scenario/scenario.h"
#include "tb/scenario/scenario_check.h"
#include "tests/support/manual_fabric.h"
#include "tests/support/prepared_scenario.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using models::Picos;

namespace {
testing::ScStrict strict;
constexpr Picos kNs = 1000;
constexpr int kPackets = 400;
constexpr uint32_t kLength = 256;
constexpr Picos kGap = 1700 * kNs;  // 256 bytes x 4 ns = 1024 ns per packet: 60% load

// kPackets per host to uniformly drawn other hosts, one every kGap; counts deliveries.
class Uniform : public models::HcaTraffic {
 public:
  explicit Uniform(int hosts) : hosts_(hosts), sent_(hosts, 0), rng_(hosts) {
    for (int h = 0; h < hosts; ++h) rng_[h].seed(1000 + h);
  }
  Picos next_gap(int host) override { return sent_[host] < kPackets ? kGap : models::kNever; }
  bool make(int host, models::Packet& p) override {
    if (sent_[host] >= kPackets) return false;
    ++sent_[host];
    const int d = static_cast<int>(rng_[host]() % (hosts_ - 1));
    p.dst_host = static_cast<uint32_t>(d >= host ? d + 1 : d);
    p.length = kLength;
    return true;
  }
  void generated(models::Packet&, Picos) override {}
  void delivered(const models::Packet&, Picos) override { ++delivered_; }
  uint64_t delivered_ = 0;

 private:
  int hosts_;
  std::vector<int> sent_;
  std::vector<std::mt19937_64> rng_;
};

struct Outcome {
  models::TransportCounters c;
  uint64_t hosts = 0, delivered = 0;
  double waste() const {
    const double injected = c.first_bytes + c.resent_bytes + c.control_bytes;
    return (c.resent_bytes + c.control_bytes) / injected;
  }
};

// Runs the contention workload to its end, checking the invariants every 10 us.
Outcome contention(const std::string& algorithm, const models::TransportParams& tp) {
  routing::Topology topo = routing::build_topology_spec("irregular:8:seed=1:regular=1");
  routing::RoutingOptions o;
  o.algorithm = enum_value<routing::Algorithm>(algorithm);
  o.vls = algorithm == "vn" ? 4 : 1;  // vn: 4 virtual networks; updown-bfs: one VL
  routing::TableSet tables = routing::compute_routing(topo, o);
  Uniform traffic(topo.num_hosts);
  tb::FabricParams p;
  p.sw.num_vls = 4;
  p.path_seed = 3;
  p.transport = tp;
  tb::Fabric fabric(topo, tables, p, traffic, tb::make_arbiter_factory({}));
  const Picos end = kPackets * kGap + 2000 * 1000 * kNs;
  while (models::now_ps() < end) {
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));
    fabric.check_conservation();
    if (traffic.delivered_ == static_cast<uint64_t>(kPackets) * topo.num_hosts && fabric.monitor().in_flight() == 0)
      break;
  }
  Outcome r{fabric.transport_counters(), static_cast<uint64_t>(topo.num_hosts), traffic.delivered_};
  BOOST_TEST_MESSAGE(algorithm << ": arrivals out of order " << r.c.out_of_order_arrivals << ", NACKs " << r.c.nacks
                               << ", re-sent " << r.c.resent_packets << ", ACKs " << r.c.acks << ", waste " << r.waste()
                               << ", LI entries " << r.c.transitions_to_li << ", done at " << r.c.last_delivery / kNs
                               << " ns");
  BOOST_TEST(r.delivered == kPackets * r.hosts);
  BOOST_TEST(r.c.app_delivered == kPackets * r.hosts);
  BOOST_TEST(r.c.duplicates == 0u);
  BOOST_TEST(fabric.monitor().in_flight() == 0u);
  BOOST_TEST(r.c.stored == 0u);
  BOOST_TEST(r.c.held == 0u);
  return r;
}

models::TransportParams reorder(models::InjectionPolicy inj, models::ReorderMemoryKind mem, uint64_t conn,
                                uint64_t pool = 262144) {
  models::TransportParams t;
  t.mode = models::TransportMode::Reorder;
  t.injection = inj;
  t.memory = mem;
  t.connection_bytes = conn;
  t.pool_bytes = pool;
  return t;
}
}  // namespace

BOOST_AUTO_TEST_CASE(ack_returns_at_the_analytic_time) {
  routing::Topology topo = testing::chain(1, 1, 1);
  routing::TableSet tables = testing::chain_tables(topo);
  testing::ScriptedTraffic traffic(topo.num_hosts, {{0, 0, 1, 512}});
  tb::FabricParams p;
  p.transport = reorder(models::InjectionPolicy::Immediate, models::ReorderMemoryKind::Static, 2048);
  tb::Fabric fabric(topo, tables, p, traffic, tb::make_arbiter_factory({}));
  const Picos delivery = 2 * 100 * kNs + 100 * kNs + 512 * 4 * kNs, ack = 2 * 100 * kNs + 100 * kNs + 32 * 4 * kNs;
  sc_core::sc_start(sc_core::sc_time(static_cast<double>(delivery + ack - 1), sc_core::SC_PS));
  BOOST_REQUIRE_EQUAL(traffic.deliveries.size(), 1u);
  BOOST_TEST(traffic.deliveries[0].done == delivery);
  BOOST_TEST(fabric.hca(0).transport()->unacked(1) == 1u);  // the ACK is 1 ps away
  sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_PS));
  BOOST_TEST(fabric.hca(0).transport()->unacked(1) == 0u);
  const models::TransportCounters c = fabric.transport_counters();
  BOOST_TEST(c.acks == 1u);
  BOOST_TEST(c.control_bytes == 32u);
  BOOST_TEST(fabric.monitor().delivered == 2u);  // the data packet and its ACK crossed the fabric
  fabric.check_conservation();
}

// ACK coalescing (transport.ack_coalesce 4, a 100 us timer) on the same idle fabric: host 0
// sends ten 512-byte packets at time 0, back to back on its link, so packet i reaches host 1 at
// 2348 + 2048 i ns. ACKs go with packets 3 and 7 (seq 3, 7); packets 8 and 9 wait for the timer
// armed at packet 8's delivery, whose ACK (seq 9) is back 100 us + 428 ns later.
BOOST_AUTO_TEST_CASE(coalesced_acks_on_a_hand_built_sequence) {
  routing::Topology topo = testing::chain(1, 1, 1);
  routing::TableSet tables = testing::chain_tables(topo);
  std::vector<testing::Scripted> script;
  for (int i = 0; i < 10; ++i) script.push_back({0, 0, 1, 512});
  testing::ScriptedTraffic traffic(topo.num_hosts, script);
  tb::FabricParams p;
  p.transport = reorder(models::InjectionPolicy::Immediate, models::ReorderMemoryKind::Static, 2048);
  p.transport.ack_coalesce = 4;
  p.transport.ack_delay_ns = 100000;
  tb::Fabric fabric(topo, tables, p, traffic, tb::make_arbiter_factory({}));
  auto delivery = [](int i) { return (2348 + 2048 * i) * kNs; };
  const Picos ack_trip = 428 * kNs, timer = delivery(8) + 100000 * kNs;
  sc_core::sc_start(sc_core::sc_time(static_cast<double>(delivery(9) + kNs), sc_core::SC_PS));
  BOOST_REQUIRE_EQUAL(traffic.deliveries.size(), 10u);
  for (int i = 0; i < 10; ++i) BOOST_TEST(traffic.deliveries[i].done == delivery(i));
  BOOST_TEST(fabric.transport_counters().acks == 2u);
  BOOST_TEST(fabric.hca(0).transport()->unacked(1) == 2u);  // seq 8 and 9 wait for the timer
  sc_core::sc_start(sc_core::sc_time(static_cast<double>(timer + ack_trip - 1 - models::now_ps()), sc_core::SC_PS));
  BOOST_TEST(fabric.transport_counters().acks == 3u);
  BOOST_TEST(fabric.hca(0).transport()->unacked(1) == 2u);
  sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_PS));
  BOOST_TEST(fabric.hca(0).transport()->unacked(1) == 0u);
  const models::TransportCounters c = fabric.transport_counters();
  BOOST_TEST(c.acks == 3u);
  BOOST_TEST(c.control_bytes == 3u * 32u);
  BOOST_TEST(fabric.monitor().delivered == 13u);
  fabric.check_conservation();
}

// The last packet of a message asks for its ACK (IBA's AckReq): two messages of five 512-byte
// packets, coalescing up to 64 with a 100 us timer: exactly two ACKs, with packets 4 and 9, the
// second back at the source 428 ns after packet 9's delivery.
BOOST_AUTO_TEST_CASE(ack_request_ends_a_coalesced_run) {
  routing::Topology topo = testing::chain(1, 1, 1);
  routing::TableSet tables = testing::chain_tables(topo);
  std::vector<testing::Scripted> script;
  for (int i = 0; i < 10; ++i) script.push_back({0, 0, 1, 512});
  struct Messages : testing::ScriptedTraffic {
    using ScriptedTraffic::ScriptedTraffic;
    bool make(int host, models::Packet& p) override {
      p.ack_req = ++made % 5 == 0;
      return ScriptedTraffic::make(host, p);
    }
    int made = 0;
  } traffic(topo.num_hosts, script);
  tb::FabricParams p;
  p.transport = reorder(models::InjectionPolicy::Immediate, models::ReorderMemoryKind::Static, 2048);
  p.transport.ack_coalesce = 64;
  p.transport.ack_delay_ns = 100000;
  tb::Fabric fabric(topo, tables, p, traffic, tb::make_arbiter_factory({}));
  const Picos back = (2348 + 2048 * 9 + 428) * kNs;
  sc_core::sc_start(sc_core::sc_time(static_cast<double>(back - 1), sc_core::SC_PS));
  BOOST_REQUIRE_EQUAL(traffic.deliveries.size(), 10u);
  BOOST_TEST(fabric.transport_counters().acks == 2u);
  BOOST_TEST(fabric.hca(0).transport()->unacked(1) == 5u);
  sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_PS));
  BOOST_TEST(fabric.hca(0).transport()->unacked(1) == 0u);
  sc_core::sc_start(sc_core::sc_time(200, sc_core::SC_US));
  BOOST_TEST(fabric.transport_counters().acks == 2u);  // no timer left to send another
  fabric.check_conservation();
}

// A lone packet under coalescing (8 per ACK): its ACK leaves when the 1 us timer expires, so it
// is back at the source 1000 ns later than without coalescing.
BOOST_AUTO_TEST_CASE(ack_timer_flushes_a_lone_packet) {
  routing::Topology topo = testing::chain(1, 1, 1);
  routing::TableSet tables = testing::chain_tables(topo);
  testing::ScriptedTraffic traffic(topo.num_hosts, {{0, 0, 1, 512}});
  tb::FabricParams p;
  p.transport = reorder(models::InjectionPolicy::LimitedInjection, models::ReorderMemoryKind::Static, 2048);
  p.transport.ack_coalesce = 8;
  p.transport.ack_delay_ns = 1000;
  tb::Fabric fabric(topo, tables, p, traffic, tb::make_arbiter_factory({}));
  const Picos back = (2348 + 1000 + 428) * kNs;
  sc_core::sc_start(sc_core::sc_time(static_cast<double>(back - 1), sc_core::SC_PS));
  BOOST_REQUIRE_EQUAL(traffic.deliveries.size(), 1u);
  BOOST_TEST(fabric.hca(0).transport()->unacked(1) == 1u);
  sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_PS));
  BOOST_TEST(fabric.hca(0).transport()->unacked(1) == 0u);
  BOOST_TEST(fabric.transport_counters().acks == 1u);
  fabric.check_conservation();
}

// Coalescing under random paths with small buffers (two packets, many NACKs) and limited
// injection or window: every packet delivered once, in order, nothing left behind (contention()
// checks), the connections through LI and back, and fewer ACKs than in-order arrivals (re-sends
// included): without coalescing every in-order arrival sends one (this workload: 9,302 = 14,372
// arrived - 5,070 out of order, LI), coalesced 12-13% fewer (8,142).
namespace {
void coalesced_run(models::InjectionPolicy inj) {
  models::TransportParams t = reorder(inj, models::ReorderMemoryKind::Static, 512);
  t.ack_coalesce = 8;
  t.ack_delay_ns = 20000;
  const Outcome r = contention("vn", t);
  BOOST_TEST_MESSAGE("ACKs " << r.c.acks << ", in-order arrivals " << r.c.data_arrived - r.c.out_of_order_arrivals);
  BOOST_TEST(r.c.nacks > 0u);
  BOOST_TEST(r.c.transitions_to_li > 0u);
  BOOST_TEST(r.c.out_of_order_deliveries == 0u);
  BOOST_TEST(r.c.acks < r.c.data_arrived - r.c.out_of_order_arrivals);
}
}  // namespace
BOOST_AUTO_TEST_CASE(coalesced_acks_with_limited_injection) {
  coalesced_run(models::InjectionPolicy::LimitedInjection);
}
BOOST_AUTO_TEST_CASE(coalesced_acks_with_limited_window) { coalesced_run(models::InjectionPolicy::LimitedWindow); }

// Tiny static buffers (one packet) and immediate re-send: many rejections, still in order.
BOOST_AUTO_TEST_CASE(in_order_with_tiny_static_memory) {
  Outcome r = contention("vn", reorder(models::InjectionPolicy::Immediate, models::ReorderMemoryKind::Static, 256));
  BOOST_TEST(r.c.out_of_order_arrivals > 0u);
  BOOST_TEST(r.c.nacks > 0u);
  BOOST_TEST(r.c.resent_packets == r.c.nacks);
  BOOST_TEST(r.c.out_of_order_deliveries == 0u);
  BOOST_TEST(r.waste() > 1.0 / 9);
}

// ADAP-LI with the same tiny buffers: connections go limited and come back.
BOOST_AUTO_TEST_CASE(in_order_with_limited_injection) {
  Outcome r =
      contention("vn", reorder(models::InjectionPolicy::LimitedInjection, models::ReorderMemoryKind::Static, 256));
  BOOST_TEST(r.c.nacks > 0u);
  BOOST_TEST(r.c.transitions_to_li > 0u);
  BOOST_TEST(r.c.out_of_order_deliveries == 0u);
}

// ADAP-LW: in LI only what fits in the destination buffer goes.
BOOST_AUTO_TEST_CASE(in_order_with_limited_window) {
  Outcome lw =
      contention("vn", reorder(models::InjectionPolicy::LimitedWindow, models::ReorderMemoryKind::Static, 256));
  BOOST_TEST(lw.c.out_of_order_deliveries == 0u);
}

// The dynamic pool, small: 1 KB per NIC, at most 512 bytes per connection.
BOOST_AUTO_TEST_CASE(in_order_with_dynamic_memory) {
  Outcome r = contention(
      "vn", reorder(models::InjectionPolicy::LimitedInjection, models::ReorderMemoryKind::Dynamic, 512, 1024));
  BOOST_TEST(r.c.nacks > 0u);
  BOOST_TEST(r.c.out_of_order_deliveries == 0u);
}

// Huge memory: nothing rejected; with vn some packets still wait in the buffer.
BOOST_AUTO_TEST_CASE(huge_memory_rejects_nothing) {
  Outcome r = contention("vn", reorder(models::InjectionPolicy::Immediate, models::ReorderMemoryKind::Static, 1 << 24));
  BOOST_TEST(r.c.out_of_order_arrivals > 0u);
  BOOST_TEST(r.c.nacks == 0u);
  BOOST_TEST(r.c.resent_bytes == 0u);
  BOOST_TEST(r.c.acks < r.c.app_delivered);  // one ACK covers a stored run
}

// No reordering (updown-bfs: one path per pair): one ACK per packet, waste exactly 1/9.
BOOST_AUTO_TEST_CASE(no_reordering_waste_is_the_acks) {
  Outcome r =
      contention("updown-bfs", reorder(models::InjectionPolicy::Immediate, models::ReorderMemoryKind::Static, 1 << 24));
  BOOST_TEST(r.c.out_of_order_arrivals == 0u);
  BOOST_TEST(r.c.nacks == 0u);
  BOOST_TEST(r.c.resent_bytes == 0u);
  BOOST_TEST(r.c.acks == r.c.app_delivered);
  BOOST_TEST(r.waste() == 1.0 / 9, boost::test_tools::tolerance(1e-12));
}

// Adap-OOO: delivered on arrival, out of order, no ACK at all.
BOOST_AUTO_TEST_CASE(out_of_order_mode_delivers_on_arrival) {
  models::TransportParams t;
  t.mode = models::TransportMode::OutOfOrder;
  Outcome r = contention("vn", t);
  BOOST_TEST(r.c.out_of_order_arrivals > 0u);
  BOOST_TEST(r.c.out_of_order_deliveries == r.c.out_of_order_arrivals);
  BOOST_TEST(r.c.control_bytes == 0u);
  BOOST_TEST(r.waste() == 0.0);
}

// The scenario keys: scenarios/transport-quick.yaml runs its finite workload to the end through
// run_load_point (as `ibsc run` does), every packet delivered once and in order, and its
// results carry the transport object, which survives the trip through JSON a sweep worker makes.
BOOST_AUTO_TEST_CASE(scenario_runs_finite_workload) {
  const testing::PreparedScenario quick(IBSC_SOURCE_DIR "/scenarios/transport-quick.yaml", {});
  const tb::Scenario& s = quick.s;
  const routing::Topology& topo = quick.topo;
  BOOST_TEST((s.point.fabric.transport.mode == models::TransportMode::Reorder));
  BOOST_TEST((s.point.fabric.transport.injection == models::InjectionPolicy::LimitedInjection));
  BOOST_TEST(s.resolved["transport"]["connection_bytes"] == 2048);
  const tb::LoadPointResult r = tb::run_load_point(s.point, 0.5, "test");
  BOOST_REQUIRE(r.has_transport);
  const uint64_t n = 200u * static_cast<uint64_t>(topo.num_hosts);
  BOOST_TEST(r.transport.host_packets_generated == n);
  BOOST_TEST(r.transport.host_packets_delivered == n);
  BOOST_TEST(r.transport.all_delivered());
  BOOST_TEST(r.transport.out_of_order_deliveries == 0u);
  BOOST_TEST(r.transport.duplicates == 0u);
  BOOST_TEST(r.transport.out_of_order_arrivals > 0u);
  BOOST_TEST(r.transport.max_connection_bytes <= 2048u);
  BOOST_TEST(r.transport.execution_time_ns > 200 * 256 * 4.0 / 0.5 * 0.9);  // 200 packets at half rate, less jitter
  uint64_t connections = 0;
  for (uint64_t c : r.transport.connections_per_bucket) connections += c;
  BOOST_TEST(connections > 0u);
  // Figure 7's per-NIC peaks: the largest is the MMS; at each NIC's peak the bytes held are at
  // most a full buffer (2 KB) per connection holding data, at least 1025 bytes per connection
  // above half and 1985 per full one (less than a 64-byte block free).
  const auto& t = r.transport;
  BOOST_REQUIRE_EQUAL(t.nic_max_bytes.size(), static_cast<size_t>(topo.num_hosts));
  BOOST_TEST(*std::max_element(t.nic_max_bytes.begin(), t.nic_max_bytes.end()) == t.max_nic_bytes);
  BOOST_TEST(t.max_nic_bytes > 0u);
  for (size_t h = 0; h < t.nic_max_bytes.size(); ++h) {
    BOOST_TEST(t.nic_peak_full[h] <= t.nic_peak_over_half[h]);
    BOOST_TEST(t.nic_peak_over_half[h] <= t.nic_peak_holding[h]);
    BOOST_TEST(t.nic_peak_holding[h] < static_cast<uint64_t>(topo.num_hosts));
    BOOST_TEST(t.nic_max_bytes[h] <= 2048u * t.nic_peak_holding[h]);
    BOOST_TEST(t.nic_max_bytes[h] >= 1025u * t.nic_peak_over_half[h]);
    BOOST_TEST(t.nic_max_bytes[h] >= 1985u * t.nic_peak_full[h]);
    BOOST_TEST((t.nic_max_bytes[h] > 0) == (t.nic_peak_holding[h] > 0));
  }
  BOOST_TEST(r.packets_in_flight == 0u);
  const nlohmann::ordered_json j = tb::to_json(r);
  BOOST_TEST(tb::to_json(tb::point_from_json(nlohmann::json::parse(j.dump()))).dump() == j.dump());
}

// Bad transport settings stop with the file, line and key.
BOOST_AUTO_TEST_CASE(scenario_rejects_bad_transport_keys) {
  auto error_of = [](const std::vector<std::string>& sets) {
    try {
      tb::load_scenario(IBSC_SOURCE_DIR "/scenarios/transport-quick.yaml", sets);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string lw = error_of({"transport.injection=lw", "transport.memory=dynamic"});
  BOOST_TEST(lw.find("transport.injection: lw needs transport.memory: static") != std::string::npos, lw);
  const std::string mode = error_of({"transport.mode=fast"});
  BOOST_TEST(mode.find("transport.mode") != std::string::npos, mode);
  const std::string timer = error_of({"transport.ack_coalesce=4"});
  BOOST_TEST(timer.find("transport.ack_delay_ns must be > 0") != std::string::npos, timer);
  const std::string typo = error_of({"transport.pool_byte=5"});
  BOOST_TEST(typo.find("transport.pool_byte") != std::string::npos, typo);
}
