#include "routing/tftr_search.h"

#include <algorithm>

namespace ibsc::routing {

std::vector<int> transition_vls(const SwitchGraph& g, const Orientation& o, const std::vector<int>& chans) {
  std::vector<int> vls(chans.size(), 0);
  for (size_t i = 1; i < chans.size(); ++i) vls[i] = vls[i - 1] + (o.forbidden(g, chans[i - 1], chans[i]) ? 1 : 0);
  return vls;
}

int count_transitions(const SwitchGraph& g, const Orientation& o, const std::vector<int>& chans) {
  int n = 0;
  for (size_t i = 1; i < chans.size(); ++i) n += o.forbidden(g, chans[i - 1], chans[i]) ? 1 : 0;
  return n;
}

SlMap::SlMap(const SwitchGraph& g, int max_port, int transitions)
    : side_(max_port + 2),
      transitions_(transitions),
      vl_(static_cast<size_t>(g.n) * side_ * side_, -1),
      users_(vl_.size(), 0) {}

// Every switch a path passes, as (switch, input port, output port) and the VL of the output:
// the source switch takes the packet from a host, the destination switch hands it to one; the
// ejection VL is the VL the packet arrived on (the host link carries no dependency).
std::vector<SlMap::Hop> SlMap::hops(const SwitchGraph& g, const std::vector<int>& chans,
                                    const std::vector<int>& vls) const {
  std::vector<Hop> h;
  if (chans.empty()) return h;
  const int host = host_side();
  h.reserve(chans.size() + 1);
  h.push_back({index(g.channels[chans[0]].from, host, g.channels[chans[0]].port), vls[0]});
  for (size_t i = 1; i < chans.size(); ++i)
    h.push_back(
        {index(g.channels[chans[i]].from, g.channels[chans[i - 1]].to_port, g.channels[chans[i]].port), vls[i]});
  const Channel& last = g.channels[chans.back()];
  h.push_back({index(last.to, last.to_port, host), vls.back()});
  return h;
}

bool SlMap::fits(const SwitchGraph& g, const std::vector<int>& chans, const std::vector<int>& vls) const {
  for (const Hop& h : hops(g, chans, vls))
    if (vl_[h.entry] >= 0 && vl_[h.entry] != h.vl) return false;
  return true;
}

void SlMap::assign(const SwitchGraph& g, const std::vector<int>& chans, const std::vector<int>& vls) {
  for (const Hop& h : hops(g, chans, vls)) {
    vl_[h.entry] = static_cast<int8_t>(h.vl);
    ++users_[h.entry];
  }
}

void SlMap::release(const SwitchGraph& g, const std::vector<int>& chans, const std::vector<int>& vls) {
  for (const Hop& h : hops(g, chans, vls))
    if (users_[h.entry] > 0 && --users_[h.entry] == 0) vl_[h.entry] = -1;
}

void block_path(const SwitchGraph& g, const std::vector<int>& chans, PathSearch& ps) {
  if (ps.blocked_switch.size() != static_cast<size_t>(g.n)) ps.blocked_switch.assign(g.n, 0);
  if (ps.blocked_cable.size() != g.channels.size()) ps.blocked_cable.assign(g.channels.size(), 0);
  for (size_t i = 0; i < chans.size(); ++i) {
    ps.blocked_cable[chans[i]] = ps.blocked_cable[g.reverse[chans[i]]] = 1;
    if (i + 1 < chans.size()) ps.blocked_switch[g.channels[chans[i]].to] = 1;
  }
}

std::vector<int> search_path(const SwitchGraph& g, const Orientation& o, const PathSearch& ps) {
  const int V = ps.max_vl + 1;
  const size_t states = g.channels.size() * V;
  std::vector<int> parent(states, -2);  // -2: unvisited, -1: start
  std::vector<int> queue;
  const int host = ps.sl ? ps.sl->host_side() : 0;
  auto entry_ok = [&](int sw, int in, int out, int vl) {
    if (!ps.sl) return true;
    const int have = ps.sl->get(sw, in, out);
    return have < 0 || have == vl;
  };
  auto blocked = [&](int c) {
    if (!ps.blocked_cable.empty() && ps.blocked_cable[c]) return true;
    const int y = g.channels[c].to;
    if (y == ps.s) return true;
    return y != ps.d && !ps.blocked_switch.empty() && ps.blocked_switch[y];
  };
  auto rebuild = [&](int state) {
    std::vector<int> p;
    for (int st = state; st >= 0; st = parent[st]) p.push_back(st / V);
    std::reverse(p.begin(), p.end());
    return p;
  };
  // Whether switch y is already on the chain that ends in `state` (the path must stay simple).
  auto on_chain = [&](int state, int y) {
    for (int st = state; st >= 0; st = parent[st])
      if (g.channels[st / V].from == y) return true;
    return false;
  };
  auto arrive = [&](int c, int vl) {  // the destination accepts the packet on this VL?
    const Channel& ch = g.channels[c];
    return ch.to == ps.d && entry_ok(ps.d, ch.to_port, host, vl);
  };
  for (int c : g.out[ps.s]) {
    if ((ps.first >= 0 && c != ps.first) || blocked(c) || !entry_ok(ps.s, host, g.channels[c].port, 0)) continue;
    const int st = c * V;
    if (parent[st] != -2) continue;
    parent[st] = -1;
    if (g.channels[c].to == ps.d) {
      if (arrive(c, 0)) return {c};
      continue;
    }
    queue.push_back(st);
  }
  std::vector<int> hops_of(states, 0);
  for (int st : queue) hops_of[st] = 1;
  for (size_t qi = 0; qi < queue.size(); ++qi) {
    const int st = queue[qi];
    const int c = st / V, vl = st % V;
    if (hops_of[st] >= ps.max_hops) continue;
    const Channel& ch = g.channels[c];
    for (int c2 : g.out[ch.to]) {
      if (c2 == g.reverse[c] || blocked(c2)) continue;
      const int vl2 = vl + (o.forbidden(g, c, c2) ? 1 : 0);
      if (vl2 > ps.max_vl || !entry_ok(ch.to, ch.to_port, g.channels[c2].port, vl2)) continue;
      const int st2 = c2 * V + vl2;
      if (parent[st2] != -2) continue;
      const int y = g.channels[c2].to;
      if (on_chain(st, y)) continue;
      if (y == ps.d) {
        if (!arrive(c2, vl2)) continue;
        parent[st2] = st;
        return rebuild(st2);
      }
      parent[st2] = st;
      hops_of[st2] = hops_of[st] + 1;
      queue.push_back(st2);
    }
  }
  return {};
}

}  // namespace ibsc::routing
