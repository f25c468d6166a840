// Adaptive dimension-order routings on flattened butterflies (seeds/001 "ADOR", "Mixed ADOR",
// "Twisted ADOR", "Twisted Mixed"). The talk gives only their names and pictures we do not
// have; this is our reconstruction (routing/README.md, seeds/001):
//   - The dimension to correct at switch s is the first coordinate, in an order, where s and
//     the destination switch differ. The minimal port (to the switch with the destination's
//     coordinate; every cable of a wide link) has priority 1 (our 0); the ports to the other
//     switches of that dimension's full graph (a non-minimal move that leaves the distance as
//     it is) have priority 2 (our 1). Other dimensions are never offered.
//   - Deadlock freedom and the bound on non-minimal moves come from the VL, which counts down
//     the hops left as in Distance+k (distance.cpp): the source sends on VL min(2d, V - 1),
//     d = the differing coordinates, each hop lowers it by one, and a non-minimal move needs
//     the VL after the hop to stay >= d. So a packet may spend up to one extra hop per
//     differing dimension, as the V VLs allow (V = 2n within the budget of 8: the 4-D
//     flattened butterfly's 8), and the dependency graph cannot close a cycle, whatever the
//     orders; which is what lets the mixed and twisted variants vary the order freely.
//   - Orders:
//       ador           one order, the highest dimension first (as dor);
//       mixed-ador     mixed-dor's four orders (1234, 2413, 3142, 4321), picked by the
//                      destination switch (coordinate sum mod 4);
//       twisted-ador   the order turns at every switch: it starts at dimension (sum of the
//                      current switch's coordinates) mod n and goes on cyclically;
//       twisted-mixed  both: the mixed order picked by (current switch's coordinate sum +
//                      destination's) mod 4.
#include <algorithm>
#include <map>
#include <string>

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
  // At least diameter + 1 VLs (minimal moves only); up to 2n for one extra hop per dimension.
  const int budget = seeds001_vl_budget(name, opt.vls, opt.max_vls, n + 1, "diameter " + std::to_string(n) + " + 1");
  const int vls = std::min(2 * n, budget);
  std::vector<std::vector<int>> orders;
  if (mixed) {  // as mixed-dor (mixed_dor.cpp)
    std::vector<int> up(n), odd_even;
    for (int d = 0; d < n; ++d) up[d] = d;
    for (int d = 1; d < n; d += 2) odd_even.push_back(d);
    for (int d = 0; d < n; d += 2) odd_even.push_back(d);
    orders = {up, odd_even, std::vector<int>(odd_even.rbegin(), odd_even.rend()),
              std::vector<int>(up.rbegin(), up.rend())};
  }
  auto coord_sum = [&](int s) {
    int sum = 0;
    for (int c : t.nodes[s].coord) sum += c;
    return sum;
  };
  auto differing = [&](int s, int dst) {
    int d = 0;
    for (int i = 0; i < n; ++i) d += t.nodes[s].coord[i] != t.nodes[dst].coord[i];
    return d;
  };
  // The dimension to correct at s for dst (the first differing one in s's order for dst).
  auto current_dim = [&](int s, int dst) {
    const auto& a = t.nodes[s].coord;
    const auto& b = t.nodes[dst].coord;
    for (int j = 0; j < n; ++j) {
      int dim;
      if (mixed) dim = orders[(twisted ? coord_sum(s) + coord_sum(dst) : coord_sum(dst)) % 4][j];
      else if (twisted) dim = (coord_sum(s) + j) % n;
      else dim = n - 1 - j;
      if (a[dim] != b[dim]) return dim;
    }
    return -1;
  };
  VlRules r;
  r.name = name;
  r.vls = vls;
  r.candidates = [&](int s, int v, int dst, std::vector<PortCandidate>& out) {
    const int here = differing(s, dst), w = v - 1, dim = current_dim(s, dst);
    if (v < here || dim < 0) return;
    const Node& node = t.nodes[s];
    for (int prio = 0; prio <= 1; ++prio)
      for (int p = 1; p <= node.num_ports; ++p) {
        const int x = node.ports[p].node;
        if (x < 0 || x >= t.num_switches) continue;
        const auto& c = t.nodes[x].coord;
        bool same_elsewhere = true;  // x differs from s only in `dim`
        for (int i = 0; i < n; ++i) same_elsewhere &= i == dim || c[i] == node.coord[i];
        if (!same_elsewhere || c[dim] == node.coord[dim]) continue;
        const bool minimal = c[dim] == t.nodes[dst].coord[dim];
        if (prio == 0 ? minimal : !minimal && here <= w)
          out.push_back({static_cast<PortNum>(p), static_cast<uint8_t>(prio)});
      }
  };
  r.next_vl = [](int, int, int, int v) { return static_cast<Vl>(v > 0 ? v - 1 : 0); };
  r.first_vl = [&](int src, int dst) { return static_cast<Vl>(std::min(2 * differing(src, dst), vls - 1)); };
  return build_vl_tables(t, r);
}

}  // namespace ibsc::routing
