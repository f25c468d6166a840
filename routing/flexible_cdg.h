// Flexible routing, second stage (flexible_cdg.cpp): path-by-path rebalancing that keeps the
// channel dependency graph of the paths acyclic.
#pragma once

#include "routing/generic.h"

namespace ibsc::routing {

// Above this many switches route_flexible skips the stage (a reachability search per new
// dependency and a dense channel x channel count matrix).
constexpr int kFlexibleCdgSwitches = 128;
// Passes over all pairs at most (it stops earlier when a pass changes nothing).
constexpr int kFlexibleCdgPasses = 20;

// `r` must route every pair without revisits and have an acyclic dependency graph (one VL);
// re-routes pairs onto minimal paths that lower their most loaded channel (then the load sum),
// keeping the graph acyclic. Returns whether any path changed; r.paths and r.load are updated.
bool improve_acyclic(const SwitchGraph& g, RouteResult& r, int passes = kFlexibleCdgPasses);

}  // namespace ibsc::routing
