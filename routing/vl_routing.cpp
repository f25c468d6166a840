#include "routing/vl_routing.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "routing/content_hash.h"
#include "routing/graph.h"
#include "routing/lids.h"
#include "routing/routing.h"

namespace ibsc::routing {
namespace {

// Column keys -> columns, by open addressing on the keys' 64-bit hashes (a look-up reads one
// slot, where std::unordered_map chased two pointers); the keys are kept end to end, and a
// key is found only where its bytes are equal.
class KeyIndex {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  uint32_t find(const std::string& key, uint64_t h) const {
    if (slots_.empty()) return kNone;
    for (size_t i = h >> shift_;; i = (i + 1) & mask_) {
      const Slot& x = slots_[i];
      if (x.column == kNone) return kNone;
      if (x.h == h && x.size == key.size() && std::memcmp(keys_.data() + x.at, key.data(), x.size) == 0)
        return x.column;
    }
  }
  void insert(const std::string& key, uint64_t h, uint32_t column) {
    if (2 * (used_ + 1) > slots_.size()) grow();
    place({h, keys_.size(), static_cast<uint32_t>(key.size()), column});
    keys_ += key;
    ++used_;
  }

 private:
  struct Slot {
    uint64_t h = 0;
    size_t at = 0;
    uint32_t size = 0;
    uint32_t column = kNone;  // kNone: empty
  };
  void place(const Slot& x) {
    size_t i = x.h >> shift_;
    while (slots_[i].column != kNone) i = (i + 1) & mask_;
    slots_[i] = x;
  }
  void grow() {
    std::vector<Slot> old(std::max<size_t>(1024, 2 * slots_.size()));
    old.swap(slots_);
    mask_ = slots_.size() - 1;
    for (shift_ = 64; size_t{1} << (64 - shift_) < slots_.size();) --shift_;
    for (const Slot& x : old)
      if (x.column != kNone) place(x);
  }
  std::vector<Slot> slots_;
  size_t mask_ = 0, used_ = 0;
  int shift_ = 63;  // the slot is the hash's top bits (its low bits mix least)
  std::string keys_;
};

}  // namespace

int seeds001_vl_budget(const std::string& name, int vls, int max_vls, int need, const std::string& why) {
  constexpr int kTalkVls = 8;  // seeds/001: 8 VLs per port
  const int budget = std::min(vls > 0 ? vls : kTalkVls, max_vls);
  if (need > budget)
    throw RoutingError(
        name + " needs " + std::to_string(need) + " VLs (" + why + "); the budget is " + std::to_string(budget) +
        (vls > 0 ? " (routing.vls / --vls)" : " (seeds/001's 8; routing.vls / --vls raises it up to 15)"));
  return budget;
}

namespace {

// build_vl_tables(): its members are the fabric-wide column pool and the indexes that let
// switches share columns; its methods fill one switch's tables, then the hosts' path records.
class VlTableBuilder {
 public:
  VlTableBuilder(const Topology& t, const VlRules& r);
  TableSet run();

 private:
  uint32_t plain(const LftEntry& e);
  uint32_t remote_column(int s, int to);
  void switch_columns(int s);
  void plain_lft(int s);
  void switch_sl2vl(int s);
  void host_records();

  const Topology& t_;
  const VlRules& r_;
  TableSet ts_;
  std::vector<std::vector<int>> by_switch_;
  // The per-VL LFTs go straight into the fabric-wide pool (vl_lft.h): a column per remote
  // destination switch (shared by its hosts), one per local host, and the plain entry on
  // every VL for the other LIDs (the switch LIDs).
  std::shared_ptr<VlLftPool> pool_;
  std::vector<PortCandidate> c_;
  // Plain entries of one candidate or none -> their column (most switch LIDs share a few).
  std::unordered_map<uint32_t, uint32_t> plain_column_;  // candidate bytes | routed << 31 -> column
  std::vector<uint32_t> plain_port_;                     // the same for {port, priority 0, no escape}
  KeyIndex by_key_;                                      // column_key -> column
  std::vector<uint32_t> memo_;                           // local_key -> column, at the current switch
  std::string key_;
  std::vector<char> host_lid_;
  std::vector<Lid> lid_of_;         // read once per switch: flat
  std::vector<size_t> other_lids_;  // the LIDs of no host (LID 0, the switches'), ascending
};

VlTableBuilder::VlTableBuilder(const Topology& t, const VlRules& r) : t_(t), r_(r) {
  if (r.vls < 1 || r.vls > kMaxDataVls)
    throw RoutingError(r.name + ": " + std::to_string(r.vls) + " VLs, outside 1.." + std::to_string(kMaxDataVls));
  if (r.classes < 1) throw RoutingError(r.name + ": " + std::to_string(r.classes) + " destination classes");
  ts_.algorithm = r.name;
  ts_.vls_used = ts_.sls_used = r.vls;
  assign_lids(t, 0, ts_);
  route_switch_lids(t, SwitchGraph(t), ts_);
  by_switch_ = hosts_by_switch(t);
  pool_ = std::make_shared<VlLftPool>(r.vls);
  plain_port_.assign(256, UINT32_MAX);
  host_lid_.assign(ts_.max_lid + 1, 0);
  lid_of_.resize(t.num_hosts);
  for (int h = 0; h < t.num_hosts; ++h) lid_of_[h] = ts_.hosts[h].base_lid, host_lid_[lid_of_[h]] = 1;
  for (size_t l = 0; l < host_lid_.size(); ++l)
    if (!host_lid_[l]) other_lids_.push_back(l);
}

uint32_t VlTableBuilder::plain(const LftEntry& e) {
  uint32_t key = 0;
  if (e.candidates.size() == 1) std::memcpy(&key, &e.candidates.front(), sizeof(PortCandidate));
  const bool one_port = e.candidates.size() == 1 && e.candidates.front().priority == 0 && !e.candidates.front().escape;
  if (one_port && plain_port_[e.candidates.front().port] != UINT32_MAX) return plain_port_[e.candidates.front().port];
  if (e.candidates.size() <= 1) {
    auto it = plain_column_.find(key | (e.routed() ? 1u << 31 : 0));
    if (it != plain_column_.end()) return it->second;
  }
  pool_->begin_column();
  for (int v = 0; v < r_.vls; ++v) pool_->add_list(e.candidates.begin(), e.candidates.end());
  const uint32_t col = pool_->end_column();
  if (e.candidates.size() <= 1) plain_column_.emplace(key | (e.routed() ? 1u << 31 : 0), col);
  if (one_port) plain_port_[e.candidates.front().port] = col;
  return col;
}

// The column at switch s toward `to` (destination switch and class): one already built for
// the same lists (local key, then column key), else a new one.
uint32_t VlTableBuilder::remote_column(int s, int to) {
  uint32_t col = UINT32_MAX;
  int local = -1;
  if (r_.local_key) {
    local = r_.local_key(s, to);
    if (local < 0 || local >= r_.local_keys)
      throw std::logic_error(r_.name + ": local key " + std::to_string(local) + " out of range");
    col = memo_[local];  // a pair of this switch with the same lists, already built
  }
  uint64_t h = 0;
  if (col == UINT32_MAX && r_.column_key) {
    key_.clear();
    r_.column_key(s, to, key_);
    h = hash_bytes(key_.data(), key_.size());
    col = by_key_.find(key_, h);  // the same lists as a pair already built: the same column
  }
  if (col == UINT32_MAX) {
    pool_->begin_column();
    for (int v = 0; v < r_.vls; ++v) {
      c_.clear();
      r_.candidates(s, v, to, c_);
      pool_->add_list(c_.data(), c_.data() + c_.size());
    }
    col = pool_->end_column();
    if (r_.column_key) by_key_.insert(key_, h, col);
  }
  if (local >= 0) memo_[local] = col;
  return col;
}

// Switch s's column per LID: plain entries for the LIDs of no host, its own hosts' ports, and
// the rules' lists toward every other switch's hosts.
void VlTableBuilder::switch_columns(int s) {
  SwitchTables& st = ts_.switches[s];
  st.vl_column.assign(st.lft.size(), 0);
  memo_.assign(r_.local_key ? r_.local_keys : 0, UINT32_MAX);
  for (size_t l : other_lids_)
    if (l < st.lft.size()) st.vl_column[l] = plain(st.lft[l]);
  for (size_t l = host_lid_.size(); l < st.lft.size(); ++l) st.vl_column[l] = plain(st.lft[l]);
  for (int d = 0; d < t_.num_switches; ++d) {
    const std::vector<int>& hosts = by_switch_[d];
    if (hosts.empty()) continue;
    if (d == s) {
      for (int h : hosts) {
        const PortCandidate local{static_cast<PortNum>(t_.host_switch_port(h)), 0, false};
        pool_->begin_column();
        for (int v = 0; v < r_.vls; ++v) pool_->add_list(&local, &local + 1);
        st.vl_column[lid_of_[h]] = pool_->end_column();
      }
      continue;
    }
    const int classes = std::min<int>(r_.classes, static_cast<int>(hosts.size()));
    for (int cls = 0; cls < classes; ++cls) {
      const uint32_t col = remote_column(s, d + t_.num_switches * cls);
      for (size_t i = cls; i < hosts.size(); i += r_.classes) st.vl_column[lid_of_[hosts[i]]] = col;
    }
  }
  st.vl_pool = pool_;
}

// The plain LFT (read by tools that know one LFT, e.g. exports): each DLID's first candidate
// on the highest input VL.
void VlTableBuilder::plain_lft(int s) {
  SwitchTables& st = ts_.switches[s];
  uint32_t last_col = UINT32_MAX;  // hosts of one switch share a column
  LftEntry top;
  for (int h = 0; h < t_.num_hosts; ++h) {
    const Lid l = lid_of_[h];
    if (st.vl_column[l] != last_col) last_col = st.vl_column[l], top = st.route(l, static_cast<Vl>(r_.vls - 1));
    if (top.routed()) st.lft.set(l, top.candidates.front().port, top.candidates.front().priority);
  }
}

void VlTableBuilder::switch_sl2vl(int s) {
  SwitchTables& st = ts_.switches[s];
  const Node& node = t_.nodes[s];
  st.sl2vl.reset(node.num_ports, Sl2VlTable::Key::InputVl);
  for (int in = 0; in <= node.num_ports; ++in)
    for (int out = 1; out <= node.num_ports; ++out) {
      const int peer = node.ports[out].node;
      if (peer < 0) continue;
      for (int v = 0; v < r_.vls; ++v)
        st.sl2vl.set(in, out, v, peer < t_.num_switches ? r_.next_vl(s, in, out, v) : static_cast<Vl>(v));
    }
}

// One row of path records per source switch: the first VL (as SL) depends on source switch
// and destination.
void VlTableBuilder::host_records() {
  const Topology& t = t_;
  std::vector<int> host_class(t.num_hosts, 0);  // the i-th host of its switch: class i % classes
  for (const std::vector<int>& hosts : by_switch_)
    for (size_t i = 0; i < hosts.size(); ++i) host_class[hosts[i]] = static_cast<int>(i) % r_.classes;
  std::vector<int> to_of(t.num_hosts, -1);  // destination switch and class (-1: none), read once per source switch
  for (int g = 0; g < t.num_hosts; ++g)
    if (const int d = t.host_switch(g); d >= 0) to_of[g] = d + t.num_switches * host_class[g];
  for (int s = 0; s < t.num_switches; ++s) {
    if (by_switch_[s].empty()) continue;
    std::vector<PathRecord> records(t.num_hosts);
    int last_d = -1;  // consecutive hosts of one destination switch and class share the first VL
    Vl vl = 0;
    for (int g = 0; g < t.num_hosts; ++g) {
      const int to = to_of[g];
      if (to < 0) continue;
      if (to != last_d) {
        last_d = to, vl = r_.first_vl(s, to);
        if (vl >= r_.vls) throw RoutingError(r_.name + ": first VL " + std::to_string(vl) + " beyond its VLs");
      }
      records[g] = {lid_of_[g], static_cast<Sl>(vl)};
    }
    PathRow row;
    row.assign(std::move(records));
    for (int h : by_switch_[s]) {
      HostTables& ht = ts_.hosts[h];
      for (int v = 0; v < kNumSls; ++v) ht.sl2vl[v] = static_cast<Vl>(v < r_.vls ? v : 0);
      ht.paths = row;
    }
  }
}

TableSet VlTableBuilder::run() {
  for (int s = 0; s < t_.num_switches; ++s) {
    switch_columns(s);
    plain_lft(s);
    switch_sl2vl(s);
  }
  pool_->finish();
  host_records();
  return std::move(ts_);
}

}  // namespace

TableSet build_vl_tables(const Topology& t, const VlRules& r) { return VlTableBuilder(t, r).run(); }

}  // namespace ibsc::routing
