// The bound every minimal routing obeys, whichever minimal paths it picks (deterministic or
// adaptive: seeds/001's Static and Distance rows). Between two switches the minimal paths form
// layers of cables (the k-th hop of any minimal path); a layer whose cables all join the same two
// switches is one every minimal path crosses, so those cables carry the pair's whole rate. Summed
// over the host pairs, the busiest such cable group (rate over its cables) caps the rate every
// host can inject: 1 / that, at most 1 (the host's own link). It is a lower bound on what any
// minimal routing's busiest channel carries, so no minimal routing saturates above it; adaptive
// minimal routing can reach it when the other layers have room.
#pragma once
#include <string>
#include <vector>

#include "routing/topology.h"
#include "tb/stats/channel_load.h"

namespace ibsc::tb {

struct MinimalBound {
  double fraction = 1;  // of injection bandwidth (each sending host at link rate = 1)
  double busiest = 0;   // host rates over the busiest unavoidable cable group, per cable
  std::string where;    // "S12 -> S40 (1 cable)": that group
};

MinimalBound minimal_unavoidable_bound(const routing::Topology& topo, const std::vector<Demand>& demand);

}  // namespace ibsc::tb
