// The HCAs' TLM-2.0 host face: a message's completion time on an idle fabric against the
// analytic value, for both the loosely-timed (b_transport) and approximately-timed
// (nb_transport) interfaces, with its bytes landing intact; and an allreduce by recursive
// doubling on 16 hosts ending with the right sums everywhere. One elaboration per case.
#define BOOST_TEST_MODULE hca_tlm
#include <boost/test/unit_test.hpp>

#include <memory>

#include "models/hca_tlm_target.h"
#include "routing/routing.h"
#include "routing/topo_spec.h"
#include "tb/arbiter_factory.h"
#include "tb/fabric.h"
#include "tb/mpi_run.h"
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
// Host 0 sends at t = 0 with b_transport (which returns at delivery); host 1 answers at
// t = 100 us, the fabric idle again, with nb_transport (BEGIN_RESP at delivery).
BOOST_AUTO_TEST_CASE(message_completes_at_analytic_time) {
  const int k = 3;
  const uint32_t n = 10000;
  routing::Topology topo = testing::chain(k, 1, 1);
  routing::TableSet tables = testing::chain_tables(topo);
  models::MessageParams mp;
  mp.memory_bytes = n;
  models::MessageLayer layer(2, mp);
  tb::Fabric fabric(topo, tables, tb::FabricParams{}, layer, tb::make_arbiter_factory({}));
  std::vector<uint8_t> data0(n), data1(n);
  for (uint32_t i = 0; i < n; ++i) {
    data0[i] = static_cast<uint8_t>(i * 13 + 1);
    data1[i] = static_cast<uint8_t>(i * 29 + 7);
  }
  Picos lt_done = 0, at_done = 0;
  auto body0 = [&](tb::MpiHost& h) {
    h.send(1, 0, data0);  // LT: returns at delivery
    lt_done = models::now_ps();
  };
  auto body1 = [&](tb::MpiHost& h) {
    h.wait_until_ns(100000);
    h.send(0, 0, data1);
    h.wait_sends();
    at_done = models::now_ps();
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
  const Picos analytic = (k + 1) * 100 * kNs + k * 100 * kNs + n * 4 * kNs;
  BOOST_TEST(analytic == 40700 * kNs);
  BOOST_TEST(lt_done == analytic);
  BOOST_TEST(at_done == 100000 * kNs + analytic);
  BOOST_TEST(h0.finished());
  BOOST_TEST(h1.finished());
  BOOST_TEST(layer.packets_checked() == 20u);
  BOOST_TEST(std::equal(data0.begin(), data0.end(), layer.memory(1)));
  BOOST_TEST(std::equal(data1.begin(), data1.end(), layer.memory(0)));
  fabric.check_conservation();
}

// 4x4 torus, one host per switch, e-cube routing: allreduce of 512 64-bit words (4096 bytes)
// by recursive doubling, nb_transport sends. Every rank must end with the sum of all 16 initial
// vectors (checked word by word inside the workload). 16 ranks x 4 steps = 64 messages of 4
// packets. Each step moves 4096 bytes per rank (16384 ns on a 1X link) plus at least one hop's
// latency (2 fly + routing = 300 ns), so 4 steps take at least 66736 ns.
BOOST_AUTO_TEST_CASE(allreduce_16_hosts_correct_data) {
  routing::Topology topo = routing::build_topology_spec("torus:4x4:hosts=1:ports=5");
  routing::RoutingOptions ro;
  ro.algorithm = "ecube";
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
