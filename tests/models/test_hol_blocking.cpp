// Switch::hol_blocked, the head-of-line count the seeds/004 study samples, against a hand-timed
// script (1X SDR: 4 ns a byte, 100 ns fly, 100 ns routing; 512 bytes = 2048 ns). One switch,
// hosts 0..3 on ports 3..6, everything on SL 0 / VL 0, one crossbar input per port.
//   X: host 2 -> host 1 at 0 ns: output 4 busy until 2248 ns.
//   A: host 0 -> host 1 at 40 ns: head at the switch (input port 3) at 140, ready at 240, waits
//      for output 4 until 2248.
//   B: host 0 -> host 3, sent when host 0's link frees (40 + 2048 = 2088): head at the switch at
//      2188, queued behind A on input port 3, VL 0, bound for output 6, which is free.
// So from 2188 to 2248 B is blocked by the head of another flow: hol_blocked(3, 0) = 1; before
// B arrives it is 0 (A alone), and after A's grant B is the head: 0 again.
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
}  // namespace

BOOST_AUTO_TEST_CASE(packet_behind_a_waiting_head_for_another_output) {
  routing::Topology topo = testing::chain(1, 4, 0);
  routing::TableSet tables = testing::chain_tables(topo, 1);
  testing::ScriptedTraffic traffic(topo.num_hosts, {{0, 2, 1, 512}, {40 * kNs, 0, 1, 512}, {40 * kNs, 0, 3, 512}});
  tb::FabricParams p;
  p.sw.num_vls = 1;
  tb::Fabric fabric(topo, tables, p, traffic, tb::make_arbiter_factory({}));
  const models::Switch& sw = fabric.sw(0);
  auto at = [&](Picos ns) {
    sc_core::sc_start(
        sc_core::sc_time(static_cast<double>(ns) - sc_core::sc_time_stamp().to_seconds() * 1e9, sc_core::SC_NS));
    return sw.hol_blocked(3, 0, models::now_ps());
  };
  BOOST_TEST(at(1000) == 0);  // A waits alone
  BOOST_TEST(sw.queued(3, 0) == 1u);
  BOOST_TEST(at(2200) == 1);  // B behind A, for output 6
  BOOST_TEST(sw.queued(3, 0) == 2u);
  BOOST_TEST(at(2247) == 1);
  BOOST_TEST(at(2260) == 0);  // A granted at 2248: B is the head
  sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_US));
  fabric.check_conservation();
  BOOST_TEST(traffic.deliveries.size() == 3u);
}
