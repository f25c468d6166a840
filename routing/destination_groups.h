// Destinations whose adaptive walks differ only at their own switch, so that the deadlock
// check walks one of them in full and the others only from where they differ (checks.cpp).
// Host q joins the group of q0 (the first such host of its switch D) when
//   - both have one LID (LMC 0), and every path record toward q carries q's LID with the SL
//     the record toward q0 carries, record for record, from every source host;
//   - every switch but D gives q's LID the candidates it gives q0's, on every input VL;
//   - at D every candidate of q0's LID (every input VL) is a host port, so no walk toward q0
//     leaves D again.
// Then every walk toward q enters D exactly as one toward q0 does (same switch, input port,
// VL and SL), and from there on only D's entry for q (its last hop) differs: walking q from
// those arrivals proves what walking every pair toward q proves. 2,048 switches of 8 hosts:
// 2,048 full walks instead of 16,384.
#pragma once
#include <vector>

#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::routing {

// [host] -> the host whose full walk serves it (itself for a group's first host and for a
// host in no group).
std::vector<int> destination_groups(const Topology& t, const TableSet& ts);

}  // namespace ibsc::routing
