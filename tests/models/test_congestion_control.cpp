// Congestion control (IBA A10, models/congestion_control.h): the marker and the source alone
// against hand counts, then in a fabric (one switch, hand-derived timings).
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <vector>

#include "models/congestion_control.h"
#include "models/param_error.h"
#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tests/support/manual_fabric.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using models::CcMarker;
using models::CcParams;
using models::CcSource;
using models::Packet;
using models::Picos;

namespace {
constexpr Picos kNs = 1000;
testing::ScStrict strict;

Packet data(uint32_t bytes) {
  Packet p;
  p.length = bytes;
  return p;
}

// n packets of `bytes` queued for port 1 VL 0, then granted one by one there with `credits`
// left after each; the marks.
int marks_of(const CcParams& p, int n, uint32_t bytes, int credits) {
  CcMarker m(p, 4, 1, 32);
  for (int k = 0; k < n; ++k) m.arrive(1, 0, static_cast<int>(data(bytes).blocks()));
  int marks = 0;
  for (int k = 0; k < n; ++k) marks += m.grant(1, 0, 1, 0, data(bytes), credits) ? 1 : 0;
  BOOST_TEST(m.queued(1, 0) == 0);
  BOOST_TEST(m.counts(1, 0).fecn == static_cast<uint64_t>(marks));
  return marks;
}
}  // namespace

// threshold_blocks(T, B) = ceil(B (16 - T) / 16), at least one block; 0 off.
BOOST_AUTO_TEST_CASE(threshold_maps_to_occupancy) {
  BOOST_TEST(models::threshold_blocks(0, 32) == 0);
  BOOST_TEST(models::threshold_blocks(15, 32) == 2);
  BOOST_TEST(models::threshold_blocks(8, 32) == 16);
  BOOST_TEST(models::threshold_blocks(1, 32) == 30);
  BOOST_TEST(models::threshold_blocks(15, 8) == 1);  // ceil(0.5)
  // A queue one block below the threshold does not mark; at it, it does.
  CcParams p;
  p.threshold = 8;  // 16 blocks of a 32-block buffer
  CcMarker m(p, 4, 1, 32);
  m.arrive(1, 0, 1);   // the packet granted below
  m.arrive(1, 0, 15);  // left behind it: 15 < 16
  BOOST_TEST(!m.grant(1, 0, 1, 0, data(64), 100));
  m.arrive(1, 0, 1);
  m.arrive(1, 0, 1);  // 16 behind it
  BOOST_TEST(m.grant(1, 0, 1, 0, data(64), 100));
}

// Marking_Rate r: the eligible packets in a row get ceil(N / (r + 1)) marks. 101 packets queued:
// behind each of the first 100 the queue is over threshold, behind the last it is empty.
BOOST_AUTO_TEST_CASE(marking_rate_counts) {
  CcParams p;
  p.threshold = 15;
  for (uint32_t r : {0u, 1u, 3u, 9u}) {
    p.marking_rate = r;
    BOOST_TEST(marks_of(p, 101, 2048, 1000) == static_cast<int>((100 + r) / (r + 1)));
  }
}

BOOST_AUTO_TEST_CASE(threshold_zero_marks_nothing) {
  CcParams p;
  p.threshold = 0;
  BOOST_TEST(marks_of(p, 101, 2048, 1000) == 0);
}

// No credits for another packet as large: a victim, which marks only with its mask bit; packets
// below cc.packet_size_blocks are never marked.
BOOST_AUTO_TEST_CASE(victim_marks_only_with_its_mask_bit) {
  CcParams p;
  p.threshold = 15;
  BOOST_TEST(marks_of(p, 11, 2048, 31) == 0);
  p.victim_ports = {1};
  BOOST_TEST(marks_of(p, 11, 2048, 31) == 10);
  p.victim_ports.clear();
  BOOST_TEST(marks_of(p, 11, 2048, 32) == 10);  // credits for one more: a root
  p.packet_size_blocks = 2;
  BOOST_TEST(marks_of(p, 11, 64, 32) == 0);
  BOOST_TEST(marks_of(p, 11, 128, 32) == 10);
}

// CCTI_Increase 3 from CCTI_Min 1; CCTI_Timer 2 (2.048 us ticks from time 0): each tick lowers
// the CCTI by one, never below the minimum; CCTI_Limit caps the increase.
BOOST_AUTO_TEST_CASE(becn_raises_and_timer_lowers_ccti) {
  CcParams p;
  p.ccti_increase = 3;
  p.ccti_timer = 2;
  p.ccti_min = 1;
  p.ccti_limit = 5;
  p.trigger_threshold = 4;
  CcSource s(p, 2);
  const Picos tick = 2048 * kNs;
  BOOST_TEST(s.ccti(0, 0) == 1);
  s.becn(0, 1000 * kNs);
  BOOST_TEST(s.ccti(0, 1000 * kNs) == 4);
  BOOST_TEST(s.ccti(0, tick - 1) == 4);
  BOOST_TEST(s.ccti(0, tick) == 3);
  BOOST_TEST(s.ccti(0, 2 * tick) == 2);
  BOOST_TEST(s.ccti(0, 3 * tick - 1) == 2);
  BOOST_TEST(s.ccti(0, 3 * tick) == 1);
  BOOST_TEST(s.ccti(0, 9 * tick) == 1);
  BOOST_TEST(s.ccti(1, 9 * tick) == 1);  // the other flow never moved
  // Two BECNs within one tick: 1 + 3 = 4, then the limit 5.
  s.becn(0, 10 * tick);
  s.becn(0, 10 * tick + 1);
  BOOST_TEST(s.ccti(0, 10 * tick + 1) == 5);
  BOOST_TEST(s.ccti(0, 11 * tick) == 4);
  BOOST_TEST(s.counts().becn == 3u);
  BOOST_TEST(s.counts().trigger_events == 2u);  // 1 -> 4 and 1 -> 4 again; 4 -> 5 does not cross
}

// The CCT's delay in packet times: CCTI 4 of the default table is one packet time.
BOOST_AUTO_TEST_CASE(inter_packet_delay_from_the_table) {
  CcParams p;
  BOOST_TEST(p.cct[4] == 1.0);
  p.ccti_increase = 4;
  CcSource s(p, 1);
  s.sent(0, 0, 512 * kNs);
  BOOST_TEST(s.allowed(0) == 512 * kNs);  // CCTI 0: back to back
  s.becn(0, 100 * kNs);
  s.sent(0, 600 * kNs, 512 * kNs);
  BOOST_TEST(s.allowed(0) == 600 * kNs + 2 * 512 * kNs);
}

BOOST_AUTO_TEST_CASE(bad_parameters_name_their_key) {
  auto key_of = [](const CcParams& p) -> std::string {
    try {
      p.validate();
    } catch (const ParamError& e) {
      return e.key();
    }
    return "";
  };
  CcParams p;
  BOOST_TEST(key_of(p) == "");
  p.threshold = 16;
  BOOST_TEST(key_of(p) == "cc.threshold");
  p.threshold = -1;
  BOOST_TEST(key_of(p) == "cc.threshold");
  p = CcParams{};
  p.cct.clear();
  BOOST_TEST(key_of(p) == "cc.cct");
  p = CcParams{};
  p.cct = {0, 1, 2};
  BOOST_TEST(key_of(p) == "cc.ccti_limit");  // 127 beyond index 2
  p.ccti_limit = 2;
  BOOST_TEST(key_of(p) == "");
  p.ccti_min = 3;
  BOOST_TEST(key_of(p) == "cc.ccti_min");
}

// In a fabric: hosts 0 and 1 on one switch each send kN packets of 2048 bytes to host 2 from
// time 0; the output to host 2 is the root of congestion. An empty delay table (one entry, 0)
// keeps the sources at link rate, so the marking is seen alone.
namespace {
constexpr int kN = 40;
struct Congested {
  routing::Topology topo = testing::chain(1, 3, 0);
  routing::TableSet tables = testing::chain_tables(topo);
  testing::ScriptedTraffic traffic;
  tb::Fabric fabric;
  static std::vector<testing::Scripted> script() {
    std::vector<testing::Scripted> s;
    for (int k = 0; k < kN; ++k)
      for (int src : {0, 1}) s.push_back({0, src, 2, 2048});
    return s;
  }
  static tb::FabricParams params(int threshold, uint32_t rate) {
    tb::FabricParams f;
    f.sw.buffer_bytes_per_vl = 8192;  // four packets: room for the credits of the next while one is sent
    f.cc.enabled = true;
    f.cc.threshold = threshold;
    f.cc.marking_rate = rate;
    f.cc.cct = {0.0};
    f.cc.ccti_limit = 0;
    return f;
  }
  Congested(int threshold, uint32_t rate)
      : traffic(3, script()), fabric(topo, tables, params(threshold, rate), traffic, tb::make_arbiter_factory({})) {
    sc_core::sc_start(sc_core::sc_time(2, sc_core::SC_MS));
  }
  const models::CcPortVlCounts& out_counts() { return fabric.sw(0).cc()->counts(5, 0); }  // host 2's port
};
}  // namespace

// Two inputs at link rate feed one output: from the first grant on, every grant to host 2
// leaves at least the other input's head (32 blocks) queued behind it, except the last: 2 kN - 1
// grants over threshold, all as a root (host 2 returns credits as blocks arrive, so after each
// grant the four-packet buffer still has credits for another packet); rate 3 marks
// ceil((2 kN - 1) / 4) = 20 of them. Each mark comes back as one CNP, a BECN at its source.
BOOST_AUTO_TEST_CASE(congested_port_marks_at_the_rate) {
  Congested c(15, 3);
  BOOST_REQUIRE_EQUAL(c.traffic.deliveries.size(), 2u * kN);
  BOOST_TEST(c.out_counts().over_root == 2u * kN - 1);
  BOOST_TEST(c.out_counts().over_victim == 0u);
  BOOST_TEST(c.out_counts().fecn == 20u);
  BOOST_TEST(c.fabric.hca(2).cc()->counts().fecn_received == 20u);
  BOOST_TEST(c.fabric.hca(2).cc()->counts().cnp_sent == 20u);
  BOOST_TEST(c.fabric.hca(0).cc()->counts().becn + c.fabric.hca(1).cc()->counts().becn == 20u);
  c.fabric.check_conservation();
}

BOOST_AUTO_TEST_CASE(congested_port_with_threshold_zero_marks_nothing) {
  Congested c(0, 0);
  BOOST_REQUIRE_EQUAL(c.traffic.deliveries.size(), 2u * kN);
  BOOST_TEST(c.out_counts().over_root == 0u);
  BOOST_TEST(c.out_counts().fecn == 0u);
  BOOST_TEST(c.fabric.hca(2).cc()->counts().cnp_sent == 0u);
}

// CCTI_Min 2 with the table {0, 0, 1.5}: every data packet of host 0 is followed by 1.5 packet
// times of silence, so packet k leaves at k x 2.5 W (W its wire time) instead of k x W, and with
// nothing else on the way arrives that much later than the lone packet's latency.
BOOST_AUTO_TEST_CASE(inter_packet_delay_shows_in_injection_times) {
  const int n = 4;
  const uint32_t len = 512;
  const Picos w = len * 4 * kNs, fly = 100 * kNs, routing = 100 * kNs;
  routing::Topology topo = testing::chain(1, 2, 0);
  routing::TableSet tables = testing::chain_tables(topo);
  testing::ScriptedTraffic traffic(2, std::vector<testing::Scripted>(n, {0, 0, 1, len}));
  tb::FabricParams f;
  f.cc.enabled = true;
  f.cc.cct = {0, 0, 1.5};
  f.cc.ccti_min = 2;
  f.cc.ccti_limit = 2;
  tb::Fabric fabric(topo, tables, f, traffic, tb::make_arbiter_factory({}));
  sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
  BOOST_REQUIRE_EQUAL(traffic.deliveries.size(), static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) BOOST_TEST(traffic.deliveries[k].done == 2 * fly + routing + w + k * (w * 5 / 2));
}

// Per flow: host 0 sends 0->1, 0->2, 0->1, 0->2 at time 0, every flow delayed 1.5 packet times
// after each packet (CCTI_Min 2 of {0, 0, 1.5}); the packets' start times on host 0's link,
// sorted (delivery less the lone packet's latency: the two outputs never contend).
namespace {
std::vector<Picos> starts(models::CcFlow flow, Picos w) {
  const uint32_t len = static_cast<uint32_t>(w / (4 * kNs));
  const Picos lat = 2 * 100 * kNs + 100 * kNs + w;
  routing::Topology topo = testing::chain(1, 3, 0);
  routing::TableSet tables = testing::chain_tables(topo);
  testing::ScriptedTraffic traffic(3, {{0, 0, 1, len}, {0, 0, 2, len}, {0, 0, 1, len}, {0, 0, 2, len}});
  tb::FabricParams f;
  f.cc.enabled = true;
  f.cc.flow = flow;
  f.cc.cct = {0, 0, 1.5};
  f.cc.ccti_min = 2;
  f.cc.ccti_limit = 2;
  tb::Fabric fabric(topo, tables, f, traffic, tb::make_arbiter_factory({}));
  sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
  std::vector<Picos> done;
  for (const auto& d : traffic.deliveries) done.push_back(d.done - lat);
  std::sort(done.begin(), done.end());
  return done;
}
constexpr Picos kW = 512 * 4 * kNs;
}  // namespace

// Per destination host (A10's QP level) the two flows interleave: 0, W, 2.5 W, 3.5 W.
BOOST_AUTO_TEST_CASE(host_level_flows_are_delayed_apart) {
  const std::vector<Picos> want{0, kW, kW * 5 / 2, kW * 7 / 2};
  BOOST_TEST(starts(models::CcFlow::Host, kW) == want, boost::test_tools::per_element());
}

// Per SL (both on SL 0, A10's SL level) they are one flow: 0, 2.5 W, 5 W, 7.5 W.
BOOST_AUTO_TEST_CASE(sl_level_flows_share_one_delay) {
  const std::vector<Picos> want{0, kW * 5 / 2, 5 * kW, kW * 15 / 2};
  BOOST_TEST(starts(models::CcFlow::Sl, kW) == want, boost::test_tools::per_element());
}
