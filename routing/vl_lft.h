// The per-input-VL LFTs of a whole fabric, stored once per distinct content (seeds/001's one
// LFT per input VL at 16,384 hosts: 8 copies of 18,432 DLIDs on 2,048 switches took 2.4 GB).
//   A column is what one DLID gets at one switch on every input VL: a candidate list per VL.
//   Hosts of one destination switch share their column everywhere but at their own switch, and
//   the columns of different switches repeat (a flattened butterfly's port lists depend only on
//   which dimensions differ and the offsets in them), so the pool keeps each distinct list and
//   each distinct column once, and a switch keeps only DLID -> column (4 bytes per DLID, for
//   all its VLs). The switch model reads the pool's arrays as its flattened LFT: entry (column
//   c, input VL v) is slots()[c * vls() + v], its candidates at cands() + more_at()[...] when
//   it has several: one index load more than a flat table, O(1).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "routing/lft.h"

namespace ibsc::routing {

class VlLftPool {
 public:
  explicit VlLftPool(int vls) : vls_(vls) {}
  int vls() const { return vls_; }
  size_t columns() const { return slot_.size() / static_cast<size_t>(vls_); }
  LftEntry entry(uint32_t column, int vl) const {
    const size_t k = static_cast<size_t>(column) * vls_ + vl;
    const Lft::Slot& s = slot_[k];
    const PortCandidate* b = s.count > 1 ? cands_.data() + more_at_[k] : &s.first;
    return {{b, b + s.count}};
  }
  const Lft::Slot* slots() const { return slot_.data(); }
  const uint32_t* more_at() const { return more_at_.data(); }
  const PortCandidate* cands() const { return cands_.data(); }
  const std::vector<PortCandidate>& all_candidates() const { return cands_; }
  // The ports a column names on any VL, as a bit set (after finish()).
  using PortSet = std::array<uint64_t, 4>;
  const PortSet& ports_named(uint32_t column) const { return named_[column]; }
  size_t bytes() const;  // storage, without the build-time indexes

  // Building: the lists of one column, VL by VL, then its id (an existing column with the same
  // lists, or a new one).
  void begin_column() { lists_.clear(); }
  void add_list(const PortCandidate* b, const PortCandidate* e);
  uint32_t end_column();
  // The build-time indexes are freed (no more columns can be added).
  void finish();

 private:
  struct List {
    uint32_t at;
    uint8_t count;
    PortCandidate first;
  };
  int vls_;
  std::vector<Lft::Slot> slot_;    // [column * vls + VL]
  std::vector<uint32_t> more_at_;  // [column * vls + VL], into cands_ when count > 1
  std::vector<PortCandidate> cands_;
  std::vector<PortSet> named_;  // [column]
  std::vector<List> lists_;     // the column being built
  // Build-time indexes by a hash of the content (a hash met with other content probes on:
  // the content decides, as a key of the whole content would, at a fraction of the cost).
  std::unordered_map<uint64_t, uint64_t> list_;    // candidates -> offset in cands_ << 8 | count
  std::unordered_map<uint64_t, uint32_t> column_;  // (offset, count, first) per VL -> column
};

struct TableSet;
// Moves the lft_per_input_vl of every switch that has them (all with the same number of
// copies) into one new pool; the lookups give the same entries.
void compact_per_vl(TableSet& ts);

}  // namespace ibsc::routing
