// Graphviz export of a topology: switches as boxes, hosts as ellipses, one edge per cable
// labelled with its two port numbers (and width when above 1).
#pragma once
#include <ostream>

#include "routing/topology.h"

namespace ibsc::routing {

void write_dot(const Topology& t, std::ostream& out);

}  // namespace ibsc::routing
