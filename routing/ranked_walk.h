// The deadlock check's walk in VL order (checks.cpp), for per-input-VL LFTs whose every
// switch-to-switch hop lowers the VL (seeds/001's Distance+k, Deflection+k, the ADOR family).
//   The walk of one destination has states (switch, input VL): the LFT is keyed by DLID and
//   input VL, so the candidates of a state do not depend on the input port; the input ports
//   that reached a state are kept as a bit mask, and the output VL of each is read from the
//   VL2VL table, grouping the input ports whose VL2VL rows are equal (one group for Distance+k,
//   one per dimension and the hosts for ADOR).
//   When every hop of a packet that came from a switch lowers the VL (output VL < input VL),
//   the states of one VL are reached only from states of higher VLs: visiting
//   the VLs from the highest down visits each state once, after everything that leads to it,
//   a topological order of the walk. So there is no loop, each state's arrivals are complete
//   when it is visited, and the longest walk is a longest path computed on the way (a state's
//   depth: links from the source HCA). A first hop from a host that raises the VL (ADOR's VL 0
//   from the HCA) is visited before the others: no hop leads into a host's link.
//   The dependencies are those of the walk every pair in full: at each visited state, every
//   input port that reached it with each of its candidates and the output VL of that port; the
//   channel dependency graph is then searched for a cycle as always (the ranking proves the
//   walks end, not that the graph is acyclic).
// Destinations are taken by switch: one full walk per group (destination_groups.h) up to the
// destination switch D, then each host of D from the states that reached D and the sources on
// D. Sources are taken by class (pair_classes.h).
// Anything else (a hop that keeps or raises the VL, a missing entry, a walk that does not end
// at its host, an SL above 15, a DLID outside the destination's LIDs) gives up: the caller then
// walks as before, which names the problems. Destination switches are shared among threads,
// each with its own results, merged as unions and maxima: the same report whatever the split.
#pragma once
#include <vector>

#include "routing/switch_deps.h"
#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::routing {

struct RankedWalk {
  long pairs = 0;  // every one routed
  int max_hops = 0;
  bool sl_seen[kDepVls] = {}, vl_seen[kDepVls] = {};
  bool vl15 = false;  // some HCA sends on VL15 or a hop gives it
};

// Whether the tables have the form the walk needs (per-VL LFTs, VL2VL everywhere, LMC 0,
// source classes); the walk may still give up.
bool ranked_walk_applies(const Topology& t, const TableSet& ts);

// Walks every pair and ORs the dependencies into deps (one SwitchDeps per switch, initialised);
// false when it gave up (deps then partly set: the caller starts again).
bool ranked_walk(const Topology& t, const TableSet& ts, std::vector<SwitchDeps>& deps, RankedWalk& out,
                 int threads = 2);

}  // namespace ibsc::routing
