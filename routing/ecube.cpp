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

// route_ecube(): its members are the port layout and the SL bits of the dimensions; its
// methods one switch's LFT and SL2VL, and the hosts' records.
class EcubeRouter {
 public:
  EcubeRouter(const Topology& t, const RoutingOptions& opt, bool one_vl);
  TableSet run();

 private:
  int coord(int s, int d) const { return t_.nodes[s].coord[d]; }
  // dor1vl breaks every tie toward + (textbook DOR): each ring of k >= 4 then keeps its cyclic
  // dependency, which is what the deadlock demonstrations need (a 3-ring has none: one hop).
  int tie(const Node& dest) const { return one_vl_ ? 0 : parity(dest); }
  void switch_lft(int s);
  void switch_sl2vl(int s);
  void host_records();

  const Topology& t_;
  const bool one_vl_;
  const int n_;
  const bool torus_;
  const bool cube_;  // ports per dimension instead of + / - pairs
  TableSet ts_;
  std::vector<int> width_, base_;  // lanes per dimension and first port (torus.cpp)
  std::vector<int> cube_base_;     // hypercube: one port per lane (generators.cpp)
  std::vector<int> bit_;           // SL bit per dimension that has a wraparound cable
};

EcubeRouter::EcubeRouter(const Topology& t, const RoutingOptions& opt, bool one_vl)
    : t_(t),
      one_vl_(one_vl),
      n_(static_cast<int>(t.dims.size())),
      torus_(t.kind == "torus"),
      cube_(t.kind == "hypercube") {
  if (t.kind != "torus" && t.kind != "mesh" && t.kind != "hypercube")
    throw RoutingError("e-cube routing needs a torus, mesh or hypercube (topology is '" + t.kind + "')");
  const int n = n_;
  ts_.algorithm = one_vl ? "dor1vl" : "ecube";
  width_.assign(n, 1), base_.assign(n + 1, 1), cube_base_.assign(n + 1, 1);
  for (int d = 0; d < n; ++d) {
    if (!t.widths.empty()) width_[d] = t.widths.at(d);
    base_[d + 1] = base_[d] + 2 * width_[d];
    cube_base_[d + 1] = cube_base_[d] + width_[d];
  }
  // An SL bit per dimension with a wraparound cable (k > 2; a 2-ring is one cable).
  bit_.assign(n, -1);
  int bits = 0;
  for (int d = 0; d < n; ++d)
    if (torus_ && !one_vl && t.dims[d] > 2) bit_[d] = bits++;
  ts_.sls_used = 1 << bits;
  ts_.vls_used = bits ? 2 : 1;
  if (ts_.sls_used > opt.max_sls || ts_.sls_used > kNumSls)
    throw RoutingError("e-cube on a " + std::to_string(n) + "-dimensional torus needs " + std::to_string(ts_.sls_used) +
                       " SLs; the budget is " + std::to_string(std::min(opt.max_sls, kNumSls)));
  if (ts_.vls_used > opt.max_vls)
    throw RoutingError("e-cube on a torus needs 2 VLs; the budget is " + std::to_string(opt.max_vls));
  for (int s = 0; s < t.num_switches; ++s)
    if (static_cast<int>(t.nodes[s].coord.size()) != n) throw RoutingError("e-cube needs switch coordinates");
  assign_lids(t, 0, ts_);
}

void EcubeRouter::switch_lft(int s) {
  SwitchTables& st = ts_.switches[s];
  for (int h = 0; h < t_.num_hosts; ++h) {
    int b = t_.host_switch(h);
    PortNum port;
    if (b == s) {
      port = static_cast<PortNum>(t_.host_switch_port(h));
    } else {
      int d = n_ - 1;
      while (coord(s, d) == coord(b, d)) --d;
      // Parallel lanes: the destination host picks one, so each LFT entry stays one port.
      const bool plus = go_plus(coord(s, d), coord(b, d), t_.dims[d], torus_, tie(t_.nodes[b]));
      port =
          static_cast<PortNum>(cube_ ? cube_base_[d] + h % width_[d] : base_[d] + 2 * (h % width_[d]) + (plus ? 0 : 1));
    }
    st.lft.set(ts_.hosts[h].base_lid, port);
  }
}

void EcubeRouter::switch_sl2vl(int s) {
  const Node& node = t_.nodes[s];
  SwitchTables& st = ts_.switches[s];
  for (int out = 1; out < base_[n_]; ++out) {
    int d = 0;
    while (out >= base_[d + 1]) ++d;
    const int k = t_.dims[d], c = node.coord[d];
    const bool plus = (out - base_[d]) % 2 == 0;
    for (int sl = 0; sl < ts_.sls_used; ++sl) {
      const bool will_wrap = bit_[d] >= 0 && (sl >> bit_[d] & 1) && (plus ? 2 * c >= k : 2 * c < k);
      Vl vl = plus ? (will_wrap ? 0 : 1) : (will_wrap ? 1 : 0);
      for (int in = 0; in <= node.num_ports; ++in) st.sl2vl.set(in, out, sl, vl);
    }
  }
}

void EcubeRouter::host_records() {
  std::vector<PathRow> rows(t_.num_switches);  // the records depend on the source switch only
  for (int h = 0; h < t_.num_hosts; ++h) {
    HostTables& ht = ts_.hosts[h];
    for (int sl = 0; sl < ts_.sls_used; ++sl) ht.sl2vl[sl] = 0;  // the first hop never wraps: see above
    const int a = t_.host_switch(h);
    PathRow& row = rows[a];
    if (row.size() == 0) {
      row.assign(t_.num_hosts);
      for (int g = 0; g < t_.num_hosts; ++g) {
        const int b = t_.host_switch(g);
        Sl sl = 0;
        if (ts_.sls_used > 1)
          for (int d = 0; d < n_; ++d)
            if (wraps(coord(a, d), coord(b, d), t_.dims[d], torus_, tie(t_.nodes[b])))
              sl |= static_cast<Sl>(1 << bit_[d]);
        row.set(g, {ts_.hosts[g].base_lid, sl});
      }
    }
    ht.paths = row;
  }
}

TableSet EcubeRouter::run() {
  for (int s = 0; s < t_.num_switches; ++s) {
    switch_lft(s);
    if (ts_.vls_used == 2) switch_sl2vl(s);
  }
  host_records();
  route_switch_lids(t_, SwitchGraph(t_), ts_);
  return std::move(ts_);
}

}  // namespace

TableSet route_ecube(const Topology& t, const RoutingOptions& opt, bool one_vl) {
  return EcubeRouter(t, opt, one_vl).run();
}

}  // namespace ibsc::routing
