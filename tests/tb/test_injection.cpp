// Injection processes: the mean rate is the offered load, gaps have the process's spread,
// Bernoulli generations fall on slot boundaries, lengths follow the mix; bounds are five
// standard deviations computed from each process's variance.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "tb/traffic/injection.h"
#include "tb_test_util.h"

using namespace ibsc;
namespace tt = boost::test_tools;

namespace {

struct Sample {
  double mean_gap = 0, var_gap = 0, bytes = 0, time_ps = 0;
  uint64_t min_gap = UINT64_MAX;
};

Sample draw(tb::InjectionProcess& ip, int n) {
  Sample s;
  double sum = 0, sum2 = 0;
  for (int i = 0; i < n; ++i) {
    uint64_t g = ip.next_gap_ps();
    s.min_gap = std::min(s.min_gap, g);
    sum += static_cast<double>(g);
    sum2 += static_cast<double>(g) * static_cast<double>(g);
    s.bytes += ip.next_length();
  }
  s.time_ps = sum;
  s.mean_gap = sum / n;
  s.var_gap = sum2 / n - s.mean_gap * s.mean_gap;
  return s;
}

tb::InjectionConfig config(const std::string& process, std::vector<std::pair<uint32_t, double>> mix) {
  tb::InjectionConfig c;
  c.process = enum_value<tb::ArrivalProcess>(process);
  c.length_mix = std::move(mix);
  return c;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(injection)

BOOST_AUTO_TEST_CASE(mean_rate_is_the_offered_load) {
  // Mix 32/512 evenly: mean 272 bytes, variance 57600 bytes^2.
  const double mean_len = 272, cv2_len = 57600.0 / (272.0 * 272.0);
  const double link = 0.25;  // bytes/ns (1X, 8b/10b)
  const int n = 200000;
  for (std::string proc : {"bernoulli", "poisson"})
    for (double load : {0.02, 0.1, 0.2}) {
      tb::InjectionProcess ip(config(proc, {{32, 1.0}, {512, 1.0}}), load, link, 42);
      BOOST_TEST(ip.mean_length() == mean_len);
      Sample s = draw(ip, n);
      const double p = load / link;
      // Squared coefficient of variation of one gap: geometric slots 1 - p, exponential 1.
      const double cv2_gap = proc == "bernoulli" ? 1 - p : 1.0;
      const double mean_gap_ps = mean_len / load * 1000;
      BOOST_TEST(std::abs(s.mean_gap / mean_gap_ps - 1) < 5 * std::sqrt(cv2_gap / n), proc << " load " << load);
      // Rate = sum of lengths / sum of gaps: relative variances add (delta method).
      const double rate = s.bytes / (s.time_ps / 1000);
      BOOST_TEST(std::abs(rate / load - 1) < 5 * std::sqrt((cv2_gap + cv2_len) / n), proc << " load " << load);
      // Spread: the sample variance of n gaps has relative sd about sqrt((kurtosis - 1) / n),
      // kurtosis 9 (exponential) or 9 + p^2/(1-p) (geometric); 10 + p^2/(1-p) covers both.
      const double var_gap = cv2_gap * mean_gap_ps * mean_gap_ps;
      BOOST_TEST(std::abs(s.var_gap / var_gap - 1) < 5 * std::sqrt((10 + p * p / (1 - p)) / n),
                 proc << " load " << load);
    }
}

BOOST_AUTO_TEST_CASE(bernoulli_generations_fall_on_slot_boundaries) {
  // 512 bytes at 0.3 bytes/ns: slot 1706666.67 ps, not a whole number of picoseconds.
  tb::InjectionProcess ip(config("bernoulli", {{512, 1.0}}), 0.15, 0.3, 7);
  const double slot = 512 / 0.3 * 1000;
  double t = 0;
  for (int i = 0; i < 100000; ++i) {
    t += static_cast<double>(ip.next_gap_ps());
    double k = std::round(t / slot);
    BOOST_TEST(k >= i + 1);  // at most one packet per slot
    BOOST_TEST(std::abs(t - k * slot) <= 1.0, "generation " << i << " at " << t << " ps");
  }
  // At full load every slot has a packet.
  tb::InjectionProcess full(config("bernoulli", {{512, 1.0}}), 0.25, 0.25, 7);
  for (int i = 0; i < 1000; ++i) BOOST_TEST(full.next_gap_ps() == 2048000u);
}

BOOST_AUTO_TEST_CASE(length_mix_follows_the_weights) {
  tb::InjectionProcess ip(config("poisson", {{32, 3.0}, {512, 1.0}, {4096, 0.0001}}), 0.1, 0.25, 3);
  const int n = 200000;
  int shorts = 0, longs = 0, huge = 0;
  for (int i = 0; i < n; ++i) {
    uint32_t l = ip.next_length();
    shorts += l == 32;
    longs += l == 512;
    huge += l == 4096;
  }
  BOOST_TEST(shorts + longs + huge == n);
  const double p32 = 3.0 / 4.0001;
  BOOST_TEST(std::abs(shorts - n * p32) < tb::test::five_sigma(n, p32));
  BOOST_TEST(huge < 20);  // expected 5
  BOOST_TEST(ip.mean_length() == (32 * 3.0 + 512 + 4096 * 0.0001) / 4.0001, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(gaps_are_at_least_one_picosecond) {
  // 1-byte packets at 100 bytes/ns: mean gap 10 ps, many exponential draws below 1 ps.
  tb::InjectionProcess ip(config("poisson", {{1, 1.0}}), 100.0, 0.25, 11);
  Sample s = draw(ip, 100000);
  BOOST_TEST(s.min_gap >= 1u);
  BOOST_TEST(s.mean_gap == 10.0, tt::tolerance(0.02));  // the 1 ps minimum is paid back later
}

BOOST_AUTO_TEST_CASE(zero_load_never_generates) {
  tb::InjectionProcess ip(tb::InjectionConfig{}, 0.0, 0.25, 1);
  BOOST_TEST(ip.next_gap_ps() == UINT64_MAX);
  BOOST_TEST(ip.next_gap_ps() == UINT64_MAX);
}

BOOST_AUTO_TEST_CASE(bad_parameters_are_refused) {
  auto bad = [](const tb::InjectionConfig& c, double load, double link) {
    BOOST_CHECK_THROW(tb::InjectionProcess(c, load, link, 1), std::invalid_argument);
  };
  bad(tb::InjectionConfig{}, 0.3, 0.25);  // bernoulli above link rate: probability > 1
  BOOST_CHECK_NO_THROW(tb::InjectionProcess(config("poisson", {{512, 1}}), 0.3, 0.25, 1));
  bad(config("bernoulli", {{0, 1.0}}), 0.1, 0.25);
  bad(config("bernoulli", {{4097, 1.0}}), 0.1, 0.25);
  BOOST_CHECK_NO_THROW(tb::InjectionProcess(config("bernoulli", {{4096, 1.0}, {1, 1.0}}), 0.1, 0.25, 1));
  bad(config("bernoulli", {{512, 0.0}}), 0.1, 0.25);
  bad(config("bernoulli", {{512, -1.0}}), 0.1, 0.25);
  bad(config("bernoulli", {{512, std::numeric_limits<double>::quiet_NaN()}}), 0.1, 0.25);
  bad(config("bernoulli", {}), 0.1, 0.25);
  BOOST_CHECK_THROW(config("uniform", {{512, 1.0}}),
                    std::invalid_argument);  // not a process: its name table refuses it
  bad(tb::InjectionConfig{}, -0.1, 0.25);
  bad(tb::InjectionConfig{}, 0.1, 0.0);
}

BOOST_AUTO_TEST_CASE(streams_are_reproducible_and_independent) {
  auto first = [](const std::string& proc, uint64_t seed) {
    tb::InjectionProcess ip(config(proc, {{32, 1.0}, {512, 1.0}}), 0.1, 0.25, seed);
    std::vector<uint64_t> v;
    for (int i = 0; i < 6; ++i) {
      v.push_back(ip.next_gap_ps());
      v.push_back(ip.next_length());
    }
    return v;
  };
  for (std::string proc : {"bernoulli", "poisson"}) {
    BOOST_TEST(first(proc, 5) == first(proc, 5), tt::per_element());
    BOOST_TEST(first(proc, 5) != first(proc, 6));
  }
  // Golden values: only raw PCG64 outputs and IEEE arithmetic go into them, so any
  // standard library gives these exact numbers.
  std::vector<uint64_t> bern = {1088000, 512, 1088000, 512, 1088000, 512, 1088000, 32, 3264000, 512, 3264000, 512};
  std::vector<uint64_t> pois = {20526, 512, 618806, 512, 243825, 512, 424196, 32, 2783809, 512, 3020023, 512};
  BOOST_TEST(first("bernoulli", 5) == bern, tt::per_element());
  BOOST_TEST(first("poisson", 5) == pois, tt::per_element());
}

BOOST_AUTO_TEST_CASE(portable_log_is_within_a_few_ulp_of_libm) {
  std::mt19937_64 rng(2);
  BOOST_TEST(tb::portable_log(1.0) == 0.0);
  for (int i = 0; i < 200000; ++i) {
    double x =
        std::ldexp(static_cast<double>(rng() >> 11) * 0x1.0p-53 + 0x1.0p-60, -static_cast<int>(rng() % 1000) + 500);
    double want = std::log(x), got = tb::portable_log(x);
    double ulp = std::nextafter(std::abs(want), INFINITY) - std::abs(want);
    BOOST_TEST(std::abs(got - want) <= 4 * ulp, "log(" << x << ")");
  }
}

// log(1 - p) was computed as log(1.0 - p): 0 for p under 1.1e-16, so every Bernoulli gap
// became 1 ps (a load of 1e-17 of the link generated 63,936 packets in 1 ns). At p = 1e-17
// with 1-ps slots (1-byte packets at 1000 bytes/ns) the gap is geometric with mean 1/p slots,
// 1e17 ps, and standard deviation of the mean 1e17 / sqrt(n).
BOOST_AUTO_TEST_CASE(tiny_load_gives_correspondingly_rare_packets) {
  const double link = 1000, p = 1e-17, mean = 1 / p;
  const int n = 20000;
  for (std::string proc : {"bernoulli", "poisson"}) {
    tb::InjectionProcess ip(config(proc, {{1, 1.0}}), p * link, link, 3);
    Sample s = draw(ip, n);
    BOOST_TEST(std::abs(s.mean_gap - mean) <= 5 * mean / std::sqrt(n), proc << ": mean gap " << s.mean_gap);
    // P(gap < 1e9 ps) = 1e-8 per draw: a flood of 1-ps gaps cannot pass.
    BOOST_TEST(s.min_gap > 1000000000u, proc);
  }
  // Far below, the gap saturates at its 1e18 ps (11.6 days) ceiling: no packet in any run.
  for (double tiny : {1e-30, 1e-300, 4.9e-324}) {
    tb::InjectionProcess ip(tb::InjectionConfig{}, tiny, 0.25, 1);
    for (int i = 0; i < 100; ++i) BOOST_TEST(ip.next_gap_ps() >= 1000000000000000000u, tiny);
  }
}

BOOST_AUTO_TEST_CASE(portable_log1m_is_accurate_for_tiny_p) {
  std::mt19937_64 rng(4);
  BOOST_TEST(tb::portable_log1m(0.0) == 0.0);
  for (int i = 0; i < 100000; ++i) {
    const double p = std::pow(10.0, -300.0 * static_cast<double>(rng() >> 11) * 0x1.0p-53);  // 1e-300 .. 1
    if (p >= 1.0) continue;
    const double want = std::log1p(-p), got = tb::portable_log1m(p);
    BOOST_TEST(got < 0.0);
    // The series below 1e-4 is within an ulp or two; above, 1 - p is rounded first (1e-16
    // absolute, so relative 1e-16 / p at most), as it always was.
    const double tol = p < 1e-4 ? 4 * (std::nextafter(-want, INFINITY) + want) : 2e-12 * -want;
    BOOST_TEST(std::abs(got - want) <= tol, "log1m(" << p << ")");
  }
}

BOOST_AUTO_TEST_SUITE_END()
