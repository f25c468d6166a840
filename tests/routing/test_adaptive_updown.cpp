// adaptive-updown (routing/adaptive_updown.cpp) and the Duato check of escape tables
// (routing/duato_check.h): the candidates are exactly the minimal ports plus one up*/down*
// escape, the escape walks obey the up*/down* rule from every switch, the check accepts them,
// and it refuses escape networks that are cyclic (minimal routing on a ring) or incomplete.
#include <boost/test/unit_test.hpp>

#include "routing/checks.h"
#include "routing/duato_check.h"
#include "routing/generators.h"
#include "routing/generic.h"
#include "routing/routing.h"

using namespace ibsc::routing;

namespace {

TableSet route(const Topology& t, const std::string& algo) {
  RoutingOptions o;
  o.algorithm = ibsc::enum_value<Algorithm>(algo);
  return compute_routing(t, o);
}

// Every host DLID at every switch but its own: adaptive candidates = the ports one hop closer
// (BFS), then one escape candidate at priority 1; escape walks from every switch never take an
// up channel after a down one and end at the destination within n hops.
void check_candidates(const Topology& t, const TableSet& ts) {
  SwitchGraph g(t);
  const std::vector<int> label = updown_labels(g, TreeKind::Bfs, updown_root(g));
  int wrong = 0;
  for (int q = 0; q < t.num_hosts; ++q) {
    const int d = t.host_switch(q);
    const ibsc::Lid lid = ts.hosts[q].base_lid;
    const std::vector<int> dist = bfs_distances(g, d);
    for (int x = 0; x < g.n; ++x) {
      const auto& c = ts.switches[x].lft[lid].candidates;
      if (x == d) {
        wrong += c.size() != 1 || c[0].port != t.host_switch_port(q) || !c[0].escape;
        continue;
      }
      std::vector<int> minimal;
      for (int ch : g.out[x])
        if (dist[g.channels[ch].to] == dist[x] - 1) minimal.push_back(g.channels[ch].port);
      wrong += c.size() != minimal.size() + 1;
      for (size_t k = 0; k + 1 < c.size() && k < minimal.size(); ++k)
        wrong += c[k].port != minimal[k] || c[k].priority != 0 || c[k].escape;
      wrong += !c.back().escape || c.back().priority != 1;
      // The escape walk from x.
      bool gone_down = false;
      int y = x, steps = 0;
      for (; y != d && steps <= g.n; ++steps) {
        const int ch = g.channel_at(y, ts.switches[y].lft[lid].candidates.back().port);
        const bool up = label[g.channels[ch].to] > label[y];
        wrong += up && gone_down;
        gone_down |= !up;
        y = g.channels[ch].to;
      }
      wrong += y != d;
    }
  }
  BOOST_TEST(wrong == 0);
}

}  // namespace

BOOST_AUTO_TEST_CASE(minimal_candidates_and_a_legal_escape_pass_duato) {
  std::vector<Topology> nets{make_torus({4, 4}, 2), make_irregular(16, 8, 4, 1), make_irregular(64, 8, 4, 2)};
  for (const Topology& t : nets) {
    TableSet ts = route(t, "adaptive-updown");
    check_candidates(t, ts);
    CheckReport r = check_tables(t, ts);
    BOOST_TEST_INFO(t.num_switches << " switches\n" << r.text());
    BOOST_TEST(r.ok());
    BOOST_TEST(r.escape_channels);
    BOOST_TEST(r.cdg_edges > 0u);
    BOOST_TEST(r.text().find("escape channel dependency graph (Duato") != std::string::npos);
  }
}

// Every candidate of every LFT entry marked escape (or not).
void set_escape_flags(TableSet& ts, bool escape) {
  for (auto& st : ts.switches)
    for (size_t d = 0; d < st.lft.size(); ++d) {
      std::vector<PortCandidate> c(st.lft[d].candidates.begin(), st.lft[d].candidates.end());
      for (auto& x : c) x.escape = escape;
      if (!c.empty()) st.lft.set(d, c);
    }
}

BOOST_AUTO_TEST_CASE(the_same_candidates_without_an_escape_are_deadlock_prone) {
  // Minimal adaptive routing on a torus has cyclic dependencies when every candidate counts:
  // only the escape sub-network makes it safe.
  Topology t = make_torus({4, 4}, 1);
  TableSet ts = route(t, "adaptive-updown");
  set_escape_flags(ts, false);
  CheckReport r = check_tables(t, ts);
  BOOST_TEST(!r.escape_channels);
  BOOST_TEST(!r.deadlock_free);
}

BOOST_AUTO_TEST_CASE(duato_refuses_minimal_routing_as_the_escape_of_a_ring) {
  Topology ring = make_torus({8}, 1);
  TableSet ts = route(ring, "minhop");
  set_escape_flags(ts, true);  // escape network = minimal routing
  CheckReport r = check_tables(ring, ts);
  BOOST_TEST_INFO(r.text());
  BOOST_TEST(r.escape_channels);
  BOOST_TEST(r.connected);
  BOOST_TEST(!r.deadlock_free);
  BOOST_TEST(r.cycle.size() >= 8u);  // around the ring
  // adaptive-updown on the same ring is accepted.
  BOOST_TEST(check_tables(ring, route(ring, "adaptive-updown")).ok());
}

BOOST_AUTO_TEST_CASE(duato_refuses_an_entry_without_escape) {
  Topology t = make_irregular(16, 8, 4, 3);
  TableSet ts = route(t, "adaptive-updown");
  const ibsc::Lid lid = ts.hosts[5].base_lid;
  const int x = (t.host_switch(5) + 1) % t.num_switches;
  const auto e = ts.switches[x].lft[lid].candidates;
  std::vector<PortCandidate> c(e.begin(), e.end());
  BOOST_REQUIRE(c.size() >= 2u);
  c.pop_back();  // drop the escape candidate
  ts.switches[x].lft.set(lid, c);
  CheckReport r = check_tables(t, ts);
  BOOST_TEST(!r.deadlock_free);
  BOOST_TEST(r.text().find("0 escape candidates") != std::string::npos);
  BOOST_TEST(has_escape_candidates(ts));
  BOOST_TEST(!has_escape_candidates(escape_subnetwork(ts)));
}

BOOST_AUTO_TEST_CASE(duato_refuses_an_adaptive_candidate_to_a_host) {
  Topology t = make_irregular(16, 8, 4, 3);
  TableSet ts = route(t, "adaptive-updown");
  Lft& lft = ts.switches[t.host_switch(7)].lft;
  const auto e = lft[ts.hosts[7].base_lid].candidates;
  std::vector<PortCandidate> c(e.begin(), e.end());
  BOOST_REQUIRE(c.size() == 1u);
  c[0].escape = false;
  c.push_back({c[0].port, 1, true});  // still one escape candidate
  lft.set(ts.hosts[7].base_lid, c);
  CheckReport r = check_tables(t, ts);
  BOOST_TEST(!r.deadlock_free);
  BOOST_TEST(r.text().find("must be an escape candidate") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(updown_escape_is_the_escape_subnetwork_alone) {
  Topology t = make_irregular(64, 8, 4, 2);
  TableSet a = route(t, "adaptive-updown"), e = route(t, "updown-escape");
  CheckReport r = check_tables(t, e);
  BOOST_TEST(r.ok());
  BOOST_TEST(!r.escape_channels);  // deterministic: the plain channel dependency graph
  int differ = 0;
  for (int s = 0; s < t.num_switches; ++s)
    for (int q = 0; q < t.num_hosts; ++q) {
      const auto& ec = e.switches[s].lft[e.hosts[q].base_lid].candidates;
      const auto& ac = a.switches[s].lft[a.hosts[q].base_lid].candidates;
      differ += ec.size() != 1 || ec[0].escape || ec[0].port != ac.back().port;
    }
  BOOST_TEST(differ == 0);
}
