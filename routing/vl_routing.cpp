#include "routing/vl_routing.h"

#include <string>

#include "routing/graph.h"
#include "routing/lids.h"
#include "routing/routing.h"

namespace ibsc::routing {

int seeds001_vl_budget(const std::string& name, int vls, int max_vls, int need, const std::string& why) {
  constexpr int kTalkVls = 8;  // seeds/001: 8 VLs per port
  const int budget = std::min(vls > 0 ? vls : kTalkVls, max_vls);
  if (need > budget)
    throw RoutingError(
        name + " needs " + std::to_string(need) + " VLs (" + why + "); the budget is " + std::to_string(budget) +
        (vls > 0 ? " (routing.vls / --vls)" : " (seeds/001's 8; routing.vls / --vls raises it up to 15)"));
  return budget;
}

TableSet build_vl_tables(const Topology& t, const VlRules& r) {
  if (r.vls < 1 || r.vls > kMaxDataVls)
    throw RoutingError(r.name + ": " + std::to_string(r.vls) + " VLs, outside 1.." + std::to_string(kMaxDataVls));
  TableSet ts;
  ts.algorithm = r.name;
  ts.vls_used = ts.sls_used = r.vls;
  assign_lids(t, 0, ts);
  route_switch_lids(t, SwitchGraph(t), ts);
  const auto by_switch = hosts_by_switch(t);
  std::vector<PortCandidate> c;
  for (int s = 0; s < t.num_switches; ++s) {
    SwitchTables& st = ts.switches[s];
    const Node& node = t.nodes[s];
    st.lft_per_input_vl.assign(r.vls, st.lft);
    for (int v = 0; v < r.vls; ++v) {
      Lft& lft = st.lft_per_input_vl[v];
      for (int d = 0; d < t.num_switches; ++d) {
        const std::vector<int>& hosts = by_switch[d];
        if (hosts.empty()) continue;
        if (d == s) {
          for (int h : hosts) lft.set(ts.hosts[h].base_lid, static_cast<PortNum>(t.host_switch_port(h)));
          continue;
        }
        c.clear();
        r.candidates(s, v, d, c);
        const Lid first = ts.hosts[hosts.front()].base_lid;
        lft.set(first, c);
        for (size_t i = 1; i < hosts.size(); ++i) lft.share(ts.hosts[hosts[i]].base_lid, first);
      }
    }
    // The plain LFT (read by tools that know one LFT, e.g. exports): each DLID's first
    // candidate on the highest input VL.
    const Lft& top = st.lft_per_input_vl.back();
    for (int h = 0; h < t.num_hosts; ++h) {
      const Lid l = ts.hosts[h].base_lid;
      if (top[l].routed()) st.lft.set(l, top[l].candidates.front().port, top[l].candidates.front().priority);
    }
    st.sl2vl.reset(node.num_ports, Sl2VlTable::Key::InputVl);
    for (int in = 0; in <= node.num_ports; ++in)
      for (int out = 1; out <= node.num_ports; ++out) {
        const int peer = node.ports[out].node;
        if (peer < 0) continue;
        for (int v = 0; v < r.vls; ++v)
          st.sl2vl.set(in, out, v, peer < t.num_switches ? r.next_vl(s, in, out, v) : static_cast<Vl>(v));
      }
  }
  for (int s = 0; s < t.num_switches; ++s) {
    if (by_switch[s].empty()) continue;
    PathRow row;  // one row per source switch: the first VL depends on (source, destination) switch
    row.assign(t.num_hosts);
    for (int g = 0; g < t.num_hosts; ++g) {
      const int d = t.host_switch(g);
      if (d < 0) continue;
      const Vl vl = r.first_vl(s, d);
      if (vl >= r.vls) throw RoutingError(r.name + ": first VL " + std::to_string(vl) + " beyond its VLs");
      row.set(g, {ts.hosts[g].base_lid, static_cast<Sl>(vl)});
    }
    for (int h : by_switch[s]) {
      HostTables& ht = ts.hosts[h];
      for (int v = 0; v < kNumSls; ++v) ht.sl2vl[v] = static_cast<Vl>(v < r.vls ? v : 0);
      ht.paths = row;
    }
  }
  return ts;
}

}  // namespace ibsc::routing
