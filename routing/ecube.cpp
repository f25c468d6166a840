// e-cube (dimension-order) routing for k-ary n-cubes on IBA (seeds/000 section 2).
// Paths: dimensions in decreasing order, the shorter way around each ring; at a tie
// (distance k/2) a direction chosen by the destination's coordinate parity (see go_plus).
// Deadlock avoidance (Dally and Seitz) with 2 VLs on tori: a packet's SL has bit d set when its
// path uses the wraparound channel of dimension d (Table 1: 2^n SLs). On a minimal path a
// packet is before its wraparound only at coordinates >= k/2 when moving + (< k/2 when moving
// -), so each switch's SL2VL, from (output port, SL) and its own position, gives:
//   moving +: VL1 unless the packet will still wrap (then VL0);
//   moving -: VL0 unless the packet will still wrap (then VL1).
// Neither VL of a ring then carries a cycle. Meshes need neither wraparound SLs nor a second
// VL. "dor1vl" keeps the paths with one SL and one VL: the classic deadlock-prone case.
#include <stdexcept>
#include <string>

#include "routing/graph.h"
#include "routing/lids.h"
#include "routing/routing.h"

namespace ibsc::routing {
namespace {

struct Hop {
  int dim = -1;
  bool plus = true;
};

// Direction taken in dimension d from coordinate a toward b (a != b). On a ring the shorter
// way. At a tie (k even, distance k/2) the direction depends on the destination only (an LFT
// knows nothing else): + when the sum of the destination's coordinates is even, - otherwise.
// Half the tied pairs then take each direction and, on k = 4 and 8 and on 4x4x4, every channel
// carries the same number of switch-pair paths (crossing 8, 64, 32, deviation 0; seeds/000
// Table 2 lists 10, 70, 48 there, from its traffic-balancing path selection). A mesh has one way.
bool go_plus(int a, int b, int k, bool torus, int dest_parity) {
  if (!torus || k == 2) return b > a;  // a 2-ring is one cable, from 0's + port
  int fwd = (b - a + k) % k, back = k - fwd;
  return fwd < back || (fwd == back && dest_parity == 0);
}

bool wraps(int a, int b, int k, bool torus, int dest_parity) {
  if (!torus || a == b) return false;
  return go_plus(a, b, k, torus, dest_parity) ? b < a : b > a;
}

int parity(const Node& n) {
  int sum = 0;
  for (int c : n.coord) sum += c;
  return sum & 1;
}

}  // namespace

TableSet route_ecube(const Topology& t, const RoutingOptions& opt, bool one_vl) {
  if (t.kind != "torus" && t.kind != "mesh" && t.kind != "hypercube")
    throw RoutingError("e-cube routing needs a torus, mesh or hypercube (topology is '" + t.kind + "')");
  const int n = static_cast<int>(t.dims.size());
  const bool torus = t.kind == "torus";
  TableSet ts;
  ts.algorithm = one_vl ? "dor1vl" : "ecube";
  const bool cube = t.kind == "hypercube";       // ports per dimension instead of + / - pairs
  std::vector<int> width(n, 1), base(n + 1, 1);  // lanes per dimension and first port (torus.cpp)
  std::vector<int> cube_base(n + 1, 1);          // hypercube: one port per lane (generators.cpp)
  for (int d = 0; d < n; ++d) {
    if (!t.widths.empty()) width[d] = t.widths.at(d);
    base[d + 1] = base[d] + 2 * width[d];
    cube_base[d + 1] = cube_base[d] + width[d];
  }
  // SL bit per dimension that has a wraparound cable (k > 2; a 2-ring is one cable).
  std::vector<int> bit(n, -1);
  int bits = 0;
  for (int d = 0; d < n; ++d)
    if (torus && !one_vl && t.dims[d] > 2) bit[d] = bits++;
  ts.sls_used = 1 << bits;
  ts.vls_used = bits ? 2 : 1;
  if (ts.sls_used > opt.max_sls || ts.sls_used > kNumSls)
    throw RoutingError("e-cube on a " + std::to_string(n) + "-dimensional torus needs " + std::to_string(ts.sls_used) +
                       " SLs; the budget is " + std::to_string(std::min(opt.max_sls, kNumSls)));
  if (ts.vls_used > opt.max_vls)
    throw RoutingError("e-cube on a torus needs 2 VLs; the budget is " + std::to_string(opt.max_vls));
  for (int s = 0; s < t.num_switches; ++s)
    if (static_cast<int>(t.nodes[s].coord.size()) != n) throw RoutingError("e-cube needs switch coordinates");
  assign_lids(t, 0, ts);
  auto coord = [&](int s, int d) { return t.nodes[s].coord[d]; };
  // dor1vl breaks every tie toward + (textbook DOR): each ring of k >= 4 then keeps its cyclic
  // dependency, which is what the deadlock demonstrations need (a 3-ring has none: one hop).
  auto tie = [&](const Node& dest) { return one_vl ? 0 : parity(dest); };

  for (int s = 0; s < t.num_switches; ++s) {
    const Node& node = t.nodes[s];
    SwitchTables& st = ts.switches[s];
    for (int h = 0; h < t.num_hosts; ++h) {
      int b = t.host_switch(h);
      PortNum port;
      if (b == s) {
        port = static_cast<PortNum>(t.host_switch_port(h));
      } else {
        int d = n - 1;
        while (coord(s, d) == coord(b, d)) --d;
        // Parallel lanes: the destination host picks one, so each LFT entry stays one port.
        const bool plus = go_plus(coord(s, d), coord(b, d), t.dims[d], torus, tie(t.nodes[b]));
        port = static_cast<PortNum>(cube ? cube_base[d] + h % width[d] : base[d] + 2 * (h % width[d]) + (plus ? 0 : 1));
      }
      st.lft.set(ts.hosts[h].base_lid, port);
    }
    if (ts.vls_used == 2)
      for (int out = 1; out < base[n]; ++out) {
        int d = 0;
        while (out >= base[d + 1]) ++d;
        const int k = t.dims[d], c = node.coord[d];
        const bool plus = (out - base[d]) % 2 == 0;
        for (int sl = 0; sl < ts.sls_used; ++sl) {
          const bool will_wrap = bit[d] >= 0 && (sl >> bit[d] & 1) && (plus ? 2 * c >= k : 2 * c < k);
          Vl vl = plus ? (will_wrap ? 0 : 1) : (will_wrap ? 1 : 0);
          for (int in = 0; in <= node.num_ports; ++in) st.sl2vl.set(in, out, sl, vl);
        }
      }
  }
  std::vector<PathRow> rows(t.num_switches);  // the records depend on the source switch only
  for (int h = 0; h < t.num_hosts; ++h) {
    HostTables& ht = ts.hosts[h];
    for (int sl = 0; sl < ts.sls_used; ++sl) ht.sl2vl[sl] = 0;  // the first hop never wraps: see above
    const int a = t.host_switch(h);
    PathRow& row = rows[a];
    if (row.size() == 0) {
      row.assign(t.num_hosts);
      for (int g = 0; g < t.num_hosts; ++g) {
        const int b = t.host_switch(g);
        Sl sl = 0;
        if (ts.sls_used > 1)
          for (int d = 0; d < n; ++d)
            if (wraps(coord(a, d), coord(b, d), t.dims[d], torus, tie(t.nodes[b]))) sl |= static_cast<Sl>(1 << bit[d]);
        row.set(g, {ts.hosts[g].base_lid, sl});
      }
    }
    ht.paths = row;
  }
  route_switch_lids(t, SwitchGraph(t), ts);
  return ts;
}

}  // namespace ibsc::routing
