#include "models/vl_arbiter.h"

namespace ibsc::models {

void VlArbiter::configure(const VlArbParams& p, int num_vls) {
  use_tables_ = p.use_tables;
  num_vls_ = static_cast<uint8_t>(num_vls);
  rr_last_ = -1;
  tables_.reset();
  if (use_tables_)
    tables_.reset(
        new Tables{p.limit_of_high_priority, Table{p.high, 0, 0, false}, Table{p.low, 0, 0, false}, false, 0});
}

int VlArbiter::pick(Table& t, uint32_t requesting) {
  const size_t n = t.entries.size();
  if (n == 0) return -1;
  // Stay on the current entry while it has weight left and its VL is requesting.
  if (t.started && t.remaining > 0 && (requesting >> t.entries[t.current].vl & 1u)) return t.entries[t.current].vl;
  for (size_t step = t.started ? 1 : 0; step <= n; ++step) {
    size_t i = (t.current + step) % n;
    const VlArbEntry& e = t.entries[i];
    if (e.weight == 0 || !(requesting >> e.vl & 1u)) continue;
    t.current = i;
    t.remaining = e.weight;
    t.started = true;
    return e.vl;
  }
  return -1;
}

int VlArbiter::select_any(uint32_t requesting) {
  if (requesting == 0) return -1;
  if (!use_tables_) {
    for (int k = 1, v = rr_last_; k <= num_vls_; ++k) {
      v = v + 1 == num_vls_ ? 0 : v + 1;  // rr_last_ + k mod num_vls_ (from -1: 0 first)
      if (requesting >> v & 1u) return v;
    }
    return -1;
  }
  Tables& tb = *tables_;
  const bool limit_hit = tb.limit_of_high_priority != 255 && tb.high_bytes > 0 &&
                         tb.high_bytes >= static_cast<uint64_t>(tb.limit_of_high_priority) * 4096u;
  if (limit_hit) {
    int v = pick(tb.low, requesting);
    if (v >= 0) {
      tb.last_from_high = false;
      return v;
    }
  }
  int v = pick(tb.high, requesting);
  if (v >= 0) {
    tb.last_from_high = true;
    return v;
  }
  v = pick(tb.low, requesting);
  tb.last_from_high = false;
  return v;
}

void VlArbiter::charge_tables(uint32_t bytes) {
  Tables& tb = *tables_;
  Table& t = tb.last_from_high ? tb.high : tb.low;
  t.remaining -= static_cast<int>((bytes + 63) / 64);
  if (tb.last_from_high) {
    tb.high_bytes += bytes;
  } else {
    tb.high_bytes = 0;
  }
}

}  // namespace ibsc::models
