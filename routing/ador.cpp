// Adaptive dimension-order routings on flattened butterflies (seeds/001 "ADOR", "Mixed ADOR",
// "Twisted ADOR", "Twisted Mixed"). The talk gives only their names, pictures we do not have
// and its hardware (8 VLs, one LFT per input VL, VL2VL); this is our reconstruction
// (routing/README.md, seeds/001):
//   - Dimensions are corrected one at a time, in an order. In the current dimension (the first
//     one, in the order, where the switch and the destination switch differ) the minimal port
//     (every cable of a wide link) has priority 1 (our 0); the ports to the other switches of
//     that dimension's full graph, a detour that leaves the distance as it is, priority 2 (our
//     1). At most one detour per dimension: two hops per dimension, 2n on n dimensions, which is
//     what the talk's 8 VLs allow on its 4-D flattened butterfly.
//   - The VL of a switch-to-switch hop = 2 x (dimensions the packet may still enter after this
//     one) + 1 on the first hop in a dimension, + 0 on the second. VL2VL (input VL, input port,
//     output port) sees the dimension of both ports: a hop in the same dimension as the last one
//     lowers the VL by one, a hop into another dimension to the next odd VL below. The HCA sends
//     on VL 2d (d = differing coordinates), read as "d dimensions left, none started"; for d = n
//     that would be VL 2n, beyond the 2n VLs, so it sends on VL 0, which no packet with n
//     coordinates left can otherwise carry (its VL is at least 2n - 1). The LFT of input VL v
//     offers the detour only while v >= 2d (an odd v = 2d - 1 is a packet that has just made its
//     detour in the current dimension and owes it the minimal hop).
//   - Every switch-to-switch hop lowers the VL, so the channel dependency graph is acyclic for
//     any choice of orders: 2n VLs whatever the order, where VLs bound to dimensions would need
//     2n per order (32 for the four mixed orders).
//   - Orders (a detour never changes the order, which the VL accounting relies on):
//       ador           one order, the highest dimension first (as dor);
//       mixed-ador     mixed-dor's four orders (1234, 2413, 3142, 4321), picked by the
//                      destination host as mixed-dor does (its switch's coordinate sum + its
//                      class, the host's index on its switch mod 4: build_vl_tables' classes);
//       twisted-ador   the order turns by one dimension at every coordinate corrected: it starts
//                      at dimension (destination's coordinate sum + class + coordinates the
//                      current switch shares with it) mod n and goes on cyclically (n classes);
//       twisted-mixed  both: the mixed order picked by (destination's coordinate sum + class +
//                      coordinates the current switch shares with it) mod 4.
//     An order per destination host, not per switch: under the bit complement the 8 hosts of a
//     switch then take the four orders two by two, and no (switch, dimension) gathers more than
//     the 8 host rates ADOR's one order puts there (routing/README.md).
#include <algorithm>
#include <string>
#include <utility>

#include "routing/routing.h"
#include "routing/vl_routing.h"

namespace ibsc::routing {

TableSet route_ador(const Topology& t, const RoutingOptions& opt, Algorithm variant) {
  const std::string name = enum_name(variant);
  const bool mixed = variant == Algorithm::MixedAdor || variant == Algorithm::TwistedMixed;
  const bool twisted = variant == Algorithm::TwistedAdor || variant == Algorithm::TwistedMixed;
  if (t.kind != "flatfly" && t.kind != "hypercube")
    throw RoutingError(name + " needs a flattened butterfly or a hypercube (topology is '" + t.kind + "')");
  const int n = static_cast<int>(t.dims.size());
  if (n == 0) throw RoutingError(name + " needs at least one dimension");
  for (int s = 0; s < t.num_switches; ++s)
    if (static_cast<int>(t.nodes[s].coord.size()) != n) throw RoutingError(name + " needs switch coordinates");
  const int vls = 2 * n;
  seeds001_vl_budget(name, opt.vls, opt.max_vls, vls, "2 per dimension, " + std::to_string(n) + " dimensions");
  std::vector<std::vector<int>> orders;
  if (mixed) {  // as mixed-dor (mixed_dor.cpp)
    std::vector<int> up(n), odd_even;
    for (int d = 0; d < n; ++d) up[d] = d;
    for (int d = 1; d < n; d += 2) odd_even.push_back(d);
    for (int d = 0; d < n; d += 2) odd_even.push_back(d);
    orders = {up, odd_even, std::vector<int>(odd_even.rbegin(), odd_even.rend()),
              std::vector<int>(up.rbegin(), up.rend())};
  }
  // Coordinates flat, [switch * n + dimension], and their sums (read once per pair below).
  std::vector<int> coord(static_cast<size_t>(t.num_switches) * n), sum_of(t.num_switches, 0);
  for (int s = 0; s < t.num_switches; ++s)
    for (int i = 0; i < n; ++i) coord[s * n + i] = t.nodes[s].coord[i], sum_of[s] += t.nodes[s].coord[i];
  auto coord_sum = [&](int s) { return sum_of[s]; };
  auto differing = [&](int s, int dst) {
    int d = 0;
    for (int i = 0; i < n; ++i) d += coord[s * n + i] != coord[dst * n + i];
    return d;
  };
  // The dimension to correct at s for dst: the first differing one in the order, which depends
  // on s only through the coordinates it shares with dst (a detour keeps them).
  auto current_dim = [&](int s, int dst, int cls) {
    const int* a = coord.data() + s * n;
    const int* b = coord.data() + dst * n;
    const int turn = cls + (twisted ? n - differing(s, dst) : 0);
    for (int j = 0; j < n; ++j) {
      int dim;
      if (mixed) dim = orders[(coord_sum(dst) + turn) % 4][j];
      else if (twisted) dim = (coord_sum(dst) + turn + j) % n;
      else dim = n - 1 - j;
      if (a[dim] != b[dim]) return dim;
    }
    return -1;
  };
  // The dimension a switch port's cable runs in (-1: a host or nothing).
  auto port_dim = [&](int s, int p) {
    if (p <= 0) return -1;
    const int x = t.nodes[s].ports[p].node;
    if (x < 0 || x >= t.num_switches) return -1;
    for (int i = 0; i < n; ++i)
      if (t.nodes[x].coord[i] != t.nodes[s].coord[i]) return i;
    return -1;
  };
  VlRules r;
  r.name = name;
  r.vls = vls;
  r.classes = mixed ? 4 : twisted ? n : 1;
  // The dimension of every switch port, once (port_dim compares coordinates).
  std::vector<std::vector<int>> dim_of(t.num_switches);
  for (int s = 0; s < t.num_switches; ++s)
    for (int p = 0; p <= t.nodes[s].num_ports; ++p) dim_of[s].push_back(port_dim(s, p));
  // The moves on VL v are a prefix of one list per (switch, destination): the minimal ports,
  // then the detours (only while left >= 2 x here). build_vl_tables asks VL after VL for one
  // pair, so the list is made once per pair, from the ports of the switch in each dimension
  // (ascending) with the far switch's coordinate there, found once per switch (the pairs come
  // switch by switch).
  std::vector<PortCandidate> all;
  std::vector<std::vector<std::pair<PortNum, int>>> dim_ports(n);
  int all_s = -1, all_dst = -1, ports_s = -1, here = 0, minimal_end = 0;
  auto make_all = [&](int s, int dst_class) {
    if (s != all_s || dst_class != all_dst) {
      const DestinationClass to(t, dst_class);
      const int dst = to.sw;
      here = differing(s, dst);
      const int dim = current_dim(s, dst, to.cls);
      if (s != ports_s) {
        const Node& node = t.nodes[s];
        for (auto& l : dim_ports) l.clear();
        for (int p = 1; p <= node.num_ports; ++p)
          if (dim_of[s][p] >= 0)
            dim_ports[dim_of[s][p]].emplace_back(static_cast<PortNum>(p), coord[node.ports[p].node * n + dim_of[s][p]]);
        ports_s = s;
      }
      all.clear();
      minimal_end = 0;
      if (dim >= 0) {  // the minimal ports (to dst's coordinate), then the detours
        const int want = coord[dst * n + dim];
        for (const auto& [p, c] : dim_ports[dim])
          if (c == want) all.push_back({p, 0});
        minimal_end = static_cast<int>(all.size());
        for (const auto& [p, c] : dim_ports[dim])
          if (c != want) all.push_back({p, 1});
      }
      if (dim < 0) here = -1;  // no moves
      all_s = s, all_dst = dst_class;
    }
  };
  r.candidates = [&](int s, int v, int dst, std::vector<PortCandidate>& out) {
    make_all(s, dst);
    const int left = v == 0 && here == n ? 2 * n : v;  // VL 0 from the HCA
    if (here < 0 || left < 2 * here - 1) return;       // no packet arrives so
    out.insert(out.end(), all.begin(), all.begin() + (left >= 2 * here ? all.size() : minimal_end));
  };
  // The lists of every VL follow from here, the list and where its minimal ports end.
  r.column_key = [&](int s, int dst, std::string& key) {
    make_all(s, dst);
    key.push_back(static_cast<char>(here));
    key.push_back(static_cast<char>(minimal_end));
    key.append(reinterpret_cast<const char*>(all.data()), all.size() * sizeof(PortCandidate));
  };
  // At one switch the lists follow from here, the dimension and the destination's coordinate
  // in it (the ports of that dimension are the switch's own).
  int span = 1;  // coordinates per dimension, at most
  for (int c : coord) span = std::max(span, c + 1);
  r.local_keys = 1 + (n + 1) * n * span;
  r.local_key = [&, span](int s, int dst_class) {
    const DestinationClass to(t, dst_class);
    const int dim = current_dim(s, to.sw, to.cls);
    if (dim < 0) return 0;  // no moves
    return 1 + (differing(s, to.sw) * n + dim) * span + coord[to.sw * n + dim];
  };
  r.next_vl = [&](int s, int in_port, int out_port, int v) {
    const int from = dim_of[s][in_port];
    int w;
    if (from >= 0 && from == dim_of[s][out_port]) w = v - 1;  // the second hop in a dimension
    else if (v == 0) w = 2 * n - 1;                           // first hop, n dimensions left
    else w = v % 2 ? v - 2 : v - 1;                           // into another dimension: next odd VL below
    return static_cast<Vl>(w > 0 ? w : 0);                    // w < 0: a state no packet reaches
  };
  r.first_vl = [&](int src, int dst_class) {
    const int d = differing(src, DestinationClass(t, dst_class).sw);
    return static_cast<Vl>(d == n ? 0 : 2 * d);
  };
  return build_vl_tables(t, r);
}

}  // namespace ibsc::routing
