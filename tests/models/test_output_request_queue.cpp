// The FIFO request queue per output crossbar port (switch.output_request_queue, seeds/004),
// against timings derived by hand (1X SDR: 4 ns a byte, 100 ns fly, 100 ns routing, 4 ns core
// clock; 512 bytes = 2048 ns). One switch, hosts 0..3 on ports 3..6, all packets to host 3
// (output port 6); a packet generated at g has its head at the switch at g + 100, is routed (its
// request joins output 6's queue) at g + 200, and a packet granted at t is done at t + 2148.
//
// Service order. X (host 0, gen 0), then Z (host 2, gen 20) and Y (host 1, gen 40), all on VL 0.
//   X granted at 200, output 6 busy until 2248. Requests then queued: Z (220), Y (240).
//   fifo: Z at 2248 (done 4396), Y at 4296 (done 6444): arrival order.
//   switch arbiter (default): round-robin from one past the last granted input (port 3), so
//   port 4 (Y) first: Y done 4396, Z done 6444.
//
// Blocking. 512-byte VL buffers (8 credits), so the host's credits for a second 512-byte packet
// come back only as the first arrives. X (host 0, VL 0, gen 0), Y (host 1, VL 0, gen 10), Z
// (host 2, VL 1, gen 20). X granted at 200, head at host 3 at 300; its k-th block returns at
// 300 + 256 (k + 1) + 100: 7 of 8 blocks back at 2248 when output 6 is free, all 8 at 2448.
//   fifo: at 2248 Y (head of the queue) has no room, Z behind it has (VL 1): Z granted at 2248
//         (done 4396); Y when the output is free again, at 4296 (done 6444). The default
//         arbiter does the same.
//   fifo_head: Y blocks Z: Y granted at 2448 (done 4596), Z at 2448 + 2048 = 4496 (done 6644).
#include <boost/test/unit_test.hpp>

#include <map>

#include "models/output_request_queue.h"
#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tb/scenario/scenario.h"
#include "tests/support/manual_fabric.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using models::OutputRequestQueue;
using models::Picos;

namespace {
constexpr Picos kNs = 1000;
testing::ScStrict strict;

// Done time (ns) per source host; every packet is 512 bytes to host 3.
std::map<int, Picos> run(OutputRequestQueue mode, std::vector<testing::Scripted> script, uint32_t buffer_bytes,
                         const std::map<int, int>& sl_of_host) {
  routing::Topology topo = testing::chain(1, 4, 0);
  routing::TableSet tables = testing::chain_tables(topo, 2);
  for (auto [host, sl] : sl_of_host) tables.hosts[host].paths.set_sl(3, 0, sl);
  testing::ScriptedTraffic traffic(topo.num_hosts, std::move(script));
  tb::FabricParams p;
  p.sw.num_vls = 2;
  p.sw.buffer_bytes_per_vl = buffer_bytes;
  p.sw.output_request_queue = mode;
  tb::Fabric fabric(topo, tables, p, traffic, tb::make_arbiter_factory({}));
  sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_US));
  fabric.check_conservation();
  std::map<int, Picos> done;
  for (const auto& d : traffic.deliveries) done[d.src] = d.done / kNs;
  BOOST_REQUIRE_EQUAL(traffic.deliveries.size(), 3u);
  return done;
}

std::map<int, Picos> service_order(OutputRequestQueue mode) {
  return run(mode, {{0, 0, 3, 512}, {20 * kNs, 2, 3, 512}, {40 * kNs, 1, 3, 512}}, 2048, {{0, 0}, {1, 0}, {2, 0}});
}

std::map<int, Picos> blocking(OutputRequestQueue mode) {
  return run(mode, {{0, 0, 3, 512}, {10 * kNs, 1, 3, 512}, {20 * kNs, 2, 3, 512}}, 512, {{0, 0}, {1, 0}, {2, 1}});
}
}  // namespace

BOOST_AUTO_TEST_CASE(fifo_serves_in_request_order) {
  const auto done = service_order(OutputRequestQueue::Fifo);
  BOOST_TEST(done.at(0) == 2348);
  BOOST_TEST(done.at(2) == 4396);  // requested at 220
  BOOST_TEST(done.at(1) == 6444);  // requested at 240
}

// The reference: the default switch arbiter serves round-robin by input port instead.
BOOST_AUTO_TEST_CASE(switch_arbiter_serves_round_robin) {
  const auto done = service_order(OutputRequestQueue::Off);
  BOOST_TEST(done.at(0) == 2348);
  BOOST_TEST(done.at(1) == 4396);
  BOOST_TEST(done.at(2) == 6444);
}

BOOST_AUTO_TEST_CASE(fifo_passes_a_head_without_room) {
  const auto done = blocking(OutputRequestQueue::Fifo);
  BOOST_TEST(done.at(0) == 2348);
  BOOST_TEST(done.at(2) == 4396);  // Z (VL 1) passes Y, which waits for VL 0's credits
  BOOST_TEST(done.at(1) == 6444);
}

BOOST_AUTO_TEST_CASE(fifo_head_blocks_behind_a_head_without_room) {
  const auto done = blocking(OutputRequestQueue::FifoHead);
  BOOST_TEST(done.at(0) == 2348);
  BOOST_TEST(done.at(1) == 4596);  // Y as soon as its 8th credit is back (2448)
  BOOST_TEST(done.at(2) == 6644);  // Z after Y, though its VL had room at 2248
}

// The queue alone: order by join time, then packet id; pick skips (fifo) or stops (fifo_head)
// at a request that cannot go; requests that join after t are not there yet.
BOOST_AUTO_TEST_CASE(queue_order_and_pick) {
  models::OutputRequestQueues q;
  q.configure(2, OutputRequestQueue::Fifo);
  q.add(1, {300, 7, 1, 0});
  q.add(1, {200, 9, 2, 0});
  q.add(1, {200, 8, 2, 1});
  q.add(1, {500, 1, 1, 1});
  BOOST_TEST(q.queue(1).size() == 4u);
  BOOST_TEST(q.queue(1)[0].id == 8u);
  BOOST_TEST(q.queue(1)[1].id == 9u);
  BOOST_TEST(q.queue(1)[2].id == 7u);
  auto not_id8 = [](const models::OutputRequest& r) { return r.id != 8; };
  BOOST_TEST(q.pick(1, 400, not_id8) == 1);
  BOOST_TEST(q.pick(1, 100, not_id8) == -1);  // nobody has joined yet
  auto only_last = [](const models::OutputRequest& r) { return r.id == 1; };
  BOOST_TEST(q.pick(1, 400, only_last) == -1);  // id 1 joins at 500
  BOOST_TEST(q.pick(1, 500, only_last) == 3);
  q.remove(1, 2, 1);
  BOOST_TEST(q.queue(1)[0].id == 9u);
  BOOST_TEST(q.queue(2).empty());
  models::OutputRequestQueues h;
  h.configure(1, OutputRequestQueue::FifoHead);
  h.add(1, {100, 2, 1, 0});
  h.add(1, {100, 3, 2, 0});
  BOOST_TEST(h.pick(1, 100, [](const models::OutputRequest& r) { return r.id == 3; }) == -1);
  BOOST_TEST(h.pick(1, 100, [](const models::OutputRequest& r) { return r.id == 2; }) == 0);
}

// The scenario key: off unless given; bad values and the RTL arbiter refused naming the key.
BOOST_AUTO_TEST_CASE(scenario_key) {
  const std::string q = IBSC_SOURCE_DIR "/scenarios/quickstart.yaml";
  BOOST_TEST((tb::load_scenario(q, {}).point.fabric.sw.output_request_queue == OutputRequestQueue::Off));
  BOOST_TEST((tb::load_scenario(q, {"switch.output_request_queue=fifo"}).point.fabric.sw.output_request_queue ==
              OutputRequestQueue::Fifo));
  BOOST_TEST((tb::load_scenario(q, {"switch.output_request_queue=fifo_head"}).point.fabric.sw.output_request_queue ==
              OutputRequestQueue::FifoHead));
  auto error_of = [&](std::vector<std::string> set) {
    try {
      tb::load_scenario(q, set);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  BOOST_TEST(error_of({"switch.output_request_queue=lifo"}) ==
             "--set switch.output_request_queue: key 'switch.output_request_queue': 'lifo' is not one of: off, fifo, "
             "fifo_head");
  BOOST_TEST(error_of({"switch.output_request_queue=fifo", "switch.arbiter=rtl"}) ==
             "--set switch.output_request_queue: key 'switch.output_request_queue': the request queues replace the "
             "switch arbiter, so switch.arbiter rtl has nothing to run; leave one of the two out");
}
