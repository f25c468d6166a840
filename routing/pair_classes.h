// The deadlock check's source classes (checks.cpp): hosts whose pairs walk alike.
#pragma once
#include <cstdint>
#include <vector>

#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::routing {

// Hosts whose pairs walk alike: the same path record row, first switch and HCA SL2VL, on a
// switch whose SL2VL gives the same VL from each of their ports. Their pairs toward one
// destination differ only in the first hop's input port, so one walk serves them all and only
// the dependencies are set per port (2,048 classes instead of 16,384 sources on the largest
// flattened butterfly). Empty when some host does not fit a class: then every pair is walked.
struct PairClass {
  int id = 0, sw = -1;
  std::vector<int> hosts, ports;  // the hosts and their ports at sw
  std::vector<uint64_t> seen;     // (injection VL, output port, output VL) already set for all ports
};
struct PairClasses {
  std::vector<PairClass> list;
  std::vector<int> of;  // [host] -> class id
};

PairClasses pair_classes(const Topology& t, const TableSet& ts);

}  // namespace ibsc::routing
