// Deadlock freedom of adaptive tables with escape candidates (PortCandidate::escape), by Duato's
// condition for virtual cut-through: a routing function is deadlock-free when a connected
// routing subfunction, the escape sub-network, has an acyclic channel dependency graph and
// every packet, wherever it is, may always ask for its escape channel. Under virtual
// cut-through a blocked packet sits whole in one buffer, so only direct dependencies (escape
// channel -> next escape channel) count; the indirect ones through adaptive channels of the
// wormhole version do not arise. The switch keeps one MTU of each VL buffer for the escape
// queue, so an escape channel whose queue is empty always has room for a packet.
//
// What check_tables() verifies when some candidate is an escape one (see checks.h):
//   - per host DLID a path record uses and per switch with an entry for it: exactly one escape
//     candidate, every candidate cabled, a host port only as an escape candidate (an HCA has no
//     escape queue whose room an adaptive candidate would have to leave free);
//   - connectivity, loop freedom and budgets of the escape sub-network alone (each entry cut
//     to its escape candidate), along every pair's walk (check_tables on escape_subnetwork());
//   - the escape channel dependency graph over (channel, VL), built from escape walks entered
//     at EVERY switch through EVERY input port (a packet may leave the adaptive channels
//     anywhere), is acyclic.
// Not checked: that adaptive hops make progress (livelock); adaptive-updown's are minimal.
#pragma once
#include "routing/checks.h"
#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::routing {

// Some LFT entry has an escape candidate.
bool has_escape_candidates(const TableSet& ts);
// The tables with each entry cut to its escape candidate (as a plain, non-escape one); entries
// without one keep their first candidate.
TableSet escape_subnetwork(const TableSet& ts);
// Adds the escape checks to `rep` (already filled by check_tables on escape_subnetwork(ts)):
// replaces its dependency graph and deadlock verdict by the escape graph's.
void check_escape_channels(const Topology& t, const TableSet& ts, const CheckLimits& limits, CheckReport& rep);

}  // namespace ibsc::routing
