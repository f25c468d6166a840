// Fat trees as clusters are bought: the fewest switches of one radix for a number of hosts
// (construction and numbering in generators.h, make_fat_tree_cluster).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "routing/generators.h"

namespace ibsc::routing {
namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw std::invalid_argument("fattree: " + what);
}

long ceil_div(long a, long b) { return (a + b - 1) / b; }
std::string str(long v) { return std::to_string(v); }

// One level of cables from `lower` switches to `upper` ones: lower switch i sends `bundles`
// bundles of `width` cables, bundle j of switch i to upper switch (i * bundles + j) mod
// upper.size(); each switch's cables to one peer sit on consecutive ports, lower switches from
// their port `up_port`, upper ones from port 1 in lower-switch order.
void wire_level(Topology& t, const std::vector<int>& lower, int up_port, const std::vector<int>& upper, int bundles,
                int width, std::vector<int>& next_down) {
  const long n = static_cast<long>(upper.size());
  for (size_t i = 0; i < lower.size(); ++i) {
    std::vector<int> to(upper.size(), 0);  // bundles from this lower switch per upper switch
    for (int j = 0; j < bundles; ++j) ++to[(static_cast<long>(i) * bundles + j) % n];
    int port = up_port;
    for (size_t u = 0; u < upper.size(); ++u)
      for (int c = 0; c < to[u] * width; ++c) connect(t, lower[i], port++, upper[u], next_down[upper[u]]++);
  }
}

}  // namespace

Topology make_fat_tree_cluster(int radix, int size, int levels, int blocking, const std::vector<int>& widths) {
  const int R = radix;
  require(R >= 4 && R <= 254 && R % 2 == 0,
          "radix=" + str(R) + " must be even and 4..254 (half the ports down, half up above the leaves)");
  require(size >= 1 && size <= (1 << 20), "size=" + str(size) + " hosts: 1..2^20 (1,048,576)");
  require(levels >= 0 && levels <= 3,
          "levels=" + str(levels) + ": the cluster form builds 1, 2 or 3 levels (deeper trees: fattree:k=,n= or xgft)");
  require(blocking >= 1 && blocking < R, "blocking=" + str(blocking) + " must be 1 (non-blocking) .. " + str(R - 1));
  require(widths.size() <= 2, "widths= takes one value, or two (leaf-spine, spine-core)");
  for (int w : widths) require(w >= 1 && w <= R / 2, "widths must be 1.." + str(R / 2));
  const int w1 = widths.empty() ? 1 : widths[0], w2 = widths.size() == 2 ? widths[1] : w1;
  const int down = R * blocking / (blocking + 1), up = R - down;  // a leaf's host and up ports
  require(up % w1 == 0, "widths=" + str(w1) + " does not divide the leaves' " + str(up) + " up ports");
  const long leaf_bundles = up / w1;
  // Largest sizes: a spine of a 2-level tree takes R / w1 leaves, a pod spine (R/2 down) R/2 / w1,
  // a core R / w2 pods.
  const long max2 = static_cast<long>(R / w1) * down, max3 = static_cast<long>(R / w2) * (R / 2 / w1) * down;
  const long max_of[4] = {0, R, max2, max3};
  if (levels == 0) levels = size <= R && widths.empty() ? 1 : size <= max2 ? 2 : 3;
  require(size <= max_of[levels],
          "size=" + str(size) + " hosts do not fit " + str(levels) + " level" + (levels > 1 ? "s" : "") + " of radix " +
              str(R) + (blocking > 1 ? " at blocking " + str(blocking) + ":1" : "") +
              (widths.empty() ? "" : " with widths=" + str(w1)) + " (at most " + str(max_of[levels]) + ")");
  require(levels >= 2 || widths.empty(), "widths= needs levels=2 or 3 (one switch has no cables to bundle)");
  Topology t;
  t.kind = "fattree";
  if (levels == 1) {
    add_switch(t, "leaf0", R);
    attach_hosts(t, size, 1);
    return t;
  }
  const long leaves = ceil_div(size, down);
  // Pods: one for 2 levels; for 3, as few as hold the leaves, the leaves spread evenly.
  const long pod_cap = levels == 2 ? R / w1 : R / 2 / w1;  // leaves per pod = a spine's down bundles
  const long pods = ceil_div(leaves, pod_cap), pod_leaves = ceil_div(leaves, pods);
  const long spines = ceil_div(pod_leaves * leaf_bundles, pod_cap);  // per pod
  std::vector<std::vector<int>> pod_leaf(pods), pod_spine(pods);
  long placed = 0;
  for (long p = 0; p < pods; ++p)
    for (long i = 0; i < leaves / pods + (p < leaves % pods); ++i)
      pod_leaf[p].push_back(add_switch(t, "leaf" + str(placed++), R));
  for (long p = 0; p < pods; ++p)
    for (long j = 0; j < spines; ++j) pod_spine[p].push_back(add_switch(t, "spine" + str(p * spines + j), R));
  std::vector<int> next_down(t.num_switches, 1);
  for (long p = 0; p < pods; ++p) wire_level(t, pod_leaf[p], down + 1, pod_spine[p], leaf_bundles, w1, next_down);
  if (levels == 3) {
    // Spine j of every pod joins core group j; each spine sends up as many cables as the most
    // any spine takes from below (in whole bundles of w2), so the spines do not block.
    const long spine_down = ceil_div(pod_leaves * leaf_bundles, spines) * w1;
    const long spine_bundles = ceil_div(spine_down, w2);
    require(spine_bundles * w2 <= R / 2, "widths=" + str(w1) + "," + str(w2) + ": a spine's " + str(spine_down) +
                                             " cables down need more than its " + str(R / 2) + " up ports");
    const long per_group = ceil_div(pods * spine_bundles, R / w2);
    std::vector<std::vector<int>> group(spines);
    for (long j = 0; j < spines; ++j)
      for (long c = 0; c < per_group; ++c) group[j].push_back(add_switch(t, "core" + str(j * per_group + c), R));
    std::vector<int> next(t.num_switches, 1);
    for (long j = 0; j < spines; ++j) {
      std::vector<int> lower;
      for (long p = 0; p < pods; ++p) lower.push_back(pod_spine[p][j]);
      wire_level(t, lower, R / 2 + 1, group[j], static_cast<int>(spine_bundles), w2, next);
    }
  }
  for (long i = 0; i < leaves; ++i)
    for (long x = 0; x < size / leaves + (i < size % leaves); ++x) {
      const int host = add_host(t, "H" + str(t.num_hosts));
      connect(t, host, 1, static_cast<int>(i), static_cast<int>(x) + 1);
    }
  return t;
}

}  // namespace ibsc::routing
