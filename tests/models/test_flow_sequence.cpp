// The HCA's per-flow sequence numbers (models/flow_sequence.h): the sparse table gives exactly
// the numbers a dense per-destination array would, through its growth and its switch to the
// dense array, and stays small while few flows have sent.
#include <boost/test/unit_test.hpp>

#include "tests/support/sc_test_main.h"  // links libsystemc (through ibsc_models): it needs sc_main

#include <random>
#include <vector>

#include "models/flow_sequence.h"

using ibsc::models::FlowSequence;

BOOST_AUTO_TEST_CASE(numbers_match_a_dense_array) {
  for (uint32_t hosts : {2u, 100u, 16384u}) {
    FlowSequence seq(hosts);
    std::vector<uint32_t> dense(hosts, 0);
    std::mt19937_64 rng(hosts);
    for (int i = 0; i < 200000; ++i) {
      const uint32_t d = static_cast<uint32_t>(rng() % hosts);
      uint32_t& n = seq.next(d);
      BOOST_REQUIRE(n == dense[d]);
      ++n;
      ++dense[d];
    }
  }
}

BOOST_AUTO_TEST_CASE(first_numbers_are_zero_and_flows_are_independent) {
  FlowSequence seq(1000);
  BOOST_TEST(seq.next(999) == 0u);
  seq.next(999) = 41;
  BOOST_TEST(seq.next(0) == 0u);
  BOOST_TEST(seq.next(999) == 41u);
}
