// Dimension-order routing on flattened butterflies and hypercubes (seeds/001 "DOR" and
// "Mixed DOR" rows). In a flattened butterfly every dimension is a full graph, so a packet
// corrects each differing coordinate in one hop, in a fixed order of dimensions; a hypercube is
// the case of size 2 in every dimension.
//   dor: one order (the highest dimension first, as e-cube), one SL, one VL. The channel
//     dependencies only go from a dimension to a later one in the order: no cycle.
//   mixed-dor: the talk's four orders 1234, 2413, 3142, 4321, chosen by the destination and
//     carried in the SL, each order on its own VL (SL = VL = order), so each VL holds one
//     acyclic DOR. The talk does not say how the destination picks its order; reconstruction:
//     order = (sum of the destination switch's coordinates + the host's index on its switch)
//     mod 4, which spreads neighbouring destinations over all four and a switch's hosts too:
//     under the bit complement a source switch's hosts then split over the four orders
//     instead of all taking one (up to four source switches' hosts on one cable). For n dimensions the four orders
//     generalise the talk's as ascending (1234), odd then even dimensions ascending (2413, 0-based 1,3,0,2), its
//     reverse (3142) and descending (4321); for n = 4 they are exactly the talk's.
// Parallel cables (link widths): dor spreads them by destination host, as e-cube does on tori;
// mixed-dor by (order + dimension), so each order's packets keep one cable per dimension and
// the orders share the cables evenly (the bit complement on a hypercube with 2 cables: 4 host
// rates per cable, bound 25%; spread by host, an input VL's stream split over both cables and
// saturated 4 steps under that bound, measured 21.9%).
#include <algorithm>
#include <string>
#include <utility>

#include "routing/graph.h"
#include "routing/lids.h"
#include "routing/routing.h"

namespace ibsc::routing {
namespace {

std::vector<std::vector<int>> dimension_orders(int n, bool mixed) {
  std::vector<int> up(n), odd_even;
  for (int d = 0; d < n; ++d) up[d] = d;
  std::vector<int> down(up.rbegin(), up.rend());
  if (!mixed) return {down};
  for (int d = 1; d < n; d += 2) odd_even.push_back(d);
  for (int d = 0; d < n; d += 2) odd_even.push_back(d);
  std::vector<int> even_odd(odd_even.rbegin(), odd_even.rend());
  return {up, odd_even, even_odd, down};
}

}  // namespace

TableSet route_dor_flatfly(const Topology& t, const RoutingOptions& opt, bool mixed) {
  if (t.kind != "flatfly" && t.kind != "hypercube")
    throw RoutingError(std::string(mixed ? "mixed-dor" : "dor") +
                       " needs a flattened butterfly or a hypercube (topology is '" + t.kind +
                       "'; tori and meshes: ecube, DOR with dateline VLs)");
  const int n = static_cast<int>(t.dims.size());
  for (int s = 0; s < t.num_switches; ++s)
    if (static_cast<int>(t.nodes[s].coord.size()) != n) throw RoutingError("dor needs switch coordinates");
  const std::vector<std::vector<int>> orders = dimension_orders(n, mixed);
  const int k = static_cast<int>(orders.size());
  if (k == 0) throw RoutingError(std::string(mixed ? "mixed-dor" : "dor") + " needs at least one dimension");
  TableSet ts;
  ts.algorithm = mixed ? "mixed-dor" : "dor";
  ts.sls_used = ts.vls_used = k;
  if (k > opt.max_sls)
    throw RoutingError("mixed-dor needs " + std::to_string(k) + " SLs; the budget is " + std::to_string(opt.max_sls));
  if (k > opt.max_vls)
    throw RoutingError("mixed-dor needs " + std::to_string(k) + " VLs; the budget is " + std::to_string(opt.max_vls));
  assign_lids(t, 0, ts, false);  // each LFT sized where it is filled, below
  std::vector<int> stride(n, 1);
  for (int d = 1; d < n; ++d) stride[d] = stride[d - 1] * t.dims[d - 1];
  std::vector<int> order_of(t.num_hosts, 0);  // [destination host] -> its order
  const std::vector<std::vector<int>> by_switch = hosts_by_switch(t);
  for (int sw = 0; sw < t.num_switches; ++sw) {
    int sum = 0;
    for (int c : t.nodes[sw].coord) sum += c;
    for (size_t i = 0; i < by_switch[sw].size(); ++i) order_of[by_switch[sw][i]] = (sum + static_cast<int>(i)) % k;
  }
  // Per source switch: its cables by neighbour switch (ports ascending), then the LFT entries
  // destination switch by destination switch (the dimension to correct depends on the
  // destination switch and the order only, so it is found once per order).
  std::vector<int> coord(static_cast<size_t>(t.num_switches) * n);  // [switch * n + dimension], read per pair
  for (int sw = 0; sw < t.num_switches; ++sw)
    for (int d = 0; d < n; ++d) coord[sw * n + d] = t.nodes[sw].coord[d];
  std::vector<Lid> lid_of(t.num_hosts);
  for (int h = 0; h < t.num_hosts; ++h) lid_of[h] = ts.hosts[h].base_lid;
  std::vector<int> cable_at(t.num_switches, -1), cables(t.num_switches, 0);
  std::vector<std::pair<int, int>> to;  // (neighbour switch, port)
  for (int s = 0; s < t.num_switches; ++s) {
    const Node& node = t.nodes[s];
    to.clear();
    for (int p = 1; p <= node.num_ports; ++p)
      if (node.ports[p].node >= 0 && node.ports[p].node < t.num_switches) to.emplace_back(node.ports[p].node, p);
    std::sort(to.begin(), to.end());  // by neighbour, its cables by port
    for (size_t i = 0; i < to.size(); ++i)
      if (cables[to[i].first]++ == 0) cable_at[to[i].first] = static_cast<int>(i);
    SwitchTables& st = ts.switches[s];
    st.lft.assign(ts.max_lid + 1);
    for (int b = 0; b < t.num_switches; ++b) {
      if (by_switch[b].empty()) continue;
      if (b == s) {
        for (int h : by_switch[b]) st.lft.set(lid_of[h], static_cast<PortNum>(t.host_switch_port(h)));
        continue;
      }
      int dim_of_order[4], next_of_order[4];  // the dimension each order corrects here, the next switch
      const int *at_s = coord.data() + s * n, *at_b = coord.data() + b * n;
      for (int o = 0; o < k; ++o) {
        int d = -1;
        for (int dim : orders[o])
          if (at_s[dim] != at_b[dim]) {
            d = dim;
            break;
          }
        const int next = s + (at_b[d] - at_s[d]) * stride[d];
        if (cable_at[next] < 0)
          throw RoutingError("dor: switch " + node.name + " has no cable to " + t.nodes[next].name +
                             " (not a full flattened butterfly)");
        dim_of_order[o] = d, next_of_order[o] = next;
      }
      if (k == 1 && cables[next_of_order[0]] == 1) {  // dor, one cable: one port for the switch's hosts
        const PortNum port = static_cast<PortNum>(to[cable_at[next_of_order[0]]].second);
        for (int h : by_switch[b]) st.lft.set(lid_of[h], port);
        continue;
      }
      for (int h : by_switch[b]) {
        const int o = order_of[h], next = next_of_order[o], n_cables = cables[next];
        // dor: by destination host; mixed-dor: by order and dimension, so that the packets of
        // one order (one VL) in one dimension share a cable and no input VL's stream splits
        // over parallel cables (a head waiting for one would block those for the other).
        const int cable = n_cables == 1 ? 0 : (k == 1 ? h : o + dim_of_order[o]) % n_cables;
        st.lft.set(lid_of[h], static_cast<PortNum>(to[cable_at[next] + cable].second));
      }
    }
    for (const auto& c : to) cable_at[c.first] = -1, cables[c.first] = 0;  // clean for the next switch
    for (int sl = 0; sl < k; ++sl)
      for (int out = 1; out <= node.num_ports; ++out)
        for (int in = 0; in <= node.num_ports; ++in) st.sl2vl.set(in, out, sl, static_cast<Vl>(sl));
  }
  PathRow row;  // the same records from every source: one row for all
  row.assign(t.num_hosts);
  for (int g = 0; g < t.num_hosts; ++g) row.set(g, {ts.hosts[g].base_lid, static_cast<Sl>(order_of[g])});
  for (int h = 0; h < t.num_hosts; ++h) {
    HostTables& ht = ts.hosts[h];
    for (int sl = 0; sl < k; ++sl) ht.sl2vl[sl] = static_cast<Vl>(sl);
    ht.paths = row;
  }
  route_switch_lids(t, SwitchGraph(t), ts);
  return ts;
}

}  // namespace ibsc::routing
