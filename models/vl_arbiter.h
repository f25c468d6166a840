// VL arbiter of one output port (and of an HCA's send port): picks which VL sends next among
// the VLs that have a packet ready for this output with credits.
//
// Inputs:     select(mask): the VLs requesting this cycle (bit v = VL v); charge(vl, bytes): the
//             packet just granted on the VL select() returned.
// Output:     the VL served, -1 when none is eligible.
// Parameters: VLs; the policy, one of two:
//   round-robin (default): the next requesting VL after the last one served;
//   IBA VLArb tables: a high- and a low-priority table of (VL, weight in 64-byte units). The
//     current entry keeps the link until its weight is spent (a packet is never cut; the
//     overshoot is lost) or its VL has nothing to send; the high table goes first, but after
//     limit_of_high_priority x 4096 bytes of high-priority data one low-priority packet may go
//     if one is waiting (limit 255: unbounded). Weight-0 entries are skipped.
// Events:     none. A concrete class, not an interface: it runs once per packet on the hot path,
//             where a virtual call would cost; the policy is a parameter instead.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ibsc::models {

struct VlArbEntry {
  uint8_t vl = 0;
  uint8_t weight = 0;  // units of 64 bytes
};

struct VlArbParams {
  static constexpr int kMaxLimitOfHighPriority = 255;  // the IBA field's largest value: unlimited
  bool use_tables = false;
  std::vector<VlArbEntry> high;
  std::vector<VlArbEntry> low;
  int limit_of_high_priority = 255;
};

class VlArbiter {
 public:
  void configure(const VlArbParams& p, int num_vls);
  // Chooses a VL among the set bits of `requesting` (bit v = VL v); -1 when none is eligible.
  int select(uint32_t requesting) {
    // Inline for the usual case, one VL asking under round-robin: that VL, nothing to update.
    if (!use_tables_ && requesting != 0 && (requesting & (requesting - 1)) == 0 && requesting >> num_vls_ == 0)
      return __builtin_ctz(requesting);
    return select_any(requesting);
  }
  // Accounts a packet of `bytes` just granted on `vl` (which select() returned).
  void charge(int vl, uint32_t bytes) {
    if (use_tables_) charge_tables(bytes);
    else rr_last_ = static_cast<int8_t>(vl);
  }

 private:
  struct Table {
    std::vector<VlArbEntry> entries;
    size_t current = 0;
    int remaining = 0;  // weight left on the current entry, in 64-byte units
    bool started = false;
  };
  // The VLArb table state, allocated only when the tables are used: with round-robin a port's
  // VL arbiter is the three small fields below, next to its neighbours'.
  struct Tables {
    int limit_of_high_priority = 255;
    Table high, low;
    bool last_from_high = false;
    uint64_t high_bytes = 0;  // high-priority bytes since the last low-priority packet
  };
  int select_any(uint32_t requesting);
  void charge_tables(uint32_t bytes);
  static int pick(Table& t, uint32_t requesting);
  // 16 bytes: an HCA keeps one among its hot members, a switch one per port.
  std::unique_ptr<Tables> tables_;
  int8_t rr_last_ = -1;
  uint8_t num_vls_ = 1;
  bool use_tables_ = false;
};

}  // namespace ibsc::models
