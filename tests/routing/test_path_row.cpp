// Flat tables (issue 16): path record rows shared by the hosts of a switch with copy on write,
// and LFTs of 4 bytes per DLID with adaptive candidates besides. The sharing is what makes the
// records grow with hosts x switches; these tests pin that it never changes what a host reads.
#include <boost/test/unit_test.hpp>

#include <set>
#include <vector>

#include "routing/routing.h"
#include "routing/tables.h"
#include "routing/topo_spec.h"

using namespace ibsc::routing;

namespace {
std::vector<PathRecord> read(const PathRow& r, size_t q) { return {r[q].begin(), r[q].end()}; }
bool same(const std::vector<PathRecord>& a, const std::vector<PathRecord>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].dlid != b[i].dlid || a[i].sl != b[i].sl) return false;
  return true;
}
}  // namespace

BOOST_AUTO_TEST_CASE(a_shared_row_is_copied_before_a_write) {
  PathRow a;
  a.assign(4);
  a.set(1, {7, 2});
  PathRow b = a;  // shared
  BOOST_TEST(b.identity() == a.identity());
  b.set_sl(1, 0, 3);
  BOOST_TEST(b.identity() != a.identity());
  BOOST_TEST(a[1].front().sl == 2);  // the other host's view is untouched
  BOOST_TEST(b[1].front().sl == 3);
  BOOST_TEST(a[0].empty());
  BOOST_TEST(a.size() == 4u);
}

BOOST_AUTO_TEST_CASE(alternates_turn_a_row_into_lists_without_changing_the_rest) {
  PathRow r;
  r.assign(3);
  r.set(0, {5, 0});
  r.set(2, {9, 1});
  r.add(0, {6, 1});  // a second record for destination 0
  r.add(2, {10, 0});
  r.add(0, {7, 2});  // destination 0's list is not last: moved to the end
  BOOST_TEST(same(read(r, 0), {{5, 0}, {6, 1}, {7, 2}}));
  BOOST_TEST(read(r, 1).empty());
  BOOST_TEST(same(read(r, 2), {{9, 1}, {10, 0}}));
  r.set(2, {{11, 3}});  // shorter list in place
  BOOST_TEST(same(read(r, 2), {{11, 3}}));
  r.clear(0);
  BOOST_TEST(read(r, 0).empty());
}

BOOST_AUTO_TEST_CASE(hiding_the_host_itself_needs_no_copy_until_a_write) {
  PathRow shared;
  shared.assign(3);
  for (size_t q = 0; q < 3; ++q) shared.set(q, {static_cast<ibsc::Lid>(q + 1), 0});
  PathRow mine = shared;
  mine.hide(1);
  BOOST_TEST(mine.identity() == shared.identity());
  BOOST_TEST(mine[1].empty());
  BOOST_TEST(shared[1].size() == 1u);
  mine.set(2, {9, 0});  // the private copy leaves destination 1 out for real
  BOOST_TEST(mine.hidden() == PathRow::kNone);
  BOOST_TEST(mine[1].empty());
  BOOST_TEST(mine[2].front().dlid == 9);
  BOOST_TEST(shared[2].front().dlid == 3);
}

// DOR on a 1,024-host flattened butterfly: one row per switch, not one per host, and each
// host still reads the records its switch's row gives it (base LID of the destination).
BOOST_AUTO_TEST_CASE(dor_rows_are_one_per_switch) {
  const Topology t = build_topology_spec("flatfly:4x4x8:widths=2,1,1:hosts=8");
  RoutingOptions o;
  o.algorithm = Algorithm::Dor;
  const TableSet ts = compute_routing(t, o);
  std::set<const void*> rows;
  for (const HostTables& h : ts.hosts) rows.insert(h.paths.identity());
  BOOST_TEST(rows.size() == 1u);  // DOR's SL depends on the destination only: one row for all
  o.algorithm = Algorithm::Minhop;
  const TableSet mh = compute_routing(t, o);
  rows.clear();
  for (const HostTables& h : mh.hosts) rows.insert(h.paths.identity());
  BOOST_TEST(rows.size() == static_cast<size_t>(t.num_switches));
  for (int h : {0, 517, 1023})
    for (int q : {3, 800}) BOOST_TEST(mh.path(h, q).dlid >= mh.hosts[q].base_lid);
}

BOOST_AUTO_TEST_CASE(lft_entries_hold_one_or_several_candidates) {
  Lft lft;
  lft.assign(8);
  BOOST_TEST(!lft[3].routed());
  lft.set(3, 5);
  BOOST_TEST(lft[3].primary() == 5);
  BOOST_TEST(lft[3].candidates.size() == 1u);
  BOOST_TEST(lft.single());
  lft.set(4, {{1, 0}, {2, 1}});
  lft.add(4, {6, 2});
  BOOST_TEST(!lft.single());
  BOOST_TEST(lft[4].candidates.size() == 3u);
  BOOST_TEST(lft[4].candidates[2].port == 6);
  BOOST_TEST(lft[4].candidates[1].priority == 1);
  BOOST_TEST(lft.slot(4).count == 3);
  lft.set(4, 7);  // back to one candidate
  BOOST_TEST(lft[4].candidates.size() == 1u);
  BOOST_TEST(lft.single());
  BOOST_TEST(lft[3].primary() == 5);
  BOOST_CHECK_THROW(lft.at(8), std::out_of_range);
  BOOST_TEST(sizeof(Lft::Slot) == 4u);
  BOOST_TEST(sizeof(PathRecord) == 4u);
}
