// TFTR's building blocks below the stages (seeds/002 section 4): the VL a path takes on each
// channel (raised after every forbidden up*/down* transition), the SL2VL entries one SL needs
// while paths are labelled with it (where mapping conflicts show), and the search for an
// alternative path that fits such an SL.
#pragma once
#include <cstdint>
#include <vector>

#include "routing/graph.h"

namespace ibsc::routing {

// up*/down* orientation: channel c is "up" when label[to] > label[from]. A forbidden transition
// is a down channel followed by an up one.
struct Orientation {
  std::vector<int> label;
  bool up(const SwitchGraph& g, int c) const { return label[g.channels[c].to] > label[g.channels[c].from]; }
  bool forbidden(const SwitchGraph& g, int in_c, int out_c) const { return !up(g, in_c) && up(g, out_c); }
};

// VL per channel of a path: 0 from injection, one more after each forbidden transition.
std::vector<int> transition_vls(const SwitchGraph& g, const Orientation& o, const std::vector<int>& chans);
// Forbidden transitions a path crosses (the VL of its last channel).
int count_transitions(const SwitchGraph& g, const Orientation& o, const std::vector<int>& chans);

// The SL2VL entries of one SL under construction: (switch, input port, output port) -> VL,
// with port index host_side() standing for every host port of the switch (all hosts on a switch
// share its switch-pair paths, so their entries are equal). A path fits when each of its hops
// finds its entry unset or equal to the VL it needs there; a mapping conflict is a hop whose
// entry holds the other VL (seeds/002 Figure 3: same SL, same input and output ports,
// different VLs).
class SlMap {
 public:
  struct Hop {
    size_t entry;  // index of (switch, input, output)
    int vl;        // the VL the path needs there
  };
  SlMap(const SwitchGraph& g, int max_port, int transitions);
  int transitions() const { return transitions_; }
  int host_side() const { return side_ - 1; }
  int get(int sw, int in, int out) const { return vl_[index(sw, in, out)]; }
  int vl_at(size_t entry) const { return vl_[entry]; }
  size_t entries() const { return vl_.size(); }
  // The entries a path needs, source switch (from a host) to destination switch (to a host).
  std::vector<Hop> hops(const SwitchGraph& g, const std::vector<int>& chans, const std::vector<int>& vls) const;
  bool fits(const SwitchGraph& g, const std::vector<int>& chans, const std::vector<int>& vls) const;
  // Entries are counted: release() frees what no other path of the SL still needs.
  void assign(const SwitchGraph& g, const std::vector<int>& chans, const std::vector<int>& vls);
  void release(const SwitchGraph& g, const std::vector<int>& chans, const std::vector<int>& vls);

 private:
  size_t index(int sw, int in, int out) const { return (static_cast<size_t>(sw) * side_ + in) * side_ + out; }
  int side_;
  int transitions_;
  std::vector<int8_t> vl_;       // -1: unset
  std::vector<uint32_t> users_;  // paths using the entry
};

// What an alternative path may not use: the switches and cables of the pair's other paths.
struct PathSearch {
  int s = -1, d = -1;
  std::vector<char> blocked_switch;  // by switch index (s and d are never intermediates anyway)
  std::vector<char> blocked_cable;   // by channel index, both directions set
  int max_vl = 0;                    // highest VL reachable: VLs - 1 or the SL's transition count
  int max_hops = 1 << 30;
  const SlMap* sl = nullptr;  // entries the path must fit; null: none
  int first = -1;             // the channel the path must start with; -1: any
};

// Marks the cables and intermediate switches of `chans` blocked.
void block_path(const SwitchGraph& g, const std::vector<int>& chans, PathSearch& ps);

// Shortest path from ps.s to ps.d under the limits, by breadth-first search over states
// (channel entered, VL on it), never passing a switch twice. A state is reached once, by its
// first (shortest) prefix, so a path that would need the state by another prefix is missed: a
// heuristic, as the paper's search is. Returns an empty list when none is found.
std::vector<int> search_path(const SwitchGraph& g, const Orientation& o, const PathSearch& ps);

}  // namespace ibsc::routing
