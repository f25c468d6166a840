// The HCAs' TLM-2.0 host face: a message's completion time on an idle fabric against the
// analytic value, for both the loosely-timed (b_transport) and approximately-timed
// (nb_transport) interfaces, with its bytes landing intact: at delivery, or at the ACK of its
// last packet with the reliable transport in mode reorder; an allreduce by recursive doubling
// on 16 hosts ending with the right sums everywhere, under deterministic routing, and under
// adaptive routing with the reliable transport reordering (and, with a tiny rearrange buffer,
// re-sending) its packets. One elaboration per case, or per forked child.
#include <boost/test/unit_test.hpp>

#include <array>
#include <memory>

#include <nlohmann/json.hpp>

#include "models/hca_tlm_target.h"
#include "routing/routing.h"
#include "routing/topo_spec.h"
#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tb/mpi/mpi_run.h"
#include "tb/run/sweep.h"
#include "tests/support/manual_fabric.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using models::Picos;

namespace {
testing::ScStrict strict;
constexpr Picos kNs = 1000;
}  // namespace

// Chain of k = 3 switches, host 0 on the first, host 1 on the last; default parameters: 1X SDR
// links (4 ns per byte), 20 m cables (100 ns fly time), 100 ns routing delay, 2 KB VL buffers.
// A message of N = 10000 bytes with a 1024-byte MTU is 9 packets of 1024 and one of 784. They
// leave back to back at link rate (each takes half a VL buffer of credits, and a block's credit
// is back after 2 fly + routing = 300 ns, long before the buffer's other half is used), and
// each cuts through every switch behind the one before. So the last byte arrives one packet
// latency after the first packet's head left, plus the time the other bytes take to leave:
//   T = (k + 1) fly + k routing + N x 4 ns = 400 + 300 + 40000 = 40700 ns.
// Host 0 sends at t = 0 with b_transport (which returns at completion); host 1 answers at
// t = 100 us, the fabric idle again, with nb_transport (BEGIN_RESP at completion).
// With the reliable transport in mode reorder, completion is the ACK of the last packet: the
// destination sends it the cycle that packet is delivered, on the idle reverse links, and it
// takes what any packet takes over the same hops (as the transport's own analytic ACK test):
//   A = (k + 1) fly + k routing + control_bytes x 4 ns = 400 + 300 + 32 x 4 = 828 ns.
// The receiver's completion (wait_from) stays at delivery.
namespace {
constexpr int kChain = 3;
constexpr uint32_t kN = 10000;
constexpr Picos kDelivery = (kChain + 1) * 100 * kNs + kChain * 100 * kNs + kN * 4 * kNs;
constexpr Picos kAck = (kChain + 1) * 100 * kNs + kChain * 100 * kNs + 32 * 4 * kNs;
static_assert(kDelivery == 40700 * kNs && kAck == 828 * kNs);

// Runs the exchange above; checks the data; returns (LT send done, host 1's receive, AT send done).
std::array<Picos, 3> two_messages(const tb::FabricParams& fp) {
  routing::Topology topo = testing::chain(kChain, 1, 1);
  routing::TableSet tables = testing::chain_tables(topo);
  models::MessageParams mp;
  mp.memory_bytes = kN;
  models::MessageLayer layer(2, mp);
  tb::Fabric fabric(topo, tables, fp, layer, tb::make_arbiter_factory({}));
  std::vector<uint8_t> data0(kN), data1(kN);
  for (uint32_t i = 0; i < kN; ++i) {
    data0[i] = static_cast<uint8_t>(i * 13 + 1);
    data1[i] = static_cast<uint8_t>(i * 29 + 7);
  }
  std::array<Picos, 3> t{};
  auto body0 = [&](tb::MpiHost& h) {
    h.send(1, 0, data0);  // LT: returns at completion
    t[0] = models::now_ps();
  };
  auto body1 = [&](tb::MpiHost& h) {
    h.wait_from(0, 1);
    t[1] = models::now_ps();
    h.wait_until_ns(100000);
    h.send(0, 0, data1);
    h.wait_sends();
    t[2] = models::now_ps();
  };
  std::unique_ptr<models::HcaTlmTarget> t0, t1;
  t0 = std::make_unique<models::HcaTlmTarget>("tlm_0", 0, layer);
  t1 = std::make_unique<models::HcaTlmTarget>("tlm_1", 1, layer);
  tb::MpiHost h0("rank_0", 0, 2, tb::MpiHost::Style::Lt, layer, body0);
  tb::MpiHost h1("rank_1", 1, 2, tb::MpiHost::Style::At, layer, body1);
  h0.socket.bind(t0->socket);
  h1.socket.bind(t1->socket);
  layer.attach(0, &fabric.hca(0));
  layer.attach(1, &fabric.hca(1));
  sc_core::sc_start();
  BOOST_TEST(h0.finished());
  BOOST_TEST(h1.finished());
  BOOST_TEST(layer.packets_checked() == 20u);
  BOOST_TEST(layer.messages_completed() == 2u);
  BOOST_TEST(std::equal(data0.begin(), data0.end(), layer.memory(1)));
  BOOST_TEST(std::equal(data1.begin(), data1.end(), layer.memory(0)));
  fabric.check_conservation();
  return t;
}
}  // namespace

BOOST_AUTO_TEST_CASE(message_completes_at_analytic_time) {
  const auto t = two_messages(tb::FabricParams{});
  BOOST_TEST(t[0] == kDelivery);
  BOOST_TEST(t[1] == kDelivery);
  BOOST_TEST(t[2] == 100000 * kNs + kDelivery);
}

BOOST_AUTO_TEST_CASE(message_completes_at_ack_with_reliable_transport) {
  tb::FabricParams fp;
  fp.transport.mode = models::TransportMode::Reorder;
  const auto t = two_messages(fp);
  BOOST_TEST(t[0] == kDelivery + kAck);
  BOOST_TEST(t[1] == kDelivery);  // the receiver sees the data at delivery
  BOOST_TEST(t[2] == 100000 * kNs + kDelivery + kAck);
}

// Mode ooo sends no ACK: a write completes at delivery, as with the transport off.
BOOST_AUTO_TEST_CASE(message_completes_at_delivery_with_out_of_order_transport) {
  tb::FabricParams fp;
  fp.transport.mode = models::TransportMode::OutOfOrder;
  const auto t = two_messages(fp);
  BOOST_TEST(t[0] == kDelivery);
  BOOST_TEST(t[2] == 100000 * kNs + kDelivery);
}

// 4x4 torus, one host per switch, e-cube routing: allreduce of 512 64-bit words (4096 bytes)
// by recursive doubling, nb_transport sends. Every rank must end with the sum of all 16 initial
// vectors (checked word by word inside the workload). 16 ranks x 4 steps = 64 messages of 4
// packets. Each step moves 4096 bytes per rank (16384 ns on a 1X link) plus at least one hop's
// latency (2 fly + routing = 300 ns), so 4 steps take at least 66736 ns.
BOOST_AUTO_TEST_CASE(allreduce_16_hosts_correct_data) {
  routing::Topology topo = routing::build_topology_spec("torus:4x4:hosts=1:ports=5");
  routing::RoutingOptions ro;
  ro.algorithm = routing::Algorithm::Ecube;
  routing::TableSet tables = routing::compute_routing(topo, ro);
  tb::FabricParams fp;
  fp.sw.num_vls = 2;
  tb::WorkloadConfig w;
  w.kind = "allreduce";
  w.bytes = 4096;
  std::vector<tb::TraceRecord> trace;
  const tb::MpiRunResult r = tb::run_mpi(topo, tables, fp, models::MessageParams{}, w, tb::MpiHost::Style::At, &trace);
  BOOST_TEST_MESSAGE("allreduce, 16 hosts, 4096 bytes: " << r.completion_ns << " ns");
  BOOST_TEST(r.errors.empty());
  for (const auto& e : r.errors) BOOST_TEST_MESSAGE(e);
  BOOST_TEST(r.messages == 64u);
  BOOST_TEST(r.packets_checked == 256u);
  BOOST_TEST(trace.size() == 64u);
  BOOST_TEST(r.host_end_ns.size() == 16u);
  BOOST_TEST(r.completion_ns >= 66736.0);
  BOOST_TEST(r.completion_ns < 2 * 66736.0);
}

// An allreduce on a 4x4 mesh (16 hosts; without the torus' wrap links the recursive-doubling
// partners' paths share links) under adaptive routing (adaptive-updown on one VL, a one-packet
// escape queue per VL, seeds/003's switch) with the reliable transport: a 256-byte MTU makes
// each 4096-byte message 16 packets, and packets of a message overtake each other. The
// rearrange buffer puts them back in order: every sum must still be right. With ample
// rearrange memory (64 KB per connection) nothing is rejected; with a one-packet buffer
// out-of-order arrivals are NACKed and re-sent, and the run must end later. Each run forks.
namespace {
struct Allreduce {
  double ns = 0;
  size_t errors = 0;
  uint64_t messages = 0, packets = 0, out_of_order = 0, nacks = 0, resent = 0;
  bool at_ack = false;
};

Allreduce adaptive_allreduce(models::TransportMode mode, uint64_t connection_bytes) {
  const std::string j = tb::run_forked(1, 1, [&](int) {
    routing::Topology topo = routing::build_topology_spec("mesh:4x4:hosts=1:ports=5");
    routing::RoutingOptions ro;
    ro.algorithm = routing::Algorithm::AdaptiveUpdown;
    routing::TableSet tables = routing::compute_routing(topo, ro);
    tb::FabricParams fp;
    fp.sw.num_vls = 1;
    fp.sw.escape_queue_bytes = 256;
    fp.transport.mode = mode;
    fp.transport.connection_bytes = connection_bytes;
    models::MessageParams mp;
    mp.mtu_bytes = 256;
    tb::WorkloadConfig w;
    w.kind = "allreduce";
    w.bytes = 4096;
    const tb::MpiRunResult r = tb::run_mpi(topo, tables, fp, mp, w, tb::MpiHost::Style::At);
    return nlohmann::json{r.completion_ns,
                          r.errors.size(),
                          r.messages,
                          r.packets_checked,
                          r.transport.out_of_order_arrivals,
                          r.transport.nacks,
                          r.transport.resent_packets,
                          r.ack_completion}
        .dump();
  })[0];
  const nlohmann::json v = nlohmann::json::parse(j);
  Allreduce a{v[0].get<double>(),   v[1].get<size_t>(),   v[2].get<uint64_t>(), v[3].get<uint64_t>(),
              v[4].get<uint64_t>(), v[5].get<uint64_t>(), v[6].get<uint64_t>(), v[7].get<bool>()};
  BOOST_TEST_MESSAGE("adaptive allreduce, transport "
                     << static_cast<int>(mode) << ", " << connection_bytes << " B/connection: " << a.ns
                     << " ns, out of order " << a.out_of_order << ", NACKs " << a.nacks << ", re-sent " << a.resent);
  BOOST_TEST(a.errors == 0u);
  BOOST_TEST(a.messages == 64u);
  BOOST_TEST(a.packets == 64u * 16u);
  return a;
}
}  // namespace

BOOST_AUTO_TEST_CASE(allreduce_adaptive_reliable_correct_data) {
  const Allreduce at_delivery = adaptive_allreduce(models::TransportMode::Off, 2048);
  const Allreduce at_ack = adaptive_allreduce(models::TransportMode::Reorder, 65536);
  BOOST_TEST(!at_delivery.at_ack);
  BOOST_TEST(at_ack.at_ack);
  BOOST_TEST(at_ack.out_of_order > 0u);
  BOOST_TEST(at_ack.nacks == 0u);
  BOOST_TEST(at_ack.resent == 0u);
  // The last ACK comes at least one hop's ACK time (2 fly + routing + 32 x 4 = 428 ns) after
  // the last delivery; the ACKs' own link time can only add to it.
  BOOST_TEST(at_ack.ns >= at_delivery.ns + 428.0);
}

BOOST_AUTO_TEST_CASE(allreduce_tiny_rearrange_buffer_resends_correct_data) {
  const Allreduce ample = adaptive_allreduce(models::TransportMode::Reorder, 65536);
  const Allreduce tiny = adaptive_allreduce(models::TransportMode::Reorder, 256);  // one packet
  BOOST_TEST(tiny.nacks > 0u);
  BOOST_TEST(tiny.resent == tiny.nacks);
  BOOST_TEST(tiny.ns > ample.ns);
}
