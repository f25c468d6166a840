// The crossbar alone: when the head leaves, when the output is free and when each block leaves
// the input buffer, for equal rates, a faster output and a speed-up, derived by hand.
#include <boost/test/unit_test.hpp>

#include "models/crossbar.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using models::Picos;

namespace {
constexpr Picos kNs = 1000;
}  // namespace

// 1X both sides (4 ns a byte), 512 bytes whose head arrived at 500 ns, granted at 1000 ns: the
// head leaves at once, the output is busy 2048 ns, block k leaves at 1000 + 256 (k + 1) ns.
BOOST_AUTO_TEST_CASE(equal_rates_send_at_the_grant) {
  models::Crossbar x;
  x.configure(1);
  const auto t = x.transfer(1000 * kNs, 500 * kNs, 4000, 4000, 512, 1);
  BOOST_TEST(t.send == 1000 * kNs);
  BOOST_TEST(t.out_free == 3048 * kNs);
  BOOST_TEST(t.drain.block_time(0) == 1256 * kNs);
  BOOST_TEST(t.drain.last_time() == 3048 * kNs);
  BOOST_TEST(t.drain.vl == 1);  // credits go back on the input VL
}

// 1X in, 4X out (1 ns a byte), head at 0, granted at 100 ns: the tail arrives at 2048 ns, so the
// head waits until 2048 - 512 = 1536 ns not to run out of bytes; output free at 2048 ns.
BOOST_AUTO_TEST_CASE(faster_output_waits_for_the_tail) {
  models::Crossbar x;
  x.configure(1);
  const auto t = x.transfer(100 * kNs, 0, 4000, 1000, 512, 0);
  BOOST_TEST(t.send == 1536 * kNs);
  BOOST_TEST(t.out_free == 2048 * kNs);
  BOOST_TEST(t.drain.block_time(0) == 1600 * kNs);  // max(256, 1536 + 64)
  BOOST_TEST(t.drain.last_time() == 2048 * kNs);
}

// Speed-up 2 with a packet fully buffered (arrived 0..2048 ns), granted at 3000 ns: the output
// link is busy 2048 ns, but the buffer drains at 2 ns a byte, in 1024 ns.
BOOST_AUTO_TEST_CASE(speedup_drains_the_input_faster_than_the_link) {
  models::Crossbar x;
  x.configure(2);
  const auto t = x.transfer(3000 * kNs, 0, 4000, 4000, 512, 0);
  BOOST_TEST(t.send == 3000 * kNs);
  BOOST_TEST(t.out_free == 5048 * kNs);
  BOOST_TEST(t.drain.block_time(0) == 3128 * kNs);
  BOOST_TEST(t.drain.last_time() == 4024 * kNs);
  // Granted while still arriving (at 200 ns), the drain follows the arrival instead.
  const auto e = x.transfer(200 * kNs, 0, 4000, 4000, 512, 0);
  BOOST_TEST(e.drain.block_time(0) == 328 * kNs);  // max(256, 200 + 128)
  BOOST_TEST(e.drain.last_time() == 2048 * kNs);   // max(2048, 200 + 1024)
}
