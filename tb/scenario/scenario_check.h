// Checks of a scenario that need its topology and tables, made once before any load point is
// simulated (each point runs in a child process): an error names the scenario file, the line
// and the key, instead of surfacing later from a worker. Also refuses settings under which no
// packet could ever move (a packet longer than a VL buffer, a VL the VLArb tables never serve),
// which would otherwise end in a misleading deadlock report.
#pragma once
#include <exception>
#include <string>

#include "routing/tables.h"
#include "routing/topology.h"
#include "tb/scenario/scenario.h"

namespace ibsc::tb {

// Builds the topology and the tables of `s` and runs every check; throws ConfigError. Prints
// the topology's import notes (routing::Topology::notes) on stderr, one line each.
void prepare_scenario(const Scenario& s, routing::Topology& topo, routing::TableSet& tables);

// The table checks of `ibsc route --check` (every pair routed, no loop, SL/VL budget, acyclic
// channel dependency graph), so `run` never simulates tables that route would refuse, imported
// ones above all; throws ConfigError at routing.algorithm (routing.lft_file for imports).
void check_routing(const Scenario& s, const routing::Topology& topo, const routing::TableSet& tables);

// The checks alone, for a topology and tables already built.
void check_scenario(const Scenario& s, const routing::Topology& topo, const routing::TableSet& tables);

// "FILE:LINE: message" at the key of a ParamError, else "FILE:LINE: key 'fallback_key': message".
std::string locate(const Scenario& s, const std::exception& e, const std::string& fallback_key);

}  // namespace ibsc::tb
