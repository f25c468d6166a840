// The primary LFT ports of all switches as one dense byte matrix indexed [DLID][switch]: walks
// over millions of pairs then touch a few cache lines per destination instead of one heap
// block per LFT entry. `exact` is false when some entry has several candidates or a switch
// keeps one LFT per input VL; walkers must then read the tables themselves.
#pragma once
#include <cstdint>
#include <vector>

#include "routing/tables.h"

namespace ibsc::routing {

struct DenseLft {
  int switches = 0;
  bool exact = true;
  std::vector<PortNum> port;  // kNoPort: unrouted

  explicit DenseLft(const TableSet& ts) : switches(static_cast<int>(ts.switches.size())) {
    port.assign(static_cast<size_t>(ts.max_lid + 1) * switches, kNoPort);
    for (int s = 0; s < switches; ++s) {
      const SwitchTables& st = ts.switches[s];
      if (st.per_vl()) exact = false;
      for (size_t lid = 0; lid < st.lft.size() && lid <= ts.max_lid; ++lid) {
        const LftEntry& e = st.lft[lid];
        if (e.candidates.size() > 1) exact = false;
        port[lid * switches + s] = e.primary();
      }
    }
  }
  PortNum at(Lid dlid, int sw) const { return port[static_cast<size_t>(dlid) * switches + sw]; }
};

}  // namespace ibsc::routing
