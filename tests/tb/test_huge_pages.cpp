// The 2 MB-page policy (tb/fabric/huge_pages.h): the collapse is paid only by runs planned long enough
// to earn it back, and it moves pages without changing what they hold.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "tb/fabric/huge_pages.h"

using namespace ibsc;

BOOST_AUTO_TEST_SUITE(huge_pages)

// A default run (20 us warm-up, 100 us window) at 16,384 hosts, where the collapse costs more
// CPU than the run gains, pays nothing; from 500 us on it pays. Fabrics that fit the caches
// (below 4,096 hosts: no gain from 2 MB pages) never pay, however long the run.
BOOST_AUTO_TEST_CASE(planned_length_rule) {
  BOOST_TEST(!tb::huge_pages_pay_off(16384, 120e3));
  BOOST_TEST(!tb::huge_pages_pay_off(16384, 499e3));
  BOOST_TEST(tb::huge_pages_pay_off(16384, 500e3));
  BOOST_TEST(tb::huge_pages_pay_off(4096, 1e6));
  BOOST_TEST(!tb::huge_pages_pay_off(4095, 1e6));
  BOOST_TEST(!tb::huge_pages_pay_off(16384, 0));  // length unknown
  BOOST_TEST(!tb::huge_pages_pay_off(1024, std::numeric_limits<double>::infinity()));
  BOOST_TEST(tb::huge_pages_pay_off(16384, std::numeric_limits<double>::infinity()));
}

// Whatever the kernel accepts, every byte stays where it was.
BOOST_AUTO_TEST_CASE(collapse_keeps_contents) {
  std::vector<uint32_t> v(6u << 20 >> 2);  // 6 MB, malloc's own mapping: at least two 2 MB pages
  std::iota(v.begin(), v.end(), 12345u);
  const uint32_t* before = v.data();
  tb::back_with_huge_pages();
  BOOST_TEST(v.data() == before);
  bool same = true;
  for (size_t i = 0; i < v.size(); ++i) same &= v[i] == 12345u + i;
  BOOST_TEST(same);
}

BOOST_AUTO_TEST_SUITE_END()
