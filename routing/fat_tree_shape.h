// A fat tree's levels read from its graph, so generated trees and imported clusters (an
// ibnetdiscover dump) are described alike: the leaves are the switches with hosts (level 0), a
// switch's level is its distance in switch hops from the nearest leaf. The topology is taken as
// a fat tree when the switches are connected, every switch-to-switch cable joins two adjacent
// levels, and every switch without a cable up is on the top level. Plain C++17, no SystemC.
#pragma once
#include <string>
#include <vector>

#include "routing/topology.h"

namespace ibsc::routing {

struct FatTreeShape {
  bool fat_tree = false;
  std::string why_not;               // when not a fat tree: the first rule broken
  std::vector<int> level;            // per switch (empty when not a fat tree)
  std::vector<int> switches;         // per level
  std::vector<long> cables_up;       // per level: cables to the level above (parallel ones each count)
  int min_hosts = 0, max_hosts = 0;  // hosts per leaf
  int levels() const { return static_cast<int>(switches.size()); }
};

FatTreeShape fat_tree_shape(const Topology& t);

}  // namespace ibsc::routing
