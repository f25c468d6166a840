#include "routing/lids.h"

#include <algorithm>
#include <string>

#include "routing/routing.h"

namespace ibsc::routing {

void assign_lids(const Topology& t, int lmc, TableSet& ts, bool size_lfts) {
  if (lmc < 0 || lmc > kMaxLmc) throw RoutingError("LMC " + std::to_string(lmc) + " is outside 0..7");
  const long last = (static_cast<long>(t.num_hosts) + 1) * (1L << lmc) + t.num_switches - 1;
  if (last > kMaxUnicastLid)
    throw RoutingError(std::to_string(t.num_hosts) + " hosts with LMC " + std::to_string(lmc) + " and " +
                       std::to_string(t.num_switches) + " switches need LIDs up to " + std::to_string(last) +
                       "; the unicast range ends at 49151");
  ts.max_lid = static_cast<Lid>(std::max(last, 0L));
  ts.switches.assign(t.num_switches, SwitchTables{});
  ts.hosts.assign(t.num_hosts, HostTables{});
  for (int s = 0; s < t.num_switches; ++s) {
    SwitchTables& st = ts.switches[s];
    st.lid = static_cast<Lid>(((t.num_hosts + 1) << lmc) + s);
    if (size_lfts) st.lft.assign(ts.max_lid + 1);
    st.sl2vl.reset(t.nodes[s].num_ports);
  }
  PathRow none;  // one row without records, shared until an algorithm writes
  none.assign(t.num_hosts);
  for (int h = 0; h < t.num_hosts; ++h) {
    ts.hosts[h].base_lid = host_base_lid(h, lmc);
    ts.hosts[h].lmc = static_cast<uint8_t>(lmc);
    ts.hosts[h].paths = none;
  }
}

void route_switch_lids(const Topology& t, const SwitchGraph& g, TableSet& ts) {
  const FlatChannels f(g);
  const std::vector<int>&first = f.first, &to = f.to, &port = f.port;
  // One breadth-first search per destination switch d (symmetric cables: distance to d ==
  // from d). A switch x at distance L leaves the queue after every switch at L - 1 has its
  // distance, so the scan of its channels that finds the switches at L + 1 also finds its
  // first channel toward L - 1: the port its LFT sends d's LID to (once every switch has its
  // distance, the scan ends there).
  // The ports are gathered for a block of destinations and then written switch by switch (one
  // LFT entry in each of n tables per destination missed the cache every time).
  constexpr int kBlock = 128;
  constexpr uint16_t kUnset = 0xFFFF;
  std::vector<uint16_t> chosen(static_cast<size_t>(g.n) * kBlock);  // [x * kBlock + d - d0]
  std::vector<int> dist(g.n), queue(g.n);
  for (int d0 = 0; d0 < t.num_switches; d0 += kBlock) {
    const int d1 = std::min(t.num_switches, d0 + kBlock);
    std::fill(chosen.begin(), chosen.end(), kUnset);
    for (int d = d0; d < d1; ++d) {
      uint16_t* const by_x = chosen.data() + (d - d0);
      by_x[static_cast<size_t>(d) * kBlock] = 0;
      std::fill(dist.begin(), dist.end(), -1);
      dist[d] = 0;
      queue[0] = d;
      for (int head = 0, tail = 1; head < tail; ++head) {
        const int x = queue[head], below = dist[x] - 1;
        bool routed = x == d;
        for (int i = first[x]; i < first[x + 1]; ++i) {
          const int y = to[i];
          if (dist[y] < 0) {
            dist[y] = below + 2;
            queue[tail++] = y;
          } else if (!routed && dist[y] == below) {
            by_x[static_cast<size_t>(x) * kBlock] = static_cast<PortNum>(port[i]);
            routed = true;
          }
          if (routed && tail == g.n) break;  // every switch found: nothing more to discover
        }
      }
    }
    for (int x = 0; x < g.n; ++x) {
      Lft& lft = ts.switches[x].lft;
      const uint16_t* c = chosen.data() + static_cast<size_t>(x) * kBlock;
      for (int d = d0; d < d1; ++d)
        if (c[d - d0] != kUnset) lft.set(ts.switches[d].lid, static_cast<PortNum>(c[d - d0]));
    }
  }
}

std::vector<std::vector<int>> hosts_by_switch(const Topology& t) {
  std::vector<std::vector<int>> by(t.num_switches);
  for (int h = 0; h < t.num_hosts; ++h) {
    int s = t.host_switch(h);
    if (s >= 0 && s < t.num_switches) by[s].push_back(h);
  }
  return by;
}

}  // namespace ibsc::routing
