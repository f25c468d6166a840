// Fat trees by definition: the extended generalized fat tree XGFT and the k-ary n-tree, one
// of its cases. Numbering and port layout are documented in generators.h.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "routing/generators.h"

namespace ibsc::routing {
namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument(what);
}

// Parallel cables per switch level pair: c[i] between XGFT levels i and i+1 (c[0] = 1 host).
std::vector<int> level_widths(const std::string& kind, const std::vector<int>& widths, int h) {
  std::vector<int> c(h, 1);
  if (widths.empty()) return c;
  require(h >= 2, kind + ": widths= needs at least two switch levels");
  require(widths.size() == 1 || static_cast<int>(widths.size()) == h - 1,
          kind + ": widths= takes one value or one per switch level pair (" + std::to_string(h - 1) + "), not " +
              std::to_string(widths.size()));
  for (int i = 1; i < h; ++i) {
    c[i] = widths.size() == 1 ? widths[0] : widths[i - 1];
    require(c[i] >= 1 && c[i] <= 16, kind + ": widths must be 1..16");
  }
  return c;
}

// make_xgft with `kind` ("xgft", "fattree") in its messages.
Topology build_xgft(const std::string& kind, const std::vector<int>& m, const std::vector<int>& w,
                    const std::vector<int>& widths, int hosts_per_leaf, int switch_ports) {
  const int h = static_cast<int>(m.size());
  require(h >= 1 && h <= 8, "xgft: m= needs 1..8 values (the height h), not " + std::to_string(h));
  require(static_cast<int>(w.size()) == h,
          "xgft: w= needs as many values as m= (" + std::to_string(h) + "), not " + std::to_string(w.size()));
  for (int i = 0; i < h; ++i) {
    require(m[i] >= 1 && m[i] <= 254, kind + ": m values (children per node) must be 1..254");
    require(w[i] >= 1 && w[i] <= 254, "xgft: w values (parents per node) must be 1..254");
  }
  require(w[0] == 1, "xgft: w1 = " + std::to_string(w[0]) +
                         " parents per host, but an HCA has one port: w1 must be 1 (XGFT(h; m; w): a level-i node has "
                         "w_(i+1) parents)");
  const std::vector<int> c = level_widths(kind, widths, h);
  const int hpl = hosts_per_leaf < 0 ? m[0] : hosts_per_leaf;
  require(hpl <= m[0], kind + ": hosts=" + std::to_string(hpl) +
                           " per leaf, but leaves have m1 = " + std::to_string(m[0]) + " down ports");
  // count[i]: nodes at XGFT level i; down/up: ports a level-i switch uses.
  std::vector<long> count(h + 1), bprod(h + 1, 1);
  for (int i = 1; i <= h; ++i) {  // bprod[i] <= count[i]: the same bound keeps it from overflowing
    bprod[i] = bprod[i - 1] * w[i - 1];
    require(bprod[i] <= (1L << 22), kind + ": more than 2^22 nodes on one level");
  }
  long switches = 0;
  for (int i = 0; i <= h; ++i) {
    long n = bprod[i];
    for (int j = i; j < h; ++j) {
      n *= m[j];
      require(n <= (1L << 22), kind + ": more than 2^22 nodes on one level");
    }
    count[i] = n;
    if (i >= 1) switches += n;
  }
  require(switches <= (1L << 20), kind + ": more than 2^20 switches");
  require(count[0] <= (1L << 20), kind + ": more than 2^20 hosts");
  std::vector<int> down(h + 1, 0), up(h + 1, 0);
  int radix = 0;
  for (int i = 1; i <= h; ++i) {
    down[i] = m[i - 1] * c[i - 1];
    up[i] = i < h ? w[i] * c[i] : 0;
    radix = std::max(radix, down[i] + up[i]);
  }
  const int ports = switch_ports ? switch_ports : radix;
  require(ports >= radix,
          kind + ": switches need " + std::to_string(radix) + " ports but have " + std::to_string(ports));
  require(ports <= 254, kind + ": radix " + std::to_string(ports) + " above 254");

  Topology t;
  t.kind = "fattree";
  std::vector<int> first(h + 2, 0);  // node index of level i's switch 0
  for (int i = 1; i <= h; ++i) {
    first[i] = t.num_switches;
    for (long s = 0; s < count[i]; ++s) add_switch(t, "L" + std::to_string(i - 1) + "S" + std::to_string(s), ports);
  }
  // Parent P at level i+1 = B + bprod[i+1] * A; its child a: B mod bprod[i] + bprod[i] * (a + m_{i+1} * A),
  // the child's parent digit b_{i+1} = B / bprod[i].
  for (int i = 1; i < h; ++i)
    for (long P = 0; P < count[i + 1]; ++P) {
      const long B = P % bprod[i + 1], A = P / bprod[i + 1];
      const long b = B / bprod[i];
      for (int a = 0; a < m[i]; ++a) {
        const long child = B % bprod[i] + bprod[i] * (a + static_cast<long>(m[i]) * A);
        for (int lane = 0; lane < c[i]; ++lane)
          connect(t, first[i] + static_cast<int>(child), down[i] + 1 + static_cast<int>(b) * c[i] + lane,
                  first[i + 1] + static_cast<int>(P), 1 + a * c[i] + lane);
      }
    }
  for (long leaf = 0; leaf < count[1]; ++leaf)
    for (int x = 0; x < hpl; ++x) {
      const int host = add_host(t, "H" + std::to_string(t.num_hosts));
      connect(t, host, 1, first[1] + static_cast<int>(leaf), 1 + x);
    }
  return t;
}

}  // namespace

Topology make_xgft(const std::vector<int>& m, const std::vector<int>& w, const std::vector<int>& widths,
                   int hosts_per_leaf, int switch_ports) {
  return build_xgft("xgft", m, w, widths, hosts_per_leaf, switch_ports);
}

Topology make_kary_ntree(int k, int n, const std::vector<int>& widths, int hosts_per_leaf, int switch_ports) {
  require(k >= 2 && k <= 127, "fattree: k must be 2..127 (2k ports per switch)");
  require(n >= 1 && n <= 8, "fattree: n (levels) must be 1..8");
  std::vector<int> w(n, k);
  w[0] = 1;
  // 2k ports on every level, the top one's up ports spare, as the definition's switches; with
  // widths a lower level needs more (k + k * widths), and the largest need is the radix.
  const int ports = switch_ports || (!widths.empty() && n >= 2) ? switch_ports : 2 * k;
  return build_xgft("fattree", std::vector<int>(n, k), w, widths, hosts_per_leaf, ports);
}

}  // namespace ibsc::routing
