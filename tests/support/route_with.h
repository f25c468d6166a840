// Routing tests' shorthand: the tables of one algorithm (with its k) on a topology.
#pragma once
#include <string>

#include "routing/routing.h"

namespace ibsc::testing {

inline routing::TableSet route_with(const routing::Topology& t, const std::string& algorithm, int k = 1) {
  routing::RoutingOptions opt;
  opt.algorithm = enum_value<routing::Algorithm>(algorithm);
  opt.k = k;
  return routing::compute_routing(t, opt);
}

}  // namespace ibsc::testing
