// Routing metrics of seeds/000 section 5, computed from the tables: one path per ordered pair
// of distinct switches (the primary path record between the first host of each switch, walked
// through the LFTs, first candidate at each switch), counting switch-to-switch channels only.
//   average distance: mean links crossed by those paths;
//   average topological distance: mean shortest-path distance, no routing restriction;
//   crossing path: most paths through one directed switch-to-switch channel;
//   deviation crossing: standard deviation of paths per channel over all such channels
//   (population form, every cabled direction counts, idle ones included).
// Switches without hosts cannot be reached by a path record and are left out of both averages
// and of the path counts (they are counted in switches_without_hosts; their channels still
// count in the deviation).
#pragma once
#include <vector>

#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::routing {

struct Metrics {
  double average_distance = 0;
  double average_topological_distance = 0;
  int crossing_path = 0;
  double deviation_crossing = 0;
  double mean_crossing = 0;
  long switch_pairs = 0;  // pairs measured
  int switches_without_hosts = 0;
  long broken_pairs = 0;          // walks that did not reach the destination switch
  std::vector<int> channel_load;  // by SwitchGraph channel id
};

Metrics compute_metrics(const Topology& t, const TableSet& ts);

}  // namespace ibsc::routing
