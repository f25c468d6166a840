// Batch means: the Student-t interval against hand-computed figures, and the merging of batch
// pairs (the batch length doubles when 2k are closed, contents summed, none lost).
#include <boost/test/unit_test.hpp>

#include <cmath>

#include "tb/stats/batch_means.h"

using namespace ibsc;

BOOST_AUTO_TEST_SUITE(batch_means)

// 1..5: mean 3, sample variance 2.5, standard error sqrt(2.5 / 5) = 0.70711, t(4 dof, 97.5%) =
// 2.7764 (tables), half-width 1.9632.
BOOST_AUTO_TEST_CASE(t_interval_hand_values) {
  const tb::ConfidenceInterval ci = tb::t_interval({1, 2, 3, 4, 5}, 0.95);
  BOOST_TEST(ci.batches == 5);
  BOOST_TEST(ci.mean == 3.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(ci.half_width == 1.9632, boost::test_tools::tolerance(1e-4));
  BOOST_TEST(ci.within(0.66));
  BOOST_TEST(!ci.within(0.65));
  BOOST_TEST(std::isinf(tb::t_interval({7}, 0.95).half_width));
  BOOST_TEST(!tb::t_interval({7}, 0.95).within(0.5));
}

// k = 2, batches of 1000 ps from t = 500: a delivery of 100 bytes every 250 ps. After 4 closed
// batches they merge into 2 of 2000 ps; every batch then holds 800 bytes, 0.4 bytes/ps.
BOOST_AUTO_TEST_CASE(pairs_merge_and_length_doubles) {
  tb::BatchMeans b(500, 1000, 2);
  b.delivered(100, 100, 0);  // before the start: not counted
  for (uint64_t t = 500; t < 500 + 6000; t += 250) {
    b.generated(t, 100);
    b.delivered(t, 100, t - 50);
  }
  b.close_until(500 + 6000);
  // Four batches of 1000 ps up to 4500 merged into [500, 2500) [2500, 4500); then [4500, 6500).
  BOOST_TEST(b.batch_ps() == 2000u);
  BOOST_TEST(b.batches() == 3);
  const tb::ConfidenceInterval acc = b.delivered_bytes_per_ns(0.95);
  BOOST_TEST(acc.mean == 400.0, boost::test_tools::tolerance(1e-12));  // 800 bytes per 2 ns
  BOOST_TEST(acc.half_width == 0.0);
  BOOST_TEST(b.generated_bytes_per_ns() == 400.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(b.backlog_growth_bytes_per_ns(0.95).mean == 0.0);
  BOOST_TEST(b.latency_ns(0.95).mean == 0.05, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(b.open_batch_end() == 500u + 8000u);
}

BOOST_AUTO_TEST_SUITE_END()
