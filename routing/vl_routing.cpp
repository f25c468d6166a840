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

TableSet build_vl_tables(const Topology& t, const VlRules& r) {
  if (r.vls < 1 || r.vls > kMaxDataVls)
    throw RoutingError(r.name + ": " + std::to_string(r.vls) + " VLs, outside 1.." + std::to_string(kMaxDataVls));
  if (r.classes < 1) throw RoutingError(r.name + ": " + std::to_string(r.classes) + " destination classes");
  TableSet ts;
  ts.algorithm = r.name;
  ts.vls_used = ts.sls_used = r.vls;
  assign_lids(t, 0, ts);
  route_switch_lids(t, SwitchGraph(t), ts);
  const auto by_switch = hosts_by_switch(t);
  // The per-VL LFTs go straight into the fabric-wide pool (vl_lft.h): a column per remote
  // destination switch (shared by its hosts), one per local host, and the plain entry on
  // every VL for the other LIDs (the switch LIDs).
  auto pool = std::make_shared<VlLftPool>(r.vls);
  std::vector<PortCandidate> c;
  // Plain entries of one candidate or none -> their column (most switch LIDs share a few).
  std::unordered_map<uint32_t, uint32_t> plain_column;  // candidate bytes | routed << 31 -> column
  std::vector<uint32_t> plain_port(256, UINT32_MAX);    // the same for {port, priority 0, no escape}
  auto plain = [&](const LftEntry& e) {
    uint32_t key = 0;
    if (e.candidates.size() == 1) std::memcpy(&key, &e.candidates.front(), sizeof(PortCandidate));
    const bool one_port =
        e.candidates.size() == 1 && e.candidates.front().priority == 0 && !e.candidates.front().escape;
    if (one_port && plain_port[e.candidates.front().port] != UINT32_MAX) return plain_port[e.candidates.front().port];
    if (e.candidates.size() <= 1) {
      auto it = plain_column.find(key | (e.routed() ? 1u << 31 : 0));
      if (it != plain_column.end()) return it->second;
    }
    pool->begin_column();
    for (int v = 0; v < r.vls; ++v) pool->add_list(e.candidates.begin(), e.candidates.end());
    const uint32_t col = pool->end_column();
    if (e.candidates.size() <= 1) plain_column.emplace(key | (e.routed() ? 1u << 31 : 0), col);
    if (one_port) plain_port[e.candidates.front().port] = col;
    return col;
  };
  KeyIndex by_key;             // column_key -> column
  std::vector<uint32_t> memo;  // local_key -> column, at the current switch
  std::string key;
  std::vector<char> host_lid(ts.max_lid + 1, 0);
  std::vector<Lid> lid_of(t.num_hosts);  // read once per switch: flat
  for (int h = 0; h < t.num_hosts; ++h) lid_of[h] = ts.hosts[h].base_lid, host_lid[lid_of[h]] = 1;
  std::vector<size_t> other_lids;  // the LIDs of no host (LID 0, the switches'), ascending
  for (size_t l = 0; l < host_lid.size(); ++l)
    if (!host_lid[l]) other_lids.push_back(l);
  for (int s = 0; s < t.num_switches; ++s) {
    SwitchTables& st = ts.switches[s];
    const Node& node = t.nodes[s];
    st.vl_column.assign(st.lft.size(), 0);
    memo.assign(r.local_key ? r.local_keys : 0, UINT32_MAX);
    for (size_t l : other_lids)
      if (l < st.lft.size()) st.vl_column[l] = plain(st.lft[l]);
    for (size_t l = host_lid.size(); l < st.lft.size(); ++l) st.vl_column[l] = plain(st.lft[l]);
    for (int d = 0; d < t.num_switches; ++d) {
      const std::vector<int>& hosts = by_switch[d];
      if (hosts.empty()) continue;
      if (d == s) {
        for (int h : hosts) {
          const PortCandidate local{static_cast<PortNum>(t.host_switch_port(h)), 0, false};
          pool->begin_column();
          for (int v = 0; v < r.vls; ++v) pool->add_list(&local, &local + 1);
          st.vl_column[lid_of[h]] = pool->end_column();
        }
        continue;
      }
      const int classes = std::min<int>(r.classes, static_cast<int>(hosts.size()));
      for (int cls = 0; cls < classes; ++cls) {
        const int to = d + t.num_switches * cls;
        uint32_t col = UINT32_MAX;
        int local = -1;
        if (r.local_key) {
          local = r.local_key(s, to);
          if (local < 0 || local >= r.local_keys)
            throw std::logic_error(r.name + ": local key " + std::to_string(local) + " out of range");
          col = memo[local];  // a pair of this switch with the same lists, already built
        }
        uint64_t h = 0;
        if (col == UINT32_MAX && r.column_key) {
          key.clear();
          r.column_key(s, to, key);
          h = hash_bytes(key.data(), key.size());
          col = by_key.find(key, h);  // the same lists as a pair already built: the same column
        }
        if (col == UINT32_MAX) {
          pool->begin_column();
          for (int v = 0; v < r.vls; ++v) {
            c.clear();
            r.candidates(s, v, to, c);
            pool->add_list(c.data(), c.data() + c.size());
          }
          col = pool->end_column();
          if (r.column_key) by_key.insert(key, h, col);
        }
        if (local >= 0) memo[local] = col;
        for (size_t i = cls; i < hosts.size(); i += r.classes) st.vl_column[lid_of[hosts[i]]] = col;
      }
    }
    st.vl_pool = pool;
    // The plain LFT (read by tools that know one LFT, e.g. exports): each DLID's first
    // candidate on the highest input VL.
    uint32_t last_col = UINT32_MAX;  // hosts of one switch share a column
    LftEntry top;
    for (int h = 0; h < t.num_hosts; ++h) {
      const Lid l = lid_of[h];
      if (st.vl_column[l] != last_col) last_col = st.vl_column[l], top = st.route(l, static_cast<Vl>(r.vls - 1));
      if (top.routed()) st.lft.set(l, top.candidates.front().port, top.candidates.front().priority);
    }
    st.sl2vl.reset(node.num_ports, Sl2VlTable::Key::InputVl);
    for (int in = 0; in <= node.num_ports; ++in)
      for (int out = 1; out <= node.num_ports; ++out) {
        const int peer = node.ports[out].node;
        if (peer < 0) continue;
        for (int v = 0; v < r.vls; ++v)
          st.sl2vl.set(in, out, v, peer < t.num_switches ? r.next_vl(s, in, out, v) : static_cast<Vl>(v));
      }
  }
  pool->finish();
  std::vector<int> host_class(t.num_hosts, 0);  // the i-th host of its switch: class i % classes
  for (const std::vector<int>& hosts : by_switch)
    for (size_t i = 0; i < hosts.size(); ++i) host_class[hosts[i]] = static_cast<int>(i) % r.classes;
  std::vector<int> to_of(t.num_hosts, -1);  // destination switch and class (-1: none), read once per source switch
  for (int g = 0; g < t.num_hosts; ++g)
    if (const int d = t.host_switch(g); d >= 0) to_of[g] = d + t.num_switches * host_class[g];
  for (int s = 0; s < t.num_switches; ++s) {
    if (by_switch[s].empty()) continue;
    // One row per source switch: the first VL depends on source switch and destination.
    std::vector<PathRecord> records(t.num_hosts);
    int last_d = -1;  // consecutive hosts of one destination switch and class share the first VL
    Vl vl = 0;
    for (int g = 0; g < t.num_hosts; ++g) {
      const int to = to_of[g];
      if (to < 0) continue;
      if (to != last_d) {
        last_d = to, vl = r.first_vl(s, to);
        if (vl >= r.vls) throw RoutingError(r.name + ": first VL " + std::to_string(vl) + " beyond its VLs");
      }
      records[g] = {lid_of[g], static_cast<Sl>(vl)};
    }
    PathRow row;
    row.assign(std::move(records));
    for (int h : by_switch[s]) {
      HostTables& ht = ts.hosts[h];
      for (int v = 0; v < kNumSls; ++v) ht.sl2vl[v] = static_cast<Vl>(v < r.vls ? v : 0);
      ht.paths = row;
    }
  }
  return ts;
}

}  // namespace ibsc::routing
