// The path records of one source host: destination host -> list of {DLID, SL}, the first the
// primary path and the rest alternates. Rows are shared: every algorithm that gives all hosts
// of a switch the same records (e-cube, DOR, renamed generic paths, TFTR) builds one row per
// switch and hands it to each of its hosts, so the records take hosts x switches x 4 bytes
// (128 MB at 16,384 hosts on 2,048 switches) instead of a heap block per host pair. Writing
// through a shared row copies it first (copy on write), so per-pair edits stay correct.
// A row keeps one record per destination in a flat array until some destination gets a second
// record; from then on it keeps (offset, count) per destination and the records besides.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "routing/span.h"
#include "routing/types.h"

namespace ibsc::routing {

struct PathRecord {
  Lid dlid = 0;  // 0: no record (LID 0 is reserved)
  Sl sl = 0;
};

class PathRow {
 public:
  size_t size() const { return d_ ? d_->size : 0; }  // destinations
  // n destinations without records, in a row of its own.
  void assign(size_t n);
  // One record per destination (dlid 0: none), in a row of its own: as assign(one.size()) and
  // set(q, one[q]) for each q, in one step.
  void assign(std::vector<PathRecord> one);
  Span<PathRecord> operator[](size_t dst) const {
    if (dst == hidden_) return {};
    const Data& d = *d_;
    if (d.at.empty()) {
      const PathRecord* r = &d.one[dst];
      return {r, r + (r->dlid != 0)};
    }
    const PathRecord* r = d.many.data() + d.at[dst];
    return {r, r + d.count[dst]};
  }
  // The records of one destination: exactly `r`, or the list `b .. e`.
  void set(size_t dst, PathRecord r);
  void set(size_t dst, const PathRecord* b, const PathRecord* e);
  void set(size_t dst, const std::vector<PathRecord>& recs) { set(dst, recs.data(), recs.data() + recs.size()); }
  void add(size_t dst, PathRecord r);  // one more record after the others
  void clear(size_t dst) { set(dst, nullptr, nullptr); }
  void set_sl(size_t dst, size_t i, Sl sl);  // the SL of record i
  // This host's view of a shared row leaves out one destination (the host itself), without a
  // copy of the row.
  static constexpr size_t kNone = SIZE_MAX;
  void hide(size_t dst) { hidden_ = dst; }  // kNone: show all
  size_t hidden() const { return hidden_; }
  // Rows built once and handed to several hosts compare equal by identity.
  const void* identity() const { return d_.get(); }

 private:
  struct Data {
    size_t size = 0;
    std::vector<PathRecord> one;  // [dst]: the only record (dlid 0: none); empty once `at` is used
    std::vector<uint32_t> at;     // [dst]: first record in `many`
    std::vector<uint8_t> count;   // [dst]: records in `many`
    std::vector<PathRecord> many;
  };
  Data& own();                   // this row's data, copied first when shared
  void to_lists(Data& d) const;  // from one record per destination to (offset, count)
  std::shared_ptr<Data> d_;
  size_t hidden_ = kNone;  // see hide()
};

}  // namespace ibsc::routing
