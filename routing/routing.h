// Routing entry point: computes the table set for a topology with a named algorithm.
// Plain C++17, no SystemC.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::routing {

class RoutingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RoutingOptions {
  std::string algorithm = "ecube";  // ecube | dor1vl | ...
  int max_sls = 16;                 // SL budget; the algorithm refuses to exceed it
  int max_vls = 15;                 // data VL budget
  int vls = 0;                      // VLs requested by generic algorithms; 0 = their own choice
  uint64_t seed = 1;
};

TableSet compute_routing(const Topology& topo, const RoutingOptions& opt);

// e-cube / dimension-order routing on tori and meshes (ecube.cpp).
TableSet route_ecube(const Topology& topo, const RoutingOptions& opt, bool one_vl);

}  // namespace ibsc::routing
