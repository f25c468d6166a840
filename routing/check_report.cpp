// The table check's report as `ibsc route --check` prints it: counts, budgets, the dependency
// graph's verdict and a cycle as the channels that wait on each other. Kept apart from the walk
// (checks.cpp) so that the wording can change without touching the proof.
#include <sstream>
#include <string>

#include "routing/checks.h"

namespace ibsc::routing {

std::string CheckReport::text() const {
  std::ostringstream o;
  o << "pairs: " << pairs << ", routed " << routed_pairs << ", unrouted " << unrouted_pairs << ", looping "
    << looping_pairs << "\n";
  o << "SLs used: " << sls_used << ", VLs used: " << vls_used << ", longest walk: " << max_hops << " links\n";
  o << "connected: " << (connected ? "yes" : "NO") << ", paths end: " << (paths_end ? "yes" : "NO")
    << ", within SL/VL budget: " << (within_budget ? "yes" : "NO") << "\n";
  o << (escape_channels ? "escape channel dependency graph (Duato, virtual cut-through): "
                        : "channel dependency graph: ")
    << cdg_nodes << " (channel, VL) nodes, " << cdg_edges << " dependencies, "
    << (deadlock_free ? "acyclic: deadlock-free" : "CYCLIC: deadlock possible") << "\n";
  if (!cycle.empty()) {
    // Each hop is a channel: the switch a packet leaves, by which port, on which VL; each
    // waits for the next, and the last for the first.
    o << "cycle (switch port VL, each waiting for the next):";
    for (size_t i = 0; i < cycle.size(); ++i)
      o << (i ? " -> " : " ") << cycle[i].name << " port " << cycle[i].port << " VL" << cycle[i].vl;
    o << " -> back to " << cycle.front().name << "\n";
  }
  for (const auto& p : problems) o << "problem: " << p << "\n";
  return o.str();
}

}  // namespace ibsc::routing
