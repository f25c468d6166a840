#include "routing/memory_estimate.h"

#include <cstdio>
#include <vector>

#include "routing/routing.h"
#include "routing/tables.h"

namespace ibsc::routing {
namespace {

double gb(double bytes) { return bytes / 1e9; }

}  // namespace

std::string TableMemory::text() const {
  char b[200];
  std::snprintf(b, sizeof b, "about %.1f GB (LFTs %.1f GB, path records %.1f GB, SL2VL %.2f GB, routing work %.1f GB)",
                gb(total()), gb(lft_bytes), gb(path_record_bytes), gb(sl2vl_bytes), gb(working_bytes));
  return b;
}

TableMemory estimate_table_memory(const Topology& topo, Algorithm algorithm) {
  TableMemory m;
  const double switches = topo.num_switches, hosts = topo.num_hosts;
  const double lids = hosts + switches + 1;  // LMC 0; LID 0 unused but allocated
  m.lft_bytes = switches * lids * sizeof(Lft::Slot);
  // seeds/001's VL-counting routings keep their LFTs per input VL in the compact form
  // (vl_lft.h): a 4-byte column per (switch, LID) besides the plain LFT; the shared pool of
  // columns is small beside it (the flattened butterfly's columns repeat from switch to switch).
  if (programs_per_vl_lfts(algorithm)) m.lft_bytes += switches * lids * sizeof(uint32_t);
  // Path record rows (routing/path_row.h): one per switch for the algorithms whose records
  // depend on the source switch; voqsw gives each host pair its own SL, so a row per host;
  // DOR on flattened butterflies (its SL depends on the destination only) and imported tables
  // without records share one row.
  using A = Algorithm;
  const bool one_row = algorithm == A::File || algorithm == A::Dor || algorithm == A::MixedDor;
  const double rows = algorithm == A::Voqsw ? hosts : one_row ? 1 : switches;
  m.path_record_bytes = hosts * sizeof(HostTables) + rows * hosts * sizeof(PathRecord);
  for (int s = 0; s < topo.num_switches; ++s) {
    const double ports = topo.nodes[s].num_ports + 1;
    m.sl2vl_bytes += ports * ports * kNumSls * sizeof(Vl);
  }
  // minhop, up*/down* and Flexible keep a path per ordered switch pair (one channel id at
  // least, plus its offset) and the all-pairs distance matrix; e-cube computes in place.
  if (algorithm != A::Ecube && algorithm != A::Dor1vl && algorithm != A::File)
    m.working_bytes = switches * switches * (sizeof(int) + sizeof(uint32_t) + sizeof(uint16_t));
  return m;
}

MemoryLimit default_table_memory_limit() {
  MemoryLimit m = usable_memory();
  m.bytes *= 0.5;
  return m;
}

double default_table_memory_limit_bytes() { return default_table_memory_limit().bytes; }

}  // namespace ibsc::routing
