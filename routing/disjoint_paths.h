// Disjoint switch-to-switch paths, TFTR's first stage (seeds/002 section 4): for a switch pair,
// paths that share no cable and no intermediate switch, so each one leaves the source and
// enters the destination by its own port, found without regard to deadlocks.
//
// Reconstruction: the paper searches port pairings at both ends with a length bound of
// distance + 4 and, on 2D tori, a clockwise/counter-clockwise port order. We solve the same
// question exactly: a minimum-cost flow (Boost.Graph successive shortest paths) over the switch
// graph with every intermediate switch split into in -> out of capacity 1 and every channel of
// capacity 1 and cost 1 gives the largest set of vertex-disjoint paths (capped at `k`) of least
// total length; no length bound is needed (on a 10x10 torus the fourth path between neighbours
// is 9 hops, beyond the paper's bound, and the paper still reports four paths for every pair).
#pragma once
#include <memory>
#include <vector>

#include "routing/graph.h"
#include "routing/topology.h"

namespace ibsc::routing {

// The flow network is built once per switch graph and reused for every pair.
class DisjointPaths {
 public:
  explicit DisjointPaths(const SwitchGraph& g);
  ~DisjointPaths();
  // Up to `k` paths from switch s to switch d (s != d), each a list of channels, sharing no
  // cable and no switch but s and d; least total hop count; returned shortest first (equal
  // lengths: by the source port). Fewer than k when the vertex connectivity between s and d is
  // lower.
  std::vector<std::vector<int>> find(int s, int d, int k);

 private:
  class SplitGraph;
  const SwitchGraph& g_;
  std::unique_ptr<SplitGraph> split_;
};

// The paper's bound on the number of disjoint paths: the smallest number of switch-to-switch
// cables at a switch with at least one host (0 without such switches).
int min_switch_degree(const Topology& t, const SwitchGraph& g);

// Whether paths (channel lists from s to d) share no cable and no switch but their ends.
bool paths_disjoint(const SwitchGraph& g, const std::vector<std::vector<int>>& paths);

}  // namespace ibsc::routing
