// Relative bisection as seeds/001 defines it: switch-to-switch cables crossing a cut that
// splits the hosts in two equal halves, divided by the hosts of one half (1.0 = full bisection
// bandwidth, one cable per host). The minimum over cuts is NP-hard in general; here it is
// bounded from above by the best of a few cuts: every half cut across one coordinate (the
// analytic minimum of tori, hypercubes and flattened butterflies) and Fiduccia-Mattheyses
// refinement from those and from seeded random halves. Deterministic in the seed.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "routing/topology.h"

namespace ibsc::routing {

struct BisectionCut {
  std::vector<char> left;  // per switch: 1 on the left side
  long cables = 0;         // switch-to-switch cables across (parallel cables each count)
  double relative = 0;     // cables / (hosts / 2)
  std::string how;         // "dimension 1 half cut", "FM from random start 3", ...
};

// Cables across a cut (each cable once).
long cut_cables(const Topology& t, const std::vector<char>& left);

// Best half cut across one coordinate (switch coordinates needed; product topologies use the
// factor cuts below). Returns cables = -1 when the topology has no coordinates.
BisectionCut best_dimension_cut(const Topology& t);

// The smallest cut found: dimension cuts, then FM passes from them and from `random_starts`
// seeded random halves. Needs the same number of hosts on every switch and an even switch
// count (every seeds/001 network); throws std::invalid_argument otherwise.
BisectionCut min_bisection_estimate(const Topology& t, uint64_t seed = 1, int random_starts = 8);

// Fat trees (hosts on level 0 only; `level` per switch from fat_tree_shape.h): the leaves in
// index order up to the split nearest half the hosts (the fat-tree generators number each
// subtree's leaves contiguously), then every upper switch, level by level upward, on the side
// most of its cables below lead to (ties: left). relative = cables / hosts of the smaller side.
// An upper bound on the minimum that meets the known figures of the generated trees (k-ary
// n-tree, even k: 100 %; a cluster at B:1: U / D). Throws std::invalid_argument with one leaf.
BisectionCut fat_tree_bisection(const Topology& t, const std::vector<int>& level);

}  // namespace ibsc::routing
