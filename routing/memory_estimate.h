// Memory the tables of a routing will take, estimated from the topology before any table is
// built, so a fabric too large for this machine is refused in a second with the figure instead
// of exhausting memory after minutes (a 64x64 torus needs about 20 GB, hypercube:8:hosts=128
// about 60 GB, almost all of it path records: one heap-allocated record list per host pair).
// A lower bound: LMC 0 (renaming may add LIDs) and one channel per switch pair. The one place
// to update when the table layout becomes more compact.
#pragma once
#include <cstdint>
#include <string>

#include "routing/topology.h"

namespace ibsc::routing {

struct TableMemory {
  double lft_bytes = 0;          // per switch: one LftEntry per LID, each a small heap vector
  double path_record_bytes = 0;  // per host: one record list per destination
  double sl2vl_bytes = 0;        // per switch: (ports + 1)^2 x 16 SLs
  double working_bytes = 0;      // generic algorithms: switch-pair paths and distances
  double total() const { return lft_bytes + path_record_bytes + sl2vl_bytes + working_bytes; }
  std::string text() const;      // "about 19.7 GB (LFTs 4.7 GB, path records 15.0 GB, ...)"
};

TableMemory estimate_table_memory(const Topology& topo, const std::string& algorithm);

// The default limit: half the physical memory (the rest for the simulation, its workers and
// the system); 0 when the machine does not say.
double default_table_memory_limit_bytes();

}  // namespace ibsc::routing
