// The table memory estimate, by hand on a 4x4 torus, and its refusal in compute_routing.
#include <boost/test/unit_test.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "routing/memory_estimate.h"
#include "routing/memory_limit.h"
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

// Issue 37: the default limit is half of the smallest of the physical memory, RLIMIT_AS and
// the cgroup limit (it once ignored the last two and ended in std::bad_alloc under ulimit -v).
// The cgroup part on a made-up hierarchy: the tightest limit from the process's group up.
BOOST_AUTO_TEST_CASE(cgroup_limit_tightest_along_the_path) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("ibsc_cgroup_" + std::to_string(getpid()));
  fs::remove_all(root);
  auto put = [&](const std::string& rel, const std::string& text) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel) << text << "\n";
  };
  put("batch/memory.max", "8000000000");
  put("batch/job7/memory.max", "max");  // no limit of its own: the parent's bounds it
  MemoryLimit m = cgroup_memory_limit("0::/batch/job7\n", root.string());
  BOOST_TEST(m.bytes == 8e9);
  BOOST_TEST(m.source == "cgroup memory.max");
  put("batch/job7/memory.max", "1000000");
  BOOST_TEST(cgroup_memory_limit("0::/batch/job7\n", root.string()).bytes == 1e6);
  // v1: memory.limit_in_bytes under the memory controller's mount; ~2^63 means no limit.
  put("memory/memory.limit_in_bytes", "3000000000");
  put("memory/slurm/memory.limit_in_bytes", "9223372036854771712");
  m = cgroup_memory_limit("5:cpu,cpuacct:/slurm\n4:memory:/slurm\n0::/\n", root.string());
  BOOST_TEST(m.bytes == 3e9);
  BOOST_TEST(m.source == "cgroup memory.limit_in_bytes");
  BOOST_TEST(cgroup_memory_limit("", root.string()).bytes == 0.0);
  BOOST_TEST(cgroup_memory_limit("0::/../../etc\n", root.string()).bytes == 0.0);
  put("memory.max", "junk");  // unreadable: ignored, not a limit of 0
  BOOST_TEST(cgroup_memory_limit("0::/\n", root.string()).bytes == 0.0);
  fs::remove_all(root);
}

// RLIMIT_AS: lowered to a quarter of the physical memory, it becomes the usable memory and the
// default table limit is half of it. Skipped where the address space already exceeds that
// (a sanitizer's shadow memory): lowering the limit there would break every allocation.
BOOST_AUTO_TEST_CASE(rlimit_as_bounds_the_default_limit) {
  const double physical = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
  long vm_pages = 0;
  std::ifstream("/proc/self/statm") >> vm_pages;
  const double vm = static_cast<double>(vm_pages) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
  const double quarter = physical / 4;
  if (!(vm + 1e9 < quarter)) {
    BOOST_TEST_MESSAGE("address space " << vm / 1e9 << " GB: RLIMIT_AS case skipped");
    return;
  }
  struct rlimit old {};
  BOOST_TEST_REQUIRE(getrlimit(RLIMIT_AS, &old) == 0);
  if (old.rlim_cur != RLIM_INFINITY && static_cast<double>(old.rlim_cur) < quarter) return;  // already tighter
  struct rlimit low = old;
  low.rlim_cur = static_cast<rlim_t>(quarter);
  BOOST_TEST_REQUIRE(setrlimit(RLIMIT_AS, &low) == 0);
  const MemoryLimit usable = usable_memory();
  const MemoryLimit table = default_table_memory_limit();
  setrlimit(RLIMIT_AS, &old);
  if (usable.source.rfind("cgroup", 0) == 0 && usable.bytes < quarter) return;  // a tighter container
  BOOST_TEST(usable.bytes == static_cast<double>(low.rlim_cur));
  BOOST_TEST(usable.source == "RLIMIT_AS (ulimit -v)");
  BOOST_TEST(table.bytes == usable.bytes / 2);
}
