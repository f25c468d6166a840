// The compact per-input-VL LFTs (routing/vl_lft.h): the pool gives every (switch, DLID, input
// VL) the entry the plain per-VL copies give, back and forth; the hosts of one switch share a
// column at every other switch and have their own at theirs; the columns repeat from switch
// to switch on a flattened butterfly, so the pool is far smaller than a column per
// (switch, destination switch).
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "routing/routing.h"
#include "routing/topo_spec.h"
#include "tests/support/route_with.h"

using namespace ibsc;
using namespace ibsc::routing;

namespace {

// Entries differing between two table sets, over every switch, LID and input VL.
long differences(const TableSet& a, const TableSet& b, int vls) {
  long n = 0;
  for (size_t s = 0; s < a.switches.size(); ++s)
    for (Lid l = 0; l <= a.max_lid; ++l)
      for (int v = 0; v < vls; ++v) {
        const auto x = a.switches[s].route(l, static_cast<Vl>(v)).candidates;
        const auto y = b.switches[s].route(l, static_cast<Vl>(v)).candidates;
        bool same = x.size() == y.size();
        for (size_t i = 0; same && i < x.size(); ++i)
          same = x[i].port == y[i].port && x[i].priority == y[i].priority && x[i].escape == y[i].escape;
        n += !same;
      }
  return n;
}

}  // namespace

BOOST_AUTO_TEST_CASE(compact_and_plain_copies_route_alike) {
  const Topology t = build_topology_spec("flatfly:4x4x4:hosts=2");
  for (const char* algo : {"distance", "deflection"}) {
    const TableSet ts = testing::route_with(t, algo, 2);  // diameter 3 + 2: 5 VLs
    BOOST_TEST(ts.switches[0].vl_pool != nullptr);
    BOOST_TEST(ts.switches[0].per_vl_copies() == 5);
    TableSet plain = ts;
    for (SwitchTables& st : plain.switches) st.expand_per_vl();
    BOOST_TEST(!plain.switches[0].vl_pool);
    BOOST_TEST(plain.switches[0].lft_per_input_vl.size() == 5u);
    BOOST_TEST(differences(ts, plain, 5) == 0);
    // A wrong copy is seen: the check above can fail.
    TableSet wrong = plain;
    wrong.switches[3].lft_per_input_vl[4].set(ts.hosts[100].base_lid, 1);
    BOOST_TEST(differences(ts, wrong, 5) == 1);
    TableSet again = plain;
    compact_per_vl(again);
    BOOST_TEST(again.switches[0].lft_per_input_vl.empty());
    BOOST_TEST(differences(again, plain, 5) == 0);
  }
}

BOOST_AUTO_TEST_CASE(hosts_of_a_switch_share_a_column_elsewhere) {
  const Topology t = build_topology_spec("flatfly:4x4x4:hosts=2");
  const TableSet ts = testing::route_with(t, "distance", 1);
  // Hosts 0 and 1 sit on switch 0.
  BOOST_TEST(t.host_switch(0) == 0);
  BOOST_TEST(t.host_switch(1) == 0);
  const Lid a = ts.hosts[0].base_lid, b = ts.hosts[1].base_lid;
  for (int s = 1; s < t.num_switches; ++s) BOOST_TEST(ts.switches[s].vl_column[a] == ts.switches[s].vl_column[b]);
  BOOST_TEST(ts.switches[0].vl_column[a] != ts.switches[0].vl_column[b]);  // the last hop: own ports
  // 64 switches x 63 remote destination switches would be 4,032 columns unshared; a column
  // depends on which dimensions differ and the coordinates' offsets in them, so far fewer.
  const size_t columns = ts.switches[0].vl_pool->columns();
  BOOST_TEST(columns < 64u * 63 / 4, columns);
}
