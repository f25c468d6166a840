// Directed unit tests of the switch-arbiter policy on the C++ reference model (AdaptiveArbiter):
// virtual cut-through credit check, busy outputs, priority levels, most credits, the exact
// round-robin rules and their fairness.
#include <boost/test/unit_test.hpp>
#include <map>
#include <stdexcept>
#include <vector>

#include "models/adaptive_arbiter.h"
#include "tests/support/sc_test_main.h"

using ibsc::models::AdaptiveArbiter;
using ibsc::models::ArbOutputStatus;
using ibsc::models::ArbRequest;

namespace {

struct Bench {
  Bench(int ports, int vls, uint16_t credits) : arb(ports, vls), req(ports), out(ports), grants(ports) {
    for (auto& o : out) o.credits.assign(static_cast<size_t>(vls), credits);
  }
  void ask(int i, int o, uint8_t level = 0, uint8_t vl = 0, uint16_t len = 1) {
    req[i].valid = true;
    req[i].vl = vl;
    req[i].length_credits = len;
    req[i].candidates.push_back({static_cast<uint8_t>(o), level});
  }
  void clear() {
    for (auto& r : req) r = ArbRequest{};
  }
  const std::vector<int>& run() {
    arb.arbitrate(req, out, grants);
    return grants;
  }
  AdaptiveArbiter arb;
  std::vector<ArbRequest> req;
  std::vector<ArbOutputStatus> out;
  std::vector<int> grants;
};

}  // namespace

BOOST_AUTO_TEST_CASE(whole_packet_credits_required) {
  Bench b(4, 2, 0);
  b.ask(0, 1, 0, 1, 5);
  b.out[1].credits[1] = 4;    // one short
  b.out[1].credits[0] = 100;  // plenty, but on the wrong VL
  BOOST_TEST(b.run()[0] == -1);
  b.out[1].credits[1] = 5;
  BOOST_TEST(b.run()[0] == 1);
}

BOOST_AUTO_TEST_CASE(busy_output_never_granted) {
  Bench b(4, 1, 50);
  b.ask(2, 3);
  b.out[3].busy = true;
  BOOST_TEST(b.run()[2] == -1);
  b.ask(2, 0);
  BOOST_TEST(b.run()[2] == 0);
}

BOOST_AUTO_TEST_CASE(lower_level_beats_more_credits) {
  Bench b(4, 1, 0);
  b.ask(0, 1, 2);
  b.ask(0, 2, 0);
  b.ask(0, 3, 1);
  b.out[1].credits[0] = 60;
  b.out[2].credits[0] = 1;
  b.out[3].credits[0] = 30;
  BOOST_TEST(b.run()[0] == 2);
  b.out[2].busy = true;  // then the next level
  BOOST_TEST(b.run()[0] == 3);
}

BOOST_AUTO_TEST_CASE(most_credits_within_a_level) {
  Bench b(6, 2, 0);
  for (int o = 0; o < 6; ++o) {
    b.ask(0, o, 1, 1, 2);
    b.out[o].credits[1] = static_cast<uint16_t>(10 + (o * 5) % 6);
  }
  BOOST_TEST(b.run()[0] == 1);  // 10 + 5
}

BOOST_AUTO_TEST_CASE(levels_above_hardware_range_count_as_last) {
  Bench b(3, 1, 10);
  b.ask(0, 0, 200);
  b.ask(0, 1, 7);
  b.out[0].credits[0] = 20;  // same effective level 7: more credits wins
  BOOST_TEST(b.run()[0] == 0);
}

BOOST_AUTO_TEST_CASE(port_listed_twice_keeps_lower_level) {
  Bench b(3, 1, 10);
  b.ask(0, 2, 5);
  b.ask(0, 1, 1);
  b.ask(0, 2, 0);
  BOOST_TEST(b.run()[0] == 2);
}

BOOST_AUTO_TEST_CASE(each_output_once_each_input_once) {
  Bench b(8, 1, 10);
  for (int i = 0; i < 8; ++i)
    for (int o = 0; o < 8; ++o) b.ask(i, o);
  const auto g = b.run();
  std::vector<int> seen(8, 0);
  for (int x : g) {
    BOOST_TEST_REQUIRE(x >= 0);
    ++seen[x];
  }
  for (int s : seen) BOOST_TEST(s == 1);
}

BOOST_AUTO_TEST_CASE(pointers_follow_first_grant) {
  // Equal candidates everywhere: input k takes output in_ptr..., exactly as documented.
  Bench b(4, 1, 10);
  for (int i = 0; i < 4; ++i)
    for (int o = 0; o < 4; ++o) b.ask(i, o);
  BOOST_TEST(b.run() == std::vector<int>({0, 1, 2, 3}));
  BOOST_TEST(b.arb.in_ptr() == 1);
  BOOST_TEST(b.arb.out_ptr() == 1);
  BOOST_TEST(b.run() == std::vector<int>({0, 1, 2, 3}));  // input 1 first takes output 1
  BOOST_TEST(b.arb.in_ptr() == 2);
  // Only input 3 asks, for outputs 1 and 0: the output pointer is 2, the scan meets 2, 3, 0, 1,
  // so 0 wins whatever the candidate order.
  b.clear();
  b.ask(3, 1);
  b.ask(3, 0);
  BOOST_TEST(b.run()[3] == 0);
  BOOST_TEST(b.arb.in_ptr() == 0);
  BOOST_TEST(b.arb.out_ptr() == 1);
  b.clear();
  b.ask(3, 0);
  b.ask(3, 1);
  BOOST_TEST(b.run()[3] == 1);
}

BOOST_AUTO_TEST_CASE(state_unchanged_without_grant) {
  Bench b(4, 1, 0);
  b.ask(1, 2, 0, 0, 3);  // starved
  b.run();
  BOOST_TEST(b.arb.in_ptr() == 0);
  BOOST_TEST(b.arb.out_ptr() == 0);
}

// k inputs contend for one output every cycle: over m*k cycles each gets exactly m grants,
// and the winners rotate strictly.
BOOST_AUTO_TEST_CASE(round_robin_exactly_fair) {
  for (int k : {2, 3, 5, 8, 16}) {
    Bench b(16, 1, 10);
    for (int j = 0; j < k; ++j) b.ask((j * 7 + 3) % 16, 9);
    std::map<int, int> wins;
    int prev = -1;
    const int m = 37;
    for (int c = 0; c < m * k; ++c) {
      const auto& g = b.run();
      int winner = -1;
      for (int i = 0; i < 16; ++i)
        if (g[i] >= 0) {
          BOOST_TEST_REQUIRE(winner == -1);
          winner = i;
        }
      BOOST_TEST_REQUIRE(winner >= 0);
      BOOST_TEST(winner != prev);
      prev = winner;
      ++wins[winner];
    }
    BOOST_TEST(static_cast<int>(wins.size()) == k);
    for (const auto& [i, n] : wins) BOOST_TEST(n == m, "k=" << k << " input " << i << " won " << n);
  }
}

// One input always gets a private output while two others share one: the sharers still
// alternate (pointer moves past the first grant, not the last), nobody starves.
BOOST_AUTO_TEST_CASE(no_starvation_next_to_a_busy_neighbour) {
  Bench b(8, 1, 10);
  b.ask(0, 4);
  b.ask(1, 4);
  b.ask(5, 6);
  std::vector<int> wins(8, 0);
  for (int c = 0; c < 100; ++c) {
    const auto& g = b.run();
    for (int i = 0; i < 8; ++i) wins[i] += g[i] >= 0;
  }
  BOOST_TEST(wins[5] == 100);
  BOOST_TEST(wins[0] >= 33);
  BOOST_TEST(wins[1] >= 33);
  BOOST_TEST(wins[0] + wins[1] == 100);
}

BOOST_AUTO_TEST_CASE(bad_arguments_rejected) {
  BOOST_CHECK_THROW(AdaptiveArbiter(0, 1), std::invalid_argument);
  BOOST_CHECK_THROW(AdaptiveArbiter(257, 1), std::invalid_argument);
  BOOST_CHECK_THROW(AdaptiveArbiter(4, 17), std::invalid_argument);
  Bench b(4, 2, 10);
  b.ask(0, 4);
  BOOST_CHECK_THROW(b.run(), std::invalid_argument);
  b.clear();
  b.ask(0, 1, 0, 2);
  BOOST_CHECK_THROW(b.run(), std::invalid_argument);
  std::vector<int> short_grants(3);
  BOOST_CHECK_THROW(b.arb.arbitrate(b.req, b.out, short_grants), std::invalid_argument);
}

// The one-request shortcut (adaptive routing: one head, several candidate outputs) grants what
// arbitrate() grants and moves the pointers alike, over random candidate sets with repeated
// ports, levels, credit ties and shortfalls.
BOOST_AUTO_TEST_CASE(one_request_shortcut_equals_arbitrate) {
  const int n = 8;
  AdaptiveArbiter full(n, 2), one(n, 2);
  uint32_t x = 12345;
  auto rnd = [&](uint32_t m) {
    x = x * 1103515245u + 12345u;
    return (x >> 16) % m;
  };
  int granted = 0;
  for (int round = 0; round < 2000; ++round) {
    std::vector<ArbRequest> req(n);
    std::vector<ArbOutputStatus> out(n);
    for (auto& o : out) {
      o.busy = true;
      o.credits.assign(2, 0);
    }
    const int in = static_cast<int>(rnd(n));
    ArbRequest& r = req[in];
    r.valid = true;
    r.vl = static_cast<uint8_t>(rnd(2));
    r.length_credits = static_cast<uint16_t>(1 + rnd(4));
    std::vector<ibsc::models::ArbCandidate> c;
    std::vector<uint16_t> cr;
    for (auto& o : out) o.credits[r.vl] = static_cast<uint16_t>(rnd(6));
    for (int k = 0, m = 1 + static_cast<int>(rnd(4)); k < m; ++k) {
      const auto port = static_cast<uint8_t>(rnd(n));
      out[port].busy = false;  // the switch offers free outputs only
      c.push_back({port, static_cast<uint8_t>(rnd(3))});
      cr.push_back(out[port].credits[r.vl]);
    }
    r.candidates = c;
    std::vector<int> grants(n);
    full.arbitrate(req, out, grants);
    const int g = one.arbitrate_one(in, c.data(), cr.data(), static_cast<int>(c.size()), r.vl, r.length_credits);
    BOOST_TEST_REQUIRE(g == grants[in]);
    BOOST_TEST_REQUIRE(one.in_ptr() == full.in_ptr());
    BOOST_TEST_REQUIRE(one.out_ptr() == full.out_ptr());
    granted += g >= 0;
  }
  BOOST_TEST(granted > 500);
  BOOST_TEST(granted < 1900);  // shortfalls happen too
}

// The requesting-inputs path (the switch's general arbitration with the model) grants what
// arbitrate() grants and moves the pointers alike: random rounds of several inputs with
// candidate sets that collide, busy outputs, levels and credit shortfalls. A third arbiter of
// another size arbitrates between the rounds: the instances share their grant stamps, and its
// marks must never count as this call's.
BOOST_AUTO_TEST_CASE(requesting_inputs_path_equals_arbitrate) {
  const int n = 12;
  AdaptiveArbiter full(n, 3), listed(n, 3), other(5, 1);
  uint32_t x = 777;
  auto rnd = [&](uint32_t m) {
    x = x * 1103515245u + 12345u;
    return (x >> 16) % m;
  };
  int granted = 0, several = 0;
  for (int round = 0; round < 3000; ++round) {
    std::vector<ArbRequest> req(n);
    std::vector<ArbOutputStatus> out(n);
    for (auto& o : out) {
      o.busy = rnd(4) == 0;
      o.credits.assign(3, 0);
      for (auto& c : o.credits) c = static_cast<uint16_t>(rnd(6));
    }
    std::vector<int> inputs;
    for (int i = 0; i < n; ++i) {
      if (rnd(3) != 0) continue;
      inputs.push_back(i);  // ascending
      ArbRequest& r = req[i];
      r.valid = true;
      r.vl = static_cast<uint8_t>(rnd(3));
      r.length_credits = static_cast<uint16_t>(1 + rnd(4));
      for (int k = 0, m = 1 + static_cast<int>(rnd(3)); k < m; ++k)
        r.candidates.push_back({static_cast<uint8_t>(rnd(n)), static_cast<uint8_t>(rnd(3))});
    }
    std::vector<int> g_full(n), g_listed(n, -7);
    full.arbitrate(req, out, g_full);
    // Past the list's end, an input that is not on it: reading there would show as its grant.
    std::vector<int> list = inputs;
    for (int i = 0; i < n; ++i)
      if (!req[i].valid) {
        list.push_back(i);
        break;
      }
    listed.arbitrate_inputs(req, out, g_listed, list.data(), static_cast<int>(inputs.size()));
    int grants = 0;
    for (int i : inputs) {
      BOOST_TEST_REQUIRE(g_listed[i] == g_full[i]);
      grants += g_full[i] >= 0;
    }
    for (int i = 0; i < n; ++i)
      if (!req[i].valid) BOOST_TEST_REQUIRE((g_listed[i] == -7 && g_full[i] == -1));  // unlisted: untouched
    BOOST_TEST_REQUIRE(listed.in_ptr() == full.in_ptr());
    BOOST_TEST_REQUIRE(listed.out_ptr() == full.out_ptr());
    granted += grants;
    several += grants > 1;
    std::vector<ArbRequest> r5(5);
    std::vector<ArbOutputStatus> o5(5);
    for (auto& o : o5) o.credits.assign(1, 9);
    ArbRequest& q = r5[rnd(5)];
    q.valid = true;
    q.length_credits = 1;
    q.candidates.push_back({static_cast<uint8_t>(rnd(5)), 0});
    std::vector<int> g5(5);
    other.arbitrate(r5, o5, g5);
  }
  BOOST_TEST(granted > 3000);
  BOOST_TEST(several > 500);  // rounds where inputs compete and several win
}
