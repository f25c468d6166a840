// SL2VL tables shared among switches (routing/tables.h): compute_routing leaves equal tables on
// one store, readers see the same entries as before, and a write to a shared table (copy on
// write) changes that switch alone. Counts against a brute-force comparison of every pair.
#include <boost/test/unit_test.hpp>

#include <vector>

#include "routing/routing.h"
#include "routing/topo_spec.h"

using namespace ibsc;
using namespace ibsc::routing;

namespace {

TableSet route(const char* spec, const char* algorithm) {
  RoutingOptions o;
  o.algorithm = enum_value<Algorithm>(algorithm);
  return compute_routing(build_topology_spec(spec), o);
}

// Distinct tables by comparing every switch's entries with those before it.
size_t distinct_by_hand(const TableSet& ts) {
  std::vector<const Sl2VlTable*> seen;
  for (const SwitchTables& st : ts.switches) {
    bool found = false;
    for (const Sl2VlTable* t : seen) found |= t->key() == st.sl2vl.key() && t->flat() == st.sl2vl.flat();
    if (!found) seen.push_back(&st.sl2vl);
  }
  return seen.size();
}

size_t stores(const TableSet& ts) {
  std::vector<const Sl2VlTable*> seen;
  for (const SwitchTables& st : ts.switches) {
    bool found = false;
    for (const Sl2VlTable* t : seen) found |= t->shares_store_with(st.sl2vl);
    if (!found) seen.push_back(&st.sl2vl);
  }
  return seen.size();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sl2vl_share)

// DOR on a flattened butterfly uses one VL: every switch (same port count) holds the all-zero
// table, one store for all 16. e-cube on a 4x4 torus: dateline VLs make tables differ by the
// switch's position; as many stores as distinct tables.
BOOST_AUTO_TEST_CASE(equal_tables_share_one_store) {
  const TableSet dor = route("flatfly:4x4:hosts=2", "dor");
  BOOST_TEST(dor.switches.size() == 16u);
  BOOST_TEST(distinct_by_hand(dor) == 1u);
  BOOST_TEST(stores(dor) == 1u);
  const TableSet ecube = route("torus:4x4", "ecube");
  BOOST_TEST(distinct_by_hand(ecube) > 1u);
  BOOST_TEST(stores(ecube) == distinct_by_hand(ecube));
  TableSet again = ecube;
  BOOST_TEST(share_identical_sl2vl(again) == distinct_by_hand(ecube));
}

// A write to a shared table copies it first: the other switches keep their entries.
BOOST_AUTO_TEST_CASE(write_to_a_shared_table_copies_it) {
  TableSet ts = route("flatfly:4x4:hosts=2", "dor");
  const std::vector<Vl> before = ts.switches[1].sl2vl.flat();
  BOOST_TEST(ts.switches[0].sl2vl.shares_store_with(ts.switches[1].sl2vl));
  ts.switches[0].sl2vl.set(1, 2, 3, 5);
  BOOST_TEST(ts.switches[0].sl2vl.get(1, 2, 3) == 5);
  BOOST_TEST(!ts.switches[0].sl2vl.shares_store_with(ts.switches[1].sl2vl));
  BOOST_TEST(ts.switches[1].sl2vl.get(1, 2, 3) == 0);
  BOOST_TEST((ts.switches[1].sl2vl.flat() == before));
  BOOST_TEST(ts.switches[2].sl2vl.shares_store_with(ts.switches[1].sl2vl));
  // Written back to the shared entries, it shares again.
  ts.switches[0].sl2vl.set(1, 2, 3, 0);
  BOOST_TEST(share_identical_sl2vl(ts) == 1u);
  BOOST_TEST(stores(ts) == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
