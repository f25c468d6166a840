// The run-time guards fire: a fault injected into a running fabric (credits nobody took, more
// data than a VL buffer holds, a packet lost from the books) stops the run with a message that
// names the channel, instead of passing unnoticed.
#include <boost/test/unit_test.hpp>

#include "models/credit_counter.h"
#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tests/support/error_of.h"
#include "tests/support/manual_fabric.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using models::Picos;

namespace {
constexpr Picos kNs = 1000;

struct Run {
  routing::Topology topo = testing::chain(2, 1, 1);
  routing::TableSet tables = testing::chain_tables(topo);
  testing::ScriptedTraffic traffic{topo.num_hosts, {{0, 0, 1, 512}}};
  tb::Fabric fabric{topo, tables, tb::FabricParams{}, traffic, tb::make_arbiter_factory({})};
};

using ibsc::testing::error_of;
testing::ScStrict strict;
}  // namespace

// Credits returned for blocks that were never sent would lift the counter above the buffer.
BOOST_AUTO_TEST_CASE(credit_above_buffer_stops_the_run) {
  Run r;
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
  models::CreditTrain spurious{1000 * kNs, 4 * kNs, 1000 * kNs, 4 * kNs, 64, 0};
  std::string msg = error_of([&] { r.fabric.sw(0).credits_arrive(1, spurious); });
  BOOST_TEST(msg.find("sw_0 port 1 VL 0: more credits returned than taken") != std::string::npos, msg);
}

// A sender that ignores credits overfills the downstream VL buffer: 2 KB hold four 512-byte
// packets; the fifth arriving at once overflows.
BOOST_AUTO_TEST_CASE(buffer_overflow_stops_the_run) {
  Run r;
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
  const Picos now = models::now_ps();
  std::string msg = error_of([&] {
    for (int k = 0; k < 5; ++k) {
      models::Packet* p = r.fabric.monitor().pool.get();
      p->dlid = 2;
      p->length = 512;
      p->id = 100 + k;
      r.fabric.sw(1).packet_arrives(2, p, now + 1000 * kNs);  // from switch 0, port 1 -> port 2
    }
  });
  BOOST_TEST(msg.find("sw_1 port 2 VL 0: input buffer overflow (") != std::string::npos, msg);
}

// A packet that vanishes from the books (here: counted as generated but nowhere to be found)
// fails the conservation check every run makes.
BOOST_AUTO_TEST_CASE(lost_packet_fails_conservation) {
  Run r;
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
  r.fabric.check_conservation();  // the healthy fabric passes
  ++r.fabric.monitor().generated;
  std::string msg = error_of([&] { r.fabric.check_conservation(); });
  BOOST_TEST(msg.find("conservation violated") != std::string::npos, msg);
}

// The counter itself: never below zero, never above its buffer.
BOOST_AUTO_TEST_CASE(credit_counter_bounds) {
  models::CreditCounter c;
  c.reset(4);
  BOOST_TEST(!c.consume(5, 0));  // would go negative: refused, nothing taken
  BOOST_TEST(c.available(0) == 4);
  BOOST_TEST(c.consume(4, 0));
  BOOST_TEST(c.available(0) == 0);
  models::CreditTrain back{0, 1000, 0, 1000, 256, 0};  // 4 blocks, all back by 256 ns
  BOOST_TEST(c.add(back));
  BOOST_TEST(c.available(256 * 1000) == 4);
  BOOST_TEST(!c.add(models::CreditTrain{0, 1000, 0, 1000, 64, 0}));  // a fifth credit: above the buffer
}
