#include "routing/lids.h"

#include <string>

#include "routing/routing.h"

namespace ibsc::routing {

void assign_lids(const Topology& t, int lmc, TableSet& ts) {
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
    st.lft.assign(ts.max_lid + 1);
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
  for (int d = 0; d < t.num_switches; ++d) {
    const Lid lid = ts.switches[d].lid;
    std::vector<int> dist = bfs_distances(g, d);  // symmetric cables: distance to d == from d
    ts.switches[d].lft.set(lid, 0);
    for (int x = 0; x < t.num_switches; ++x) {
      if (x == d || dist[x] < 0) continue;
      for (int c : g.out[x])
        if (dist[g.channels[c].to] == dist[x] - 1) {
          ts.switches[x].lft.set(lid, static_cast<PortNum>(g.channels[c].port));
          break;
        }
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
