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

// route_dor_flatfly(): its members are the fabric in flat arrays and the source switch's cables
// by neighbour; its methods the checks, one switch's tables and the hosts' records.
class DorRouter {
 public:
  DorRouter(const Topology& t, const RoutingOptions& opt, bool mixed);
  TableSet run();

 private:
  void switch_tables(int s);
  void lft_toward(int s, int b);
  void host_records();

  const Topology& t_;
  const int n_;
  std::vector<std::vector<int>> orders_;
  int k_ = 0;
  TableSet ts_;
  std::vector<int> stride_;
  std::vector<int> order_of_;  // [destination host] -> its order
  std::vector<std::vector<int>> by_switch_;
  std::vector<int> coord_;  // [switch * n + dimension], read per pair
  std::vector<Lid> lid_of_;
  // Per source switch: its cables by neighbour switch (ports ascending), then the LFT entries
  // destination switch by destination switch (the dimension to correct depends on the
  // destination switch and the order only, so it is found once per order).
  std::vector<int> cable_at_, cables_;
  std::vector<std::pair<int, int>> to_;  // (neighbour switch, port)
};

DorRouter::DorRouter(const Topology& t, const RoutingOptions& opt, bool mixed)
    : t_(t), n_(static_cast<int>(t.dims.size())) {
  if (t.kind != "flatfly" && t.kind != "hypercube")
    throw RoutingError(std::string(mixed ? "mixed-dor" : "dor") +
                       " needs a flattened butterfly or a hypercube (topology is '" + t.kind +
                       "'; tori and meshes: ecube, DOR with dateline VLs)");
  const int n = n_;
  for (int s = 0; s < t.num_switches; ++s)
    if (static_cast<int>(t.nodes[s].coord.size()) != n) throw RoutingError("dor needs switch coordinates");
  orders_ = dimension_orders(n, mixed);
  k_ = static_cast<int>(orders_.size());
  const int k = k_;
  if (k == 0) throw RoutingError(std::string(mixed ? "mixed-dor" : "dor") + " needs at least one dimension");
  ts_.algorithm = mixed ? "mixed-dor" : "dor";
  ts_.sls_used = ts_.vls_used = k;
  if (k > opt.max_sls)
    throw RoutingError("mixed-dor needs " + std::to_string(k) + " SLs; the budget is " + std::to_string(opt.max_sls));
  if (k > opt.max_vls)
    throw RoutingError("mixed-dor needs " + std::to_string(k) + " VLs; the budget is " + std::to_string(opt.max_vls));
  assign_lids(t, 0, ts_, false);  // each LFT sized where it is filled, below
  stride_.assign(n, 1);
  for (int d = 1; d < n; ++d) stride_[d] = stride_[d - 1] * t.dims[d - 1];
  order_of_.assign(t.num_hosts, 0);
  by_switch_ = hosts_by_switch(t);
  for (int sw = 0; sw < t.num_switches; ++sw) {
    int sum = 0;
    for (int c : t.nodes[sw].coord) sum += c;
    for (size_t i = 0; i < by_switch_[sw].size(); ++i) order_of_[by_switch_[sw][i]] = (sum + static_cast<int>(i)) % k;
  }
  coord_.resize(static_cast<size_t>(t.num_switches) * n);
  for (int sw = 0; sw < t.num_switches; ++sw)
    for (int d = 0; d < n; ++d) coord_[sw * n + d] = t.nodes[sw].coord[d];
  lid_of_.resize(t.num_hosts);
  for (int h = 0; h < t.num_hosts; ++h) lid_of_[h] = ts_.hosts[h].base_lid;
  cable_at_.assign(t.num_switches, -1), cables_.assign(t.num_switches, 0);
}

// Switch s's LFT entries toward the hosts of switch b (not s).
void DorRouter::lft_toward(int s, int b) {
  const int n = n_, k = k_;
  SwitchTables& st = ts_.switches[s];
  int dim_of_order[4], next_of_order[4];  // the dimension each order corrects here, the next switch
  const int *at_s = coord_.data() + s * n, *at_b = coord_.data() + b * n;
  for (int o = 0; o < k; ++o) {
    int d = -1;
    for (int dim : orders_[o])
      if (at_s[dim] != at_b[dim]) {
        d = dim;
        break;
      }
    const int next = s + (at_b[d] - at_s[d]) * stride_[d];
    if (cable_at_[next] < 0)
      throw RoutingError("dor: switch " + t_.nodes[s].name + " has no cable to " + t_.nodes[next].name +
                         " (not a full flattened butterfly)");
    dim_of_order[o] = d, next_of_order[o] = next;
  }
  if (k == 1 && cables_[next_of_order[0]] == 1) {  // dor, one cable: one port for the switch's hosts
    const PortNum port = static_cast<PortNum>(to_[cable_at_[next_of_order[0]]].second);
    for (int h : by_switch_[b]) st.lft.set(lid_of_[h], port);
    return;
  }
  for (int h : by_switch_[b]) {
    const int o = order_of_[h], next = next_of_order[o], n_cables = cables_[next];
    // dor: by destination host; mixed-dor: by order and dimension, so that the packets of
    // one order (one VL) in one dimension share a cable and no input VL's stream splits
    // over parallel cables (a head waiting for one would block those for the other).
    const int cable = n_cables == 1 ? 0 : (k == 1 ? h : o + dim_of_order[o]) % n_cables;
    st.lft.set(lid_of_[h], static_cast<PortNum>(to_[cable_at_[next] + cable].second));
  }
}

void DorRouter::switch_tables(int s) {
  const Node& node = t_.nodes[s];
  to_.clear();
  for (int p = 1; p <= node.num_ports; ++p)
    if (node.ports[p].node >= 0 && node.ports[p].node < t_.num_switches) to_.emplace_back(node.ports[p].node, p);
  std::sort(to_.begin(), to_.end());  // by neighbour, its cables by port
  for (size_t i = 0; i < to_.size(); ++i)
    if (cables_[to_[i].first]++ == 0) cable_at_[to_[i].first] = static_cast<int>(i);
  SwitchTables& st = ts_.switches[s];
  st.lft.assign(ts_.max_lid + 1);
  for (int b = 0; b < t_.num_switches; ++b) {
    if (by_switch_[b].empty()) continue;
    if (b == s) {
      for (int h : by_switch_[b]) st.lft.set(lid_of_[h], static_cast<PortNum>(t_.host_switch_port(h)));
      continue;
    }
    lft_toward(s, b);
  }
  for (const auto& c : to_) cable_at_[c.first] = -1, cables_[c.first] = 0;  // clean for the next switch
  for (int sl = 0; sl < k_; ++sl)
    for (int out = 1; out <= node.num_ports; ++out)
      for (int in = 0; in <= node.num_ports; ++in) st.sl2vl.set(in, out, sl, static_cast<Vl>(sl));
}

void DorRouter::host_records() {
  PathRow row;  // the same records from every source: one row for all
  row.assign(t_.num_hosts);
  for (int g = 0; g < t_.num_hosts; ++g) row.set(g, {ts_.hosts[g].base_lid, static_cast<Sl>(order_of_[g])});
  for (int h = 0; h < t_.num_hosts; ++h) {
    HostTables& ht = ts_.hosts[h];
    for (int sl = 0; sl < k_; ++sl) ht.sl2vl[sl] = static_cast<Vl>(sl);
    ht.paths = row;
  }
}

TableSet DorRouter::run() {
  for (int s = 0; s < t_.num_switches; ++s) switch_tables(s);
  host_records();
  route_switch_lids(t_, SwitchGraph(t_), ts_);
  return std::move(ts_);
}

}  // namespace

TableSet route_dor_flatfly(const Topology& t, const RoutingOptions& opt, bool mixed) {
  return DorRouter(t, opt, mixed).run();
}

}  // namespace ibsc::routing
