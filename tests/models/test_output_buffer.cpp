// The output buffers alone (link side): when a head may start on the link (cut-through bounds,
// link busy, link credits), one packet per send, round-robin over VLs, the blocks a send frees,
// the count of packets held. 1X SDR link: 4 ns a byte; a 512-byte packet takes 2048 ns.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <deque>
#include <random>

#include "models/output_buffer.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using models::Picos;

namespace {
constexpr Picos kNs = 1000;
constexpr Picos kByte = 4000;  // ps

models::Packet make(uint32_t length, uint64_t id) {
  models::Packet p;
  p.length = length;
  p.id = id;
  return p;
}
}  // namespace

// A head may start when it is in the buffer, and no earlier than its tail's arrival minus the
// link's time for the whole packet: the send never ends before the crossbar transfer does.
BOOST_AUTO_TEST_CASE(cut_through_never_overtakes_the_crossbar) {
  models::OutputBuffers ob;
  ob.configure(2, 2, 16);
  ob.connect(1, 8, kByte, models::VlArbParams{});
  models::Packet a = make(512, 1), b = make(512, 2);
  // A: crossbar at twice the link rate (tail in 1024 ns after its head): the head bounds.
  ob.push(1, {&a, 1000 * kNs, 2024 * kNs, 0});
  BOOST_TEST(ob.head_start(1, 0, 0) == 1000 * kNs);
  BOOST_TEST(ob.queued_total() == 1u);
  // B on VL 1 from a slow input (8 ns a byte: tail 4096 ns after its head): 4096 - 2048 = 2048
  // ns after its head, so that its last byte leaves as it arrives.
  ob.push(1, {&b, 1000 * kNs, 5096 * kNs, 1});
  BOOST_TEST(ob.head_start(1, 1, 0) == 3048 * kNs);
  BOOST_TEST(ob.next_send(1, 0) == 1000 * kNs);
  models::LinkSend s;
  BOOST_TEST(!ob.send(1, 999 * kNs, s));  // nothing in yet
  BOOST_TEST(ob.send(1, 1000 * kNs, s));
  BOOST_TEST(s.pkt == &a);
  BOOST_TEST(s.start == 1000 * kNs);
  BOOST_TEST(ob.link_busy(1) == 3048 * kNs);  // 1000 + 2048
  // Its 8 blocks are freed as they leave: block 0 at 1000 + 256, the last at 3048.
  BOOST_TEST(s.freed.blocks() == 8u);
  BOOST_TEST(s.freed.block_time(0) == 1256 * kNs);
  BOOST_TEST(s.freed.last_time() == 3048 * kNs);
  BOOST_TEST(ob.link_credits(1, 0).available(1000 * kNs) == 0);  // 8 taken of 8
  // B: link free at 3048, which is also its cut-through bound.
  BOOST_TEST(ob.next_send(1, 1001 * kNs) == 3048 * kNs);
  BOOST_TEST(!ob.send(1, 3044 * kNs, s));
  BOOST_TEST(ob.send(1, 3048 * kNs, s));
  BOOST_TEST(s.pkt == &b);
  BOOST_TEST(s.start + 512 * kByte == 5096 * kNs);  // ends exactly as its tail arrives
  BOOST_TEST(ob.queued_total() == 0u);
  BOOST_TEST(ob.next_send(1, 3049 * kNs) == models::kNever);
}

// A head waits for link credits for the whole packet; with none coming it waits for ever
// (kNever: the switch wakes the port when credits arrive).
BOOST_AUTO_TEST_CASE(waits_for_link_credits_of_the_whole_packet) {
  models::OutputBuffers ob;
  ob.configure(1, 1, 16);
  ob.connect(1, 8, kByte, models::VlArbParams{});
  models::Packet a = make(512, 1), c = make(128, 3);
  ob.push(1, {&a, 0, 2048 * kNs, 0});
  ob.push(1, {&c, 2048 * kNs, 2560 * kNs, 0});
  models::LinkSend s;
  BOOST_TEST(ob.send(1, 0, s));
  BOOST_TEST(ob.head_start(1, 0, 2048 * kNs) == models::kNever);  // 0 credits, no train back
  // Downstream frees 2 blocks at 4 ns a byte from 3000 ns: at 3256 and 3512 ns.
  BOOST_TEST(ob.add_link_credits(1, models::CreditTrain{3000 * kNs, kByte, 3000 * kNs, kByte, 128, 0}));
  BOOST_TEST(ob.head_start(1, 0, 2048 * kNs) == 3512 * kNs);
  BOOST_TEST(ob.send(1, 3512 * kNs, s));
  BOOST_TEST(s.pkt == &c);
}

// Heads ready on both VLs at once: the link-side VL arbiter takes them in turn (round-robin).
BOOST_AUTO_TEST_CASE(round_robin_between_vls_one_packet_per_send) {
  models::OutputBuffers ob;
  ob.configure(1, 2, 32);
  ob.connect(1, 32, kByte, models::VlArbParams{});
  models::Packet p[4] = {make(64, 0), make(64, 1), make(64, 2), make(64, 3)};
  ob.push(1, {&p[0], 0, 256 * kNs, 0});
  ob.push(1, {&p[1], 0, 256 * kNs, 0});
  ob.push(1, {&p[2], 0, 256 * kNs, 1});
  ob.push(1, {&p[3], 0, 256 * kNs, 1});
  BOOST_TEST(ob.queued(1, 0) == 2u);
  std::vector<uint64_t> order;
  models::LinkSend s;
  for (Picos t = 0; t < 2000 * kNs; t += 4 * kNs)
    if (ob.send(1, t, s)) {
      order.push_back(s.pkt->id);
      BOOST_TEST(s.start == static_cast<Picos>(order.size() - 1) * 256 * kNs);  // back to back
    }
  BOOST_TEST(order == (std::vector<uint64_t>{0, 2, 1, 3}));
}

// Escape queues (seeds/003): an adaptive head needs link credits for its packet plus the
// downstream escape reserve (4 blocks here), an escape head for its packet only, so an escape
// packet passes an adaptive one that cannot go. 256-byte packets (4 blocks, 1024 ns on the
// link), 8 link credits.
BOOST_AUTO_TEST_CASE(escape_head_passes_a_blocked_adaptive_head) {
  models::OutputBuffers ob;
  ob.configure(2, 1, 16, 4);
  ob.connect(1, 8, kByte, models::VlArbParams{});
  models::Packet a = make(256, 1), b = make(256, 2), e = make(256, 3);
  ob.push(1, {&a, 0, 1024 * kNs, 0, false});
  ob.push(1, {&b, 5 * kNs, 1029 * kNs, 0, false});
  ob.push(1, {&e, 10 * kNs, 1034 * kNs, 0, true});
  BOOST_TEST(ob.queued(1, 0) == 3u);
  BOOST_TEST(ob.head_start(1, 0, 0) == 0);  // A: 4 + 4 credits, all 8 there
  models::LinkSend s;
  BOOST_TEST_REQUIRE(ob.send(1, 0, s));
  BOOST_TEST(s.pkt == &a);  // entered first
  // 4 credits left: B (adaptive) would need 8, E (escape) needs 4 and goes when the link frees.
  BOOST_TEST(ob.head_start(1, 0, 0) == 1024 * kNs);
  BOOST_TEST_REQUIRE(ob.send(1, 1024 * kNs, s));
  BOOST_TEST(s.pkt == &e);
  BOOST_TEST(ob.head_start(1, 0, 0) == models::kNever);  // B waits for credits to come back
  BOOST_TEST(ob.queued_total() == 1u);
}

// The buffers keep each head's start between the changes that move it (a new head, a send on
// the port, credits back on the VL). Against the start recomputed from the public state after
// every step of a random run of pushes, sends and credit returns, with and without escape
// queues: 3 ports, 4 VLs, 8 to 32 link credits, packets of 64 to 512 bytes.
BOOST_AUTO_TEST_CASE(kept_head_starts_equal_recomputed_ones) {
  for (const int reserve : {0, 2}) {
    const int queues = reserve > 0 ? 2 : 1;
    models::OutputBuffers ob;
    ob.configure(3, 4, 64, reserve);
    for (int p = 1; p <= 3; ++p) ob.connect(p, 8 * p + 8, kByte, models::VlArbParams{});
    std::mt19937 rng(7 + reserve);
    struct Entry {
      models::Packet pkt;
      Picos in_start, in_end;
    };
    std::deque<Entry> entries;
    std::deque<const Entry*> mirror[4][4][2];  // [port][vl][escape]
    int held[4][4] = {};                       // link credits taken, not yet returned
    auto expected = [&](int port, int vl, Picos t) {
      Picos best = models::kNever;
      for (int e = 0; e < queues; ++e) {
        if (mirror[port][vl][e].empty()) continue;
        const Entry& b = *mirror[port][vl][e].front();
        const Picos send_len = b.pkt.length * kByte;
        const Picos from = std::max({t, ob.link_busy(port), b.in_start, b.in_end > send_len ? b.in_end - send_len : 0});
        const int need = static_cast<int>(b.pkt.blocks()) + (e ? 0 : reserve);
        best = std::min(best, ob.link_credits(port, vl).time_for(need, from));
      }
      return best;
    };
    Picos t = 0;
    int sent = 0;
    for (int step = 0; step < 20000; ++step) {
      t += std::uniform_int_distribution<Picos>(0, 600)(rng) * kNs;
      const int port = std::uniform_int_distribution<int>(1, 3)(rng);
      const int vl = std::uniform_int_distribution<int>(0, 3)(rng);
      switch (std::uniform_int_distribution<int>(0, 2)(rng)) {
        case 0: {  // a packet through the crossbar at 1 to 4 times the link rate
          const uint32_t len = 64 * std::uniform_int_distribution<uint32_t>(1, 8)(rng);
          const Picos in_end = t + len * kByte / std::uniform_int_distribution<Picos>(1, 4)(rng);
          entries.push_back({make(len, entries.size()), t, in_end});
          Entry& b = entries.back();
          const bool esc = queues == 2 && rng() % 2;
          ob.push(port, {&b.pkt, b.in_start, b.in_end, static_cast<Vl>(vl), esc});
          mirror[port][vl][esc].push_back(&b);
          break;
        }
        case 1: {  // the downstream buffer frees part of what it holds, from now on
          if (held[port][vl] == 0) break;
          const int n = std::uniform_int_distribution<int>(1, held[port][vl])(rng);
          held[port][vl] -= n;
          BOOST_TEST_REQUIRE(ob.add_link_credits(
              port, models::CreditTrain{t, kByte, t, kByte, static_cast<uint32_t>(64 * n), static_cast<Vl>(vl)}));
          break;
        }
        default: {
          models::LinkSend s;
          if (!ob.send(port, t, s)) break;
          ++sent;
          const int w = s.freed.vl;
          auto& q =
              mirror[port][w][queues == 2 && !mirror[port][w][1].empty() && &mirror[port][w][1].front()->pkt == s.pkt];
          BOOST_TEST_REQUIRE(&q.front()->pkt == s.pkt);
          q.pop_front();
          held[port][w] += static_cast<int>(s.pkt->blocks());
        }
      }
      for (int p = 1; p <= 3; ++p) {
        Picos port_best = models::kNever;
        for (int v = 0; v < 4; ++v) {
          const Picos e = expected(p, v, t);
          BOOST_TEST_REQUIRE(ob.head_start(p, v, t) == e);
          port_best = std::min(port_best, e);
        }
        BOOST_TEST_REQUIRE(ob.next_send(p, t) == port_best);
      }
    }
    BOOST_TEST(sent > 2000);  // the run sends, not only waits
  }
}
