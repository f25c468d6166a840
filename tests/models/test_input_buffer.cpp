// The input buffer alone: FIFO order per VL, the per-port head mask and counters, the overflow
// check with a packet still draining, and occupancy, against hand-computed block counts.
#include <boost/test/unit_test.hpp>

#include "models/input_buffer.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using models::Picos;

namespace {
constexpr Picos kNs = 1000;
models::Queued queued(models::Packet& p, Picos ready) {
  models::Queued q;
  q.pkt = &p;
  q.ready = ready;
  q.blocks = p.blocks();
  return q;
}
}  // namespace

BOOST_AUTO_TEST_CASE(fifo_per_vl_with_head_mask_and_counters) {
  models::InputBuffer buf;
  buf.configure(2, 2, 16);
  models::InputPortState ps;
  models::Packet a, b, c;
  a.length = 64, b.length = 100, c.length = 512;  // 1, 2 and 8 blocks
  models::InputVl& vl1 = buf.at(1, 1);
  BOOST_TEST(buf.push(ps, 1, vl1, queued(a, 0)));  // empty queue: a becomes the head
  BOOST_TEST(!buf.push(ps, 1, vl1, queued(b, 0)));
  BOOST_TEST(!buf.push(ps, 1, vl1, queued(c, 0)));
  BOOST_TEST(ps.heads == 0b10);
  BOOST_TEST(ps.queued == 3u);
  BOOST_TEST(vl1.queued_blocks == 11);
  BOOST_TEST(buf.queued(1, 1) == 3u);
  BOOST_TEST(buf.queued(1, 0) == 0u);
  BOOST_TEST(buf.queued(2, 1) == 0u);  // ports do not share records
  BOOST_TEST(buf.pop_head(ps, 1, vl1).pkt == &a);
  BOOST_TEST(vl1.head.pkt == &b);
  BOOST_TEST(buf.pop_head(ps, 1, vl1).pkt == &b);
  BOOST_TEST(ps.heads == 0b10);  // c is still the head
  BOOST_TEST(buf.pop_head(ps, 1, vl1).pkt == &c);
  BOOST_TEST(ps.heads == 0);
  BOOST_TEST(ps.queued == 0u);
  BOOST_TEST(vl1.queued_blocks == 0);
  BOOST_TEST(vl1.head.pkt == nullptr);
}

// An 8-block (512-byte) buffer. A 512-byte packet arrived from t = 0 at 4 ns a byte and was
// granted at 1 ns: block k is freed at max(256 (k + 1), 1 + 256 (k + 1)) ns = 1 + 256 (k + 1) ns.
// A 4-block packet whose head arrives at 769 ns finds 3 blocks freed: 5 + 4 = 9 > 8, overflow;
// at 1025 ns 4 are freed: 4 + 4 = 8, it fits.
BOOST_AUTO_TEST_CASE(overflow_check_counts_the_draining_packet) {
  models::InputBuffer buf;
  buf.configure(1, 1, 8);
  models::InputPortState ps;
  models::Packet big;
  big.length = 512;
  models::InputVl& iv = buf.at(1, 0);
  buf.push(ps, 0, iv, queued(big, 100 * kNs));
  BOOST_TEST(buf.held_with(iv, 1, 0) == 9);  // queued 8 + 1: full buffer plus one block
  buf.pop_head(ps, 0, iv);
  models::InputBuffer::draining(iv, models::CreditTrain{0, 4000, 1 * kNs, 4000, 512, 0});
  BOOST_TEST(iv.last.done == (1 + 2048) * kNs);
  BOOST_TEST(buf.held_with(iv, 4, 769 * kNs) == 9);
  BOOST_TEST(buf.held_with(iv, 4, 769 * kNs - 1) == 10);  // one ps earlier: block 2 not yet back
  BOOST_TEST(buf.held_with(iv, 4, 1025 * kNs) == 8);
  BOOST_TEST(buf.held_with(iv, 4, 2049 * kNs) == 4);  // all drained
  BOOST_TEST(buf.capacity_blocks() == 8);
}

// Occupancy counts a queued packet once its head has arrived (ready - routing delay) and the
// draining packet's blocks not yet freed.
BOOST_AUTO_TEST_CASE(occupancy_counts_arrived_and_draining_blocks) {
  models::InputBuffer buf;
  buf.configure(1, 1, 32);
  models::InputPortState ps;
  models::Packet p, q;
  p.length = 512, q.length = 256;
  models::InputVl& iv = buf.at(1, 0);
  const Picos routing = 100 * kNs;
  buf.push(ps, 0, iv, queued(p, 0 + routing));           // arrived at 0
  buf.push(ps, 0, iv, queued(q, 3000 * kNs + routing));  // arrives at 3000 ns
  BOOST_TEST(buf.occupancy_blocks(1, 0, 0, routing) == 8);
  BOOST_TEST(buf.occupancy_blocks(1, 0, 3000 * kNs, routing) == 12);
  buf.pop_head(ps, 0, iv);
  // p granted at 100 ns: block k freed at 100 + 256 (k + 1) ns; at 612 ns two are back.
  models::InputBuffer::draining(iv, models::CreditTrain{0, 4000, 100 * kNs, 4000, 512, 0});
  BOOST_TEST(buf.occupancy_blocks(1, 0, 612 * kNs, routing) == 6);
  BOOST_TEST(buf.occupancy_blocks(1, 0, 3000 * kNs, routing) == 4);  // p gone, q arrived
}

// Escape queues (seeds/003): a 16-block VL buffer with a 4-block (256-byte) escape queue, one
// VL; 256-byte packets of 4 blocks. A packet joins the adaptive queue (index 0) while the VL
// buffer, the packet included, holds at most 16 - 4 = 12 blocks, else the escape queue (index
// 1); above 16 it overflows. The draining packet counts until its blocks are freed: granted at
// 1 ns at 4 ns a byte, block k is freed at 1 + 256 (k + 1) ns.
BOOST_AUTO_TEST_CASE(escape_queue_takes_what_the_adaptive_queue_may_not) {
  models::InputBuffer buf;
  buf.configure(1, 1, 16, 4);
  BOOST_TEST(buf.queues() == 2);
  BOOST_TEST(buf.escape_blocks() == 4);
  models::InputPortState ps;
  models::Packet p[6];
  for (auto& x : p) x.length = 256;
  int held = 0;
  auto admit = [&](models::Packet& x, Picos t) {
    const int q = buf.admit_queue(ps, 1, 0, 4, t, held);
    if (held <= buf.capacity_blocks()) buf.push(ps, q, buf.at(1, q), queued(x, t));
    return q;
  };
  BOOST_TEST(admit(p[0], 0) == 0);
  BOOST_TEST(held == 4);
  BOOST_TEST(admit(p[1], 0) == 0);
  BOOST_TEST(admit(p[2], 0) == 0);
  BOOST_TEST(held == 12);  // the adaptive queue's limit, reached exactly
  BOOST_TEST(admit(p[3], 0) == 1);
  BOOST_TEST(held == 16);           // into the escape queue's reserved MTU
  BOOST_TEST(ps.escape_used == 1);  // arrivals now read the escape queue too
  BOOST_TEST(ps.heads == 0b11);
  BOOST_TEST(buf.queued(1, 0) == 4u);  // both queues of VL 0
  BOOST_TEST(buf.at(1, 0).queued_blocks == 12);
  BOOST_TEST(buf.at(1, 1).queued_blocks == 4);
  BOOST_TEST(&buf.sibling(buf.at(1, 0)) == &buf.at(1, 1));
  BOOST_TEST(&buf.sibling(buf.at(1, 1)) == &buf.at(1, 0));
  BOOST_TEST(buf.vl_of(1) == 0);
  BOOST_TEST(buf.occupancy_blocks(1, 0, 0, 0) == 16);
  buf.admit_queue(ps, 1, 0, 4, 0, held);
  BOOST_TEST(held == 20);  // overflow: the switch refuses it

  // The adaptive head leaves, draining from 1 ns: 8 + 4 queued + 4 draining.
  models::InputVl& ad = buf.at(1, 0);
  BOOST_TEST(buf.pop_head(ps, 0, ad).pkt == &p[0]);
  models::InputBuffer::draining(ad, models::CreditTrain{0, 4000, 1 * kNs, 4000, 256, 0});
  BOOST_TEST(buf.admit_queue(ps, 1, 0, 4, 600 * kNs, held) == 1);
  BOOST_TEST(held == 18);  // two blocks still draining: 8 + 4 + 2 + 4, overflow
  BOOST_TEST(buf.admit_queue(ps, 1, 0, 4, 1025 * kNs, held) == 1);
  BOOST_TEST(held == 16);  // drained: fits, but only in the escape queue
  // The escape packet leaves too (say at once): now the adaptive queue takes the next one.
  BOOST_TEST(buf.pop_head(ps, 1, buf.at(1, 1)).pkt == &p[3]);
  BOOST_TEST(ps.heads == 0b01);
  BOOST_TEST(buf.admit_queue(ps, 1, 0, 4, 1025 * kNs, held) == 0);
  BOOST_TEST(held == 12);
  BOOST_TEST(ps.escape_used == 0);  // found empty and drained: later arrivals skip it
}

// An escape packet still draining keeps counting (and keeps its queue read) until its last
// block is freed: 8 adaptive blocks + 4 escape blocks draining from 1 ns (last freed at 1025 ns).
BOOST_AUTO_TEST_CASE(draining_escape_packet_counts_until_freed) {
  models::InputBuffer buf;
  buf.configure(1, 1, 16, 4);
  models::InputPortState ps;
  models::Packet p[3];
  for (auto& x : p) x.length = 256;
  buf.push(ps, 0, buf.at(1, 0), queued(p[0], 0));
  buf.push(ps, 0, buf.at(1, 0), queued(p[1], 0));
  buf.push(ps, 1, buf.at(1, 1), queued(p[2], 0));
  BOOST_TEST(ps.escape_used == 1);
  models::InputVl& es = buf.at(1, 1);
  buf.pop_head(ps, 1, es);
  models::InputBuffer::draining(es, models::CreditTrain{0, 4000, 1 * kNs, 4000, 256, 0});
  int held = 0;
  BOOST_TEST(buf.admit_queue(ps, 1, 0, 4, 600 * kNs, held) == 1);
  BOOST_TEST(held == 14);  // 8 + 2 still draining + 4: above the adaptive queue's 12
  BOOST_TEST(ps.escape_used == 1);
  BOOST_TEST(buf.admit_queue(ps, 1, 0, 4, 1025 * kNs, held) == 0);
  BOOST_TEST(held == 12);
  BOOST_TEST(ps.escape_used == 0);
}

BOOST_AUTO_TEST_CASE(escape_queue_limits) {
  models::InputBuffer buf;
  BOOST_CHECK_THROW(buf.configure(1, 9, 16, 4), std::invalid_argument);   // 18 queues > 16
  BOOST_CHECK_THROW(buf.configure(1, 1, 16, 16), std::invalid_argument);  // no adaptive queue left
  buf.configure(1, 8, 16, 4);
  BOOST_TEST(buf.queues() == 16);
  buf.configure(1, 15, 16);  // no escape queues: 15 VLs as before
  BOOST_TEST(buf.queues() == 15);
}
