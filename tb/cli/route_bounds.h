// `ibsc route --bound PATTERN`: what a routing's tables let a traffic pattern carry, before any
// simulation. Per pattern: the routed channel-load bound (every host pair's primary path walked
// through the LFTs; the busiest channel caps the rate each host may inject) and the bound no
// minimal routing can pass (tb/stats/minimal_bound.h). Both as a % of injection bandwidth, so
// they hold at any link rate. Uniform traffic and the bit permutations; patterns that draw their
// destinations at random or need a scenario's settings (hotspot hosts, a permutation file) are
// refused with a message naming them.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::tb {

struct RouteBound {
  std::string pattern;
  double routed = 0;         // % of injection bandwidth
  std::string busiest;       // the busiest channel of the routed walk
  double busiest_share = 0;  // host rates over it
  long paths = 0, non_minimal_paths = 0;
  bool adaptive = false;      // some LFT entry has several candidates: only the primary paths were walked
  double minimal = 100;       // % of injection bandwidth: no minimal routing passes it
  std::string minimal_where;  // its busiest unavoidable cable group ("" when none)
};

// The patterns by their traffic.pattern names; std::invalid_argument naming the bad one.
std::vector<RouteBound> route_bounds(const routing::Topology& topo, const routing::TableSet& tables,
                                     const std::vector<std::string>& patterns);
std::string route_bound_text(const std::string& algorithm, const RouteBound& b);
nlohmann::json route_bound_json(const RouteBound& b);

}  // namespace ibsc::tb
