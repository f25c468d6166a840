// The table memory estimate, by hand on a 4x4 torus, and its refusal in compute_routing.
#define BOOST_TEST_MODULE routing_memory_estimate
#include <boost/test/unit_test.hpp>

#include <string>

#include "routing/memory_estimate.h"
#include "routing/routing.h"
#include "routing/topo_spec.h"

using namespace ibsc::routing;

BOOST_AUTO_TEST_CASE(torus_4x4_by_hand) {
  const Topology t = build_topology_spec("torus:4x4");  // 16 switches of 8 ports, 64 hosts
  const TableMemory m = estimate_table_memory(t, Algorithm::Ecube);
  // LIDs 0..80 (64 hosts + 16 switches, LMC 0), 4 bytes each.
  BOOST_TEST(m.lft_bytes == 16.0 * 81 * 4);
  // Per host its HostTables; one row per switch of one 4-byte record per destination.
  BOOST_TEST(m.path_record_bytes == 64.0 * sizeof(HostTables) + 16 * 64 * 4);
  // DOR's records depend on the destination only: one row for all hosts.
  BOOST_TEST(estimate_table_memory(t, Algorithm::Dor).path_record_bytes == 64.0 * sizeof(HostTables) + 64 * 4);
  // voqsw sets an SL per host pair: a row per host.
  BOOST_TEST(estimate_table_memory(t, Algorithm::Voqsw).path_record_bytes == 64.0 * sizeof(HostTables) + 64 * 64 * 4);
  BOOST_TEST(m.sl2vl_bytes == 16.0 * 9 * 9 * 16);
  BOOST_TEST(m.working_bytes == 0.0);  // e-cube needs no path set
  // Generic algorithms keep a path and a distance per ordered switch pair: 10 bytes at least.
  BOOST_TEST(estimate_table_memory(t, Algorithm::UpdownDfs).working_bytes == 16.0 * 16 * 10);
  BOOST_TEST(m.text().rfind("about 0.0 GB (LFTs 0.0 GB, path records 0.0 GB", 0) == 0u, m.text());
}

// torus:64x64 (4096 switches, 16384 hosts): 0.6 GB (it was 19.7 GB with a heap block per LFT
// entry and per host pair), refused in well under a second with the figure when above the
// limit; within the limit the same call routes.
BOOST_AUTO_TEST_CASE(compute_routing_refuses_above_the_limit) {
  const Topology big = build_topology_spec("torus:64x64");
  const double lids = 16384 + 4096 + 1;
  const double expect = 4096 * lids * 4 + 16384 * sizeof(HostTables) + 4096.0 * 16384 * 4 + 4096 * 9 * 9 * 16;
  BOOST_TEST(estimate_table_memory(big, Algorithm::Ecube).total() == expect);
  RoutingOptions o;
  o.max_memory_gb = 0.5;
  std::string error;
  try {
    compute_routing(big, o);
  } catch (const RoutingError& e) {
    error = e.what();
  }
  BOOST_TEST(error.find("4096 switches and 16384 hosts: the routing tables would need about 0.6 GB") == 0u, error);
  BOOST_TEST(error.find("above the limit of 0.5 GB (--max-memory-gb)") != std::string::npos, error);
  o.max_memory_gb = 0.001;  // 1 MB: the 4x4 torus needs 0.04 MB
  BOOST_TEST(compute_routing(build_topology_spec("torus:4x4"), o).switches.size() == 16u);
  BOOST_TEST(default_table_memory_limit_bytes() > 0.0);
}
