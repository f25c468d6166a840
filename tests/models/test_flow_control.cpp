// Credit-based flow control, virtual cut-through and VL arbitration, against exact timings
// derived by hand from the link and switch parameters (1X SDR: 4 ns per byte, 100 ns fly,
// 100 ns routing, 4 ns core clock).
#include <boost/test/unit_test.hpp>

#include <array>
#include <map>

#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tests/support/manual_fabric.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using models::Picos;

namespace {
constexpr Picos kNs = 1000;
testing::ScStrict strict;

struct Run {
  routing::Topology topo;
  routing::TableSet tables;
  testing::ScriptedTraffic traffic;
  tb::Fabric fabric;
  Run(routing::Topology t, int sls, std::vector<testing::Scripted> script, const tb::FabricParams& p)
      : topo(std::move(t)),
        tables(testing::chain_tables(topo, sls)),
        traffic(topo.num_hosts, std::move(script)),
        fabric(topo, tables, p, traffic, tb::make_arbiter_factory({})) {}
};

std::vector<testing::Scripted> burst(int src, int dst, int n, uint32_t len) {
  std::vector<testing::Scripted> s;
  for (int i = 0; i < n; ++i) s.push_back({0, src, dst, len});
  return s;
}
}  // namespace

// A one-credit buffer: each 64-byte packet waits for the credit of the previous one to come
// back. Period = fly + routing + 64 B x 4 ns (block leaves the switch buffer) + fly
// = 100 + 100 + 256 + 100 = 556 ns, instead of 256 ns at link rate.
BOOST_AUTO_TEST_CASE(one_credit_buffer_blocks_until_credit_returns) {
  tb::FabricParams p;
  p.sw.num_vls = 1;
  p.sw.buffer_bytes_per_vl = 64;
  Run r(testing::chain(1, 1, 1), 1, burst(0, 1, 20, 64), p);
  sc_core::sc_start(sc_core::sc_time(50, sc_core::SC_US));
  const auto& d = r.traffic.deliveries;
  BOOST_REQUIRE_EQUAL(d.size(), 20u);
  for (size_t k = 1; k < d.size(); ++k) BOOST_TEST(d[k].done - d[k - 1].done == 556 * kNs);
  r.fabric.check_conservation();
}

// Virtual cut-through: a 1024-byte packet into a 1024-byte buffer may leave the HCA only when
// all 16 credits are back, i.e. when the previous packet's last block has left the switch:
// spacing = 100 (fly) + 100 (routing) + 1024 x 4 (drain) + 100 (credit fly) = 4396 ns.
BOOST_AUTO_TEST_CASE(virtual_cut_through_waits_for_whole_packet_credits) {
  tb::FabricParams p;
  p.sw.num_vls = 1;
  p.sw.buffer_bytes_per_vl = 1024;
  Run r(testing::chain(1, 1, 1), 1, burst(0, 1, 6, 1024), p);
  sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
  const auto& d = r.traffic.deliveries;
  BOOST_REQUIRE_EQUAL(d.size(), 6u);
  for (size_t k = 1; k < d.size(); ++k) BOOST_TEST(d[k].done - d[k - 1].done == 4396 * kNs);
  // With room for two packets the link runs at full rate: spacing = 1024 x 4 ns.
}

BOOST_AUTO_TEST_CASE(full_rate_with_room_for_two_packets) {
  tb::FabricParams p;
  p.sw.num_vls = 1;
  p.sw.buffer_bytes_per_vl = 2048;
  Run r(testing::chain(1, 1, 1), 1, burst(0, 1, 6, 1024), p);
  sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
  const auto& d = r.traffic.deliveries;
  BOOST_REQUIRE_EQUAL(d.size(), 6u);
  for (size_t k = 1; k < d.size(); ++k) BOOST_TEST(d[k].done - d[k - 1].done == 4096 * kNs);
}

// switch.vl_buffers: operational. A port of 2 VLs x 1024 bytes whose tables use one VL gives
// VL 0 the port's 2048 bytes (OperationalVLs = 1): room for two 1024-byte packets, so the link
// runs at full rate (4096 ns apart) where a 1024-byte VL buffer paces them at 4396 ns (the
// virtual cut-through case above). Tables on both VLs, or per_vl buffers, keep 1024 bytes.
std::vector<Picos> operational_spacing(int vls_used, models::VlBuffers mode) {
  tb::FabricParams p;
  p.sw.num_vls = 2;
  p.sw.buffer_bytes_per_vl = 1024;
  p.sw.vl_buffers = mode;
  Run r(testing::chain(1, 1, 1), vls_used, burst(0, 1, 6, 1024), p);
  sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_US));
  r.fabric.check_conservation();
  const auto& d = r.traffic.deliveries;
  BOOST_REQUIRE_EQUAL(d.size(), 6u);
  std::vector<Picos> gaps;
  for (size_t k = 1; k < d.size(); ++k) gaps.push_back(d[k].done - d[k - 1].done);
  BOOST_TEST(r.fabric.switch_params().num_vls == (mode == models::VlBuffers::Operational ? vls_used : 2));
  return gaps;
}

BOOST_AUTO_TEST_CASE(operational_vl_gets_the_port_buffer) {
  for (Picos g : operational_spacing(1, models::VlBuffers::Operational)) BOOST_TEST(g == 4096 * kNs);
}

BOOST_AUTO_TEST_CASE(operational_vls_all_in_use_keep_their_share) {
  for (Picos g : operational_spacing(2, models::VlBuffers::Operational)) BOOST_TEST(g == 4396 * kNs);
}

BOOST_AUTO_TEST_CASE(per_vl_buffers_ignore_unused_vls) {
  for (Picos g : operational_spacing(1, models::VlBuffers::PerVl)) BOOST_TEST(g == 4396 * kNs);
}

// The split itself: OperationalVLs rounds the routing's VLs up to 1, 2, 4, 8 or 15, no more than
// the port has, and each gets whole credits of the port's bytes, inputs and outputs alike.
BOOST_AUTO_TEST_CASE(operational_vls_round_up_as_portinfo_allows) {
  models::SwitchParams sw;
  sw.num_vls = 8;
  sw.buffer_bytes_per_vl = 4096;
  sw.output_buffer_bytes_per_vl = 4096;
  BOOST_TEST(sw.for_vls_used(1).buffer_bytes_per_vl == 4096u);  // per_vl: unchanged
  BOOST_TEST(sw.for_vls_used(1).num_vls == 8);
  sw.vl_buffers = models::VlBuffers::Operational;
  const std::vector<std::array<int, 3>> cases = {
      // VLs used, operational VLs, bytes each (of 8 x 4096)
      {1, 1, 32768}, {2, 2, 16384}, {3, 4, 8192}, {4, 4, 8192}, {5, 8, 4096}, {6, 8, 4096}, {8, 8, 4096}};
  for (auto [used, op, bytes] : cases) {
    const models::SwitchParams q = sw.for_vls_used(used);
    BOOST_TEST(q.num_vls == op);
    BOOST_TEST(q.buffer_bytes_per_vl == static_cast<uint32_t>(bytes));
    BOOST_TEST(q.output_buffer_bytes_per_vl == static_cast<uint32_t>(bytes));
  }
  sw.num_vls = 6;  // a port of 6 VLs: 5 used -> all 6 (no 8 to round to), 3 used -> 4
  BOOST_TEST(sw.for_vls_used(5).num_vls == 6);
  BOOST_TEST(sw.for_vls_used(5).buffer_bytes_per_vl == 4096u);
  BOOST_TEST(sw.for_vls_used(3).buffer_bytes_per_vl == 6144u);
  sw.num_vls = 15;
  sw.buffer_bytes_per_vl = 1024;  // 15 x 1024 / 8 = 1920 bytes, 30 credits
  BOOST_TEST(sw.for_vls_used(9).num_vls == 15);
  BOOST_TEST(sw.for_vls_used(7).buffer_bytes_per_vl == 1920u);
  sw.output_buffer_bytes_per_vl = 0;  // no output buffers stay none
  BOOST_TEST(sw.for_vls_used(1).output_buffer_bytes_per_vl == 0u);
}

// A congested downstream buffer blocks the upstream switch: two inputs share the output to
// host 2 on switch 1, so the inter-switch link runs at half rate and switch 0's credit
// counter toward switch 1 must reach zero; all packets still arrive, none is lost.
BOOST_AUTO_TEST_CASE(congested_downstream_blocks_upstream) {
  tb::FabricParams p;
  p.sw.num_vls = 1;
  p.sw.buffer_bytes_per_vl = 1024;
  auto script = burst(0, 2, 40, 512);
  for (auto& s : burst(3, 2, 40, 512)) script.push_back(s);
  Run r(testing::chain(2, 2, 2), 1, script, p);
  bool saw_zero = false;
  for (int step = 0; step < 400; ++step) {
    sc_core::sc_start(sc_core::sc_time(100, sc_core::SC_NS));
    saw_zero |= r.fabric.sw(0).credits(1, 0, models::now_ps()) < 8;  // not enough for a 512 B packet
  }
  sc_core::sc_start(sc_core::sc_time(300, sc_core::SC_US));
  BOOST_TEST(saw_zero);
  BOOST_TEST(r.traffic.deliveries.size() == 80u);
  r.fabric.check_conservation();
  // Shared output at link rate: 80 x 512 B x 4 ns = 163.84 us of data after the first arrival.
  Picos first = r.traffic.deliveries.front().done, last = r.traffic.deliveries.back().done;
  BOOST_TEST(last - first == 79 * 512 * 4 * kNs);
}

// Round-robin VL arbitration: two hosts on SL0/VL0 and SL1/VL1 saturate one output; grants
// alternate, so the deliveries alternate between the sources.
BOOST_AUTO_TEST_CASE(round_robin_vl_arbitration_is_fair) {
  tb::FabricParams p;
  auto script = burst(0, 2, 50, 512);
  for (auto& s : burst(1, 2, 50, 512)) script.push_back(s);
  Run r(testing::chain(1, 3, 0), 2, script, p);
  sc_core::sc_start(sc_core::sc_time(500, sc_core::SC_US));
  const auto& d = r.traffic.deliveries;
  BOOST_REQUIRE_EQUAL(d.size(), 100u);
  for (size_t k = 2; k < 90; ++k) BOOST_TEST(d[k].src != d[k - 1].src);
}

// IBA VLArb high-priority table [(VL0, 24), (VL1, 8)] in 64-byte units with 512-byte packets:
// three VL0 packets then one VL1 packet, a 3:1 share of the output.
BOOST_AUTO_TEST_CASE(vlarb_table_gives_configured_shares) {
  tb::FabricParams p;
  p.sw.vlarb.use_tables = true;
  p.sw.vlarb.high = {{0, 24}, {1, 8}};
  auto script = burst(0, 2, 120, 512);
  for (auto& s : burst(1, 2, 120, 512)) script.push_back(s);
  Run r(testing::chain(1, 3, 0), 2, script, p);
  sc_core::sc_start(sc_core::sc_time(1000, sc_core::SC_US));
  const auto& d = r.traffic.deliveries;
  BOOST_REQUIRE_EQUAL(d.size(), 240u);
  std::map<int, int> count;
  for (size_t k = 8; k < 8 + 120; ++k) ++count[d[k].src];  // a window while both VLs are backlogged
  BOOST_TEST(count[0] == 90);
  BOOST_TEST(count[1] == 30);
}

// Low-priority traffic is not starved: limit_of_high_priority 1 (4096 bytes) lets one VL1
// packet through after every 8 high-priority 512-byte VL0 packets.
BOOST_AUTO_TEST_CASE(vlarb_limit_of_high_priority) {
  tb::FabricParams p;
  p.sw.vlarb.use_tables = true;
  p.sw.vlarb.high = {{0, 255}};
  p.sw.vlarb.low = {{1, 255}};
  p.sw.vlarb.limit_of_high_priority = 1;
  auto script = burst(0, 2, 180, 512);
  for (auto& s : burst(1, 2, 60, 512)) script.push_back(s);
  Run r(testing::chain(1, 3, 0), 2, script, p);
  sc_core::sc_start(sc_core::sc_time(2000, sc_core::SC_US));
  const auto& d = r.traffic.deliveries;
  BOOST_REQUIRE_EQUAL(d.size(), 240u);
  std::map<int, int> count;
  for (size_t k = 9; k < 9 + 90; ++k) ++count[d[k].src];
  BOOST_TEST(count[0] == 80);
  BOOST_TEST(count[1] == 10);
}
