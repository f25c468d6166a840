// The switch graph: switches and the directed switch-to-switch channels between them, the view
// every generic routing algorithm, check and metric works on. Host links and loop-back cables
// (both ends on one switch) are left out: no route can use a loop-back cable.
#pragma once
#include <cstdint>
#include <vector>

#include "routing/topology.h"

namespace ibsc::routing {

struct Channel {
  int from = -1;     // switch index
  int port = -1;     // output port at `from`
  int to = -1;       // switch index
  int to_port = -1;  // input port at `to`
};

struct SwitchGraph {
  int n = 0;                          // switches
  std::vector<Channel> channels;      // directed; ids are dense
  std::vector<std::vector<int>> out;  // per switch: channels leaving it, by port
  std::vector<std::vector<int>> in;   // per switch: channels entering it
  std::vector<int> reverse;           // the channel on the same cable, other direction
  std::vector<int> by_port_offset;    // channel id = lookup[by_port_offset[s] + port], or -1
  std::vector<int> by_port;

  explicit SwitchGraph(const Topology& t);
  int channel_at(int sw, int port) const { return by_port[by_port_offset[sw] + port]; }
};

// The channels leaving each switch, in port order, flat: switch x's are first[x] .. first[x + 1]
// - 1, each with its far switch and output port (for searches that read them many times).
struct FlatChannels {
  std::vector<int> first, to, port;
  explicit FlatChannels(const SwitchGraph& g);
};

// Hop distances between all switches (row-major, n x n); kUnreachable when not connected.
constexpr uint16_t kUnreachable = 0xFFFF;
std::vector<uint16_t> all_pairs_distances(const SwitchGraph& g);
// Hop distances from one switch.
std::vector<int> bfs_distances(const SwitchGraph& g, int src);

}  // namespace ibsc::routing
