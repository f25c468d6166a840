#include "routing/destination_groups.h"

#include <algorithm>
#include <map>

namespace ibsc::routing {
namespace {

bool same_candidates(const LftEntry& a, const LftEntry& b) {
  const auto x = a.candidates, y = b.candidates;
  if (x.size() != y.size()) return false;
  if (x.begin() == y.begin()) return true;  // shared storage (Lft::share, the VL pool)
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i].port != y[i].port || x[i].priority != y[i].priority || x[i].escape != y[i].escape) return false;
  return true;
}

}  // namespace

std::vector<int> destination_groups(const Topology& t, const TableSet& ts) {
  const int H = t.num_hosts, S = t.num_switches;
  std::vector<int> rep(H);
  for (int q = 0; q < H; ++q) rep[q] = q;
  if (static_cast<int>(ts.hosts.size()) != H || static_cast<int>(ts.switches.size()) != S) return rep;
  // Candidates: hosts on one switch with LMC 0, in host order; the first is the group's walk.
  std::vector<int> first_on(S, -1);
  for (int q = 0; q < H; ++q) {
    const int d = t.host_switch(q);
    if (d < 0 || d >= S || ts.hosts[q].lmc != 0) continue;
    if (first_on[d] < 0) first_on[d] = q;
    rep[q] = first_on[d];
  }
  // The representative's walks end at its switch.
  for (int d = 0; d < S; ++d) {
    const int q0 = first_on[d];
    if (q0 < 0) continue;
    const SwitchTables& st = ts.switches[d];
    const int vls = std::max(1, st.per_vl_copies());
    bool ends = true;
    for (int v = 0; v < vls && ends; ++v)
      for (const PortCandidate& c : st.route(ts.hosts[q0].base_lid, static_cast<Vl>(v)).candidates)
        ends = ends && c.port >= 1 && c.port <= t.nodes[d].num_ports && t.nodes[d].ports[c.port].node >= S;
    if (!ends) first_on[d] = -1;
  }
  auto leave = [&](int q) { rep[q] = q; };
  for (int q = 0; q < H; ++q)
    if (rep[q] != q && first_on[t.host_switch(q)] != rep[q]) leave(q);
  // Every other switch: the same candidates on every input VL. The hosts still in a group and
  // their LIDs first, in arrays: the loop below reads them once per switch.
  struct Member {
    int q, d;
    Lid a, b;  // q's LID, its group's
  };
  std::vector<Member> members;
  for (int q = 0; q < H; ++q)
    if (rep[q] != q) members.push_back({q, t.host_switch(q), ts.hosts[q].base_lid, ts.hosts[rep[q]].base_lid});
  for (int s = 0; s < S; ++s) {
    const SwitchTables& st = ts.switches[s];
    const int vls = std::max(1, st.per_vl_copies());
    const uint32_t* col = st.vl_pool ? st.vl_column.data() : nullptr;
    const size_t cols = st.vl_pool ? st.vl_column.size() : 0;
    for (const Member& x : members) {
      if (rep[x.q] == x.q || x.d == s) continue;
      if (col && x.a < cols && x.b < cols && col[x.a] == col[x.b]) continue;  // one column: the same lists on every VL
      for (int v = 0; v < vls; ++v)
        if (!same_candidates(st.route(x.a, static_cast<Vl>(v)), st.route(x.b, static_cast<Vl>(v)))) {
          leave(x.q);
          break;
        }
    }
  }
  // Path records, once per distinct row (shared rows hide only their own host: up to three
  // hosts of a row give a view that shows both q and q0).
  std::map<const void*, std::vector<int>> rows;
  for (int h = 0; h < H; ++h) {
    auto& v = rows[ts.hosts[h].paths.identity()];
    if (v.size() < 3) v.push_back(h);
  }
  for (const auto& [id, hs] : rows)
    for (const Member& x : members) {
      const int q = x.q, q0 = rep[q];
      if (q0 == q) continue;
      int h = -1;
      for (int y : hs)
        if (y != q && y != q0) h = y;
      if (h < 0) continue;  // a row of q and q0 alone: sources on their switch, walked pair by pair
      const PathRow& row = ts.hosts[h].paths;
      if (row.size() != static_cast<size_t>(H)) {
        leave(q);
        continue;
      }
      const auto a = row[q], b = row[q0];
      bool same = a.size() == b.size();
      for (size_t i = 0; same && i < a.size(); ++i) same = a[i].sl == b[i].sl && a[i].dlid == x.a && b[i].dlid == x.b;
      if (!same) leave(q);
    }
  return rep;
}

}  // namespace ibsc::routing
