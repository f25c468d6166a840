// LID assignment and the LFT entries every algorithm shares.
// Hosts come first: with LMC l, host h owns LIDs (h+1)*2^l .. (h+1)*2^l + 2^l - 1 (base aligned
// to 2^l as the IBA requires; for l = 0 this is simply h+1). Switches follow the hosts:
// switch s gets (H+1)*2^l + s. Every switch LFT has max_lid + 1 entries.
#pragma once
#include "routing/graph.h"
#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::routing {

constexpr int kMaxLmc = 7;
constexpr int kMaxUnicastLid = 0xBFFF;

inline Lid host_base_lid(int host, int lmc) { return static_cast<Lid>((host + 1) << lmc); }

// Sizes ts.switches / ts.hosts, sets LIDs, LMC and max_lid, sizes LFTs (unless !size_lfts: an
// algorithm that fills every LFT switch by switch sizes each itself, max_lid + 1 entries, while
// it is in the cache) and SL2VL tables. Throws RoutingError when the LIDs do not fit the
// unicast range.
void assign_lids(const Topology& t, int lmc, TableSet& ts, bool size_lfts = true);

// Routes every switch LID (management traffic) along a minimum-hop tree; port 0 at the switch
// itself. Host LIDs are the algorithms' business.
void route_switch_lids(const Topology& t, const SwitchGraph& g, TableSet& ts);

// Hosts grouped by the switch they are cabled to (hosts without a cable are left out).
std::vector<std::vector<int>> hosts_by_switch(const Topology& t);

}  // namespace ibsc::routing
