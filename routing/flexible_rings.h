// Flexible routing on small tori: the turn set behind "perfect traffic balance on 4-node
// cycles" (seeds/000 section 4), reconstructed in flexible_rings.cpp.
#pragma once

#include "routing/generic.h"

namespace ibsc::routing {

// Turn rules for a torus whose rings all have 3 or 4 switches (one cable per neighbour):
// turns only toward a higher dimension, and in each dimension the + direction broken at the
// switches of even coordinate, the - direction at those of odd coordinate. False (and `out`
// untouched) for any other topology.
bool ring_break_rules(const Topology& t, const SwitchGraph& g, TurnRules& out);

}  // namespace ibsc::routing
