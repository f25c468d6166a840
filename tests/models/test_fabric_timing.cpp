// Latency of single packets equals the analytic value exactly:
//   fly (HCA->switch) + per switch (routing delay + fly) + serialisation (length x byte time).
#include <boost/test/unit_test.hpp>

#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tests/support/error_of.h"
#include "tests/support/manual_fabric.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using models::Picos;

namespace {
constexpr Picos kNs = 1000;
constexpr Picos kFly = 100 * kNs, kRouting = 100 * kNs, kByte = 4 * kNs;

struct Run {
  routing::Topology topo;
  routing::TableSet tables;
  testing::ScriptedTraffic traffic;
  tb::Fabric fabric;
  Run(int switches, std::vector<testing::Scripted> script)
      : topo(testing::chain(switches, 1, 1)),
        tables(testing::chain_tables(topo)),
        traffic(topo.num_hosts, std::move(script)),
        fabric(topo, tables, tb::FabricParams{}, traffic, tb::make_arbiter_factory({})) {}
};
testing::ScStrict strict;
}  // namespace

BOOST_AUTO_TEST_CASE(two_hosts_one_switch) {
  Run r(1, {{0, 0, 1, 512}});
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));
  BOOST_REQUIRE_EQUAL(r.traffic.deliveries.size(), 1u);
  const auto& d = r.traffic.deliveries[0];
  BOOST_TEST(d.done - d.gen == 2 * kFly + kRouting + 512 * kByte);  // 2348 ns
  BOOST_TEST(d.hops == 1);
  r.fabric.check_conservation();
}

BOOST_AUTO_TEST_CASE(chain_of_switches) {
  const int k = 5;
  Run r(k, {{1000 * kNs, 0, 1, 256}, {1000 * kNs, 1, 0, 32}});
  sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_US));
  BOOST_REQUIRE_EQUAL(r.traffic.deliveries.size(), 2u);
  for (const auto& d : r.traffic.deliveries) {
    BOOST_TEST(d.done - d.gen == (k + 1) * kFly + k * kRouting + d.length * kByte);
    BOOST_TEST(d.hops == k);
  }
  BOOST_TEST(r.fabric.monitor().in_flight() == 0u);
}

BOOST_AUTO_TEST_CASE(back_to_back_serialisation) {
  // Two packets generated together leave the HCA one after the other at link rate; the second
  // cuts through the switch as soon as the first has left the output.
  Run r(1, {{0, 0, 1, 512}, {0, 0, 1, 512}});
  sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_US));
  BOOST_REQUIRE_EQUAL(r.traffic.deliveries.size(), 2u);
  const Picos single = 2 * kFly + kRouting + 512 * kByte;
  BOOST_TEST(r.traffic.deliveries[0].done == single);
  BOOST_TEST(r.traffic.deliveries[1].done == single + 512 * kByte);
}

// One 64-byte packet from host 0 to host 1 through the tables; the message that stops the run
// ("" if none).
namespace {
std::string error_of_one_packet(const routing::Topology& topo, const routing::TableSet& tables) {
  testing::ScriptedTraffic traffic(topo.num_hosts, {{0, 0, 1, 64}});
  tb::Fabric fabric(topo, tables, tb::FabricParams{}, traffic, tb::make_arbiter_factory({}));
  return testing::error_of([] { sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US)); });
}
}  // namespace

// A table set with a hole: the packet cannot be routed and the run stops with a message that
// names the switch and the DLID, instead of losing the packet.
BOOST_AUTO_TEST_CASE(missing_lft_entry_stops_the_run) {
  routing::Topology topo = testing::chain(2, 1, 1);
  routing::TableSet tables = testing::chain_tables(topo);
  tables.switches[1].lft.clear(2);  // switch 1 forgets host 1 (LID 2)
  const std::string msg = error_of_one_packet(topo, tables);
  BOOST_TEST(msg.find("sw_1: LFT has no entry for DLID 2") != std::string::npos, msg);
}

// An LFT read in place (every entry names a cabled port) still refuses the switch's own LID,
// whose entry names port 0, the management port: the same message as the flat copy gave.
BOOST_AUTO_TEST_CASE(own_lid_is_refused_in_place) {
  routing::Topology topo = testing::chain(2, 1, 1);
  routing::TableSet tables = testing::chain_tables(topo);
  const auto own = tables.switches[0].lid;
  tables.switches[0].lft.set(own, 0);
  tables.hosts[0].paths.set(1, routing::PathRecord{own, 0});  // host 0 sends to sw_0's LID
  const std::string msg = error_of_one_packet(topo, tables);
  const std::string want = "sw_0: LFT entry for DLID " + std::to_string(own) + " names port 0, which has no cable";
  BOOST_TEST(msg.find(want) != std::string::npos, msg);
}

// An entry naming a port without a cable: the switch keeps its own copy and refuses the packet.
BOOST_AUTO_TEST_CASE(uncabled_port_stops_the_run) {
  routing::Topology topo = testing::chain(2, 1, 1);
  routing::TableSet tables = testing::chain_tables(topo);
  tables.switches[1].lft.set(2, 9);  // sw_1 sends host 1 (LID 2) out of port 9, which it lacks
  const std::string msg = error_of_one_packet(topo, tables);
  BOOST_TEST(msg.find("sw_1: LFT entry for DLID 2 names port 9, which has no cable") != std::string::npos, msg);
}
