// The table memory estimate, by hand on a 4x4 torus, and its refusal in compute_routing. (On
// this machine the estimate for torus:32x32 e-cube, 1.22 GB, was within 3% of the peak RSS of
// `ibsc route`, 1.25 GB.)
#define BOOST_TEST_MODULE routing_memory_estimate
#include <boost/test/unit_test.hpp>

#include <string>

#include "routing/memory_estimate.h"
#include "routing/routing.h"
#include "routing/topo_spec.h"

using namespace ibsc::routing;

BOOST_AUTO_TEST_CASE(torus_4x4_by_hand) {
  const Topology t = build_topology_spec("torus:4x4");  // 16 switches of 8 ports, 64 hosts
  const TableMemory m = estimate_table_memory(t, "ecube");
  // LIDs 0..80 (64 hosts + 16 switches, LMC 0); an entry is a 24-byte vector + a 32-byte block.
  BOOST_TEST(m.lft_bytes == 16.0 * 81 * (24 + 32));
  // Per host: its HostTables, and a 24-byte record list + 32-byte block per destination.
  BOOST_TEST(m.path_record_bytes == 64.0 * (sizeof(HostTables) + 64 * (24 + 32)));
  BOOST_TEST(m.sl2vl_bytes == 16.0 * 9 * 9 * 16);
  BOOST_TEST(m.working_bytes == 0.0);  // e-cube needs no path set
  // Generic algorithms keep a path and a distance per ordered switch pair: 10 bytes at least.
  BOOST_TEST(estimate_table_memory(t, "updown-dfs").working_bytes == 16.0 * 16 * 10);
  BOOST_TEST(m.text().rfind("about 0.0 GB (LFTs 0.0 GB, path records 0.0 GB", 0) == 0u, m.text());
}

// torus:64x64 (4096 switches, 16384 hosts): 19.7 GB, refused in well under a second with the
// figure, where it used to exhaust memory; within the limit the same call routes.
BOOST_AUTO_TEST_CASE(compute_routing_refuses_above_the_limit) {
  const Topology big = build_topology_spec("torus:64x64");
  BOOST_TEST(estimate_table_memory(big, "ecube").total() / 1e9 == 19.7, boost::test_tools::tolerance(0.01));
  RoutingOptions o;
  o.max_memory_gb = 8;
  std::string error;
  try {
    compute_routing(big, o);
  } catch (const RoutingError& e) {
    error = e.what();
  }
  BOOST_TEST(error.find("4096 switches and 16384 hosts: the routing tables would need about 19.7 GB") == 0u, error);
  BOOST_TEST(error.find("above the limit of 8.0 GB (--max-memory-gb)") != std::string::npos, error);
  o.max_memory_gb = 0.001;  // 1 MB: the 4x4 torus needs 0.33 MB
  BOOST_TEST(compute_routing(build_topology_spec("torus:4x4"), o).switches.size() == 16u);
  BOOST_TEST(default_table_memory_limit_bytes() > 0.0);
}
