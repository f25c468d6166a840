// Fair-share ceilings: how much accepted traffic fixed paths allow past saturation, when the
// hosts offer more than the routed channel-load bound (tb/stats/channel_load.h) and some flows can go
// faster than others. Max-min fair rates by progressive filling: every unfrozen flow's rate
// grows alike until a channel it crosses is full (host links included) or it reaches what its
// source offers. Two sets of flows, every host offering link rate with the demand's mix:
//   per pair:   each (source, destination) its own flow, capped at its share of the source's
//               rate: a network where no queue holds two pairs' packets (no head-of-line
//               blocking anywhere, the source's queues included);
//   per source: each source one flow that keeps its destination mix: what one queue shared by
//               all of a source's destinations enforces in the long run.
// Seeds/004's VOQsw gains past the saturation of its virtual networks (reports/voqsw): the first
// is what no routing of VLs on these paths can beat with fair arbitration, the second what shared
// queues leave. Both in bytes/ns/switch; the per-source ceiling is at least the routed bound
// (its smallest rate is at least the bound's common rate).
#pragma once
#include <vector>

#include "routing/tables.h"
#include "routing/topology.h"
#include "tb/stats/channel_load.h"

namespace ibsc::tb {

struct FairShareCeiling {
  double per_pair = 0;    // bytes/ns/switch
  double per_source = 0;  // bytes/ns/switch
};

FairShareCeiling fair_share_ceiling(const routing::Topology& topo, const routing::TableSet& tables,
                                    const std::vector<Demand>& demand, double link_bytes_per_ns);

}  // namespace ibsc::tb
