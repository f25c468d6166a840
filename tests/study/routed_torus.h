// A torus routed by one algorithm, with its channel-load bound per traffic pattern: the shape
// the study tests compute bounds by hand on.
#pragma once
#include <string>
#include <vector>

#include "routing/generators.h"
#include "routing/routing.h"
#include "tb/stats/channel_load.h"
#include "tb/traffic/traffic_driver.h"

namespace ibsc::testing {

struct Routed {
  routing::Topology topo;
  routing::TableSet tables;
  Routed(std::vector<int> dims, const std::string& algorithm) {
    topo = routing::make_torus(dims, 4, true, 2 * static_cast<int>(dims.size()) + 4);
    routing::RoutingOptions ro;
    ro.algorithm = enum_value<routing::Algorithm>(algorithm);
    tables = routing::compute_routing(topo, ro);
  }
  tb::ChannelLoadBound bound(const std::string& pattern) const {
    tb::TrafficConfig tc;
    tc.pattern = enum_value<tb::TrafficPattern>(pattern);
    return tb::channel_load_bound(topo, tables, tb::traffic_matrix(tc, topo), 0.25);
  }
};

}  // namespace ibsc::testing
