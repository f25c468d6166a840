// The topology as an ibsim net file (ibsim -s -n NET), with GUIDs IBSC chooses so that
// OpenSM's dumps map back to the topology's switches and hosts.
//   Switch s: node GUID kSwitchGuidBase + s, nodeid "S<s>" (the name is a comment).
//   Host h:   a one-port HCA "H<h>" of node GUID kHostGuidBase + 2h, so its port GUID (ibsim
//             gives port p of an HCA node GUID + p) is kHostGuidBase + 2h + 1. A multi-port HCA
//             of a dump is several hosts already (topo_import.h), each its own HCA here.
//   Every GUID is set by a `switchguid=` / `caguid=` line before its node, never left to
//   ibsim's counters. A cable between two ports of one switch (loop-back, never routed) is
//   left out; a host without a cable is refused (OpenSM could not reach it).
// ibsim's limits (-N nodes, -S switches, -P ports; its defaults stop at 2,048 nodes, 256
// switches, 13,312 ports) are returned sized from the topology.
// Plain C++17, no SystemC.
#pragma once
#include <cstdint>
#include <ostream>

#include "routing/topology.h"

namespace ibsc::routing {

struct IbsimNetSize {
  long nodes = 0;     // for -N
  long switches = 0;  // for -S
  long ports = 0;     // for -P (every node's ports, a switch's port 0 included)
};

uint64_t ibsim_switch_guid(int sw);
uint64_t ibsim_host_port_guid(int host);

// Writes the net file; throws std::invalid_argument naming a host without a cable.
IbsimNetSize write_ibsim_net(const Topology& t, std::ostream& out);

}  // namespace ibsc::routing
