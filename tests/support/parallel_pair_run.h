// The fabric two arbiter tests run: hosts 0, 1, 2 (sw_0) each send one 512-byte packet at time 0
// to hosts 4, 5, 6 (sw_1) over the parallel pair (manual_fabric.h parallel_pair(4): two cables,
// one VL), every switch arbitrated by one registered arbiter. Each packet is granted once in sw_0
// and once in sw_1, so a run to completion makes 6 grants and 3 deliveries.
#pragma once
#include <memory>
#include <string>

#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tests/support/manual_fabric.h"

namespace ibsc::testing {

// The fabric keeps references to the topology, tables and traffic: they live here beside it.
struct ParallelPairRun {
  routing::Topology topo = parallel_pair(4);
  routing::TableSet tables = parallel_pair_tables(topo);
  ScriptedTraffic traffic{topo.num_hosts, {{0, 0, 4, 512}, {0, 1, 5, 512}, {0, 2, 6, 512}}};
  std::unique_ptr<tb::Fabric> fabric;

  // `arbiter`: the switch.arbiter name (ibsc/arbiter_registry.h or a Verilated RTL arbiter's).
  explicit ParallelPairRun(const std::string& arbiter) {
    tb::FabricParams params;
    params.sw.num_vls = 1;
    tb::ArbiterChoice ac;
    ac.name = arbiter;
    fabric = std::make_unique<tb::Fabric>(topo, tables, params, traffic, tb::make_arbiter_factory(ac));
  }
};

}  // namespace ibsc::testing
