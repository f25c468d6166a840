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

namespace {

// The VL rules of one ADOR variant on one fabric: its members are the coordinates, the port
// dimensions and the list of moves last made; its methods are VlRules' callbacks.
class AdorRules {
 public:
  AdorRules(const Topology& t, const RoutingOptions& opt, Algorithm variant);
  VlRules rules();

 private:
  int differing(int s, int dst) const;
  int current_dim(int s, int dst, int cls) const;
  int port_dim(int s, int p) const;
  void make_all(int s, int dst_class);
  void candidates(int s, int v, int dst, std::vector<PortCandidate>& out);
  void column_key(int s, int dst, std::string& key);
  int local_key(int s, int dst_class) const;
  Vl next_vl(int s, int in_port, int out_port, int v) const;
  Vl first_vl(int src, int dst_class) const;

  const Topology& t_;
  const std::string name_;
  const bool mixed_, twisted_;
  int n_ = 0, vls_ = 0;
  std::vector<std::vector<int>> orders_;
  // Coordinates flat, [switch * n + dimension], and their sums (read once per pair below).
  std::vector<int> coord_, sum_of_;
  std::vector<std::vector<int>> dim_of_;  // the dimension of every switch port, once
  int span_ = 1;                          // coordinates per dimension, at most
  // The moves on VL v are a prefix of one list per (switch, destination): the minimal ports,
  // then the detours (only while left >= 2 x here). build_vl_tables asks VL after VL for one
  // pair, so the list is made once per pair, from the ports of the switch in each dimension
  // (ascending) with the far switch's coordinate there, found once per switch (the pairs come
  // switch by switch).
  std::vector<PortCandidate> all_;
  std::vector<std::vector<std::pair<PortNum, int>>> dim_ports_;
  int all_s_ = -1, all_dst_ = -1, ports_s_ = -1, here_ = 0, minimal_end_ = 0;
};

AdorRules::AdorRules(const Topology& t, const RoutingOptions& opt, Algorithm variant)
    : t_(t),
      name_(enum_name(variant)),
      mixed_(variant == Algorithm::MixedAdor || variant == Algorithm::TwistedMixed),
      twisted_(variant == Algorithm::TwistedAdor || variant == Algorithm::TwistedMixed) {
  const std::string& name = name_;
  if (t.kind != "flatfly" && t.kind != "hypercube")
    throw RoutingError(name + " needs a flattened butterfly or a hypercube (topology is '" + t.kind + "')");
  const int n = n_ = static_cast<int>(t.dims.size());
  if (n == 0) throw RoutingError(name + " needs at least one dimension");
  for (int s = 0; s < t.num_switches; ++s)
    if (static_cast<int>(t.nodes[s].coord.size()) != n) throw RoutingError(name + " needs switch coordinates");
  vls_ = 2 * n;
  seeds001_vl_budget(name, opt.vls, opt.max_vls, vls_, "2 per dimension, " + std::to_string(n) + " dimensions");
  if (mixed_) {  // as mixed-dor (mixed_dor.cpp)
    std::vector<int> up(n), odd_even;
    for (int d = 0; d < n; ++d) up[d] = d;
    for (int d = 1; d < n; d += 2) odd_even.push_back(d);
    for (int d = 0; d < n; d += 2) odd_even.push_back(d);
    orders_ = {up, odd_even, std::vector<int>(odd_even.rbegin(), odd_even.rend()),
               std::vector<int>(up.rbegin(), up.rend())};
  }
  coord_.assign(static_cast<size_t>(t.num_switches) * n, 0), sum_of_.assign(t.num_switches, 0);
  for (int s = 0; s < t.num_switches; ++s)
    for (int i = 0; i < n; ++i) coord_[s * n + i] = t.nodes[s].coord[i], sum_of_[s] += t.nodes[s].coord[i];
  dim_of_.resize(t.num_switches);
  for (int s = 0; s < t.num_switches; ++s)
    for (int p = 0; p <= t.nodes[s].num_ports; ++p) dim_of_[s].push_back(port_dim(s, p));
  dim_ports_.resize(n);
  for (int c : coord_) span_ = std::max(span_, c + 1);
}

int AdorRules::differing(int s, int dst) const {
  int d = 0;
  for (int i = 0; i < n_; ++i) d += coord_[s * n_ + i] != coord_[dst * n_ + i];
  return d;
}

// The dimension to correct at s for dst: the first differing one in the order, which depends
// on s only through the coordinates it shares with dst (a detour keeps them).
int AdorRules::current_dim(int s, int dst, int cls) const {
  const int n = n_;
  const int* a = coord_.data() + s * n;
  const int* b = coord_.data() + dst * n;
  const int turn = cls + (twisted_ ? n - differing(s, dst) : 0);
  for (int j = 0; j < n; ++j) {
    int dim;
    if (mixed_) dim = orders_[(sum_of_[dst] + turn) % 4][j];
    else if (twisted_) dim = (sum_of_[dst] + turn + j) % n;
    else dim = n - 1 - j;
    if (a[dim] != b[dim]) return dim;
  }
  return -1;
}

// The dimension a switch port's cable runs in (-1: a host or nothing).
int AdorRules::port_dim(int s, int p) const {
  if (p <= 0) return -1;
  const int x = t_.nodes[s].ports[p].node;
  if (x < 0 || x >= t_.num_switches) return -1;
  for (int i = 0; i < n_; ++i)
    if (t_.nodes[x].coord[i] != t_.nodes[s].coord[i]) return i;
  return -1;
}

void AdorRules::make_all(int s, int dst_class) {
  if (s == all_s_ && dst_class == all_dst_) return;
  const int n = n_;
  const DestinationClass to(t_, dst_class);
  const int dst = to.sw;
  here_ = differing(s, dst);
  const int dim = current_dim(s, dst, to.cls);
  if (s != ports_s_) {
    const Node& node = t_.nodes[s];
    for (auto& l : dim_ports_) l.clear();
    for (int p = 1; p <= node.num_ports; ++p)
      if (dim_of_[s][p] >= 0)
        dim_ports_[dim_of_[s][p]].emplace_back(static_cast<PortNum>(p), coord_[node.ports[p].node * n + dim_of_[s][p]]);
    ports_s_ = s;
  }
  all_.clear();
  minimal_end_ = 0;
  if (dim >= 0) {  // the minimal ports (to dst's coordinate), then the detours
    const int want = coord_[dst * n + dim];
    for (const auto& [p, c] : dim_ports_[dim])
      if (c == want) all_.push_back({p, 0});
    minimal_end_ = static_cast<int>(all_.size());
    for (const auto& [p, c] : dim_ports_[dim])
      if (c != want) all_.push_back({p, 1});
  }
  if (dim < 0) here_ = -1;  // no moves
  all_s_ = s, all_dst_ = dst_class;
}

void AdorRules::candidates(int s, int v, int dst, std::vector<PortCandidate>& out) {
  make_all(s, dst);
  const int left = v == 0 && here_ == n_ ? 2 * n_ : v;  // VL 0 from the HCA
  if (here_ < 0 || left < 2 * here_ - 1) return;        // no packet arrives so
  out.insert(out.end(), all_.begin(), all_.begin() + (left >= 2 * here_ ? all_.size() : minimal_end_));
}

// The lists of every VL follow from here, the list and where its minimal ports end.
void AdorRules::column_key(int s, int dst, std::string& key) {
  make_all(s, dst);
  key.push_back(static_cast<char>(here_));
  key.push_back(static_cast<char>(minimal_end_));
  key.append(reinterpret_cast<const char*>(all_.data()), all_.size() * sizeof(PortCandidate));
}

// At one switch the lists follow from here, the dimension and the destination's coordinate
// in it (the ports of that dimension are the switch's own).
int AdorRules::local_key(int s, int dst_class) const {
  const DestinationClass to(t_, dst_class);
  const int dim = current_dim(s, to.sw, to.cls);
  if (dim < 0) return 0;  // no moves
  return 1 + (differing(s, to.sw) * n_ + dim) * span_ + coord_[to.sw * n_ + dim];
}

Vl AdorRules::next_vl(int s, int in_port, int out_port, int v) const {
  const int from = dim_of_[s][in_port];
  int w;
  if (from >= 0 && from == dim_of_[s][out_port]) w = v - 1;  // the second hop in a dimension
  else if (v == 0) w = 2 * n_ - 1;                           // first hop, n dimensions left
  else w = v % 2 ? v - 2 : v - 1;                            // into another dimension: next odd VL below
  return static_cast<Vl>(w > 0 ? w : 0);                     // w < 0: a state no packet reaches
}

Vl AdorRules::first_vl(int src, int dst_class) const {
  const int d = differing(src, DestinationClass(t_, dst_class).sw);
  return static_cast<Vl>(d == n_ ? 0 : 2 * d);
}

VlRules AdorRules::rules() {
  VlRules r;
  r.name = name_;
  r.vls = vls_;
  r.classes = mixed_ ? 4 : twisted_ ? n_ : 1;
  r.candidates = [this](int s, int v, int dst, std::vector<PortCandidate>& out) { candidates(s, v, dst, out); };
  r.column_key = [this](int s, int dst, std::string& key) { column_key(s, dst, key); };
  r.local_keys = 1 + (n_ + 1) * n_ * span_;
  r.local_key = [this](int s, int dst_class) { return local_key(s, dst_class); };
  r.next_vl = [this](int s, int in_port, int out_port, int v) { return next_vl(s, in_port, out_port, v); };
  r.first_vl = [this](int src, int dst_class) { return first_vl(src, dst_class); };
  return r;
}

}  // namespace

TableSet route_ador(const Topology& t, const RoutingOptions& opt, Algorithm variant) {
  AdorRules rules(t, opt, variant);
  return build_vl_tables(t, rules.rules());
}

}  // namespace ibsc::routing
