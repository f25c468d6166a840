#include "routing/vl_lft.h"

#include "routing/content_hash.h"
#include "routing/tables.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace ibsc::routing {

size_t VlLftPool::bytes() const {
  return slot_.capacity() * sizeof(Lft::Slot) + more_at_.capacity() * sizeof(uint32_t) +
         cands_.capacity() * sizeof(PortCandidate);
}

void VlLftPool::add_list(const PortCandidate* b, const PortCandidate* e) {
  const size_t n = static_cast<size_t>(e - b);
  if (n > 0xFF) throw std::invalid_argument("LFT entry with over 255 candidates");
  // Lists of one column often repeat VL after VL (Distance+k: every VL above the distance
  // allows the same moves): no look-up for those.
  if (!lists_.empty() && lists_.back().count == n &&
      (n <= 1 ? n == 0 || std::memcmp(&lists_.back().first, b, sizeof *b) == 0
              : std::memcmp(cands_.data() + lists_.back().at, b, n * sizeof *b) == 0)) {
    lists_.push_back(lists_.back());
    return;
  }
  List l{0, static_cast<uint8_t>(n), n ? *b : PortCandidate{}};
  if (n > 1) {
    for (uint64_t h = hash_bytes(b, n * sizeof *b);; h = hash_probe(h)) {
      const auto [it, fresh] = list_.emplace(h, static_cast<uint64_t>(cands_.size()) << 8 | n);
      const auto at = static_cast<uint32_t>(it->second >> 8);
      if (fresh) cands_.insert(cands_.end(), b, e);
      if (fresh || ((it->second & 0xFF) == n && std::memcmp(cands_.data() + at, b, n * sizeof *b) == 0)) {
        l.at = at;
        break;
      }
    }
  }
  lists_.push_back(l);
}

uint32_t VlLftPool::end_column() {
  if (static_cast<int>(lists_.size()) != vls_) throw std::logic_error("VlLftPool: a column needs one list per VL");
  uint64_t h = 0;
  for (const List& l : lists_) {
    uint32_t first = 0;
    std::memcpy(&first, &l.first, sizeof l.first);
    h = hash_mix(h, (static_cast<uint64_t>(l.at) << 32) | (static_cast<uint64_t>(l.count) << 24) | first);
  }
  const auto column = static_cast<uint32_t>(columns());
  for (;; h = hash_probe(h)) {
    const auto [it, fresh] = column_.emplace(h, column);
    if (fresh) {
      for (const List& l : lists_) {
        slot_.push_back({l.first, l.count});
        more_at_.push_back(l.at);
      }
      return column;
    }
    const size_t c = static_cast<size_t>(it->second) * vls_;
    bool same = true;
    for (int v = 0; v < vls_ && same; ++v) {
      const List& l = lists_[v];
      same = slot_[c + v].count == l.count && more_at_[c + v] == l.at &&
             std::memcmp(&slot_[c + v].first, &l.first, sizeof l.first) == 0;
    }
    if (same) return it->second;
  }
}

void VlLftPool::finish() {
  list_ = {};
  column_ = {};
  lists_ = {};
  named_.assign(columns(), PortSet{});
  for (uint32_t c = 0; c < columns(); ++c)
    for (int v = 0; v < vls_; ++v)
      for (const PortCandidate& x : entry(c, v).candidates) named_[c][x.port / 64] |= 1ULL << (x.port % 64);
  slot_.shrink_to_fit();
  more_at_.shrink_to_fit();
  cands_.shrink_to_fit();
}

namespace {

void compact_switch(SwitchTables& st, const std::shared_ptr<VlLftPool>& pool) {
  if (static_cast<int>(st.lft_per_input_vl.size()) != pool->vls())
    throw std::logic_error("compact_per_vl: switches with different numbers of per-VL LFTs");
  size_t lids = 0;
  for (const Lft& l : st.lft_per_input_vl) lids = std::max(lids, l.size());
  st.vl_column.assign(lids, 0);
  for (size_t d = 0; d < lids; ++d) {
    pool->begin_column();
    for (const Lft& l : st.lft_per_input_vl) {
      const LftEntry e = d < l.size() ? l[d] : LftEntry{};
      pool->add_list(e.candidates.begin(), e.candidates.end());
    }
    st.vl_column[d] = pool->end_column();
  }
  st.lft_per_input_vl = {};
  st.vl_pool = pool;
}

}  // namespace

void compact_per_vl(TableSet& ts) {
  std::shared_ptr<VlLftPool> pool;
  for (SwitchTables& st : ts.switches) {
    if (st.lft_per_input_vl.empty()) continue;
    if (!pool) pool = std::make_shared<VlLftPool>(static_cast<int>(st.lft_per_input_vl.size()));
    compact_switch(st, pool);
  }
  if (pool) pool->finish();
}

void SwitchTables::expand_per_vl() {
  if (!vl_pool) return;
  lft_per_input_vl.assign(vl_pool->vls(), Lft{});
  for (int v = 0; v < vl_pool->vls(); ++v) {
    Lft& l = lft_per_input_vl[v];
    l.assign(vl_column.size());
    for (size_t d = 0; d < vl_column.size(); ++d) {
      const LftEntry e = vl_pool->entry(vl_column[d], v);
      l.set(d, e.candidates.begin(), e.candidates.end());
    }
  }
  vl_column = {};
  vl_pool.reset();
}

}  // namespace ibsc::routing
