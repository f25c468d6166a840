// The scheduler's timing wheel against the order it must reproduce: by time, and entries due at
// the same time in push order, as a (time, sequence) ordered map gives them. Pushes are never
// earlier than the time last taken, as in the simulator.
#include <boost/test/unit_test.hpp>

#include <map>
#include <random>
#include <utility>

#include "models/wake_queue.h"

using ibsc::models::Picos;
using ibsc::models::WakeQueue;

namespace {

// Runs `steps` rounds of: push a few entries at now + a delay drawn from `delay`, then take
// everything due at the next time. Every taken entry must match the reference.
template <class Delay>
void check_against_reference(uint64_t seed, int steps, Delay delay) {
  WakeQueue<int> q;
  std::map<std::pair<Picos, int>, int> ref;  // (time, push number) -> item
  std::mt19937_64 rng(seed);
  Picos now = 0;
  int pushed = 0;
  uint64_t taken = 0;
  for (int s = 0; s < steps; ++s) {
    const int n = static_cast<int>(rng() % 4);
    for (int k = 0; k < n; ++k) {
      const Picos t = now + delay(rng);
      q.push(t, pushed);
      ref.emplace(std::make_pair(t, pushed), pushed);
      ++pushed;
    }
    if (ref.empty()) continue;
    BOOST_REQUIRE(!q.empty());
    now = ref.begin()->first.first;
    BOOST_REQUIRE_EQUAL(q.next_time(), now);
    WakeQueue<int>::Entry e;
    while (q.pop_due(now, e)) {
      BOOST_REQUIRE(!ref.empty());
      BOOST_REQUIRE_EQUAL(e.t, ref.begin()->first.first);
      BOOST_REQUIRE_EQUAL(e.item, ref.begin()->second);
      ref.erase(ref.begin());
      ++taken;
    }
    // Nothing due at `now` stays behind.
    BOOST_REQUIRE(ref.empty() || ref.begin()->first.first > now);
  }
  BOOST_TEST(taken > static_cast<uint64_t>(steps) / 2);
}

}  // namespace

// libsystemc wants an sc_main even though this test never starts the kernel.
int sc_main(int, char**) { return 0; }

// Delays within one near slot (4.1 ns) and a few: out-of-order pushes into the front slot.
BOOST_AUTO_TEST_CASE(dense_times_in_push_order) {
  check_against_reference(1, 200000, [](std::mt19937_64& r) { return static_cast<Picos>(r() % 20000); });
}

// Equal times pushed apart: same-time entries must come out in push order.
BOOST_AUTO_TEST_CASE(equal_times_in_push_order) {
  check_against_reference(2, 100000, [](std::mt19937_64& r) { return static_cast<Picos>(r() % 4) * 4000; });
}

// Delays across far slots (4.2 us) and beyond the far wheel (268 us) into the overflow.
BOOST_AUTO_TEST_CASE(far_and_overflow_times) {
  check_against_reference(3, 50000, [](std::mt19937_64& r) {
    switch (r() % 3) {
      case 0:
        return static_cast<Picos>(r() % 10000);
      case 1:
        return static_cast<Picos>(r() % 50'000'000);
      default:
        return static_cast<Picos>(r() % 2'000'000'000);
    }
  });
}

// Thousands of entries per near slot, pushed in no time order while their far slot lay ahead,
// half of them on shared 2 ns edges, then every one taken: insertion sort of such a slot needs
// about n^2 / 4 moves, far past its budget of 4n + 64 (for the 600 of a 4 ns slot here, 90,000
// against 2,464), so the merge sort orders them, and it must keep push order within a time.
BOOST_AUTO_TEST_CASE(crowded_slots_in_push_order) {
  WakeQueue<int> q;
  std::map<std::pair<Picos, int>, int> ref;
  std::mt19937_64 rng(4);
  int pushed = 0;
  Picos now = 0;
  for (int round = 0; round < 4; ++round) {
    // 3,000 entries 5-5.02 us ahead: beyond the base far slot, over five 4 ns near slots.
    for (int k = 0; k < 3000; ++k) {
      Picos t = now + 5'000'000 + rng() % 20'000;
      if (rng() % 2) t -= t % 2000;
      q.push(t, pushed);
      ref.emplace(std::make_pair(t, pushed), pushed);
      ++pushed;
    }
    WakeQueue<int>::Entry e;
    while (!ref.empty()) {
      now = ref.begin()->first.first;
      BOOST_REQUIRE_EQUAL(q.next_time(), now);
      while (q.pop_due(now, e)) {
        BOOST_REQUIRE(!ref.empty());
        BOOST_REQUIRE_EQUAL(e.t, ref.begin()->first.first);
        BOOST_REQUIRE_EQUAL(e.item, ref.begin()->second);
        ref.erase(ref.begin());
      }
    }
    BOOST_REQUIRE(q.empty());
  }
  BOOST_TEST(pushed == 12000);
}
