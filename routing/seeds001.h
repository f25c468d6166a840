// seeds/001 (Daryin, direct large-scale InfiniBand networks): the configuration tables of its
// topology slides, each as a topology spec, and the same figures measured on the generated
// network, so a test and bench/seeds001_topologies print and check one list.
#pragma once
#include <string>
#include <vector>

#include "routing/bisection.h"
#include "routing/topology.h"

namespace ibsc::routing {

// One configuration as the talk gives it; -1 where the talk gives no figure. Switch and host
// counts come from the reference configuration (2,048 switches, 8 nodes each, 16,384 nodes).
struct Seeds001Config {
  std::string name;  // the talk's row name
  std::string spec;  // build_topology_spec() argument
  int switches = 2048, hosts = 16384;
  int degree = -1;        // ports used per switch, hosts included ("radix" / "degree")
  int diameter = -1;      // switch-to-switch hops
  double bisection = -1;  // relative bisection (0.156 for "15,6%")
  std::string note;       // why a measured figure may differ
};

const std::vector<Seeds001Config>& seeds001_configs();

// Figures of a generated network, in the table's terms.
struct TopologyFigures {
  int switches = 0, hosts = 0;
  int min_degree = 0, max_degree = 0;  // ports used (switch links + hosts)
  int diameter = -1;
  long cables = 0;             // switch-to-switch cables
  BisectionCut dimension_cut;  // cables = -1 without coordinates
  BisectionCut estimate;       // min_bisection_estimate()
};

TopologyFigures describe_topology(const Topology& t, bool with_bisection = true, uint64_t seed = 1);

}  // namespace ibsc::routing
