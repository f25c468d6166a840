// Scenario: a YAML file resolved into the parameter structs of every part. Each key maps to one
// field whose default lives in that struct; unknown keys, wrong types and out-of-range values
// are errors naming file, line and key.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "routing/routing.h"
#include "routing/topology.h"
#include "tb/run/run_point.h"
#include "tb/run/sweep.h"

namespace ibsc::tb {

struct TopologyChoice {
  std::string spec = "torus:4x4";  // short form, as for `ibsc route --topology` (routing/topo_spec.h)
  int hosts_per_switch = -1;       // -1: the spec's own (4 on tori, meshes, irregular networks)
  int switch_ports = -1;           // ports per switch; 0: exactly what the topology needs; -1: the spec's
};

struct Scenario {
  std::string file;
  std::string name;
  TopologyChoice topology;
  routing::RoutingOptions routing;
  PointSetup point;  // fabric, arbiter, traffic, injection, run, seed
  SweepConfig sweep;
  nlohmann::ordered_json resolved;  // every parameter with its value, defaults included
  // "FILE:LINE" of a key, or "--set KEY" when an override set it: for errors found later.
  std::function<std::string(const std::string&)> where;
  std::string lengths_key = "traffic.length";  // the key that set the packet lengths
};

// Reads and validates a scenario; `overrides` are "key=value" (from --set), applied first.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides);
// The same from YAML text; errors name `name` where they would name the file.
Scenario load_scenario_text(const std::string& yaml, const std::string& name,
                            const std::vector<std::string>& overrides);
class ConfigReader;
Scenario load_scenario(ConfigReader cfg, const std::string& path, const std::vector<std::string>& overrides);

routing::Topology build_topology(const TopologyChoice& t);

// Why out/`name` would not be a folder inside out/ ("../x", "/x", "a//b", "."), or "" when it is.
std::string folder_name_problem(const std::string& name);

// IBA VLArb tables (high and low priority) hold at most 64 entries each.
constexpr size_t kMaxVlArbEntries = 64;

}  // namespace ibsc::tb
