// Tests of the deadlock check's walks: two reports of the same tables, taken by different walks,
// must agree on every count, the CDG and its cycle, and the problems (in order).
#pragma once
#include <boost/test/unit_test.hpp>
#include <string>

#include "routing/checks.h"

namespace ibsc::testing {

inline std::string cycle_text(const routing::CheckReport& r) {
  std::string s;
  for (const routing::CycleHop& h : r.cycle)
    s += h.name + ":" + std::to_string(h.port) + ":" + std::to_string(h.vl) + " ";
  return s;
}

inline void expect_same_report(const routing::CheckReport& a, const routing::CheckReport& b) {
  BOOST_TEST(a.pairs == b.pairs);
  BOOST_TEST(a.routed_pairs == b.routed_pairs);
  BOOST_TEST(a.unrouted_pairs == b.unrouted_pairs);
  BOOST_TEST(a.looping_pairs == b.looping_pairs);
  BOOST_TEST(a.sls_used == b.sls_used);
  BOOST_TEST(a.vls_used == b.vls_used);
  BOOST_TEST(a.max_hops == b.max_hops);
  BOOST_TEST(a.cdg_nodes == b.cdg_nodes);
  BOOST_TEST(a.cdg_edges == b.cdg_edges);
  BOOST_TEST(a.deadlock_free == b.deadlock_free);
  BOOST_TEST(cycle_text(a) == cycle_text(b));
  BOOST_TEST(a.problems == b.problems, a.text() + "\n---\n" + b.text());
}

}  // namespace ibsc::testing
