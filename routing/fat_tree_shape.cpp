#include "routing/fat_tree_shape.h"

#include <algorithm>

namespace ibsc::routing {

FatTreeShape fat_tree_shape(const Topology& t) {
  FatTreeShape f;
  const int n = t.num_switches;
  std::vector<int> hosts(n, 0), level(n, -1), queue;
  for (int h = 0; h < t.num_hosts; ++h) {
    const int s = t.host_switch(h);
    if (s >= 0 && s < n) ++hosts[s];
  }
  for (int s = 0; s < n; ++s)
    if (hosts[s]) level[s] = 0, queue.push_back(s);
  if (queue.empty()) {
    f.why_not = "no switch has hosts";
    return f;
  }
  for (size_t i = 0; i < queue.size(); ++i) {  // multi-source BFS from the leaves
    const Node& node = t.nodes[queue[i]];
    for (int p = 1; p <= node.num_ports; ++p) {
      const int o = node.ports[p].node;
      if (o >= 0 && o < n && level[o] < 0) level[o] = level[queue[i]] + 1, queue.push_back(o);
    }
  }
  // The BFS above starts from every leaf, so it reaches an island that has a leaf of its own (a
  // leaf with its own spine, cut off from the rest): connectivity is checked from one switch.
  std::vector<char> seen(n, 0);
  std::vector<int> stack{0};
  seen[0] = 1;
  int reached = 1;
  while (!stack.empty()) {
    const Node& node = t.nodes[stack.back()];
    stack.pop_back();
    for (int p = 1; p <= node.num_ports; ++p) {
      const int o = node.ports[p].node;
      if (o >= 0 && o < n && !seen[o]) seen[o] = 1, ++reached, stack.push_back(o);
    }
  }
  if (static_cast<int>(queue.size()) != n || reached != n) {
    f.why_not = "the switches are not connected";
    return f;
  }
  const int top = *std::max_element(level.begin(), level.end());
  std::vector<long> up(top + 1, 0);
  for (int s = 0; s < n; ++s) {
    bool has_up = false;
    for (int p = 1; p <= t.nodes[s].num_ports; ++p) {
      const int o = t.nodes[s].ports[p].node;
      if (o < 0 || o >= n) continue;
      if (level[o] == level[s] + 1) ++up[level[s]], has_up = true;
      else if (level[o] != level[s] - 1) {
        f.why_not = "cable " + t.nodes[s].name + " - " + t.nodes[o].name + " joins levels " + std::to_string(level[s]) +
                    " and " + std::to_string(level[o]);
        return f;
      }
    }
    if (!has_up && level[s] != top) {
      f.why_not = t.nodes[s].name + " on level " + std::to_string(level[s]) + " has no cable up";
      return f;
    }
  }
  f.fat_tree = true;
  f.level = level;
  f.switches.assign(top + 1, 0);
  for (int s = 0; s < n; ++s) ++f.switches[level[s]];
  f.cables_up = up;
  f.min_hosts = t.num_hosts, f.max_hosts = 0;
  for (int s = 0; s < n; ++s)
    if (level[s] == 0) f.min_hosts = std::min(f.min_hosts, hosts[s]), f.max_hosts = std::max(f.max_hosts, hosts[s]);
  return f;
}

}  // namespace ibsc::routing
