// Tests' shorthand: a scenario file (with --set style overrides) read and prepared as `ibsc run`
// prepares it (tb::prepare_scenario: topology, tables, checks), its point pointing at this
// object's topology and tables, progress lines off: ready for run_load_point, run_sweep or a
// saturation search. Not copyable: the point refers to its own members.
#pragma once
#include <string>
#include <vector>

#include "routing/routing.h"
#include "tb/scenario/scenario.h"
#include "tb/scenario/scenario_check.h"

namespace ibsc::testing {

struct PreparedScenario {
  tb::Scenario s;
  routing::Topology topo;
  routing::TableSet tables;
  PreparedScenario(const std::string& path, const std::vector<std::string>& sets) : s(tb::load_scenario(path, sets)) {
    tb::prepare_scenario(s, topo, tables);
    s.point.topo = &topo;
    s.point.tables = &tables;
    s.point.run.progress = false;
  }
  PreparedScenario(const PreparedScenario&) = delete;
  PreparedScenario& operator=(const PreparedScenario&) = delete;
};

}  // namespace ibsc::testing
