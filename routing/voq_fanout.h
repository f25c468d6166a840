// Head-of-line exposure read from the tables: per switch input (port, VL), the output ports
// its packets leave by. A virtual output queue holds packets for one output port only, so with
// VOQsw's full VOQ every switch-fed input VL of 8-port switches with 8 VLs has fan-out 1; an
// input VL with fan-out k can hold a packet for one port behind a blocked head bound for
// another. Plain C++17, no SystemC: every path record of every host pair is walked through the
// LFTs and SL2VL tables (the HCA's SL2VL sets the VL at the first switch).
#pragma once
#include <cstdint>
#include <vector>

#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::routing {

struct InputLane {
  int sw = -1, in_port = -1, vl = -1;
  bool from_host = false;  // fed by an HCA (the first switch of its paths)
  uint64_t out_ports = 0;  // bit p: some packet leaves by port p (ports 1..63)
  double traffic = 0;      // uniform traffic through it: each ordered host pair counts 1,
                           // split evenly over its path records
  double top_port = 0;     // the part of it that leaves by its busiest output port
  int fanout() const { return __builtin_popcountll(out_ports); }
};

struct LaneFanout {
  std::vector<InputLane> lanes;  // every (switch, input port, VL) some walk uses
  // Traffic-weighted: sum over lanes of traffic, and of traffic in lanes of fan-out 1.
  double switch_fed = 0, switch_fed_single = 0;
  double host_fed = 0, host_fed_single = 0;
  int max_switch_fed_fanout = 0;
  double switch_fed_top = 0;  // sum over switch-fed lanes of top_port
  // Purity: the share of switch-fed lane traffic bound for its lane's busiest output port (1 for
  // full VOQ; about 1 / ports used for virtual networks, whose VLs carry every port's share).
  double switch_fed_purity() const { return switch_fed > 0 ? switch_fed_top / switch_fed : 1.0; }
  // Shares of the traffic passing switch inputs that waits in a lane for one output port only.
  double switch_fed_share() const { return switch_fed > 0 ? switch_fed_single / switch_fed : 1.0; }
  double host_fed_share() const { return host_fed > 0 ? host_fed_single / host_fed : 1.0; }
};

// Throws RoutingError when a walk has no route or loops.
LaneFanout input_lane_fanout(const Topology& t, const TableSet& ts);

}  // namespace ibsc::routing
