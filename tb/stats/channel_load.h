// Channel-load bounds on accepted traffic: no run may accept more than its busiest channel can
// carry. Two bounds, both in bytes/ns/switch (the papers' unit):
//   routed:   from the tables: each host pair's primary path is walked through the LFTs, every
//             channel (host links included) sums the shares of traffic that cross it, and the
//             busiest channel at link rate caps the per-host injection rate;
//   topology: for any routing and any split of rate among the hosts (beyond saturation some
//             sources get through faster than others): maximise the total rate such that the
//             minimal-hop demand fits the capacity of all switch-to-switch channels together
//             and no host link exceeds link rate (a small linear programme, solved greedily,
//             shortest sources first). For uniform traffic on a torus every source has the same
//             mean distance and this is the bisection bound (4x4, 4 hosts per switch, 1X:
//             0.492 bytes/ns/switch).
// The routed bound assumes the offered mix (every host at the same rate).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "routing/tables.h"
#include "routing/topology.h"
#include "tb/traffic/traffic.h"

namespace ibsc::tb {

// Share of host src's traffic that goes to host dst (rows sum to 1, or 0 for a silent host).
struct Demand {
  int src = 0, dst = 0;
  double share = 0;
};

// Uniform traffic exactly; any pattern whose destination does not depend on the random draw
// (permutations: bit-reversal, transpose, ...) by asking it; hot-spot from its expected shares.
// Throws std::invalid_argument for other random patterns (neighbour): not computed.
std::vector<Demand> traffic_matrix(const TrafficConfig& cfg, const routing::Topology& topo);

struct ChannelLoadBound {
  double routed = 0;             // bytes/ns/switch
  double topology = 0;           // bytes/ns/switch
  double max_channel_share = 0;  // busiest channel: sum of shares (units of one host's rate)
  std::string busiest;           // "switch S port P" or "host H port 1"
  long paths = 0;                // host pairs walked
  long non_minimal_paths = 0;    // walks longer than the switch-to-switch distance
};

ChannelLoadBound channel_load_bound(const routing::Topology& topo, const routing::TableSet& tables,
                                    const std::vector<Demand>& demand, double link_bytes_per_ns);

// The channels each demand's primary path crosses (dense ids over every node's ports, host
// links included, the injection channel first): demand i crosses chans[offset[i] .. offset[i+1]).
struct DemandPaths {
  int channels = 0;  // ids are 0 .. channels - 1
  std::vector<uint32_t> offset;
  std::vector<int32_t> chans;
};
DemandPaths demand_paths(const routing::Topology& topo, const routing::TableSet& tables,
                         const std::vector<Demand>& demand);

// The routed bound as a fraction of injection bandwidth (each sending host at link rate = 1):
// 1 / the busiest channel's share, at most 1 (the host's own link).
double bound_fraction(const ChannelLoadBound& b);

// The same for a traffic pattern. Uniform traffic builds no demand list: it walks one path per
// destination and group of source hosts whose walks coincide (a switch's hosts sharing a path
// record row), so 16,384 hosts cost hosts x switches walks and no hosts-squared matrix.
ChannelLoadBound channel_load_bound(const routing::Topology& topo, const routing::TableSet& tables,
                                    const TrafficConfig& traffic, double link_bytes_per_ns);

}  // namespace ibsc::tb
