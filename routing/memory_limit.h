// How much memory this process may use: the smallest of the physical memory, its address-space
// limit (RLIMIT_AS, `ulimit -v`) and its control group's limit (cgroup v2 memory.max, v1
// memory.limit_in_bytes, the tightest along the path to the root: a container or a batch job's
// allocation). The table memory guard (memory_estimate.h) takes half of it, so a fabric whose
// tables would not fit is refused with the figure instead of ending in std::bad_alloc or the
// OOM killer after minutes.
#pragma once
#include <string>

namespace ibsc::routing {

struct MemoryLimit {
  double bytes = 0;    // 0: unknown (the machine does not say)
  std::string source;  // "physical memory", "RLIMIT_AS (ulimit -v)", "cgroup memory.max"
};

// The cgroup limit from the text of /proc/self/cgroup and the cgroup file systems' mount point
// (/sys/fs/cgroup); bytes 0 when no limit is set or none can be read. Apart for the tests.
MemoryLimit cgroup_memory_limit(const std::string& proc_self_cgroup, const std::string& cgroup_root);

// The smallest of the three for this process.
MemoryLimit usable_memory();

}  // namespace ibsc::routing
