// The hot path's FIFO (models/ring_queue.h): order kept across wrap-around and growth, and the
// storage given back when empty (the transport's idle connections) with the queue usable after.
#include <boost/test/unit_test.hpp>

#include <deque>

#include "models/ring_queue.h"
#include "tests/support/sc_test_main.h"

using ibsc::models::RingQueue;

// Against std::deque over a pattern that wraps the ring many times and grows it from 8 to 512.
BOOST_AUTO_TEST_CASE(fifo_order_through_wrap_and_growth) {
  RingQueue<int> q;
  std::deque<int> ref;
  int next = 0;
  for (int round = 0; round < 200; ++round) {
    for (int i = 0; i < 1 + round % 7; ++i) {
      q.push_back(next);
      ref.push_back(next++);
    }
    for (int i = 0; i < round % 5 && !ref.empty(); ++i) {
      BOOST_REQUIRE(!q.empty());
      BOOST_TEST(q.front() == ref.front());
      q.pop_front();
      ref.pop_front();
    }
    BOOST_REQUIRE(q.size() == ref.size());
    for (size_t i = 0; i < ref.size(); ++i) BOOST_TEST(q[i] == ref[i]);
  }
}

BOOST_AUTO_TEST_CASE(storage_released_only_when_empty) {
  RingQueue<int> q;
  for (int i = 0; i < 20; ++i) q.push_back(i);
  q.release_storage();  // not empty: nothing happens
  BOOST_TEST(q.size() == 20u);
  for (int i = 0; i < 20; ++i) {
    BOOST_TEST(q.front() == i);
    q.pop_front();
  }
  q.release_storage();
  BOOST_TEST(q.empty());
  for (int i = 0; i < 12; ++i) q.push_back(100 + i);  // grows again from nothing
  for (int i = 0; i < 12; ++i) BOOST_TEST(q[i] == 100 + i);
}
