// Virtual networks (seeds/004 `vn`): the HCA picks one of a pair's path records at random for
// each packet, and the packet keeps the VL of its SL over every link to its destination.
//
// Fabric: irregular:8:seed=1:regular=1 (8-port switches, 4 hosts each), routing vn with n = 4
// (SL s -> VL s on every switch and HCA, four records per pair). One pair only, host 0 to the
// first host of the switch farthest from host 0's switch, 4,000 packets of 32 bytes every
// 400 ns (below the 128 ns a packet takes on a 1X link: nothing ever waits).
//   Spread: a fair draw gives 1,000 packets per SL; Pearson's chi-square over the 4 SLs has 3
//   degrees of freedom, and 16.27 is its 0.1% critical value, so a fair stream fails only
//   once in a thousand seeds (this seed is fixed, so the test is deterministic).
//   End to end: each packet arrives on the VL of its SL, and every link carries on VL v exactly
//   the bytes of the SL-v packets that crossed it: summed over all links, count_v x 32 bytes x
//   (switch hops + 1 host link in).
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <array>
#include <queue>

#include "routing/routing.h"
#include "routing/topo_spec.h"
#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tb/scenario/scenario.h"
#include "tb/scenario/scenario_check.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using models::Picos;

namespace {
testing::ScStrict strict;
constexpr int kVns = 4;
constexpr int kPackets = 4000;
constexpr Picos kGap = 400 * 1000;

class OnePair : public models::HcaTraffic {
 public:
  OnePair(int src, int dst) : src_(src), dst_(dst) {}
  Picos next_gap(int host) override { return host == src_ && sent_ < kPackets ? kGap : models::kNever; }
  bool make(int host, models::Packet& p) override {
    if (host != src_ || sent_ >= kPackets) return false;
    ++sent_;
    p.dst_host = static_cast<uint32_t>(dst_);
    p.length = 32;
    return true;
  }
  void generated(models::Packet& p, Picos) override { p.measured = true; }
  void delivered(const models::Packet& p, Picos) override {
    ++per_sl[p.sl];
    if (p.vl != p.sl) ++vl_changed;
    hops_per_sl[p.sl] += p.hops;
  }
  std::array<uint64_t, 16> per_sl{}, hops_per_sl{};
  uint64_t vl_changed = 0;

 private:
  int src_, dst_, sent_ = 0;
};

// The first host on the switch with the most switch hops from switch `from` (BFS).
int farthest_host(const routing::Topology& t, int from) {
  std::vector<int> dist(t.num_switches, -1);
  std::queue<int> q;
  dist[from] = 0;
  q.push(from);
  int last = from;
  while (!q.empty()) {
    int s = q.front();
    q.pop();
    last = s;
    for (int p = 1; p <= t.nodes[s].num_ports; ++p) {
      int n = t.nodes[s].ports[p].node;
      if (n >= 0 && t.is_switch(n) && dist[n] < 0) {
        dist[n] = dist[s] + 1;
        q.push(n);
      }
    }
  }
  BOOST_REQUIRE(dist[last] >= 2);
  for (int h = 0; h < t.num_hosts; ++h)
    if (t.host_switch(h) == last) return h;
  BOOST_FAIL("no host on the farthest switch");
  return -1;
}
}  // namespace

BOOST_AUTO_TEST_CASE(random_sl_per_packet_spread_and_kept_end_to_end) {
  routing::Topology topo = routing::build_topology_spec("irregular:8:seed=1:regular=1");
  routing::RoutingOptions o;
  o.algorithm = routing::Algorithm::Vn;
  o.vls = kVns;
  routing::TableSet tables = routing::compute_routing(topo, o);
  BOOST_REQUIRE(tables.path_choice == routing::PathChoice::RandomPerPacket);
  const int dst = farthest_host(topo, topo.host_switch(0));
  OnePair traffic(0, dst);
  tb::FabricParams p;
  p.sw.num_vls = kVns;
  p.path_seed = 7;
  tb::Fabric fabric(topo, tables, p, traffic, tb::make_arbiter_factory({}));
  sc_core::sc_start(sc_core::sc_time(kPackets * 0.4 + 20, sc_core::SC_US));
  fabric.check_conservation();

  uint64_t total = 0;
  double chi2 = 0;
  const double expected = static_cast<double>(kPackets) / kVns;
  for (int s = 0; s < kVns; ++s) {
    total += traffic.per_sl[s];
    chi2 += (traffic.per_sl[s] - expected) * (traffic.per_sl[s] - expected) / expected;
    BOOST_TEST_MESSAGE("SL " << s << ": " << traffic.per_sl[s] << " packets");
  }
  for (int s = kVns; s < 16; ++s) BOOST_TEST(traffic.per_sl[s] == 0u);  // only the n virtual networks
  BOOST_TEST(total == static_cast<uint64_t>(kPackets));
  BOOST_TEST(chi2 < 16.27, "chi-square " << chi2 << " over " << kVns << " SLs");
  BOOST_TEST(traffic.vl_changed == 0u);

  // Every link's bytes per VL: only SL-v packets on VL v, on every link they crossed.
  std::array<uint64_t, 16> link_bytes{};
  for (const auto& l : fabric.links()) {
    const auto b = l.link->bytes_per_vl();
    for (int v = 0; v < kVns; ++v) link_bytes[v] += b[v];
    for (size_t v = kVns; v + 1 < b.size(); ++v) BOOST_TEST(b[v] == 0u);
  }
  for (int s = 0; s < kVns; ++s)
    BOOST_TEST(link_bytes[s] == 32 * (traffic.hops_per_sl[s] + traffic.per_sl[s]), "VL " << s);
}

// A scenario with routing vn is accepted now (it was refused while the HCA sent on the first
// record only), and its tables ask for the per-packet choice.
BOOST_AUTO_TEST_CASE(scenario_with_vn_is_accepted) {
  tb::Scenario s = tb::load_scenario(
      IBSC_SOURCE_DIR "/scenarios/quickstart.yaml",
      {"topology.spec=irregular:8:seed=1:regular=1", "routing.algorithm=vn", "routing.vls=8", "switch.num_vls=8"});
  routing::Topology topo;
  routing::TableSet tables;
  tb::prepare_scenario(s, topo, tables);
  BOOST_TEST(tables.sls_used == 8);
  BOOST_TEST((tables.path_choice == routing::PathChoice::RandomPerPacket));
}
