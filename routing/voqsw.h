// VOQsw (seeds/004): virtual output queuing in IBA switches from SL2VL tables alone, and the
// virtual-network baseline it is compared with. Plain C++17, no SystemC.
//
// Stages of the paper's Figure 4, on the host-to-host paths of base up*/down* tables:
//   1. tuples: (switch, input port, output port, output port at the next switch), one per hop
//      whose output leads to another switch (the input port may be a host port, the next
//      output port may be a host port: both carry a VL of their own with 8 VLs on 8 ports);
//   2. weight: the number of source-destination host paths through the tuple;
//   3. sort by weight, heaviest first (ties: switch, input, output, next output ascending);
//   4. compute_sls (Figure 5) on the x heaviest tuples, x = 1, 2, ... until it fails or
//      x = x_max; the last success is kept (partial VOQ, % VOQ = x / x_max);
//   5. SL2VL: a considered tuple's SLs map (input, output) to the VL of its next output
//      port; every other SL s maps to s mod VLs; the HCA's SL2VL is s mod VLs too (the paper
//      defines tuples at switches only). One SL per source-destination pair (path records).
// Details and choices: voqsw.cpp's header comment and routing/README.md.
#pragma once
#include <cstdint>
#include <vector>

#include "routing/routing.h"

namespace ibsc::routing {

struct VoqTuple {
  int sw = -1;
  int in_port = -1;
  int out_port = -1;
  int next_out_port = -1;  // at the switch behind out_port
  long weight = 0;         // host paths through the tuple
};

// Stages 1-3: the tuples in weight order (index = rank) and each host path as tuple ranks.
struct VoqProblem {
  int vls = 1;                   // VLs the next output ports are grouped onto
  bool hca_tuples = false;       // RoutingOptions::voq_hca: a tuple per path at its HCA (below)
  bool spread = false;           // RoutingOptions::voq_spread (compute_sls)
  std::vector<VoqTuple> tuples;  // heaviest first; only tuples some path uses (weight > 0)
  std::vector<int> src, dst;     // per path: source and destination host, sources then destinations
  std::vector<uint32_t> offset;  // path p's tuples: rank[offset[p] .. offset[p + 1])
  std::vector<int32_t> rank;
  std::vector<int32_t> key;  // per tuple: dense id of its (switch, input, output)
  int keys = 0;
  int x_max() const { return static_cast<int>(tuples.size()); }
  int paths() const { return static_cast<int>(src.size()); }
  // The VL of an output port: ports share VLs round robin when VLs < ports (port p: (p-1) mod vls).
  int group(int port) const { return (port - 1) % vls; }
};

// Walks every host pair's primary path record through the base tables' LFTs. With hca_tuples
// each path also has a tuple at its source HCA: (host node, 0, 1, first switch's output port);
// considered, it makes the HCA's SL2VL send the packet on the VL of that output port, so the
// first switch's input VL is a virtual output queue too (the paper's tuples are at switches only,
// and its first switch keeps one queue per SL mod VLs).
VoqProblem voq_problem(const Topology& t, const TableSet& base, int vls, bool hca_tuples = false);

struct SlAssignment {
  bool ok = false;
  int sls_used = 0;          // highest SL given + 1 (when ok)
  std::vector<int> path_sl;  // per path (when ok)
};

// Figure 5, ComputeSLs(SLmax, x): paths in order; a path may not take an SL already used by a
// considered neighbour of a considered tuple on it (same switch, input and output port, next
// output port in another VL group); it takes the lowest valid SL, which is then marked on its
// considered tuples. Fails when a path finds no SL below sl_max.
// With p.spread (not the paper's): among the valid SLs a path prefers those that no considered
// tuple of its unconsidered hops' (switch, input, output) has given a VL of another next port
// (with one of them, the path would wait in that port's queue; partial VOQ otherwise fills the
// considered tuples' queues with such packets), and a path with no considered tuple takes, among
// those, the first at or after its index mod VLs instead of SL 0 (so that unconsidered hops, at
// SL mod VLs, use every VL rather than VL 0). The hard constraints are the paper's, so whether
// an x succeeds depends only on the SLs chosen before.
SlAssignment compute_sls(const VoqProblem& p, int sl_max, int x);

struct VoqPlan {
  int x = 0;  // tuples considered
  int x_max = 0;
  int sl_budget = 0;
  int sls_used = 1;       // by the kept assignment
  int sls_full = 0;       // needed for full VOQ (x = x_max, unbounded SLs)
  long weight = 0;        // path hops through the considered tuples
  long weight_total = 0;  // path hops through any tuple
  long traversals = 0;    // switches visited by all paths (a path of k switches has k - 1 tuples)
  std::vector<int> path_sl;
  // % VOQ as the tuples considered (x / x_max).
  double percent() const { return x_max ? 100.0 * x / x_max : 100.0; }
  // % VOQ weighted by paths: x / x_max with each tuple counted by its weight, i.e. the share of
  // switch-to-switch hops after which the packet waits in the VL of its next output port.
  // seeds/004 does not define its "% VOQ"; this is the headline of reports/voqsw/table1.md.
  double weighted_percent() const { return weight_total ? 100.0 * weight / weight_total : 100.0; }
  // The share of all switch visits (the first switch of each path included, where the HCA
  // sets the VL) at which the packet waits in its output port's VL by a considered tuple.
  double traversal_percent() const { return traversals ? 100.0 * weight / traversals : 100.0; }
};

// Greedy compute_sls uses the same SLs whatever the budget until it fails, so the SLs for
// full VOQ are those of one unbounded run.
int sls_for_full_voq(const VoqProblem& p);
// Stage 4: the largest x such that compute_sls succeeds for 1..x within sl_budget SLs.
VoqPlan plan_voq(const VoqProblem& p, int sl_budget);

// The VOQsw summary `ibsc route --routing voqsw --sls N` prints, for any budget (also above
// the 16 SLs the tables can hold).
struct VoqSummary {
  int switches = 0, hosts = 0, vls = 0;
  VoqPlan plan;
};
VoqSummary voqsw_summary(const Topology& t, const RoutingOptions& opt);

// The base routing VOQsw and vn start from (the paper's up*/down*, Autonet's BFS tree).
constexpr Algorithm kVoqBaseRouting = Algorithm::UpdownBfs;
// VLs for VOQsw and vn when RoutingOptions::vls is 0: one per port of the largest switch,
// within max_vls (seeds/004 uses 8 VLs on 8-port switches).
int voq_default_vls(const Topology& t, const RoutingOptions& opt);

// Stage 5 and the table set (opt.sls, or max_sls when 0, is the SL budget; at most 16).
TableSet route_voqsw(const Topology& t, const RoutingOptions& opt);
// n virtual networks on the base paths: n = vls (or sls, or voq_default_vls); SL s -> VL s
// everywhere; n path records per pair, SLs 0..n-1, and PathChoice::RandomPerPacket.
TableSet route_vn(const Topology& t, const RoutingOptions& opt);

}  // namespace ibsc::routing
