// The switch's LFT as its hot path reads it (switch.h, routes_): the compact per-VL tables of
// routing/vl_lft.h read in place, or the LFT (or its per-input-VL copies) flattened into one
// array. Construction only; split from switch.cpp, which wires the parts and moves packets.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "models/switch.h"

namespace ibsc::models {

// Compact per-VL tables are read in place when every port they name here has a cable (else
// the flat copy below, whose entries naming an uncabled port stay empty). The switch's own
// LID (port 0, the management port) is the exception: it reads an empty entry, LID 0's.
// A column is tested against the switch's cabled ports as one mask. When no column of the
// whole pool names a port outside the mask (the common case: every switch of a fabric cabled
// alike), its DLIDs need no look: the answer is kept per (pool, mask), since a walk of each
// switch's columns took 0.7 CPU s at 16,384 hosts with Distance+4.
bool Switch::shared_routes(const routing::SwitchTables& tables) {
  using PortSet = routing::VlLftPool::PortSet;
  const routing::VlLftPool& pool = *tables.vl_pool;
  PortSet mask{};
  for (int port = 1; port <= num_ports() && port < 256; ++port)
    if (connected(port)) mask[port / 64] |= uint64_t{1} << (port % 64);
  auto cabled = [&](uint32_t column) {
    const PortSet& m = pool.ports_named(column);
    return ((m[0] & ~mask[0]) | (m[1] & ~mask[1]) | (m[2] & ~mask[2]) | (m[3] & ~mask[3])) == 0;
  };
  // Weakly held: a pool freed and another made at its address is not taken for it.
  static std::weak_ptr<const routing::VlLftPool> last_pool;
  static PortSet last_mask{};
  static bool last_all = false;
  if (last_pool.lock() != tables.vl_pool || last_mask != mask) {
    last_all = true;
    for (uint32_t c = 0; c < pool.columns() && last_all; ++c) last_all = cabled(c);
    last_pool = tables.vl_pool;
    last_mask = mask;
  }
  if (!last_all)
    for (size_t d = 0; d < tables.vl_column.size(); ++d)
      if (d != tables.lid && !cabled(tables.vl_column[d])) return false;
  own_lid_ = kNoLid;
  if (tables.lid < tables.vl_column.size() && !cabled(tables.vl_column[tables.lid])) {
    if (tables.vl_column.empty() || pool.ports_named(tables.vl_column[0]) != PortSet{}) return false;
    own_lid_ = tables.lid;
    empty_route_ = tables.vl_column[0] * static_cast<uint32_t>(pool.vls());
  }
  lids_ = tables.vl_column.size();
  column_ = tables.vl_column.data();
  pool_vls_ = pool.vls();
  routes_ = pool.slots();
  route_begin_ = pool.more_at();
  cand_ = pool.cands();
  return true;
}

// One LFT (no per-input-VL copies) is read in place when every entry names cabled ports only,
// as the flat copy below would hold the same 4-byte slots: 16,384 hosts, 2,048 switches, a
// 150 MB copy and 0.4 CPU s of building less. The switch's own LID (port 0, the management
// port) is the exception allowed: route_index() refuses it, as the copy's empty entry would.
bool Switch::lft_in_place(const routing::SwitchTables& tables) {
  const routing::Lft& lft = tables.lft;
  const int n = num_ports();
  bool ok_port[256] = {};
  for (int port = 1; port <= n && port < 256; ++port) ok_port[port] = connected(port);
  const routing::Lft::Slot* slot = lft.slot_data();
  const uint32_t* more_at = lft.more_at_data();
  const routing::PortCandidate* more = lft.more_data();
  bool own_refused = false;
  for (size_t d = 0; d < lft.size(); ++d) {
    const routing::Lft::Slot& s = slot[d];
    bool ok = s.count == 0 || (s.count == 1 && ok_port[s.first.port]);
    if (s.count > 1) {
      ok = true;
      for (const routing::PortCandidate* c = more + more_at[d]; c != more + more_at[d] + s.count; ++c)
        ok &= ok_port[c->port];
    }
    if (ok) continue;
    if (d != tables.lid) return false;
    own_refused = true;
  }
  own_lid_ = own_refused ? tables.lid : kNoLid;
  lids_ = lft.size();
  routes_ = slot;
  route_begin_ = more_at;
  cand_ = more;
  return true;
}

// Flatten the LFT (or its per-input-VL copies) into one contiguous array.
void Switch::flatten_routes(const routing::SwitchTables& tables) {
  const int n = num_ports();
  lids_ = tables.lft.size();
  for (const auto& t : tables.lft_per_input_vl) lids_ = std::max(lids_, t.size());
  const int copies = per_vl_lft_ ? p_.num_vls : 1;
  std::vector<Route> routes;
  routes.reserve(lids_ * copies);
  // Offsets and candidates only when some entry has several (adaptive routing): the entry's
  // inline first candidate serves the rest (16,384 hosts, deterministic: 230 MB less).
  bool several = false;
  // Input VLs beyond the tables' copies have no routes (a packet there is refused).
  static const routing::Lft kNoLft;
  std::vector<routing::Lft> expanded;  // compact tables naming an uncabled port: flat after all
  if (tables.vl_pool) {
    routing::SwitchTables copy;
    copy.vl_column = tables.vl_column;
    copy.vl_pool = tables.vl_pool;
    copy.expand_per_vl();
    expanded = std::move(copy.lft_per_input_vl);
    for (const auto& t : expanded) lids_ = std::max(lids_, t.size());
  }
  const std::vector<routing::Lft>& per_vl = tables.vl_pool ? expanded : tables.lft_per_input_vl;
  auto lft_of = [&](int v) -> const routing::Lft& {
    if (!per_vl_lft_) return tables.lft;
    return v < static_cast<int>(per_vl.size()) ? per_vl[v] : kNoLft;
  };
  for (int v = 0; v < copies; ++v) several |= !lft_of(v).single();
  if (several) own_route_begin_.reserve(lids_ * copies);
  for (int v = 0; v < copies; ++v) {
    const routing::Lft& lft = lft_of(v);
    const routing::PortCandidate* last_list = nullptr;  // entries sharing a list (Lft::share) share it here too
    uint32_t last_at = 0;
    for (size_t d = 0; d < lids_; ++d) {
      Route r;
      uint32_t at = static_cast<uint32_t>(own_cand_.size());
      // An entry naming a port without a cable stays empty here, so that arrival checks one
      // count; refuse_route() reads the tables again for the message.
      if (d < lft.size()) {
        const auto& cands = lft[d].candidates;
        if (cands.size() > 0xFF)
          throw std::invalid_argument(std::string(sc_module::name()) + ": LFT entry with over 255 candidates");
        if (std::all_of(
                cands.begin(), cands.end(),
                [&](const routing::PortCandidate& c) { return c.port >= 1 && c.port <= n && connected(c.port); }) &&
            !cands.empty()) {
          if (several && cands.size() > 1 && cands.begin() == last_list) {
            at = last_at;
          } else if (several) {
            own_cand_.insert(own_cand_.end(), cands.begin(), cands.end());
            if (cands.size() > 1) last_list = cands.begin(), last_at = at;
          }
          r.count = static_cast<uint8_t>(cands.size());
          r.first = cands.front();
        }
      }
      if (several) own_route_begin_.push_back(at);
      routes.push_back(r);
    }
  }
  own_routes_.reset(new Route[routes.size()]());
  std::copy(routes.begin(), routes.end(), own_routes_.get());
  routes_ = own_routes_.get();
  route_begin_ = own_route_begin_.data();
  cand_ = own_cand_.data();
}

}  // namespace ibsc::models
