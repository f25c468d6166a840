// Routing entry point: computes the table set for a topology with a named algorithm.
// Plain C++17, no SystemC.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "routing/enum_names.h"
#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::routing {

class RoutingError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Which of a pair's shortest legal paths route_with_turns takes (generic.h): the one whose most
// loaded channel is least loaded (Balanced), the first found (First: the lowest channel, i.e.
// the lowest output port, at each switch), or one at random (Random: a seeded hash). Up*/down*
// only: Highest, the one that climbs nearest the root (the highest up*/down* label on the path),
// then Balanced; Tree, not a shortest path: up the spanning tree to the pair's lowest common
// ancestor and down it (legal, non-minimal; every pair through the tree's upper switches).
// Highest and Tree load the switches around the root more (seeds/004's Figure 6 text).
enum class ShortestPathChoice { Balanced, First, Random, Highest, Tree };
inline constexpr EnumName<ShortestPathChoice> kShortestPathChoiceNames[] = {
    {ShortestPathChoice::Balanced, "balanced"}, {ShortestPathChoice::First, "first"},
    {ShortestPathChoice::Random, "random"},     {ShortestPathChoice::Highest, "highest"},
    {ShortestPathChoice::Tree, "tree"},
};
constexpr const auto& enum_names(ShortestPathChoice) { return kShortestPathChoiceNames; }

// GSID's choice of the source switch's global cable (dragonfly_routing.cpp): the destination
// switch's index modulo this switch's own global cables (Cables, the default), or modulo the
// dragonfly's h, the most global cables any switch has (H), where a destination whose residue
// names a cable this switch lacks goes the static (minimal) way. The two differ only on a
// dragonfly with fewer groups than a x h + 1, whose groups each lack cables (the talk's: 128
// groups of 16 switches with 8 cables, one switch per group with 7).
enum class GsidModulus { Cables, H };
inline constexpr EnumName<GsidModulus> kGsidModulusNames[] = {
    {GsidModulus::Cables, "cables"},
    {GsidModulus::H, "h"},
};
constexpr const auto& enum_names(GsidModulus) { return kGsidModulusNames; }

// The routings (routing.algorithm, `ibsc route --routing`), dispatched by compute_routing; File
// reads tables computed elsewhere (lft_file), Opensm runs the real OpenSM (opensm_engine.h).
// Adding one: an enumerator, its row below (the order of `ibsc route --metrics`, the README and
// error messages) and its case in routing.cpp.
enum class Algorithm {
  Ecube,
  Dor1vl,
  Minhop,
  UpdownBfs,
  UpdownDfs,
  Flexible,
  Voqsw,
  Vn,
  Tftr,
  UpdownDisjoint,
  Dor,
  MixedDor,
  AdaptiveUpdown,
  UpdownEscape,
  Distance,
  Deflection,
  Ador,
  MixedAdor,
  TwistedAdor,
  TwistedMixed,
  Gsid,
  Static,
  Fattree,
  FattreeAr,
  File,
  Opensm,
};
inline constexpr EnumName<Algorithm> kAlgorithmNames[] = {
    {Algorithm::Ecube, "ecube"},
    {Algorithm::Dor1vl, "dor1vl"},
    {Algorithm::Minhop, "minhop"},
    {Algorithm::UpdownBfs, "updown-bfs"},
    {Algorithm::UpdownDfs, "updown-dfs"},
    {Algorithm::Flexible, "flexible"},
    {Algorithm::Voqsw, "voqsw"},
    {Algorithm::Vn, "vn"},
    {Algorithm::Tftr, "tftr"},
    {Algorithm::UpdownDisjoint, "updown-disjoint"},
    {Algorithm::Dor, "dor"},
    {Algorithm::MixedDor, "mixed-dor"},
    {Algorithm::AdaptiveUpdown, "adaptive-updown"},
    {Algorithm::UpdownEscape, "updown-escape"},
    {Algorithm::Distance, "distance"},
    {Algorithm::Deflection, "deflection"},
    {Algorithm::Ador, "ador"},
    {Algorithm::MixedAdor, "mixed-ador"},
    {Algorithm::TwistedAdor, "twisted-ador"},
    {Algorithm::TwistedMixed, "twisted-mixed"},
    {Algorithm::Gsid, "gsid"},
    {Algorithm::Static, "static"},
    {Algorithm::Fattree, "fattree"},
    {Algorithm::FattreeAr, "fattree-ar"},
    {Algorithm::File, "file"},
    {Algorithm::Opensm, "opensm"},
};
constexpr const auto& enum_names(Algorithm) { return kAlgorithmNames; }

struct RoutingOptions {
  Algorithm algorithm = Algorithm::Ecube;
  std::string lft_file;  // algorithm "file": an OpenSM LFT dump or export directory (table_io.h)
  int max_sls = 16;      // SL budget; the algorithm refuses to exceed it
  int sls = 0;           // SLs asked of voqsw (its VOQ budget) and vn (networks); 0 = max_sls / own choice
  int max_vls = 15;      // data VL budget
  int vls = 0;           // VLs requested by generic algorithms; 0 = their own choice (1)
                         // (seeds/001's VL-counting routings: their VL budget, 0 = 8)
  int k = 0;             // distance / deflection: up to k hops beyond a minimal path (first VL
                         // d(src, dst) + k - 1; 0: minimal moves only; distance.cpp)
  uint64_t seed = 1;     // tie-breaking among equally good choices
  int max_lmc = 7;       // destination renaming may use up to 2^max_lmc LIDs per host
                         // (lowered to what the unicast LID range allows)
  int lmc = 0;           // fattree, fattree-ar: 2^lmc LIDs per host, each on its own up-path
                         // (refused when they do not fit the unicast LIDs)
  // gsid: how the source switch picks its global cable (GsidModulus above).
  GsidModulus gsid_modulus = GsidModulus::Cables;
  // VOQsw options beyond seeds/004 (both off: the paper's algorithm; routing/voqsw.h):
  bool voq_hca = false;     // tuples at the HCAs too: the HCA's SL2VL picks the first switch's VOQ
  bool voq_spread = false;  // SLs kept out of considered neighbours' VLs where they can be, and
                            // paths free of considered tuples spread over the VLs
  int root = -1;            // up*/down*/Flexible root switch; -1: the seeds/000 heuristic
  ShortestPathChoice updown_paths = ShortestPathChoice::Balanced;  // up*/down*, minhop (and voqsw, vn)
  int search_budget = 500;                                         // Flexible: candidate routings evaluated at most
  long anneal_moves = -1;    // Flexible: path-space annealing moves; -1: 60 per switch pair, <= 250000
  double max_memory_gb = 0;  // refuse tables estimated above this (memory_estimate.h); 0: half
                             // the physical memory
  // Algorithm "opensm" (opensm_engine.h): OpenSM's engine as `opensm -R` names it, options added
  // to its command line (whitespace-separated), its time limit, and a folder to keep the run in
  // (empty: a temporary one, removed after a good run).
  std::string opensm_engine;
  std::string opensm_options;
  double opensm_timeout_s = 600;
  std::string opensm_dir;
};

// Every algorithm IBSC computes itself (all but File, which reads tables, and Opensm, which runs
// an external program), in the table's order.
std::vector<Algorithm> routing_algorithms();
// seeds/001's routings, which program one LFT per input VL and VL2VL tables (vl_routing.h): they
// need that hardware, and no OpenSM dump holds their tables.
bool programs_per_vl_lfts(Algorithm algorithm);
// Whether an algorithm can route this topology (e-cube needs a torus or mesh, fattree a fat tree
// by fat_tree_shape.h; File needs lft_file and Opensm an engine name, so neither applies on its
// own).
bool algorithm_applies(Algorithm algorithm, const Topology& topo);

// Refuses before routing when the hosts and switches do not fit the unicast LIDs even with
// LMC 0, or when the tables would take more memory than opt.max_memory_gb allows (the
// estimate is in the message); destination renaming is held to largest_fitting_lmc(topo,
// opt.max_lmc).
TableSet compute_routing(const Topology& topo, const RoutingOptions& opt);
// The largest LMC <= max_lmc whose LIDs ((hosts + 1) * 2^LMC + switches - 1) fit 0xBFFF; -1: none.
int largest_fitting_lmc(const Topology& topo, int max_lmc);

// e-cube / dimension-order routing on tori and meshes (ecube.cpp).
TableSet route_ecube(const Topology& topo, const RoutingOptions& opt, bool one_vl);
// Dimension-order routing on flattened butterflies and hypercubes, one order ("dor") or the
// four destination-chosen orders of seeds/001 on four SLs/VLs ("mixed-dor") (mixed_dor.cpp).
TableSet route_dor_flatfly(const Topology& topo, const RoutingOptions& opt, bool mixed);
// seeds/001 Distance+k and Deflection+k on any connected topology (distance.cpp).
TableSet route_distance(const Topology& topo, const RoutingOptions& opt, bool deflection);
// seeds/001 ADOR, Mixed ADOR, Twisted ADOR, Twisted Mixed on flattened butterflies (ador.cpp).
TableSet route_ador(const Topology& topo, const RoutingOptions& opt, Algorithm variant);
// seeds/001 Static and GSID on dragonflies (dragonfly_routing.cpp).
TableSet route_dragonfly(const Topology& topo, const RoutingOptions& opt, bool gsid);

}  // namespace ibsc::routing
