// Generic (topology-agnostic) routing: shortest paths under turn restrictions, one path per
// ordered switch pair balanced over the channels, turned into destination-only LFTs with
// destination renaming. minhop, up*/down* and Flexible all go through here.
#pragma once
#include <cstdint>
#include <vector>

#include "routing/graph.h"
#include "routing/routing.h"

namespace ibsc::routing {

// Which turns (input channel -> output channel at a switch) a path may take.
// allowed[c][k] concerns the turn from channel c into g.out[g.channels[c].to][k].
struct TurnRules {
  std::vector<std::vector<uint8_t>> allowed;
  // What made `allowed`, while nothing else changed it: route_with_turns then finds distances
  // by a BFS over switches (O(n + C) per destination) instead of over channel turns
  // (O(C x degree)), with the same shortest legal paths. set() makes the rules General.
  enum class Kind { General, AllButUTurns, UpDown } kind = Kind::General;
  std::vector<int> updown_label;  // Kind::UpDown: channel c is up when label[to] > label[from]
  static TurnRules all_but_u_turns(const SwitchGraph& g);
  bool allows(const SwitchGraph& g, int in_ch, int out_ch) const;
  void set(const SwitchGraph& g, int in_ch, int out_ch, bool allow);
};

// One path per ordered switch pair, as a list of channels; pair index d * n + s.
struct PathSet {
  int n = 0;
  std::vector<uint32_t> offset;  // size n*n + 1
  std::vector<int32_t> chans;
  size_t begin(int s, int d) const { return offset[static_cast<size_t>(d) * n + s]; }
  size_t end(int s, int d) const { return offset[static_cast<size_t>(d) * n + s + 1]; }
  size_t length(int s, int d) const { return end(s, d) - begin(s, d); }
};

struct RouteResult {
  PathSet paths;
  std::vector<int> load;     // paths per channel
  int unreachable_src = -1;  // first pair without a legal path, if any
  int unreachable_dst = -1;
  bool revisits = false;  // some path passes a switch twice (cannot be a destination-only LFT)
};

// Shortest legal paths (legal: every turn allowed by `rules`), one per ordered switch pair.
// Per destination, sources farthest first; each takes, among its shortest legal paths, the one
// whose most loaded channel is least loaded, then the lowest load sum, then a hash of `seed`
// (`choice` Balanced; First: the lowest channel at each hop; Random: the hash alone).
// `consistent`: once a path toward d leaves channel c by channel c', every later path toward d
// through c does the same. The paths then disagree at a switch only between different input
// ports, which bounds destination renaming by the port count (large networks need it: free
// per-pair choices can ask for more than the 128 LIDs an LMC of 7 gives).
RouteResult route_with_turns(const SwitchGraph& g, const TurnRules& rules, uint64_t seed, bool consistent = false,
                             ShortestPathChoice choice = ShortestPathChoice::Balanced);

// Routes with free per-pair choices, and again with `consistent` ones when destination
// renaming runs out of LIDs. `check_cdg`: the consistent paths must also have an acyclic
// dependency graph (Flexible's guarantee rests on the paths, not on the turn rules).
// Above this many switches free per-pair choices are not even tried (they overflow the LIDs).
constexpr int kFreeChoiceSwitches = 512;
TableSet tables_with_fallback(const Topology& t, const SwitchGraph& g, const TurnRules& rules, const RouteResult& first,
                              const RoutingOptions& opt, const std::string& name, bool check_cdg);

// Destination-only tables from switch-pair paths. Paths to one destination that disagree at a
// switch get different LIDs of the destination's LMC range (destination renaming: greedy
// colouring, first LID that agrees with every entry already on the path). With vls == 2 the
// SL is the parity of source + destination host and SL s maps to VL s everywhere: each VL
// carries a subset of the same path set, so a deadlock-free path set stays deadlock-free.
TableSet tables_from_paths(const Topology& t, const SwitchGraph& g, const PathSet& paths, const RoutingOptions& opt,
                           const std::string& name);

// The LFTs of destination renaming, once assign_lids has given every host its 2^lmc LIDs:
// layers[d][c * n + x] is the output port at switch x toward destination switch d for LID
// offset (colour) c, kNoPort where no path of that colour passes; LIDs of a host's range left
// without a colour still reach it at its own switch.
void fill_renamed_lfts(const Topology& t, const std::vector<std::vector<PortNum>>& layers, int lmc, TableSet& ts);

// Channel dependency graph of a path set (one VL): the first cycle found, as channel ids, or
// empty when acyclic.
std::vector<int> path_cdg_cycle(const SwitchGraph& g, const PathSet& paths);

enum class TreeKind { Bfs, Dfs };

// Spanning-tree labels for up*/down* (seeds/000 section 3); a channel goes "up" toward the
// higher label, the root has the highest.
std::vector<int> updown_labels(const SwitchGraph& g, TreeKind kind, int root);
// The root heuristic of seeds/000: the switch with the highest average topological distance
// to the others (lowest index at a tie).
int updown_root(const SwitchGraph& g);
TurnRules updown_rules(const SwitchGraph& g, const std::vector<int>& labels);

TableSet route_minhop(const Topology& t, const RoutingOptions& opt);
TableSet route_updown(const Topology& t, const RoutingOptions& opt, TreeKind kind);
TableSet route_flexible(const Topology& t, const RoutingOptions& opt);
// Minimal adaptive candidates plus an up*/down* escape candidate, or (escape_only) that escape
// alone as a deterministic routing (adaptive_updown.cpp).
TableSet route_adaptive_updown(const Topology& t, const RoutingOptions& opt, bool escape_only = false);

}  // namespace ibsc::routing
