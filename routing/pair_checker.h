#pragma once
// The pair-by-pair walk of check_tables (checks.cpp), for the tables the faster walks do not take
// (deterministic_walk.h, ranked_walk.h): every (source, destination) pair's path records walked
// through the LFTs and SL2VL tables, recording the channel dependencies, the SLs and VLs used and
// each pair's problem by name.
//   Deterministic destination-only LFTs: a walk after the first switch is shared by every pair
//   that leaves that switch alike (tail_after), and a class of sources (pair_classes.h) is
//   checked at once when all its walks end well (class_pair).
//   Adaptive tables (several candidates, per-VL LFTs): a depth-first walk over every candidate
//   with a memo per (switch, input port, VL, SL) state and destination (dfs), by destination
//   groups (destination_groups.h) and source classes.
// Problems are reported in source order whichever way the pairs were walked.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "routing/checks.h"
#include "routing/dense_lft.h"
#include "routing/pair_classes.h"
#include "routing/port_mask_deps.h"
#include "routing/switch_deps.h"

namespace ibsc::routing {

class PairChecker {
 public:
  // `classes`: the sources' pair classes of deterministic tables (dense.exact), else empty.
  PairChecker(const Topology& t, const TableSet& ts, const CheckLimits& limits, const DenseLft& dense,
              PairClasses classes, std::vector<SwitchDeps>& deps, CheckReport& rep);
  // Walks every pair and gives the verdict into the report. False: the tables are broken and
  // the caller should check again walking every DLID (limits.walk_by_destination_switch off),
  // which names the problems as that walk meets them.
  bool run();

 private:
  static constexpr int kV = 16;      // VL field values, VL15 included so a misuse is still recorded
  static constexpr int kBlock = 64;  // destinations walked together (see all_pairs)
  struct Tail {                      // the end of a deterministic walk
    enum Status { Ok, WrongHost, Broken, Loop } status = Ok;
    int hops = 0;      // links walked, the host link at the end included
    std::string what;  // the problem, without the pair
  };
  struct State {  // a packet entering `node` through `in_port` on `vl`
    int node, in_port, vl;
    size_t next_candidate = 0;
    long id = -1;     // its memo slot (-1: none)
    int32_t res = 1;  // links from here to the host so far, or kBadRes / kLoopRes
  };
  struct Arrival {  // a state entering record_at_ from another switch (destination_groups.h)
    int in_port, vl;
    Sl sl;
    long id;  // its memo slot (-1: none)
  };
  struct GroupWalk {  // what the first host of a destination group left for the others
    std::vector<Arrival> arrivals;
    std::vector<int32_t> res;
    bool usable = false;
  };
  struct Step {  // one record of a class's pair, first hop and shared tail
    int out, ov;
    const Tail* tail;
  };
  struct PairOutcome {  // what the records of one pair came to
    bool ok = true, loop = false;
  };
  static constexpr int32_t kBadRes = -1, kLoopRes = -2, kInProgress = -3;

  void problem(const std::string& p);
  int output_vl(int node_i, int in_port, int out, int vl, Sl sl);  // and notes the VL as seen
  void init_memo();
  long memo_id(int node_i, int in_port, int vl, Sl sl) const;
  uint32_t memo_stamp(int q, const PathRecord& rec);
  Tail walk(int node_i, int in_port, int vl, int steps, Lid dlid, Sl sl, int q);
  const Tail& tail_after(int node_i, int out, int ov, const PathRecord& rec, int q, int q0);
  std::string pair_name(int h, int q) const;
  void note_tail(const Tail& r, int h, int q, PairOutcome& o);
  template <class Name>
  int32_t dfs(int node0, int in0, int vl0, const PathRecord& rec, int q, uint32_t stamp, const Name& pair,
              PairOutcome& o);
  template <class Name>
  void dfs_enter(int node_i, int in_port, int vl, State* parent, const PathRecord& rec, int q, uint32_t stamp,
                 const Name& pair, PairOutcome& o, int32_t& root);
  void dfs_give(int32_t r, State* parent, PairOutcome& o, int32_t& root);
  void check_pair(int h, int q, int q0);
  void check_record(int h, int q, int q0, const PathRecord& rec, PairOutcome& o);
  void first_hop_of_class(PairClass& c, int q);
  void walk_sources(int q, int q0, int only_switch);
  void walk_destination(int q, int q0);
  void walk_group_first(int q, int q0);
  void walk_group_member(int q, int q0, int first);
  bool class_pair(PairClass& c, int q, int q0);
  void all_pairs(bool shared);
  auto counts() const { return std::make_tuple(rep_.unrouted_pairs, rep_.looping_pairs, rep_.problems.size()); }

  const Topology& t_;
  const TableSet& ts_;
  const CheckLimits& limits_;
  const DenseLft& dense_;
  std::vector<SwitchDeps>& deps_;
  CheckReport& rep_;
  const int S_;
  bool sl_seen_[kNumSls] = {}, vl_seen_[kV] = {};
  bool vl15_ = false, bad_sl_ = false;
  PairClasses classes_;  // sources of deterministic tables (class_pair)
  // The adaptive walks' depth-first stack, the states on the current walk, and their memo: one
  // slot per (switch, input port, input VL below the declared VLs, SL unless every table is
  // VL2VL), valid while its stamp is that of the (destination, DLID, SL) being walked.
  std::vector<State> stack_;
  std::vector<uint64_t> on_path_;
  int max_depth_ = 0;
  bool all_vl2vl_ = false;
  int memo_vls_ = 1, memo_sls_ = 1;
  std::vector<long> port_base_;
  std::vector<uint32_t> memo_gen_;
  std::vector<int32_t> memo_res_;
  uint32_t stamp_next_ = 0;
  int stamp_q_ = -1;
  std::vector<std::pair<uint32_t, uint32_t>> stamps_;  // (DLID << 8 | SL, stamp) of destination stamp_q_
  // Walks by (switch, input VL) with the input ports as masks where the output VLs allow
  // (port_mask_deps.h), with destination groups; one stamp per destination (LMC 0).
  PortMaskDeps by_mask_;
  bool port_free_ = false;
  // One shared deterministic walk slot per (switch, destination of the block).
  std::vector<Tail> tails_;
  std::vector<uint64_t> tail_key_of_;
  std::vector<int> tail_dest_;
  // Destination groups and source classes of the adaptive walks (walk_destination).
  int record_at_ = -1;
  std::vector<Arrival> arrivals_;
  std::vector<int> group_of_;
  std::vector<int> members_left_;  // [first host]
  std::map<int, GroupWalk> walked_;
  PairClasses sources_;
  std::vector<int> hosts_on_;
  std::vector<Step> steps_;
};

}  // namespace ibsc::routing
