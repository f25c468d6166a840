#include "routing/disjoint_paths.h"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/successive_shortest_path_nonnegative_weights.hpp>
#include <memory>

namespace ibsc::routing {
namespace {

using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
using FlowGraph = boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS, boost::no_property,
    boost::property<boost::edge_capacity_t, long,
                    boost::property<boost::edge_residual_capacity_t, long,
                                    boost::property<boost::edge_reverse_t, Traits::edge_descriptor,
                                                    boost::property<boost::edge_weight_t, long>>>>>;
using Edge = Traits::edge_descriptor;

}  // namespace

// The split switch graph: switch x is vertex 2x (in) and 2x+1 (out); vertex 2n is a super source
// whose arc into the source's out vertex caps the flow at k.
class DisjointPaths::SplitGraph {
 public:
  explicit SplitGraph(const SwitchGraph& g) : fg_(2 * g.n + 1), source_(2 * g.n) {
    inner_.resize(g.n);
    feed_.resize(g.n);
    for (int x = 0; x < g.n; ++x) inner_[x] = arc(2 * x, 2 * x + 1, 1, 0);
    for (int x = 0; x < g.n; ++x) feed_[x] = arc(2 * g.n, 2 * x + 1, 0, 0);
    for (const Channel& ch : g.channels) chan_.push_back(arc(2 * ch.from + 1, 2 * ch.to, 1, 1));
  }
  // Runs the flow from s to d; afterwards used(c) tells whether channel c carries a path.
  void solve(int s, int d, int k) {
    auto cap = boost::get(boost::edge_capacity, fg_);
    cap[feed_[s]] = k;
    cap[inner_[s]] = 0;  // the ends are never passed through
    cap[inner_[d]] = 0;
    boost::successive_shortest_path_nonnegative_weights(fg_, source_, 2 * d);
    cap[feed_[s]] = 0;
    cap[inner_[s]] = 1;
    cap[inner_[d]] = 1;
  }
  bool used(int c) const {
    auto cap = boost::get(boost::edge_capacity, fg_);
    auto res = boost::get(boost::edge_residual_capacity, fg_);
    return cap[chan_[c]] - res[chan_[c]] > 0;
  }

 private:
  Edge arc(int u, int v, long capacity, long cost) {
    Edge e = boost::add_edge(u, v, fg_).first;
    Edge r = boost::add_edge(v, u, fg_).first;
    auto cap = boost::get(boost::edge_capacity, fg_);
    auto w = boost::get(boost::edge_weight, fg_);
    auto rev = boost::get(boost::edge_reverse, fg_);
    cap[e] = capacity;
    cap[r] = 0;
    w[e] = cost;
    w[r] = -cost;
    rev[e] = r;
    rev[r] = e;
    return e;
  }
  FlowGraph fg_;
  int source_;
  std::vector<Edge> inner_, feed_, chan_;
};

DisjointPaths::DisjointPaths(const SwitchGraph& g) : g_(g), split_(std::make_unique<SplitGraph>(g)) {}
DisjointPaths::~DisjointPaths() = default;

std::vector<std::vector<int>> DisjointPaths::find(int s, int d, int k) {
  const SwitchGraph& g = g_;
  std::vector<std::vector<int>> paths;
  if (s == d || k <= 0) return paths;
  split_->solve(s, d, k);
  const SplitGraph* split = split_.get();
  // Decompose: each used channel out of s starts a path; intermediate switches carry one unit,
  // so the used channel out of each is unique.
  for (int c0 : g.out[s]) {
    if (!split->used(c0)) continue;
    std::vector<int> p{c0};
    int x = g.channels[c0].to;
    while (x != d) {
      int next = -1;
      for (int c : g.out[x])
        if (split->used(c)) {
          next = c;
          break;
        }
      if (next < 0) break;  // cannot happen with a valid flow; leaves the path unfinished
      p.push_back(next);
      x = g.channels[next].to;
    }
    if (x == d) paths.push_back(std::move(p));
  }
  std::stable_sort(paths.begin(), paths.end(), [](const auto& a, const auto& b) { return a.size() < b.size(); });
  return paths;
}

int min_switch_degree(const Topology& t, const SwitchGraph& g) {
  std::vector<char> has_host(g.n, 0);
  for (int h = 0; h < t.num_hosts; ++h) {
    int s = t.host_switch(h);
    if (s >= 0 && s < g.n) has_host[s] = 1;
  }
  int best = -1;
  for (int x = 0; x < g.n; ++x)
    if (has_host[x] && (best < 0 || static_cast<int>(g.out[x].size()) < best)) best = static_cast<int>(g.out[x].size());
  return std::max(best, 0);
}

bool paths_disjoint(const SwitchGraph& g, const std::vector<std::vector<int>>& paths) {
  std::vector<int> cable_owner(g.channels.size(), -1), switch_owner(g.n, -1);
  for (size_t i = 0; i < paths.size(); ++i) {
    const auto& p = paths[i];
    for (size_t j = 0; j < p.size(); ++j) {
      const int cable = std::min(p[j], g.reverse[p[j]]);
      if (cable_owner[cable] >= 0) return false;
      cable_owner[cable] = static_cast<int>(i);
      if (j + 1 < p.size()) {  // an intermediate switch
        const int x = g.channels[p[j]].to;
        if (switch_owner[x] >= 0) return false;
        switch_owner[x] = static_cast<int>(i);
      }
    }
  }
  return true;
}

}  // namespace ibsc::routing
