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
  bool escape = false;        // an entry of one candidate marks it escape (with several: not searched)
  std::vector<PortNum> port;  // kNoPort: unrouted

  explicit DenseLft(const TableSet& ts) : switches(static_cast<int>(ts.switches.size())) {
    const size_t lids = static_cast<size_t>(ts.max_lid) + 1;
    port.resize(lids * switches);  // every entry written below
    for (const SwitchTables& st : ts.switches)
      if (st.per_vl()) exact = false;
    // By tiles of 64 switches x 1,024 DLIDs: each switch's slots are read in 4 KB runs into
    // a tile that stays in cache, whose rows are then copied out whole (one cache miss per
    // entry when written column by column: 0.15 s at 2,048 switches x 16,384 DLIDs; 0.055 s so).
    constexpr int kSwitches = 64;
    constexpr size_t kLids = 1024;
    std::vector<PortNum> tile(kSwitches * kLids);
    for (int s0 = 0; s0 < switches; s0 += kSwitches) {
      const int sn = std::min(kSwitches, switches - s0);
      for (size_t l0 = 0; l0 < lids; l0 += kLids) {
        const size_t ln = std::min(kLids, lids - l0);
        for (int j = 0; j < sn; ++j) {
          const Lft& lft = ts.switches[s0 + j].lft;
          const size_t e = std::min(ln, lft.size() > l0 ? lft.size() - l0 : 0);
          for (size_t i = 0; i < ln; ++i) {
            const Lft::Slot* slot = i < e ? &lft.slot(l0 + i) : nullptr;
            const int count = slot ? slot->count : 0;
            if (count > 1) exact = false;
            if (count == 1 && slot->first.escape) escape = true;
            tile[i * kSwitches + j] = count == 0 ? kNoPort : count == 1 ? slot->first.port : lft.more(l0 + i)->port;
          }
        }
        for (size_t i = 0; i < ln; ++i) std::copy_n(&tile[i * kSwitches], sn, &port[(l0 + i) * switches + s0]);
      }
    }
  }
  PortNum at(Lid dlid, int sw) const { return port[static_cast<size_t>(dlid) * switches + sw]; }
};

}  // namespace ibsc::routing
