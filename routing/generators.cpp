#include "routing/generators.h"

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>

namespace ibsc::routing {
namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

int mixed_radix_size(const std::vector<int>& dims, const std::string& kind) {
  require(!dims.empty(), kind + ": needs at least one dimension");
  long n = 1;
  for (int k : dims) {
    require(k >= 2 && k <= 4096, kind + ": dimension sizes must be 2..4096");
    n *= k;
    require(n <= (1 << 20), kind + ": more than 2^20 switches");
  }
  return static_cast<int>(n);
}

// Next free port of a switch, from `from` on.
int free_port(const Topology& t, int s, int from = 1) {
  for (int p = from; p <= t.nodes[s].num_ports; ++p)
    if (t.nodes[s].ports[p].node < 0) return p;
  return -1;
}

// Gives every switch all `degree` link ports (seeds/004: 4 of 8 ports to other switches) by
// moving cables: a switch a short of ports and another one b (or a itself when it lacks two)
// take a random cable c-d whose ends are not yet their neighbours and become a-c, b-d. The
// network stays connected (c still reaches d through a ... b) and simple.
void fill_link_ports(std::vector<std::pair<int, int>>& cables, std::vector<std::vector<int>>& nb, std::vector<int>& deg,
                     int degree, std::mt19937_64& rng) {
  auto linked = [&](int a, int b) { return std::find(nb[a].begin(), nb[a].end(), b) != nb[a].end(); };
  auto unlink = [&](int a, int b) {
    nb[a].erase(std::find(nb[a].begin(), nb[a].end(), b));
    nb[b].erase(std::find(nb[b].begin(), nb[b].end(), a));
  };
  const int n = static_cast<int>(deg.size());
  for (int guard = 0; guard < 100 * n * degree; ++guard) {
    std::vector<int> short_of;
    for (int s = 0; s < n; ++s)
      if (deg[s] < degree) short_of.push_back(s);
    if (short_of.empty()) return;
    int a = short_of[0], b = -1;
    for (size_t i = 1; i < short_of.size() && b < 0; ++i)
      if (!linked(a, short_of[i])) b = short_of[i];
    if (b >= 0) {  // two short switches not yet neighbours: one new cable
      cables.emplace_back(a, b);
      ++deg[a], ++deg[b];
      nb[a].push_back(b), nb[b].push_back(a);
      continue;
    }
    b = short_of.size() > 1 ? short_of[1] : a;
    if (a == b && deg[a] > degree - 2) return;  // odd total: cannot happen after the caller's check
    std::uniform_int_distribution<size_t> pick(0, cables.size() - 1);
    const size_t k = pick(rng);
    auto [c, d] = cables[k];
    if (rng() & 1) std::swap(c, d);
    if (c == a || c == b || d == a || d == b || linked(a, c) || linked(b, d)) continue;
    unlink(c, d);
    cables[k] = {a, c};
    cables.emplace_back(b, d);
    nb[a].push_back(c), nb[c].push_back(a);
    nb[b].push_back(d), nb[d].push_back(b);
    ++deg[a], ++deg[b];
  }
  throw std::invalid_argument("irregular: regular=1 could not give every switch all its link ports");
}

}  // namespace

Topology make_hypercube(int n, int hosts_per_switch, int switch_ports, const std::vector<int>& widths_in) {
  require(n >= 1 && n <= 20, "hypercube: dimension must be 1..20");
  require(hosts_per_switch >= 0, "hypercube: hosts must be >= 0");
  std::vector<int> widths = widths_in.empty() ? std::vector<int>(n, 1) : widths_in;
  if (widths.size() == 1) widths.assign(n, widths[0]);  // widths=2: every dimension
  require(static_cast<int>(widths.size()) == n,
          "hypercube: " + std::to_string(widths.size()) + " link widths for " + std::to_string(n) + " dimensions");
  // Dimension d, lane l on port base[d] + l; hosts after the last dimension's lanes.
  std::vector<int> base(n + 1, 1);
  for (int d = 0; d < n; ++d) {
    require(widths[d] >= 1 && widths[d] <= 16, "hypercube: link widths must be 1..16");
    base[d + 1] = base[d] + widths[d];
  }
  const int net = base[n] - 1;
  const int ports = switch_ports ? switch_ports : net + hosts_per_switch;
  require(ports >= net + hosts_per_switch, "hypercube: switches need " + std::to_string(net + hosts_per_switch) +
                                               " ports but have " + std::to_string(ports));
  // Coordinates are the bits, so the dims {2, ..., 2} make it a 2-ary n-cube for e-cube as well.
  Topology t;
  t.kind = "hypercube";
  t.dims.assign(n, 2);
  if (!widths_in.empty()) t.widths = widths;
  for (int s = 0; s < (1 << n); ++s) {
    std::string name = "S";
    for (int d = n - 1; d >= 0; --d) name += (s >> d & 1) ? '1' : '0';
    add_switch(t, name, ports);
    for (int d = 0; d < n; ++d) t.nodes[s].coord.push_back(s >> d & 1);
  }
  for (int s = 0; s < (1 << n); ++s)
    for (int d = 0; d < n; ++d)
      if (!(s >> d & 1))
        for (int l = 0; l < widths[d]; ++l) connect(t, s, base[d] + l, s | 1 << d, base[d] + l);
  attach_hosts(t, hosts_per_switch, net + 1);
  return t;
}

Topology make_irregular(int switches, int ports, int hosts_per_switch, uint64_t seed, bool regular) {
  require(switches >= 1 && switches <= 65536, "irregular: switches must be 1..65536");
  require(ports >= 1 && ports <= 254, "irregular: ports must be 1..254");
  require(hosts_per_switch >= 0, "irregular: hosts must be >= 0");
  const int degree = ports - hosts_per_switch;
  require(switches == 1 || degree >= 2 || (switches == 2 && degree >= 1),
          "irregular: " + std::to_string(ports) + " ports with " + std::to_string(hosts_per_switch) + " hosts leave " +
              std::to_string(degree) + " for switch links; a connected network of " + std::to_string(switches) +
              " switches needs at least 2");
  if (regular)
    require(switches == 1 || (degree < switches && static_cast<long>(switches) * degree % 2 == 0),
            "irregular: regular=1 needs fewer link ports (" + std::to_string(degree) + ") than switches (" +
                std::to_string(switches) + ") and an even total of link ports");
  Topology t;
  t.kind = "irregular";
  for (int s = 0; s < switches; ++s) add_switch(t, "S" + std::to_string(s), ports);
  std::mt19937_64 rng(seed);
  std::vector<int> deg(switches, 0);
  std::vector<std::vector<int>> nb(switches);
  // Cables are collected first and plugged in this order at the end (ports ascending per
  // switch), so the regular repair below can still move cables.
  std::vector<std::pair<int, int>> cables;
  auto linked = [&](int a, int b) { return std::find(nb[a].begin(), nb[a].end(), b) != nb[a].end(); };
  auto link = [&](int a, int b) {
    cables.emplace_back(a, b);
    ++deg[a], ++deg[b];
    nb[a].push_back(b), nb[b].push_back(a);
  };
  // Random spanning tree: each new switch joins a random tree switch with a free link port.
  std::vector<int> order(switches);
  for (int i = 0; i < switches; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<int> open;  // tree switches with spare link ports
  if (switches) open.push_back(order[0]);
  for (int i = 1; i < switches; ++i) {
    require(!open.empty(), "irregular: ran out of ports while connecting");
    std::uniform_int_distribution<size_t> pick(0, open.size() - 1);
    size_t k = pick(rng);
    int a = open[k], b = order[i];
    link(a, b);
    if (deg[a] == degree) open[k] = open.back(), open.pop_back();
    if (deg[b] < degree) open.push_back(b);
  }
  // Then random extra cables between switches with spare ports that are not yet neighbours.
  for (int tries = 0; tries < 50 * switches * std::max(degree, 1); ++tries) {
    if (tries % (switches + 1) == 0 || open.size() < 2) {
      open.clear();
      for (int s = 0; s < switches; ++s)
        if (deg[s] < degree) open.push_back(s);
      if (open.size() < 2) break;
    }
    std::uniform_int_distribution<size_t> pick(0, open.size() - 1);
    size_t i = pick(rng), j = pick(rng);
    int a = open[i], b = open[j];
    if (a == b || linked(a, b)) continue;
    link(a, b);
    if (deg[std::max(a, b)] == degree || deg[std::min(a, b)] == degree) {
      std::vector<int> keep;
      for (int s : open)
        if (deg[s] < degree) keep.push_back(s);
      open.swap(keep);
    }
  }
  if (regular) fill_link_ports(cables, nb, deg, degree, rng);
  for (const auto& [a, b] : cables) connect(t, a, free_port(t, a), b, free_port(t, b));
  attach_hosts(t, hosts_per_switch, degree + 1);
  return t;
}

Topology make_flatfly(const std::vector<int>& dims, const std::vector<int>& widths_in, int hosts_per_switch,
                      int switch_ports) {
  const int n = mixed_radix_size(dims, "flatfly");
  std::vector<int> widths = widths_in.empty() ? std::vector<int>(dims.size(), 1) : widths_in;
  require(widths.size() == dims.size(), "flatfly: " + std::to_string(widths.size()) + " link widths for " +
                                            std::to_string(dims.size()) + " dimensions");
  int net = 0;
  for (size_t d = 0; d < dims.size(); ++d) {
    require(widths[d] >= 1 && widths[d] <= 16, "flatfly: link widths must be 1..16");
    net += (dims[d] - 1) * widths[d];
  }
  const int ports = switch_ports ? switch_ports : net + hosts_per_switch;
  require(ports >= net + hosts_per_switch, "flatfly: switches need " + std::to_string(net + hosts_per_switch) +
                                               " ports but have " + std::to_string(ports));
  Topology t;
  t.kind = "flatfly";
  t.dims = dims;
  for (int s = 0; s < n; ++s) {
    std::string name = "S";
    std::vector<int> coord;
    for (size_t d = 0, r = s; d < dims.size(); r /= dims[d], ++d) {
      coord.push_back(static_cast<int>(r % dims[d]));
      name += (d ? "," : "(") + std::to_string(coord.back());
    }
    add_switch(t, name + ")", ports);
    t.nodes[s].coord = coord;
  }
  // Port of switch s toward coordinate value v in dimension d, lane l: fixed layout, so a port
  // number tells dimension, peer and lane.
  std::vector<int> base(dims.size(), 1);
  for (size_t d = 1; d < dims.size(); ++d) base[d] = base[d - 1] + (dims[d - 1] - 1) * widths[d - 1];
  auto port = [&](size_t d, int own, int v, int lane) { return base[d] + ((v < own ? v : v - 1) * widths[d]) + lane; };
  int stride = 1;
  for (size_t d = 0; d < dims.size(); ++d) {
    for (int s = 0; s < n; ++s) {
      int c = (s / stride) % dims[d];
      for (int v = c + 1; v < dims[d]; ++v) {
        int peer = s + (v - c) * stride;
        for (int l = 0; l < widths[d]; ++l) connect(t, s, port(d, c, v, l), peer, port(d, v, c, l));
      }
    }
    stride *= dims[d];
  }
  attach_hosts(t, hosts_per_switch, net + 1);
  return t;
}

Topology make_dragonfly(int a, int h, int p, int groups) {
  require(a >= 1 && a <= 128, "dragonfly: a (switches per group) must be 1..128");
  require(h >= 1 && h <= 64, "dragonfly: h (global links per switch) must be 1..64");
  require(p >= 0 && p <= 128, "dragonfly: p (hosts per switch) must be 0..128");
  const int max_groups = a * h + 1;
  const int g = groups ? groups : max_groups;
  require(g >= 2 && g <= max_groups, "dragonfly: groups must be 2.." + std::to_string(max_groups) + " (a*h+1)");
  require(static_cast<long>(g) * a <= 65536, "dragonfly: more than 65536 switches");
  const int ports = (a - 1) + h + p;
  require(ports <= 254, "dragonfly: radix " + std::to_string(ports) + " above 254");
  Topology t;
  t.kind = "dragonfly";
  for (int gi = 0; gi < g; ++gi)
    for (int s = 0; s < a; ++s) add_switch(t, "G" + std::to_string(gi) + "S" + std::to_string(s), ports);
  for (int gi = 0; gi < g; ++gi)  // local: ports 1..a-1 toward the other switches of the group
    for (int s = 0; s < a; ++s)
      for (int u = s + 1; u < a; ++u) connect(t, gi * a + s, u, gi * a + u, s + 1);
  for (int gi = 0; gi < g; ++gi)  // global: ports a..a+h-1
    for (int j = 0; j < a * h; ++j) {
      int gt = j < gi ? j : j + 1;
      if (gt >= g || gt < gi) continue;  // each cable once, from the lower group
      int jt = gi;                       // the target's port index toward gi (gi < gt)
      connect(t, gi * a + j / h, a + j % h, gt * a + jt / h, a + jt % h);
    }
  attach_hosts(t, p, a + h);
  return t;
}

namespace {

// GF(q): Z_q for a prime q; for q = 2^m polynomials over GF(2) modulo an irreducible one
// (addition is XOR). Other prime powers (9, 25, 27, ...) are refused.
struct SlimFlyField {
  int q = 0, m2 = 0;
  bool binary = false;
  explicit SlimFlyField(int q_) : q(q_) {
    require(q >= 3 && q <= 97, "slimfly: q must be 3..97 (a prime, or 4, 8, 16, 32, 64)");
    bool prime = true;
    for (int d = 2; d * d <= q; ++d) prime &= q % d != 0;
    while ((1 << m2) < q) ++m2;
    binary = !prime && (1 << m2) == q;
    if (!prime && !binary)
      throw std::invalid_argument("slimfly: q = " + std::to_string(q) +
                                  " is not prime nor a power of 2; odd prime powers (9, 25, 27, ...) are not "
                                  "supported (supported: primes 4w+-1 such as 5, 7, 11, 13, and 4, 8, 16, 32, 64)");
    require(binary || q % 4 != 2, "slimfly: q must be 4w+1, 4w-1 or 4w");
  }
  int sub(int a, int b) const { return binary ? a ^ b : (a - b + q) % q; }
  int mul(int a, int b) const {
    static const int kIrreducible[] = {0, 0, 0b111, 0b1011, 0b10011, 0b100101, 0b1000011};
    if (!binary) return a * b % q;
    int r = 0;
    for (; b; b >>= 1, a <<= 1) {
      if (a & q) a ^= kIrreducible[m2];
      if (b & 1) r ^= a;
    }
    return r;
  }
  int primitive() const {
    int xi = 2;
    for (;; ++xi) {
      int x = 1, order = 0;
      do x = mul(x, xi), ++order;
      while (x != 1);
      if (order == q - 1) return xi;
    }
  }
};

// The generator sets X and X' (Besta and Hoefler, MMS construction), q = 4w + delta.
void slimfly_generators(const SlimFlyField& f, int delta, int w, std::vector<char>& X, std::vector<char>& Xp) {
  const int q = f.q, xi = f.primitive();
  std::vector<int> pw(q);
  pw[0] = 1;
  for (int i = 1; i < q; ++i) pw[i] = f.mul(pw[i - 1], xi);
  X.assign(q, 0), Xp.assign(q, 0);
  if (delta == 1) {
    for (int i = 0; i <= q - 3; i += 2) X[pw[i]] = 1;
    for (int i = 1; i <= q - 2; i += 2) Xp[pw[i]] = 1;
  } else if (delta == -1) {
    for (int i = 0; i <= 2 * w - 2; i += 2) X[pw[i]] = 1;
    for (int i = 2 * w - 1; i <= 4 * w - 3; i += 2) X[pw[i]] = 1;
    for (int i = 1; i <= 2 * w - 1; i += 2) Xp[pw[i]] = 1;
    for (int i = 2 * w; i <= 4 * w - 2; i += 2) Xp[pw[i]] = 1;
  } else {
    for (int i = 0; i <= q - 2; i += 2) X[pw[i]] = 1;
    for (int i = 1; i <= q - 1; i += 2) Xp[pw[i % (q - 1)]] = 1;
  }
}

}  // namespace

Topology make_slimfly(int q, int hosts_per_switch, int lanes) {
  require(lanes >= 1 && lanes <= 8, "slimfly: L (parallel cables per link) must be 1..8");
  const SlimFlyField f(q);
  const int delta = q % 4 == 1 ? 1 : q % 4 == 3 ? -1 : 0, w = (q - delta) / 4;
  std::vector<char> X, Xp;
  slimfly_generators(f, delta, w, X, Xp);
  const int degree = (3 * q - delta) / 2 * lanes;
  Topology t;
  t.kind = "slimfly";
  auto id = [&](int part, int x, int y) { return part * q * q + x * q + y; };
  for (int part = 0; part < 2; ++part)
    for (int x = 0; x < q; ++x)
      for (int y = 0; y < q; ++y)
        add_switch(t, std::string(part ? "R1(" : "R0(") + std::to_string(x) + "," + std::to_string(y) + ")", degree);
  auto join = [&](int u, int v) {
    for (int l = 0; l < lanes; ++l) connect(t, u, free_port(t, u), v, free_port(t, v));
  };
  for (int x = 0; x < q; ++x)
    for (int y = 0; y < q; ++y)
      for (int y2 = y + 1; y2 < q; ++y2) {
        if (X[f.sub(y, y2)]) join(id(0, x, y), id(0, x, y2));
        if (Xp[f.sub(y, y2)]) join(id(1, x, y), id(1, x, y2));
      }
  for (int x = 0; x < q; ++x)
    for (int y = 0; y < q; ++y)
      for (int m = 0; m < q; ++m) join(id(0, x, y), id(1, m, f.sub(y, f.mul(m, x))));
  for (int s = 0; s < t.num_switches; ++s)
    require(free_port(t, s) == -1, "slimfly: internal error, switch degree differs from (3q-d)/2");
  // Hosts go on extra ports after the network ones.
  for (int s = 0; s < t.num_switches; ++s) {
    Node& node = t.nodes[s];
    node.num_ports += hosts_per_switch;
    node.ports.resize(node.num_ports + 1);
  }
  attach_hosts(t, hosts_per_switch, degree + 1);
  return t;
}

Topology make_product(const Topology& A, const Topology& B, int hosts_per_switch) {
  require(A.num_switches > 0 && B.num_switches > 0, "product: both factors need switches");
  require(static_cast<long>(A.num_switches) * B.num_switches <= (1 << 20), "product: more than 2^20 switches");
  auto used = [](const Topology& t, int s) {
    int last = 0;
    for (int p = 1; p <= t.nodes[s].num_ports; ++p)
      if (t.nodes[s].ports[p].node >= 0 && t.nodes[s].ports[p].node < t.num_switches) last = p;
    return last;
  };
  int pa = 0, pb = 0;
  for (int s = 0; s < A.num_switches; ++s) pa = std::max(pa, used(A, s));
  for (int s = 0; s < B.num_switches; ++s) pb = std::max(pb, used(B, s));
  Topology t;
  t.kind = "product";
  const int ports = pa + pb + hosts_per_switch;
  require(ports <= 254, "product: radix " + std::to_string(ports) + " above 254");
  for (int b = 0; b < B.num_switches; ++b)
    for (int a = 0; a < A.num_switches; ++a) add_switch(t, A.nodes[a].name + "x" + B.nodes[b].name, ports);
  const int na = A.num_switches;
  for (int b = 0; b < B.num_switches; ++b)
    for (int a = 0; a < na; ++a)
      for (int p = 1; p <= A.nodes[a].num_ports; ++p) {
        const PortPeer& pp = A.nodes[a].ports[p];
        if (pp.node < 0 || pp.node >= na || std::make_pair(pp.node, pp.port) < std::make_pair(a, p)) continue;
        connect(t, b * na + a, p, b * na + pp.node, pp.port, pp.width);
      }
  for (int b = 0; b < B.num_switches; ++b)
    for (int p = 1; p <= B.nodes[b].num_ports; ++p) {
      const PortPeer& pp = B.nodes[b].ports[p];
      if (pp.node < 0 || pp.node >= B.num_switches || std::make_pair(pp.node, pp.port) < std::make_pair(b, p)) continue;
      for (int a = 0; a < na; ++a) connect(t, b * na + a, pa + p, pp.node * na + a, pa + pp.port, pp.width);
    }
  attach_hosts(t, hosts_per_switch, pa + pb + 1);
  return t;
}

}  // namespace ibsc::routing
