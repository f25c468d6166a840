// The saturation search's stepping (tb/run/saturation_search.h) against a fabric faked by a
// threshold: every step above T saturates, T and below are carried. Whatever the mode (plain
// bisection, top-first under a bound, a guess near or far), the search must return T; a guess on
// T settles in two probes (T carried, T + 1 saturated), and no probe is run twice.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <set>

#include "tb/run/saturation_search.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;

namespace {

struct Fake {
  int threshold;
  std::multiset<int> probed;
  bool operator()(int step) {
    probed.insert(step);
    return step > threshold;
  }
};

int run(const tb::SaturationSearch& s, Fake& f) {
  return tb::search_saturation_step(s, [&](int step) { return f(step); });
}

void no_repeats(const Fake& f) {
  for (int step : f.probed) BOOST_TEST(f.probed.count(step) == 1u, "step " << step << " probed twice");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(saturation_search)

BOOST_AUTO_TEST_CASE(every_mode_finds_the_threshold) {
  for (int t : {0, 1, 5, 37, 64, 100, 127, 128}) {
    for (int guess : {-1, 1, t - 3, t - 1, t, t + 1, t + 3, 64, 128}) {
      tb::SaturationSearch s;
      s.guess = guess;
      Fake f{t, {}};
      BOOST_TEST(run(s, f) == t, "threshold " << t << ", guess " << guess);
      no_repeats(f);
      BOOST_TEST(f.probed.count(0) == 0u);  // step 0 is never run
    }
    // Under a bound whose next step is known to saturate (the fake's threshold at or below it).
    tb::SaturationSearch top;
    top.known_saturated = std::min(t + 1 + t % 3, 129);
    top.top_first = true;
    Fake f{t, {}};
    BOOST_TEST(run(top, f) == t);
    no_repeats(f);
  }
}

BOOST_AUTO_TEST_CASE(probe_counts) {
  // Plain bisection of 0..129: 7 or 8 probes.
  Fake plain{40, {}};
  run(tb::SaturationSearch{}, plain);
  BOOST_TEST(plain.probed.size() >= 7u);
  BOOST_TEST(plain.probed.size() <= 8u);
  // A guess on the threshold: 40 carried, 41 saturated.
  tb::SaturationSearch on;
  on.guess = 40;
  Fake exact{40, {}};
  run(on, exact);
  BOOST_TEST((exact.probed == std::multiset<int>{40, 41}));
  // A guess one step high: 41 saturated, 40 carried.
  on.guess = 41;
  Fake high{40, {}};
  run(on, high);
  BOOST_TEST((high.probed == std::multiset<int>{40, 41}));
  // top_first at a bound the fabric reaches: one probe (the step under the known saturated one).
  tb::SaturationSearch top;
  top.known_saturated = 33;
  top.top_first = true;
  top.guess = 5;  // ignored with top_first
  Fake at_bound{32, {}};
  BOOST_TEST(run(top, at_bound) == 32);
  BOOST_TEST((at_bound.probed == std::multiset<int>{32}));
}

BOOST_AUTO_TEST_SUITE_END()
