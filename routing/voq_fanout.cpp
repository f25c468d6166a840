#include "routing/voq_fanout.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "routing/routing.h"

namespace ibsc::routing {

LaneFanout input_lane_fanout(const Topology& t, const TableSet& ts) {
  const int S = t.num_switches;
  std::map<std::tuple<int, int, int>, InputLane> lanes;
  std::map<std::tuple<int, int, int, int>, double> by_port;  // (switch, input, VL, output) -> traffic
  for (int h = 0; h < t.num_hosts; ++h)
    for (int q = 0; q < t.num_hosts; ++q) {
      if (q == h || ts.hosts[h].paths.size() <= static_cast<size_t>(q)) continue;
      const Span<PathRecord> recs = ts.hosts[h].paths[q];
      for (const PathRecord& rec : recs) {
        const double share = 1.0 / static_cast<double>(recs.size());
        int sw = t.host_switch(h), in = t.host_switch_port(h);
        int vl = ts.hosts[h].sl2vl[rec.sl];
        for (int steps = 0;; ++steps) {
          if (steps > S)
            throw RoutingError("input_lane_fanout: the walk for DLID " + std::to_string(rec.dlid) + " loops");
          const int out = ts.switches[sw].route(rec.dlid, static_cast<Vl>(vl)).primary();
          if (out < 1 || out > 63 || out > t.nodes[sw].num_ports || t.nodes[sw].ports[out].node < 0)
            throw RoutingError("input_lane_fanout: switch " + t.nodes[sw].name + " has no route for DLID " +
                               std::to_string(rec.dlid));
          InputLane& lane = lanes[{sw, in, vl}];
          lane.sw = sw, lane.in_port = in, lane.vl = vl;
          lane.from_host = !t.is_switch(t.nodes[sw].ports[in].node);
          lane.out_ports |= 1ULL << out;
          lane.traffic += share;
          by_port[{sw, in, vl, out}] += share;
          const Sl2VlTable& tab = ts.switches[sw].sl2vl;
          const int next_vl = tab.get(in, out, tab.key() == Sl2VlTable::Key::Sl ? rec.sl : vl);
          const PortPeer& peer = t.nodes[sw].ports[out];
          if (!t.is_switch(peer.node)) break;
          sw = peer.node, in = peer.port, vl = next_vl;
        }
      }
    }
  for (const auto& [k, traffic] : by_port) {
    InputLane& lane = lanes[{std::get<0>(k), std::get<1>(k), std::get<2>(k)}];
    lane.top_port = std::max(lane.top_port, traffic);
  }
  LaneFanout f;
  for (auto& [key, lane] : lanes) {
    const bool single = lane.fanout() == 1;
    if (lane.from_host) {
      f.host_fed += lane.traffic;
      if (single) f.host_fed_single += lane.traffic;
    } else {
      f.switch_fed += lane.traffic;
      f.switch_fed_top += lane.top_port;
      if (single) f.switch_fed_single += lane.traffic;
      f.max_switch_fed_fanout = std::max(f.max_switch_fed_fanout, lane.fanout());
    }
    f.lanes.push_back(lane);
  }
  return f;
}

}  // namespace ibsc::routing
