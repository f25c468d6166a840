// hca.injection_queues (models/hca.h): one injection queue per VL, or one FIFO for all VLs whose
// head without credits holds back the packets behind it. Hand-timed on one switch (1X SDR: 4 ns a
// byte, 100 ns fly, 100 ns routing; 512 bytes = 2048 ns), hosts 0..3 on ports 3..6, 2 VLs, input
// buffers of 512 B per VL (one packet); host 0 sends to host 1 on SL/VL 0 and to host 3 on VL 1.
//   X: host 2 -> host 1 at 0 ns: output 4 (host 1) busy from 200 to 2248.
//   A: host 0 -> host 1 at 40 ns, VL 0: at the switch from 140, waits for output 4 until 2248;
//      it holds all 8 credits of host 0's VL 0 until its blocks leave (from 2248).
//   B: host 0 -> host 1 at 40 ns, VL 0: no credits when host 0's link frees at 2088.
//   C: host 0 -> host 3 at 40 ns, VL 1, queued after B.
// Per VL: C goes at 2088 (VL 1 has credits), head at the switch at 2188, routed at 2288 onto the
// free output 6, head at host 3 at 2388, tail (delivery) at 2388 + 2048 = 4436 ns, before B.
// Single FIFO: B is the head and C waits behind it; C leaves host 0 only after B's 2048 ns on the
// link, so it is delivered after B, at least 2048 ns after its per-VL time.
#include <boost/test/unit_test.hpp>

#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tests/support/manual_fabric.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using models::Picos;

namespace {
constexpr Picos kNs = 1000;
testing::ScStrict strict;

// Delivery time of packet `id` (generation order: X 0, A 1, B 2, C 3).
Picos done(const testing::ScriptedTraffic& t, uint64_t id) {
  for (const auto& d : t.deliveries)
    if (d.id == id) return d.done;
  BOOST_FAIL("packet " << id << " not delivered");
  return 0;
}

void run(models::InjectionQueues q, Picos& b_done, Picos& c_done) {
  routing::Topology topo = testing::chain(1, 4, 0);
  routing::TableSet tables = testing::chain_tables(topo, 2);
  tables.hosts[0].paths.set(1, {2, 0});  // host 0 -> host 1 on SL 0 (VL 0)
  tables.hosts[0].paths.set(3, {4, 1});  // host 0 -> host 3 on SL 1 (VL 1)
  tables.hosts[2].paths.set(1, {2, 0});
  testing::ScriptedTraffic traffic(
      topo.num_hosts, {{0, 2, 1, 512}, {40 * kNs, 0, 1, 512}, {40 * kNs, 0, 1, 512}, {40 * kNs, 0, 3, 512}});
  tb::FabricParams p;
  p.sw.num_vls = 2;
  p.sw.buffer_bytes_per_vl = 512;
  p.hca.injection_queues = q;
  tb::Fabric fabric(topo, tables, p, traffic, tb::make_arbiter_factory({}));
  sc_core::sc_start(sc_core::sc_time(30, sc_core::SC_US));
  fabric.check_conservation();
  BOOST_TEST(traffic.deliveries.size() == 4u);
  b_done = done(traffic, 2);
  c_done = done(traffic, 3);
}
}  // namespace

BOOST_AUTO_TEST_CASE(per_vl_queues_let_another_vl_pass) {
  Picos b = 0, c = 0;
  run(models::InjectionQueues::PerVl, b, c);
  BOOST_TEST(c == 4436 * kNs);
  BOOST_TEST(c < b);
}

BOOST_AUTO_TEST_CASE(single_queue_holds_another_vl_behind_its_head) {
  Picos b = 0, c = 0;
  run(models::InjectionQueues::Single, b, c);
  BOOST_TEST(c > b);
  BOOST_TEST(c >= (4436 + 2048) * kNs);
}
