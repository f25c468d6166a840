// The deadlock check's walk of deterministic tables (one candidate per LFT entry, one LFT per
// switch: DenseLft::exact) by destination switch (checks.cpp). Hosts of one switch D whose
// LIDs have the same entry at every other switch and whose path records agree record for
// record (same SL, each toward its own LID, in every row a class on another switch reads)
// form a group: every walk toward any of them enters D exactly as a walk toward the group's
// first host does, and only D's last hop differs. So the check walks each (source class,
// group) once, shares each walk's tail per state entering a switch (switch, input port, VL,
// SL) within the group, and per host of D only the last hop from each state entering D. On
// one VL (DOR on flattened butterflies and hypercubes, minhop, up*/down*), hosts whose
// entries also differ in which parallel cable into D a neighbour of D takes stay in the group
// (that hop is then taken per host), and a group's walks are passes over the switches: how
// far each is from D, then the transition at each switch entered. At 2,048 switches of 8
// hosts: 2,048 x 2,048 first hops and ~2 x 2,048 switch steps per group, instead of 2,048 x
// 16,384 walks of ~4 hops (2.3 CPU s down to 0.35 with the rest of the check).
#pragma once
#include <vector>

#include "routing/checks.h"
#include "routing/dense_lft.h"
#include "routing/pair_classes.h"
#include "routing/switch_deps.h"

namespace ibsc::routing {

struct WalkSeen {  // what the walks met, for check_verdict()
  bool sl[kNumSls] = {};
  bool vl[kDepVls] = {};
  bool vl15 = false;
};

// Every pair walked as above. true: every walk ends at its destination host; rep's pairs,
// routed_pairs and max_hops, `seen` and `deps` are set as the walk of every pair sets them.
// false: some walk does not (no record, a bad SL or DLID, an LFT entry missing or not cabled,
// a loop, a wrong host); rep and `seen` are untouched and `deps` holds
// only dependencies that walks of the pairs set too, so the caller walks pair by pair (which
// names the problems) on top. `classes` must be pair_classes(t, ts), not empty; their `seen`
// bits are kept up to date with `deps`.
bool walk_deterministic_by_switch(const Topology& t, const TableSet& ts, const DenseLft& dense, PairClasses& classes,
                                  std::vector<SwitchDeps>& deps, WalkSeen& seen, CheckReport& rep);

}  // namespace ibsc::routing
