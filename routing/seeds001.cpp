#include "routing/seeds001.h"

#include <algorithm>

namespace ibsc::routing {

const std::vector<Seeds001Config>& seeds001_configs() {
  static const std::vector<Seeds001Config> rows = {
      {"Flattened Butterfly 4x8x8x8, widths 2,1,1,1", "flatfly:4x8x8x8:widths=2,1,1,1:hosts=8", 2048, 16384, 35, 4,
       0.50, ""},
      {"Dragonfly 128 groups x 16, 8 global/switch", "dragonfly:a=16,h=8,p=8,g=128", 2048, 16384, 30, 3, 0.50,
       "15 local + 8 global + 8 hosts = 31 ports; 16 x 8 = 128 global ports per group for 127 other groups, "
       "so one switch per group uses 30. The talk's 30 is read as that spare port."},
      {"SFxFF-1: Slim Fly q=4 L=2 x FlatFly 8x8", "product:slimfly:q=4,L=2*flatfly:8x8:hosts=8", 2048, 16384, 34, 4,
       0.50, ""},
      {"SFxFF-2: Slim Fly q=8 L=1 x FlatFly 16", "product:slimfly:q=8*flatfly:16:hosts=8", 2048, 16384, 35, 3, 0.50,
       ""},
      {"Torus 3D 8x16x16, widths 3,5,5", "torus:8x16x16:widths=3,5,5:hosts=8", 2048, 16384, 34, 20, 0.156, ""},
      {"Torus 4D 4x8x8x8, widths 2,4,4,4", "torus:4x8x8x8:widths=2,4,4,4:hosts=8", 2048, 16384, 36, 14, 0.25, ""},
      {"Hypercube 11D, 2 cables per dimension", "hypercube:11:widths=2:hosts=8", 2048, 16384, 30, 11, 0.25,
       "The talk gives radix 30 and 25 %; 11 x 2 cables + 8 hosts = 30 is the reading that gives both."},
  };
  return rows;
}

TopologyFigures describe_topology(const Topology& t, bool with_bisection, uint64_t seed) {
  TopologyFigures f;
  f.switches = t.num_switches;
  f.hosts = t.num_hosts;
  f.min_degree = t.num_switches ? 1 << 30 : 0;
  for (int s = 0; s < t.num_switches; ++s) {
    int used = 0;
    for (int p = 1; p <= t.nodes[s].num_ports; ++p) used += t.nodes[s].ports[p].node >= 0;
    f.min_degree = std::min(f.min_degree, used);
    f.max_degree = std::max(f.max_degree, used);
  }
  f.diameter = switch_diameter(t);
  f.cables = count_switch_links(t);
  f.dimension_cut.cables = -1;
  f.estimate.cables = -1;
  if (with_bisection) {
    f.dimension_cut = best_dimension_cut(t);
    f.estimate = min_bisection_estimate(t, seed);
  }
  return f;
}

}  // namespace ibsc::routing
