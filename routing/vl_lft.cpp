#include "routing/vl_lft.h"

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
    const std::string key(reinterpret_cast<const char*>(b), n * sizeof *b);
    auto it = list_.emplace(key, static_cast<uint32_t>(cands_.size())).first;
    if (it->second == cands_.size()) cands_.insert(cands_.end(), b, e);
    l.at = it->second;
  }
  lists_.push_back(l);
}

uint32_t VlLftPool::end_column() {
  if (static_cast<int>(lists_.size()) != vls_) throw std::logic_error("VlLftPool: a column needs one list per VL");
  key_.clear();
  for (const List& l : lists_) {
    key_.append(reinterpret_cast<const char*>(&l.at), sizeof l.at);
    key_.push_back(static_cast<char>(l.count));
    key_.append(reinterpret_cast<const char*>(&l.first), sizeof l.first);
  }
  const auto column = static_cast<uint32_t>(columns());
  auto it = column_.emplace(key_, column).first;
  if (it->second == column)
    for (const List& l : lists_) {
      slot_.push_back({l.first, l.count});
      more_at_.push_back(l.at);
    }
  return it->second;
}

void VlLftPool::finish() {
  list_ = {};
  column_ = {};
  lists_ = {};
  key_ = {};
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
