// Latency histogram: percentiles against an exact sort (exact below 1024 ns, within 0.4%
// above and never below the true value nor above max), exact mean, merge, clear, extremes.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <random>

#include "tb/stats/latency_histogram.h"
#include "tb/traffic/traffic.h"

using namespace ibsc;

namespace {

const std::vector<double> kQuantiles = {0.0, 1e-6, 0.01, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 0.99999, 1.0};

// The value of rank ceil(q * n) (rank 1 for q = 0) in sorted data.
uint64_t exact(const std::vector<uint64_t>& sorted, double q) {
  size_t rank = std::max<size_t>(1, static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size()))));
  return sorted[rank - 1];
}

void check_against_sort(const tb::LatencyHistogram& h, std::vector<uint64_t> v, const std::string& what) {
  std::sort(v.begin(), v.end());
  BOOST_TEST(h.count() == v.size());
  BOOST_TEST(h.min() == v.front());
  BOOST_TEST(h.max() == v.back());
  long double sum = 0;
  for (auto x : v) sum += x;
  BOOST_TEST(h.mean() == static_cast<double>(sum / v.size()), boost::test_tools::tolerance(1e-12));
  for (double q : kQuantiles) {
    uint64_t want = exact(v, q), got = h.percentile(q);
    BOOST_TEST(got >= want, what << " q=" << q);
    BOOST_TEST(got <= h.max(), what << " q=" << q);
    if (want < 1024) BOOST_TEST(got == want, what << " q=" << q);
    BOOST_TEST(static_cast<double>(got - want) <= 0.004 * static_cast<double>(want),
               what << " q=" << q << ": " << got << " vs " << want);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(histogram)

BOOST_AUTO_TEST_CASE(percentiles_match_an_exact_sort) {
  std::mt19937_64 rng(9);
  // Log-uniform over 10 ns .. 10 ms, the range of a load sweep up to deep saturation.
  tb::LatencyHistogram h;
  std::vector<uint64_t> v;
  for (int i = 0; i < 200000; ++i) {
    uint64_t x = static_cast<uint64_t>(10 * std::exp(tb::uniform01(rng) * std::log(1e6)));
    v.push_back(x);
    h.add(x);
  }
  check_against_sort(h, v, "log-uniform");
  // Small values are kept exactly.
  tb::LatencyHistogram s;
  std::vector<uint64_t> w;
  for (int i = 0; i < 50000; ++i) {
    uint64_t x = 200 + tb::uniform_below(rng, 800);
    w.push_back(x);
    s.add(x);
  }
  check_against_sort(s, w, "small");
  // A narrow cluster far out: every value in a handful of buckets.
  tb::LatencyHistogram c;
  std::vector<uint64_t> u;
  for (int i = 0; i < 50000; ++i) {
    uint64_t x = 3'000'000'000ull + tb::uniform_below(rng, 50'000'000);
    u.push_back(x);
    c.add(x);
  }
  check_against_sort(c, u, "cluster");
}

BOOST_AUTO_TEST_CASE(merge_equals_adding_everything_to_one) {
  std::mt19937_64 rng(10);
  tb::LatencyHistogram a, b, all;
  std::vector<uint64_t> v;
  for (int i = 0; i < 30000; ++i) {
    uint64_t x = 1 + tb::uniform_below(rng, 1'000'000);
    (i % 3 ? a : b).add(x);
    all.add(x);
    v.push_back(x);
  }
  a.merge(b);
  a.merge(tb::LatencyHistogram{});  // an empty histogram changes nothing
  BOOST_TEST(a.count() == all.count());
  BOOST_TEST(a.mean() == all.mean());
  BOOST_TEST(a.min() == all.min());
  BOOST_TEST(a.max() == all.max());
  for (double q : kQuantiles) BOOST_TEST(a.percentile(q) == all.percentile(q));
  check_against_sort(a, v, "merged");
}

BOOST_AUTO_TEST_CASE(empty_clear_and_extremes) {
  tb::LatencyHistogram h;
  BOOST_TEST(h.count() == 0u);
  BOOST_TEST(h.mean() == 0.0);
  BOOST_TEST(h.min() == 0u);
  BOOST_TEST(h.max() == 0u);
  BOOST_TEST(h.percentile(0.5) == 0u);
  h.add(0);
  h.add(UINT64_MAX);
  h.add(UINT64_MAX);  // the running sum must not overflow
  BOOST_TEST(h.count() == 3u);
  BOOST_TEST(h.min() == 0u);
  BOOST_TEST(h.max() == UINT64_MAX);
  BOOST_TEST(h.mean() == 2.0 * static_cast<double>(UINT64_MAX) / 3.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(h.percentile(0.0) == 0u);
  BOOST_TEST(h.percentile(1.0) == UINT64_MAX);
  BOOST_TEST(h.percentile(-1.0) == 0u);  // q is clamped to [0, 1]
  BOOST_TEST(h.percentile(2.0) == UINT64_MAX);
  h.clear();
  BOOST_TEST(h.count() == 0u);
  BOOST_TEST(h.max() == 0u);
  BOOST_TEST(h.percentile(1.0) == 0u);
  h.add(5000);
  BOOST_TEST(h.percentile(0.5) == 5000u);  // one sample: min and max pin the bucket value
  BOOST_TEST(h.mean() == 5000.0);
}

BOOST_AUTO_TEST_SUITE_END()
