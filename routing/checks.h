// Checks that read only the table set (LFTs, SL2VL, path records), never an algorithm's
// intentions: every host pair has a path record and its walk through the LFTs ends at the
// destination without a loop; SL and VL budgets; deadlock freedom as acyclicity of the channel
// dependency graph over (directed link, VL) built from the walked paths. An LFT entry with
// several candidates (adaptive routing) is followed along every candidate, and each creates
// dependencies. Tables with escape candidates (PortCandidate::escape) are checked by Duato's
// condition instead: see duato_check.h.
#pragma once
#include <string>
#include <vector>

#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::routing {

// One channel of a dependency cycle: the packet leaves `node` by `port` on `vl`.
struct CycleHop {
  int node = -1;
  std::string name;
  int port = -1;
  int vl = -1;
};

struct CheckLimits {
  int max_sls = kNumSls;
  int max_vls = kMaxDataVls;
  int max_problems = 20;  // problems kept verbatim; the counts cover all
  // Adaptive tables: walk one destination per group of hosts that differ only in their last
  // hop (destination_groups.h) in full, the others from their switch on; deterministic ones
  // likewise by deterministic_walk.h. false: every destination in full (the reference the
  // tests compare with).
  bool walk_by_destination_switch = true;
  // Per-VL LFTs whose hops between switches all lower the VL: walk the states in VL order
  // (ranked_walk.h), over `threads` threads; false, or any problem: the walk above.
  bool walk_in_vl_order = true;
  int threads = 2;
};

struct CheckReport {
  long pairs = 0;           // ordered host pairs (source != destination)
  long routed_pairs = 0;    // pairs whose every walk ends at the destination
  long unrouted_pairs = 0;  // no record, missing LFT entry or wrong host
  long looping_pairs = 0;
  int sls_used = 0;              // distinct SLs in path records
  int vls_used = 0;              // distinct data VLs met on the walks
  int max_hops = 0;              // longest walk, in links (host links included)
  bool connected = false;        // every pair routed
  bool paths_end = false;        // no walk loops
  bool within_budget = false;    // SLs, VLs within limits, VL15 never used for data
  bool deadlock_free = false;    // channel dependency graph acyclic
  bool escape_channels = false;  // the graph is the escape sub-network's (Duato, duato_check.h)
  size_t cdg_nodes = 0, cdg_edges = 0;
  bool walked_in_vl_order = false;    // by ranked_walk.h (not in text(): the proof is the same)
  bool walked_by_switch = false;      // deterministic tables by deterministic_walk.h (nor this)
  std::vector<CycleHop> cycle;        // when not deadlock-free
  std::vector<std::string> problems;  // human-readable, first max_problems
  bool ok() const { return connected && paths_end && within_budget && deadlock_free; }
  std::string text() const;
};

CheckReport check_tables(const Topology& t, const TableSet& ts, const CheckLimits& limits = {});

}  // namespace ibsc::routing
