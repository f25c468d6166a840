#include "routing/bisection.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>
#include <stdexcept>

namespace ibsc::routing {
namespace {

// Switch graph with parallel cables merged into one weighted edge.
using Adjacency = std::vector<std::vector<std::pair<int, int>>>;

Adjacency weighted_adjacency(const Topology& t) {
  Adjacency adj(t.num_switches);
  for (int s = 0; s < t.num_switches; ++s) {
    std::map<int, int> w;
    for (int p = 1; p <= t.nodes[s].num_ports; ++p) {
      const int o = t.nodes[s].ports[p].node;
      if (o >= 0 && o < t.num_switches && o != s) ++w[o];
    }
    adj[s].assign(w.begin(), w.end());
  }
  return adj;
}

long cut_of(const Adjacency& adj, const std::vector<char>& left) {
  long c = 0;
  for (size_t s = 0; s < adj.size(); ++s)
    for (auto [o, w] : adj[s])
      if (left[s] && !left[o]) c += w;
  return c;
}

// One Fiduccia-Mattheyses pass: every switch moves once, the side sizes never differ by more
// than two, and the best balanced prefix of moves is kept. Returns the new cut.
long fm_pass(const Adjacency& adj, std::vector<char>& left, long cut) {
  const int n = static_cast<int>(adj.size());
  std::vector<int> gain(n, 0);
  for (int v = 0; v < n; ++v)
    for (auto [o, w] : adj[v]) gain[v] += left[o] != left[v] ? w : -w;
  std::set<std::pair<int, int>> side[2];  // (gain, -v): the largest gain, then the lowest index
  for (int v = 0; v < n; ++v) side[left[v] ? 1 : 0].insert({gain[v], -v});
  std::vector<char> locked(n, 0);
  std::vector<int> moves;
  int size[2] = {0, 0};
  for (int v = 0; v < n; ++v) ++size[left[v] ? 1 : 0];
  long cur = cut, best = cut;
  size_t best_len = 0;
  for (int step = 0; step < n; ++step) {
    int from = -1;
    for (int s = 0; s < 2; ++s) {
      if (side[s].empty() || size[s] - 1 < size[1 - s] - 1) continue;  // would unbalance by > 2
      if (from < 0 || side[s].rbegin()->first > side[from].rbegin()->first ||
          (side[s].rbegin()->first == side[from].rbegin()->first && size[s] > size[from]))
        from = s;
    }
    if (from < 0) break;
    const int v = -side[from].rbegin()->second;
    side[from].erase(std::prev(side[from].end()));
    locked[v] = 1;
    cur -= gain[v];
    left[v] = !left[v];
    --size[from], ++size[1 - from];
    moves.push_back(v);
    for (auto [o, w] : adj[v]) {
      if (locked[o]) continue;
      const int so = left[o] ? 1 : 0;
      side[so].erase({gain[o], -o});
      gain[o] += left[o] == left[v] ? -2 * w : 2 * w;
      side[so].insert({gain[o], -o});
    }
    if (size[0] == size[1] && cur < best) best = cur, best_len = moves.size();
  }
  for (size_t i = moves.size(); i > best_len; --i) left[moves[i - 1]] = !left[moves[i - 1]];
  return best;
}

long refine(const Adjacency& adj, std::vector<char>& left) {
  long cut = cut_of(adj, left);
  for (int pass = 0; pass < 30; ++pass) {
    const long next = fm_pass(adj, left, cut);
    if (next >= cut) break;
    cut = next;
  }
  return cut;
}

BisectionCut finish(const Topology& t, std::vector<char> left, long cables, const std::string& how) {
  BisectionCut c;
  c.left = std::move(left);
  c.cables = cables;
  c.relative = t.num_hosts ? cables / (t.num_hosts / 2.0) : 0;
  c.how = how;
  return c;
}

}  // namespace

long cut_cables(const Topology& t, const std::vector<char>& left) {
  long n = 0;
  for (int s = 0; s < t.num_switches; ++s)
    for (int p = 1; p <= t.nodes[s].num_ports; ++p) {
      const int o = t.nodes[s].ports[p].node;
      if (o >= 0 && o < t.num_switches && left[s] && !left[o]) ++n;
    }
  return n;
}

BisectionCut best_dimension_cut(const Topology& t) {
  BisectionCut best;
  best.cables = -1;
  if (t.num_switches == 0 || t.nodes[0].coord.empty()) return best;
  for (size_t d = 0; d < t.nodes[0].coord.size(); ++d) {
    const int k = t.dims.at(d);
    if (k % 2) continue;  // an odd size has no half cut across it
    std::vector<char> left(t.num_switches);
    for (int s = 0; s < t.num_switches; ++s) left[s] = t.nodes[s].coord[d] < k / 2;
    const long c = cut_cables(t, left);
    if (best.cables < 0 || c < best.cables) best = finish(t, left, c, "half cut across dimension " + std::to_string(d));
  }
  return best;
}

BisectionCut min_bisection_estimate(const Topology& t, uint64_t seed, int random_starts) {
  const int n = t.num_switches;
  if (n < 2 || n % 2)
    throw std::invalid_argument("bisection: needs an even number of switches, not " + std::to_string(n));
  std::vector<int> hosts(n, 0);
  for (int h = 0; h < t.num_hosts; ++h)
    if (t.host_switch(h) >= 0) ++hosts[t.host_switch(h)];  // an uncabled host (a file's) is on none
  for (int s = 1; s < n; ++s)
    if (hosts[s] != hosts[0]) throw std::invalid_argument("bisection: switches with different host counts");
  const Adjacency adj = weighted_adjacency(t);
  // Starts: index blocks left = (s mod m) < m/2 for every even m dividing n. With the generators'
  // mixed-radix numbering these include every half cut across one coordinate, of products too.
  std::vector<std::pair<std::vector<char>, std::string>> starts;
  for (int m = 2; m <= n; ++m) {
    if (n % m || m % 2) continue;
    std::vector<char> left(n);
    for (int s = 0; s < n; ++s) left[s] = s % m < m / 2;
    starts.emplace_back(left, "index block " + std::to_string(m));
  }
  std::mt19937_64 rng(seed);
  for (int r = 0; r < random_starts; ++r) {
    std::vector<int> order(n);
    for (int s = 0; s < n; ++s) order[s] = s;
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<char> left(n, 0);
    for (int i = 0; i < n / 2; ++i) left[order[i]] = 1;
    starts.emplace_back(left, "random start " + std::to_string(r));
  }
  BisectionCut best;
  best.cables = -1;
  for (auto& [left, name] : starts) {
    const long before = cut_of(adj, left);
    if (best.cables < 0 || before < best.cables) best = finish(t, left, before, name);
    const long after = refine(adj, left);
    if (after < best.cables) best = finish(t, left, after, name + " + FM");
  }
  return best;
}

BisectionCut fat_tree_bisection(const Topology& t, const std::vector<int>& level) {
  const int n = t.num_switches;
  std::vector<int> hosts(n, 0), leaves;
  for (int h = 0; h < t.num_hosts; ++h)
    if (t.host_switch(h) >= 0) ++hosts[t.host_switch(h)];  // an uncabled host (a file's) is on none
  int top = 0;
  for (int s = 0; s < n; ++s) {
    if (level[s] == 0) leaves.push_back(s);
    top = std::max(top, level[s]);
  }
  if (leaves.size() < 2) throw std::invalid_argument("bisection: a fat tree of one leaf has no cable to cut");
  std::vector<char> left(n, 0);
  long in_left = 0;
  const double half = t.num_hosts / 2.0;
  for (size_t i = 0; i + 1 < leaves.size(); ++i) {  // stop where one more leaf moves away from half
    const long next = in_left + hosts[leaves[i]];
    if (in_left > 0 && std::abs(next - half) >= std::abs(in_left - half)) break;
    in_left = next;
    left[leaves[i]] = 1;
  }
  for (int l = 1; l <= top; ++l)
    for (int s = 0; s < n; ++s) {
      if (level[s] != l) continue;
      long to_left = 0, to_right = 0;
      for (int p = 1; p <= t.nodes[s].num_ports; ++p) {
        const int o = t.nodes[s].ports[p].node;
        if (o >= 0 && o < n && level[o] == l - 1) (left[o] ? to_left : to_right) += 1;
      }
      left[s] = to_left >= to_right;
    }
  const long cables = cut_cables(t, left);
  const long smaller = std::min(in_left, t.num_hosts - in_left);
  BisectionCut c = finish(t, left, cables,
                          "fat-tree cut: leaves in index order, hosts " + std::to_string(in_left) + " | " +
                              std::to_string(t.num_hosts - in_left));
  c.relative = smaller ? static_cast<double>(cables) / smaller : 0;
  return c;
}

}  // namespace ibsc::routing
