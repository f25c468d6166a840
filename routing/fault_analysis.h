// Fault analysis without simulation (seeds/002 section 5.2, Figure 4), read from the tables
// alone: every path record of every host pair is walked through the LFTs to the switch-to-switch
// cables it crosses; a set of failed cables leaves a pair connected when one of its records
// avoids them all (the source can migrate to it, APM). A fault combination is a singular case
// when some pair loses every path while the network itself stays connected; combinations that
// separate two switches with hosts are not singular cases (the paper excludes them) and are
// counted apart. Host links never fail (the paper's model).
//
// Combinations of up to `exhaustive_up_to` faults are all examined; above, `samples` random
// combinations (seeded) are, with a 95 % confidence interval. The exhaustive count uses one
// bitset per cable over (pair, path) slots: for each combination of m-1 cables, the pairs with
// exactly one path left name the cables that would complete a singular case, so the m-th cable
// is counted by a popcount instead of being enumerated.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::routing {

struct PairPaths {
  int src_host = -1, dst_host = -1;      // a representative host pair
  long host_pairs = 0;                   // host pairs with the same switches and cables
  std::vector<std::vector<int>> cables;  // per path record: cable indices (switch to switch)
  bool disjoint = true;                  // records share no cable and no intermediate switch
  bool walked = true;                    // every record reached the destination
};

struct PathSets {
  std::vector<std::string> cable_names;         // "S(0,0):1-S(1,0):2"
  std::vector<std::pair<int, int>> cable_ends;  // switch indices
  std::vector<std::vector<int>> cable_by_port;  // [switch][port] -> cable, -1: none
  std::vector<PairPaths> pairs;                 // host pairs on different switches, grouped
  long host_pairs = 0;
};

// Walks every record of every host pair on different switches (the primary LFT candidate).
PathSets record_paths(const Topology& t, const TableSet& ts);

// Host pairs by number of disjoint paths (index n; a pair whose records are not disjoint
// counts the records kept by taking them in order and skipping any that shares with those kept).
struct PathCensus {
  long pairs = 0;
  std::vector<long> with_n;  // [n] -> host pairs
  long not_disjoint = 0;     // pairs whose records are not all disjoint
  long broken = 0;           // pairs with a record that does not reach the destination
};
PathCensus path_census(const PathSets& ps);

struct FaultOptions {
  int max_faults = 4;        // 1..8
  int exhaustive_up_to = 4;  // all combinations up to this many faults, sampled above
  long samples = 100000;     // combinations drawn per level above exhaustive_up_to
  uint64_t seed = 1;
  int max_examples = 3;  // singular cases reported per level
};

struct SingularCase {
  std::vector<int> faults;  // cable indices
  int src_host = -1, dst_host = -1;
  int paths = 0;  // the pair's records, all hit
};

struct FaultLevel {
  int faults = 0;
  double combinations = 0;  // C(cables, faults)
  long examined = 0;
  bool sampled = false;
  long singular = 0;       // singular cases (disconnecting ones excluded)
  long disconnecting = 0;  // combinations that separate switches with hosts
  double percent = 0;      // singular / (examined - disconnecting)
  double ci95 = 0;         // sampled levels: half-width of the 95 % interval, in percent
  std::vector<SingularCase> examples;
};

std::vector<FaultLevel> analyse_faults(const Topology& t, const PathSets& ps, const FaultOptions& opt);

// Pairs (representatives, with their host-pair counts) left without a surviving path when the
// given cables fail, and whether the cables separate switches with hosts.
struct CutReport {
  std::vector<const PairPaths*> cut;
  bool disconnects = false;
};
CutReport pairs_cut(const Topology& t, const PathSets& ps, const std::vector<int>& faults);

// A cable by one of its ends, "SWITCH:PORT" (e.g. "S(1,0):2"); -1 when no cable is there.
int find_cable(const Topology& t, const PathSets& ps, const std::string& end);

}  // namespace ibsc::routing
