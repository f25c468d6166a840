// The primary LFT ports of all switches as one dense byte matrix indexed [DLID][switch]: walks
// over millions of pairs then touch a few cache lines per destination instead of one heap
// block per LFT entry. `exact` is false when some entry has several candidates or a switch
// keeps one LFT per input VL; walkers must then read the tables themselves.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "routing/tables.h"

namespace ibsc::routing {

struct DenseLft {
  int switches = 0;
  bool exact = true;
  std::vector<PortNum> port;  // kNoPort: unrouted

  explicit DenseLft(const TableSet& ts) : switches(static_cast<int>(ts.switches.size())) {
    const size_t lids = static_cast<size_t>(ts.max_lid) + 1;
    port.assign(lids * switches, kNoPort);
    for (const SwitchTables& st : ts.switches)
      if (st.per_vl()) exact = false;
    // By tiles of 64 DLIDs: each switch's slots are read in runs, and the tile's rows of
    // `port` stay in cache while every switch writes its column (one miss per entry otherwise:
    // 0.15 s at 2,048 switches x 16,384 DLIDs, 0.065 s so; 16 or 256 DLIDs measured slower).
    constexpr size_t kTile = 64;
    for (size_t l0 = 0; l0 < lids; l0 += kTile)
      for (int s = 0; s < switches; ++s) {
        const Lft& lft = ts.switches[s].lft;
        const size_t l1 = std::min({l0 + kTile, lids, lft.size()});
        for (size_t lid = l0; lid < l1; ++lid) {
          const Lft::Slot& e = lft.slot(lid);
          if (e.count > 1) exact = false;
          port[lid * switches + s] = e.count == 0 ? kNoPort : e.count == 1 ? e.first.port : lft.more(lid)->port;
        }
      }
  }
  PortNum at(Lid dlid, int sw) const { return port[static_cast<size_t>(dlid) * switches + sw]; }
};

}  // namespace ibsc::routing
