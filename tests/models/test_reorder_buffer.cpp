// The reliable transport's parts alone (seeds/003 section 3), against hand-made arrival orders:
// the rearrange buffer (what it delivers, ACKs, stores and NACKs), its static and dynamic
// memory, the injection control's UI/LI transitions, and the delivery checker.
#include <boost/test/unit_test.hpp>

#include <deque>
#include <vector>

#include "models/delivery_checker.h"
#include "models/injection_control.h"
#include "models/reorder_buffer.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc::models;

namespace {
// Packets of one connection, made by sequence number and length.
struct Packets {
  std::deque<Packet> store;
  Packet* make(uint64_t seq, uint32_t length = 100) {
    store.emplace_back();
    store.back().seq = seq;
    store.back().length = length;
    return &store.back();
  }
};
std::vector<uint64_t> seqs(const std::vector<Packet*>& v) {
  std::vector<uint64_t> s;
  for (const Packet* p : v) s.push_back(p->seq);
  return s;
}
using Seqs = std::vector<uint64_t>;
}  // namespace

// Static memory of 300 bytes per connection, 100-byte packets: room for three out of order.
BOOST_AUTO_TEST_CASE(overflow_nacks_the_right_packets) {
  Packets pk;
  ReorderMemory mem(ReorderMemoryKind::Static, 300, 0);
  ReorderBuffer rb;
  ReorderBuffer::Outcome out;
  using V = ReorderBuffer::Verdict;
  for (uint64_t s : {3, 5, 4}) {
    out.clear();
    BOOST_TEST((rb.arrive(pk.make(s), mem, out) == V::Stored));
    BOOST_TEST(out.deliver.empty());
    BOOST_TEST(!out.ack);
  }
  BOOST_TEST(rb.held_bytes() == 300u);
  // 6: full, and nothing stored is later than 6: the arrival alone is rejected.
  out.clear();
  BOOST_TEST((rb.arrive(pk.make(6), mem, out) == V::Rejected));
  BOOST_TEST(seqs(out.rejected) == Seqs{6}, boost::test_tools::per_element());
  BOOST_TEST(rb.stored() == 3u);
  // 2: full; the latest stored (5) makes room and is rejected, 2 is stored.
  out.clear();
  BOOST_TEST((rb.arrive(pk.make(2), mem, out) == V::Evicted));
  BOOST_TEST(seqs(out.rejected) == Seqs{5}, boost::test_tools::per_element());
  // 1: the latest stored now is 4.
  out.clear();
  BOOST_TEST((rb.arrive(pk.make(1), mem, out) == V::Evicted));
  BOOST_TEST(seqs(out.rejected) == Seqs{4}, boost::test_tools::per_element());
  BOOST_TEST(rb.held_bytes() == 300u);
  BOOST_TEST(rb.max_held_bytes() == 300u);
  // 0: in order; 1, 2, 3 follow it out of the buffer; one ACK for 3.
  out.clear();
  BOOST_TEST((rb.arrive(pk.make(0), mem, out) == V::InOrder));
  BOOST_TEST(seqs(out.deliver) == (Seqs{0, 1, 2, 3}), boost::test_tools::per_element());
  BOOST_TEST(out.ack);
  BOOST_TEST(out.ack_seq == 3u);
  BOOST_TEST(out.rejected.empty());
  BOOST_TEST(rb.held_bytes() == 0u);
  BOOST_TEST(mem.used() == 0u);
  // The re-sends of 5 and 4, in that order: 5 waits for 4.
  out.clear();
  BOOST_TEST((rb.arrive(pk.make(5), mem, out) == V::Stored));
  out.clear();
  BOOST_TEST((rb.arrive(pk.make(4), mem, out) == V::InOrder));
  BOOST_TEST(seqs(out.deliver) == (Seqs{4, 5}), boost::test_tools::per_element());
  BOOST_TEST(out.ack_seq == 5u);
  // A packet already delivered is a duplicate and changes nothing.
  out.clear();
  BOOST_TEST((rb.arrive(pk.make(2), mem, out) == V::Duplicate));
  BOOST_TEST(rb.expected() == 6u);
}

// Unequal lengths: eviction goes on, latest first, until the arrival fits; if evicting every
// later packet would not make room, nothing is evicted.
BOOST_AUTO_TEST_CASE(eviction_frees_enough_or_nothing) {
  Packets pk;
  ReorderMemory mem(ReorderMemoryKind::Static, 300, 0);
  ReorderBuffer rb;
  ReorderBuffer::Outcome out;
  for (uint64_t s : {3, 5, 6}) rb.arrive(pk.make(s), mem, out);
  // 4 of 250 bytes: later are 5 and 6 (200 bytes); 300 - 200 + 250 > 300: 4 alone rejected.
  out.clear();
  BOOST_TEST((rb.arrive(pk.make(4, 250), mem, out) == ReorderBuffer::Verdict::Rejected));
  BOOST_TEST(seqs(out.rejected) == Seqs{4}, boost::test_tools::per_element());
  BOOST_TEST(rb.stored() == 3u);
  // 2 of 250 bytes: evicting 6, 5 and 3 (all later) leaves 0 + 250: fits; 6, 5, 3 in that order.
  out.clear();
  BOOST_TEST((rb.arrive(pk.make(2, 250), mem, out) == ReorderBuffer::Verdict::Evicted));
  BOOST_TEST(seqs(out.rejected) == (Seqs{6, 5, 3}), boost::test_tools::per_element());
  BOOST_TEST(rb.held_bytes() == 250u);
  BOOST_TEST(mem.used() == 250u);
}

// Dynamic memory: a pool of 250 bytes per NIC, at most 200 per connection.
BOOST_AUTO_TEST_CASE(dynamic_pool_and_cap) {
  Packets pk;
  ReorderMemory mem(ReorderMemoryKind::Dynamic, 200, 250);
  ReorderBuffer a, b;
  ReorderBuffer::Outcome out;
  using V = ReorderBuffer::Verdict;
  BOOST_TEST((a.arrive(pk.make(1), mem, out) == V::Stored));
  BOOST_TEST((a.arrive(pk.make(2), mem, out) == V::Stored));
  out.clear();
  BOOST_TEST((a.arrive(pk.make(3), mem, out) == V::Rejected));    // the cap: 300 > 200
  BOOST_TEST((b.arrive(pk.make(1, 50), mem, out) == V::Stored));  // the pool: 250 <= 250
  out.clear();
  BOOST_TEST((b.arrive(pk.make(2, 1), mem, out) == V::Rejected));  // the pool: 251 > 250
  BOOST_TEST(mem.max_used() == 250u);
  // a's in-order packet takes no rearrange memory and frees a's 200 bytes.
  out.clear();
  BOOST_TEST((a.arrive(pk.make(0), mem, out) == V::InOrder));
  BOOST_TEST(mem.used() == 50u);
  BOOST_TEST(a.max_held_bytes() == 200u);
}

// ADAP-LI: UI until a NACK, then one packet per packet newly ACKed, back to UI once an ACK
// covers every rejected packet.
BOOST_AUTO_TEST_CASE(limited_injection_transitions) {
  using S = InjectionControl::State;
  InjectionControl c(InjectionPolicy::LimitedInjection, 0);
  BOOST_TEST((c.state() == S::UI));
  BOOST_TEST(c.may_send(100, 1000, false));
  c.acked(2, 3);  // ACKs in UI change nothing
  BOOST_TEST(c.tokens() == 0u);
  c.nacked(5);
  BOOST_TEST((c.state() == S::LI));
  BOOST_TEST(!c.may_send(100, 200, false));
  BOOST_TEST(c.may_send(100, 200, true));  // the packet the destination waits for always goes
  c.acked(3, 1);
  BOOST_TEST((c.state() == S::LI));  // 5 is not ACKed yet
  BOOST_TEST(c.tokens() == 1u);
  BOOST_TEST(c.may_send(100, 200, false));
  c.sent();
  BOOST_TEST(c.tokens() == 0u);
  BOOST_TEST(!c.may_send(100, 200, false));
  c.nacked(7);  // a second rejection while LI: 7 must be ACKed too
  c.acked(6, 3);
  BOOST_TEST((c.state() == S::LI));
  BOOST_TEST(c.tokens() == 3u);
  c.acked(7, 1);
  BOOST_TEST((c.state() == S::UI));
  BOOST_TEST(c.tokens() == 0u);
  BOOST_TEST(c.may_send(100, 1000, false));
  BOOST_TEST(c.transitions_to_li() == 1u);
  c.nacked(9);
  BOOST_TEST(c.transitions_to_li() == 2u);
}

// Immediate re-send never limits; ADAP-LW limits by the destination's buffer.
BOOST_AUTO_TEST_CASE(immediate_and_window_policies) {
  InjectionControl imm(InjectionPolicy::Immediate, 0);
  imm.nacked(3);
  BOOST_TEST((imm.state() == InjectionControl::State::UI));
  BOOST_TEST(imm.may_send(100, 1 << 20, false));
  InjectionControl lw(InjectionPolicy::LimitedWindow, 300);
  BOOST_TEST(lw.may_send(100, 1000, false));  // UI
  lw.nacked(3);
  BOOST_TEST(lw.may_send(100, 200, false));
  BOOST_TEST(!lw.may_send(100, 250, false));
  lw.acked(3, 2);
  BOOST_TEST((lw.state() == InjectionControl::State::UI));
}

BOOST_AUTO_TEST_CASE(delivery_checker_counts) {
  DeliveryChecker c;
  for (uint64_t s : {0, 2, 1, 1, 3}) c.delivered(s);
  BOOST_TEST(c.out_of_order() == 1u);
  BOOST_TEST(c.duplicates() == 1u);
  BOOST_TEST(c.frontier() == 4u);
  BOOST_TEST(c.count() == 5u);
}
