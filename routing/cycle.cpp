#include "routing/cycle.h"

#include <algorithm>

namespace ibsc::routing {

std::vector<int> find_cycle(const std::vector<uint32_t>& offsets, const std::vector<int>& targets) {
  const int n = static_cast<int>(offsets.size()) - 1;
  enum : uint8_t { White, Grey, Black };
  std::vector<uint8_t> colour(n, White);
  std::vector<uint32_t> next(n);  // next edge to explore per node on the stack
  std::vector<int> stack;
  for (int root = 0; root < n; ++root) {
    if (colour[root] != White) continue;
    stack.push_back(root);
    colour[root] = Grey;
    next[root] = offsets[root];
    while (!stack.empty()) {
      int v = stack.back();
      if (next[v] == offsets[v + 1]) {
        colour[v] = Black;
        stack.pop_back();
        continue;
      }
      int w = targets[next[v]++];
      if (colour[w] == White) {
        colour[w] = Grey;
        next[w] = offsets[w];
        stack.push_back(w);
      } else if (colour[w] == Grey) {  // back edge: the stack from w up to v is a cycle
        auto it = std::find(stack.begin(), stack.end(), w);
        return std::vector<int>(it, stack.end());
      }
    }
  }
  return {};
}

void compress_edges(int nodes, std::vector<std::pair<int, int>>& edges, std::vector<uint32_t>& offsets,
                    std::vector<int>& targets) {
  // By source in one counting pass, then each source's short list sorted: the order of sorting
  // the pairs (millions at 16,384 hosts) at a fraction of the cost.
  offsets.assign(nodes + 1, 0);
  for (const auto& e : edges) ++offsets[e.first + 1];
  for (int v = 0; v < nodes; ++v) offsets[v + 1] += offsets[v];
  targets.resize(edges.size());
  std::vector<uint32_t> next(offsets.begin(), offsets.end() - 1);
  for (const auto& e : edges) targets[next[e.first]++] = e.second;
  size_t w = 0;  // duplicates out, in place
  for (int v = 0; v < nodes; ++v) {
    const size_t b = offsets[v], e = offsets[v + 1];
    offsets[v] = static_cast<uint32_t>(w);
    std::sort(targets.begin() + b, targets.begin() + e);
    for (size_t i = b; i < e; ++i)
      if (i == b || targets[i] != targets[i - 1]) targets[w++] = targets[i];
  }
  offsets[nodes] = static_cast<uint32_t>(w);
  targets.resize(w);
  edges.resize(w);  // sorted and without duplicates, as before
  for (int v = 0; v < nodes; ++v)
    for (uint32_t i = offsets[v]; i < offsets[v + 1]; ++i) edges[i] = {v, targets[i]};
}

}  // namespace ibsc::routing
