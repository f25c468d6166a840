// IBSC's fat-tree routing, `fattree` and its adaptive form `fattree-ar` (routing/README.md):
// OpenSM's ftree idea (Zahavi et al., "Optimized InfiniBand fat-tree routing for shift
// all-to-all communication patterns"), written anew.
//
// The shape is read off the graph, never off a generator's numbering (fat_tree_shape.h: a
// switch's level is its hop distance to the nearest switch with hosts, leaves are level 0, every
// cable joins adjacent levels); up is toward the higher level. Port groups are the parallel
// cables to one neighbour.
//
// Leaves are ordered as OpenSM's ftree indexes them (so the compute-node order below is the one
// its opensm-ftree-ca-order.dump lists for the same fabric): the first leaf is the one whose
// GUID (table_io.h switch_guid) is least as OpenSM's switch table orders it (by the GUID's
// network-order bytes read as a little-endian integer); it gets index (rank, 0, ..., 0), rank =
// top - level. A breadth-first walk from it gives every newly met switch its finder's index with
// the rank changed and one digit set to the least value no switch holds yet: the digit after
// the rank's for a switch below, the rank's own digit for one above; a switch's neighbours are
// met in port order, those below before those above. Leaves sort by index (digits compared in
// order), hosts within a leaf by port: that is the compute-node (CA) order. A leaf with fewer
// hosts than the fullest one is padded with dummy destinations, routed only for the counts.
#pragma once
#include <string>
#include <vector>

#include "routing/routing.h"
#include "routing/topology.h"
#include "routing/types.h"

namespace ibsc::routing {

// The parallel cables from one switch to one neighbour on the next level: ports at this end.
struct PortGroup {
  int peer = -1;                // the neighbour switch
  std::vector<PortNum> ports;   // in port order
  std::vector<PortNum> remote;  // the neighbour's port of each cable, same order
};

struct FatTreeIndexing {
  std::string problem;                           // why the engine cannot route this topology; empty: it can
  int top = 0;                                   // highest level
  std::vector<int> level;                        // [switch], fat_tree_shape's
  std::vector<std::vector<PortGroup>> up, down;  // [switch]: groups toward level + 1 / level - 1,
                                                 // in the order of the neighbours' indices
  std::vector<int> index_order;                  // [switch] -> its position when switches sort by index
  std::vector<int> leaves;                       // leaf switches in index order
  std::vector<std::vector<int>> leaf_hosts;      // [position in leaves]: its hosts by port
  std::vector<int> ca_order;                     // every cabled host in compute-node order
  int max_hosts_per_leaf = 0;
};

// The levels, groups and orders of a topology (problem set when fat_tree_shape says it is no
// fat tree).
FatTreeIndexing fat_tree_indexing(const Topology& t);

// The compute-node order as OpenSM's ftree writes it to opensm-ftree-ca-order.dump: per leaf in
// index order its hosts' base LIDs and names ("0x%04x\t%s"), then "0xFFFF\tDUMMY" for each host
// it has fewer than the fullest leaf. Throws RoutingError when the file cannot be written.
void write_ftree_ca_order(const Topology& t, const TableSet& ts, const std::string& path);

// `fattree` (adaptive false) and `fattree-ar` (adaptive: every minimal port of each entry, the
// static `fattree` port first), with 2^opt.lmc LIDs per host.
TableSet route_fattree(const Topology& t, const RoutingOptions& opt, bool adaptive);

}  // namespace ibsc::routing
