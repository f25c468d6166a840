// The output ports alone: credit counters start full and refuse to go negative, returned credit
// trains count per block, VL requests go through the VL arbiter, which start() charges, and
// the port's link sends to a stub endpoint.
#include <boost/test/unit_test.hpp>

#include <vector>

#include "models/output_port.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using models::Picos;

namespace {
constexpr Picos kNs = 1000;
}  // namespace

BOOST_AUTO_TEST_CASE(credits_start_full_and_never_go_negative) {
  models::OutputPorts out;
  out.configure(2, 2);
  out.connect(1, 4, models::VlArbParams{});
  BOOST_TEST(out.credits(1, 0).available(0) == 4);
  BOOST_TEST(out.credits(1, 1).available(0) == 4);
  BOOST_TEST(out.credits(2, 0).available(0) == 0);  // port 2 has no cable
  BOOST_TEST(out.start(1, 0, 3, 192, 0));
  BOOST_TEST(out.credits(1, 0).available(0) == 1);
  BOOST_TEST(!out.start(1, 0, 2, 128, 0));  // would go negative: nothing taken
  BOOST_TEST(out.credits(1, 0).available(0) == 1);
  BOOST_TEST(out.credits(1, 1).available(0) == 4);  // VLs count apart
  // The downstream buffer frees the 3 blocks at 4 ns a byte from 100 ns: at 356, 612, 868 ns.
  BOOST_TEST(out.credits(1, 0).add(models::CreditTrain{100 * kNs, 4000, 100 * kNs, 4000, 192, 0}));
  BOOST_TEST(out.credits(1, 0).available(355 * kNs) == 1);
  BOOST_TEST(out.credits(1, 0).available(356 * kNs) == 2);
  BOOST_TEST(out.credits(1, 0).time_for(4, 0) == 868 * kNs);
}

BOOST_AUTO_TEST_CASE(round_robin_vl_requests_charged_by_start) {
  models::OutputPorts out;
  out.configure(1, 3);
  out.connect(1, 64, models::VlArbParams{});
  models::OutputPortState o;
  std::vector<int> served;
  for (int k = 0; k < 4; ++k) {
    BOOST_TEST(models::OutputPorts::request(o, 0));  // first request of the cycle
    BOOST_TEST(!models::OutputPorts::request(o, 2));
    out.select_vl(o, 1);
    BOOST_TEST(o.vl_mask == 0);  // requests cleared for the next cycle
    served.push_back(o.selected_vl);
    BOOST_TEST(out.start(1, static_cast<Vl>(o.selected_vl), 1, 64, 0));
  }
  BOOST_TEST(served == (std::vector<int>{0, 2, 0, 2}), boost::test_tools::per_element());
}

// VLArb tables: VL 0 with weight 2 (128 bytes), then VL 1 with weight 1. With both asking, VL 0
// keeps the link for two 64-byte packets, then VL 1 gets one: start() spends the weight.
BOOST_AUTO_TEST_CASE(vlarb_weights_spent_by_start) {
  models::VlArbParams p;
  p.use_tables = true;
  p.high = {{0, 2}, {1, 1}};
  models::OutputPorts out;
  out.configure(1, 2);
  out.connect(1, 64, p);
  models::OutputPortState o;
  std::vector<int> served;
  for (int k = 0; k < 6; ++k) {
    models::OutputPorts::request(o, 0);
    models::OutputPorts::request(o, 1);
    out.select_vl(o, 1);
    served.push_back(o.selected_vl);
    out.start(1, static_cast<Vl>(o.selected_vl), 1, 64, 0);
  }
  BOOST_TEST(served == (std::vector<int>{0, 0, 1, 0, 0, 1}), boost::test_tools::per_element());
}

namespace {
struct StubEndpoint : models::LinkEndpoint {
  std::vector<std::pair<int, Picos>> packets;
  std::vector<models::CreditTrain> credits;
  void packet_arrives(int port, models::Packet*, Picos head_time) override { packets.emplace_back(port, head_time); }
  void credits_arrive(int, const models::CreditTrain& t) override { credits.push_back(t); }
};
}  // namespace

// Bound to an endpoint that is not a Link, the port's transmitter calls it unchanged.
BOOST_AUTO_TEST_CASE(port_link_sends_to_a_stub) {
  StubEndpoint stub;
  models::OutputPortState o;
  o.tx.bind(&stub);
  models::Packet p;
  o.tx.packet_arrives(3, &p, 500 * kNs);
  o.tx.credits_arrive(3, models::CreditTrain{0, 4000, 0, 4000, 128, 1});
  BOOST_REQUIRE_EQUAL(stub.packets.size(), 1u);
  BOOST_TEST(stub.packets[0].first == 3);
  BOOST_TEST(stub.packets[0].second == 500 * kNs);
  BOOST_REQUIRE_EQUAL(stub.credits.size(), 1u);
  BOOST_TEST(stub.credits[0].a_in == 0u);  // no fly time added
  BOOST_TEST(stub.credits[0].vl == 1);
}
