// Memory the tables of a routing will take, estimated from the topology before any table is
// built, so a fabric too large for this machine is refused in a second with the figure instead
// of exhausting memory after minutes. LFTs take 4 bytes per (switch, LID) and path records 4
// bytes per (row, destination host), rows shared by the hosts of a switch: both grow with
// hosts x switches (a 64x64 torus: 0.6 GB; 2,048 switches x 16,384 hosts: 0.2-0.4 GB).
// A lower bound: LMC 0 (renaming may add LIDs), one channel per switch pair, one row per
// switch (2-VL generic routings keep two). The one place to update when the layout changes.
#pragma once
#include <cstdint>
#include <string>

#include "routing/memory_limit.h"
#include "routing/routing.h"
#include "routing/topology.h"

namespace ibsc::routing {

struct TableMemory {
  double lft_bytes = 0;          // per switch: one 4-byte slot per LID
  double path_record_bytes = 0;  // per path row (see above): one record per destination host
  double sl2vl_bytes = 0;        // per switch: (ports + 1)^2 x 16 SLs
  double working_bytes = 0;      // generic algorithms: switch-pair paths and distances
  double total() const { return lft_bytes + path_record_bytes + sl2vl_bytes + working_bytes; }
  std::string text() const;  // "about 19.7 GB (LFTs 4.7 GB, path records 15.0 GB, ...)"
};

TableMemory estimate_table_memory(const Topology& topo, Algorithm algorithm);

// The default limit: half the memory this process may use (memory_limit.h: the smallest of the
// physical memory, RLIMIT_AS and the cgroup limit); the rest is for the simulation, its
// workers and the system. bytes 0 when the machine does not say.
MemoryLimit default_table_memory_limit();
double default_table_memory_limit_bytes();

}  // namespace ibsc::routing
