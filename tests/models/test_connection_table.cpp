// The transport's per-peer connection records (models/connection_table.h): made on first use,
// found again, never moved, and as many as the peers used, however many hosts the fabric has.
#include <boost/test/unit_test.hpp>

#include <map>
#include <set>
#include <vector>

#include "models/connection_table.h"
#include "tests/support/sc_test_main.h"

using ibsc::models::ConnectionTable;

namespace {
struct Record {
  explicit Record(int v) : value(v) {}
  int value;
  std::set<int> held;  // a member that must not be copied or moved under a reference
};
}  // namespace

BOOST_AUTO_TEST_CASE(made_on_first_use_and_found_again) {
  ConnectionTable<Record> t;
  BOOST_TEST(t.find(7) == nullptr);
  Record& a = t.get(7, 70);
  BOOST_TEST(a.value == 70);
  BOOST_TEST(&t.get(7, 99) == &a);  // the second get finds it: no new record, its value kept
  BOOST_TEST(t.get(7, 99).value == 70);
  BOOST_TEST(t.find(7) == &a);
  BOOST_TEST(t.find(8) == nullptr);
  BOOST_TEST(t.size() == 1u);
}

// Peers of a 16,384-host fabric in a scattered order, past several growths of the table: each is
// found with its own record, the references taken before a growth still hold, and the records
// are in the order made.
BOOST_AUTO_TEST_CASE(many_peers_keep_their_records_through_growth) {
  ConnectionTable<Record> t;
  std::map<int, Record*> taken;
  std::vector<int> order;
  for (int i = 0; i < 3000; ++i) {
    const int peer = (i * 7919) % 16384;  // 7919 is prime: 3000 distinct peers
    Record& r = t.get(peer, peer * 3);
    r.held.insert(i);
    taken[peer] = &r;
    order.push_back(peer);
  }
  BOOST_TEST(t.size() == 3000u);
  for (const auto& [peer, r] : taken) {
    BOOST_TEST(t.find(peer) == r);
    BOOST_TEST(r->value == peer * 3);
  }
  int misses = 0;
  for (int peer = 0; peer < 16384; ++peer) misses += t.find(peer) == nullptr;
  BOOST_TEST(misses == 16384 - 3000);
  size_t i = 0;
  for (const Record& r : t.records()) BOOST_TEST(r.value == order[i++] * 3);
}

// Consecutive peers (a host talking to its neighbours) and peers a power of two apart (the bit
// permutations) are all found; the table never fills, so a missing peer is found missing.
BOOST_AUTO_TEST_CASE(strided_peers_are_all_found) {
  for (int stride : {1, 2, 64, 1024, 8192}) {
    ConnectionTable<Record> t;
    for (int k = 0; k < 200; ++k) t.get(k * stride % 1000003, k);
    for (int k = 0; k < 200; ++k) BOOST_TEST(t.find(k * stride % 1000003)->value == k);
    BOOST_TEST(t.find(-5) == nullptr);
  }
}
