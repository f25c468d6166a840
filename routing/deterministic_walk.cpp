#include "routing/deterministic_walk.h"

#include <algorithm>
#include <map>

namespace ibsc::routing {
namespace {

// The VL a switch gives a packet leaving by `out`, read as the walk of a pair reads it (VL 0
// from a table too small for the ports).
int out_vl(const Sl2VlTable& tab, int in_port, int out, int sl, int vl) {
  const int key = tab.key() == Sl2VlTable::Key::Sl ? sl : vl;
  return tab.num_ports() >= std::max(out, in_port) ? tab.get(in_port, out, key) & 15 : 0;
}

bool cabled(const Node& node, int out) { return out >= 1 && out <= node.num_ports && node.ports[out].node >= 0; }

// A host's entry that differs from its group's first host's at switch `sw`, both leading
// straight to their switch D by parallel cables.
struct Diff {
  int host, sw;
  PortNum out;
};

struct Group {
  int first = -1;           // the host whose LID the walks follow
  std::vector<int> hosts;   // in host order, `first` included
  std::vector<Diff> diffs;  // by host
};

// [switch] -> its hosts by group: equal entries at every other switch, or (near: LMC 0) entries
// that differ only at switches next to D, both on cables to D (DOR spreads the hosts of a
// switch over parallel cables: 2 groups per switch instead of 1 otherwise).
std::vector<std::vector<Group>> groups_by_switch(const Topology& t, const TableSet& ts, const DenseLft& dense,
                                                 bool near) {
  const int S = t.num_switches;
  std::vector<std::vector<Group>> by(S);
  auto column = [&](int q, int k) { return &dense.port[static_cast<size_t>(ts.hosts[q].base_lid + k) * S]; };
  auto to = [&](int n, int out, int D) {
    return out >= 1 && out <= t.nodes[n].num_ports && t.nodes[n].ports[out].node == D;
  };
  std::vector<Diff> diffs;
  for (int q = 0; q < t.num_hosts; ++q) {
    const int D = t.host_switch(q);
    auto same = [&](const Group& g) {
      diffs.clear();
      if (ts.hosts[g.first].lmc != ts.hosts[q].lmc) return false;
      for (int k = 0; k < 1 << ts.hosts[q].lmc; ++k) {
        const PortNum *a = column(q, k), *b = column(g.first, k);
        for (const PortNum* x = a; (x = std::mismatch(x, a + S, b + (x - a)).first) != a + S; ++x) {
          const int n = static_cast<int>(x - a);
          if (n == D) continue;
          if (!near || ts.hosts[q].lmc != 0 || !to(n, *x, D) || !to(n, b[n], D)) return false;
          diffs.push_back({q, n, *x});
        }
      }
      return true;
    };
    auto g = std::find_if(by[D].begin(), by[D].end(), same);
    if (g != by[D].end()) {
      g->hosts.push_back(q);
      g->diffs.insert(g->diffs.end(), diffs.begin(), diffs.end());
    } else {
      by[D].push_back({q, {q}, {}});
    }
  }
  return by;
}

// Takes out of its group (into one of its own) each host whose records differ from the first
// host's in a row that a class on another switch reads.
void split_by_records(const Topology& t, const TableSet& ts, const PairClasses& classes,
                      std::vector<std::vector<Group>>& by) {
  std::map<const void*, std::pair<const PathRow*, int>> rows;  // identity -> (row, its one switch or -1)
  for (const PairClass& c : classes.list) {
    const PathRow& row = ts.hosts[c.hosts.front()].paths;
    auto it = rows.emplace(row.identity(), std::make_pair(&row, c.sw)).first;
    if (it->second.second != c.sw) it->second.second = -1;
  }
  std::vector<char> leave(t.num_hosts, 0);
  for (const auto& [id, r] : rows)
    for (int D = 0; D < t.num_switches; ++D) {
      if (r.second == D) continue;  // read only by sources on D: their pairs are walked host by host
      for (const Group& g : by[D]) {
        const Span<PathRecord> b = (*r.first)[g.first];
        const int lid0 = ts.hosts[g.first].base_lid, lids = 1 << ts.hosts[g.first].lmc;
        for (size_t i = 1; i < g.hosts.size(); ++i) {
          const int q = g.hosts[i];
          const Span<PathRecord> a = (*r.first)[q];
          bool same = a.size() == b.size();
          for (size_t k = 0; same && k < a.size(); ++k) {
            const int offset = b[k].dlid - lid0;  // the same LID of each host
            same = a[k].sl == b[k].sl && a[k].dlid - ts.hosts[q].base_lid == offset && offset >= 0 && offset < lids;
          }
          if (!same) leave[q] = 1;
        }
      }
    }
  for (std::vector<Group>& gs : by) {
    const size_t n = gs.size();
    for (size_t i = 0; i < n; ++i) {
      const std::vector<int> hosts = std::move(gs[i].hosts);
      gs[i].hosts.clear();
      for (int q : hosts)
        if (leave[q]) gs.push_back({q, {q}, {}});
        else gs[i].hosts.push_back(q);
      auto& d = gs[i].diffs;
      d.erase(std::remove_if(d.begin(), d.end(), [&](const Diff& x) { return leave[x.host]; }), d.end());
    }
  }
}

}  // namespace

bool walk_deterministic_by_switch(const Topology& t, const TableSet& ts, const DenseLft& dense, PairClasses& classes,
                                  std::vector<SwitchDeps>& deps, WalkSeen& seen, CheckReport& rep) {
  const int S = t.num_switches, H = t.num_hosts;
  for (const HostTables& h : ts.hosts)
    if (h.base_lid == 0 || h.lmc > 7 || h.base_lid + (1 << h.lmc) - 1 > ts.max_lid) return false;
  const int V = std::clamp(ts.vls_used, 1, kDepVls);  // a walk above them: the pair walk, which names it
  std::vector<std::vector<Group>> groups = groups_by_switch(t, ts, dense, V == 1);
  split_by_records(t, ts, classes, groups);
  std::vector<std::vector<int>> classes_on(S);
  for (const PairClass& c : classes.list) classes_on[c.sw].push_back(c.id);
  // The walks' states: a packet entering a switch from another switch (one per cable end,
  // numbered by the switch it left, so that a pass over switches reads them in order) on a VL
  // below the declared ones. enter[port_base[n] + out]: the state a packet leaving switch n by
  // `out` enters, or kToHost, kNoCable.
  std::vector<size_t> port_base(S + 1, 0);
  for (int s = 0; s < S; ++s) port_base[s + 1] = port_base[s] + t.nodes[s].num_ports + 1;
  constexpr int32_t kToHost = -1, kNoCable = -2;
  std::vector<int32_t> enter(port_base[S], kNoCable);
  std::vector<int32_t> state_port;  // [state]: the input port
  std::vector<int32_t> state_node;  // [state]: the switch entered
  for (int n = 0; n < S; ++n)
    for (int p = 1; p <= t.nodes[n].num_ports; ++p) {
      const PortPeer& to = t.nodes[n].ports[p];
      if (to.node < 0) continue;
      if (to.node >= S) {
        enter[port_base[n] + p] = kToHost;  // a host's cable end is no state: hosts only inject
        continue;
      }
      enter[port_base[n] + p] = static_cast<int32_t>(state_port.size());
      state_port.push_back(to.port);
      state_node.push_back(to.node);
    }
  // Per state and VL: the switches from there to D, D included, valid while `key` is the
  // walk's (group, LID and, where an SL2VL reads it, SL in the low 4 bits); and the last
  // transition taken from it (output port and VL, its dependency set), which walks toward the
  // next destinations mostly take again: its SL2VL entry and dependency bits are then not
  // read again (both far apart in memory). 12 bytes, so that the walks' states stay in cache.
  constexpr uint16_t kInProgress = 0xFFFF;
  struct Memo {
    uint32_t key = 0;
    int32_t node = 0;  // the switch entered
    uint16_t len = 0;
    PortNum out = kNoPort;
    uint8_t ov = 0;
  };
  std::vector<Memo> memo(state_node.size() * V);
  for (size_t i = 0; i < memo.size(); ++i) memo[i].node = state_node[i / V];
  const bool sl_keyed = std::any_of(ts.switches.begin(), ts.switches.end(),
                                    [](const SwitchTables& st) { return st.sl2vl.key() == Sl2VlTable::Key::Sl; });
  // Per class: the output VL of its first hop by output port under SL class_sl (kUnknown: not
  // taken yet), so that a first hop taken before costs neither its SL2VL entry nor its
  // dependency bits.
  constexpr uint8_t kUnknown = 0xFF;
  size_t ports_max = 0;
  for (int s = 0; s < S; ++s) ports_max = std::max(ports_max, port_base[s + 1] - port_base[s]);
  std::vector<uint8_t> class_ov(classes.list.size() * ports_max, kUnknown), class_sl(classes.list.size(), 0);
  // The distinct path record rows the classes read (one for every DOR source): a group's
  // records are looked up once per row, not once per class.
  std::vector<const PathRow*> rows;
  std::vector<int> row_of(classes.list.size());
  {
    std::map<const void*, int> index;
    for (const PairClass& c : classes.list) {
      const PathRow& row = ts.hosts[c.hosts.front()].paths;
      const auto it = index.emplace(row.identity(), static_cast<int>(rows.size())).first;
      if (it->second == static_cast<int>(rows.size())) rows.push_back(&row);
      row_of[c.id] = it->second;
    }
  }
  std::vector<Span<PathRecord>> row_recs(rows.size());
  std::vector<int> row_sw(rows.size(), -2);  // the one switch of a row's classes, or -1
  for (const PairClass& c : classes.list) {
    int& sw = row_sw[row_of[c.id]];
    sw = sw == -2 || sw == c.sw ? c.sw : -1;
  }
  std::vector<int> hosts_on(S, 0);
  for (int q = 0; q < H; ++q) ++hosts_on[t.host_switch(q)];
  uint32_t sl_mask = 0;  // the SLs of the group's records from beyond D
  WalkSeen saw;
  long pairs = 0;
  int max_hops = 0;
  uint32_t gen = 0;
  struct Arrival {  // a state entering D
    int32_t state;
    int vl, sl;
    int from = -1;  // the switch it came from, where the group's hosts' cables may differ
  };
  // Switches where some host of the group being walked leaves by another cable (Group::diffs).
  std::vector<uint32_t> diff_key(S, 0);
  std::vector<Arrival> arrivals;
  struct First {  // a first hop of a group's walks: the state it enters, from where, on what
    int32_t state;
    int sw, ov, sl;
  };
  std::vector<First> firsts;
  // Walks on one VL under one SL (or SL2VL tables that read no SL): a state is then its cable
  // end alone, and how far a switch is from D depends on the switch alone. So a group's walks
  // are passes over switches on arrays that stay in cache: from each source switch, the
  // switches to D (marking every switch walked, with its next state and switch); then from
  // each switch walked, the transition at the switch it enters. They fail as tail() does.
  std::vector<uint32_t> sw_key(S, 0);
  std::vector<int32_t> sw_len(S, 0), next_state(S, 0), next_node(S, 0);
  std::vector<int> chain;
  // Switches from sw to D along the LID's entries (lft), or -1.
  auto distance = [&](int sw, int D, const PortNum* lft, uint32_t key) -> int {
    chain.clear();
    int n = sw, len = 0;
    while (true) {
      if (sw_key[n] == key) {
        len = sw_len[n];
        if (len < 0) return -1;  // a loop
        break;
      }
      sw_key[n] = key;
      sw_len[n] = -1;
      if (n == D) {
        len = sw_len[n] = 1;
        break;
      }
      const int out = lft[n];
      if (out < 1 || out >= static_cast<int>(port_base[n + 1] - port_base[n])) return -1;
      const int32_t next = enter[port_base[n] + out];
      if (next < 0) return -1;  // not cabled, or a host from a switch not its own
      next_state[n] = next;
      next_node[n] = state_node[next];
      chain.push_back(n);
      n = next_node[n];
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) sw_len[*it] = ++len;
    return len;
  };
  // Per state: the output ports whose transition (on VL 0, under SL state_sl) is set.
  std::vector<uint64_t> state_done(state_node.size(), 0);
  std::vector<uint8_t> state_sl(state_node.size(), 0);
  // The transition from `state` (entering switch n) by `out` on VL 0; false if it leaves on another.
  auto step = [&](int32_t state, int n, int out, int sl) {
    uint64_t& done = state_done[state];
    if (state_sl[state] != sl) done = 0, state_sl[state] = static_cast<uint8_t>(sl);
    if (out < 64 && (done >> out & 1)) return true;
    const int in_port = state_port[state];
    if (out_vl(ts.switches[n].sl2vl, in_port, out, sl, 0) != 0) return false;  // a VL above the one declared
    deps[n].set(in_port, 0, out, 0);
    if (out < 64) done |= 1ULL << out;
    return true;
  };
  const std::vector<Diff>* diffs = nullptr;  // the group's
  auto transitions = [&](int D, const PortNum* lft, int sl, uint32_t key) {
    saw.vl[0] = true;
    for (int p = 0; p < S; ++p) {
      if (sw_key[p] != key || p == D) continue;
      const int32_t state = next_state[p];
      const int n = next_node[p];
      if (n == D) {
        arrivals.push_back({state, 0, sl, p});
        continue;
      }
      if (!step(state, n, lft[n], sl)) return false;
      if (diff_key[n] == gen)
        for (const Diff& d : *diffs)
          if (d.sw == n && !step(state, n, d.out, sl)) return false;
    }
    return true;
  };
  std::vector<Memo*> path;
  // The first hop of class c by `out` under `sl`: its output VL, its dependencies for every
  // port of the class set once.
  auto first_hop = [&](PairClass& c, int out, Sl sl) -> int {
    uint8_t* known = &class_ov[c.id * ports_max];
    if (class_sl[c.id] != sl) std::fill(known, known + ports_max, kUnknown), class_sl[c.id] = sl;
    if (known[out] != kUnknown) return known[out];
    const Vl inj = ts.hosts[c.hosts.front()].sl2vl[sl];
    const int iv = inj & 15, ov = out_vl(ts.switches[c.sw].sl2vl, c.ports.front(), out, sl, iv);
    saw.sl[sl] = saw.vl[iv] = saw.vl[ov] = true;
    saw.vl15 |= inj >= kManagementVl || ov == kManagementVl;
    const size_t combo = ((static_cast<size_t>(iv) * (t.nodes[c.sw].num_ports + 1)) + out) * kDepVls + ov;
    if (!(c.seen[combo >> 6] >> (combo & 63) & 1)) {
      c.seen[combo >> 6] |= 1ULL << (combo & 63);
      for (int p : c.ports) deps[c.sw].set(p, iv, out, ov);
    }
    return known[out] = static_cast<uint8_t>(ov);
  };
  for (int D = 0; D < S; ++D)
    for (const Group& g : groups[D]) {
      if (g.hosts.empty()) continue;
      const Node& dn = t.nodes[D];
      const Sl2VlTable& dtab = ts.switches[D].sl2vl;
      auto last_hop = [&](int q, Lid dlid) {
        const int out = dense.at(dlid, D);
        return cabled(dn, out) && dn.ports[out].node == t.host_node(q) ? out : -1;
      };
      const int lids = 1 << ts.hosts[g.first].lmc;
      for (int k = 0; k < lids; ++k) {  // the walks toward each LID of the group's hosts in turn
        ++gen;
        arrivals.clear();
        const Lid lid = static_cast<Lid>(ts.hosts[g.first].base_lid + k);
        const PortNum* lft = &dense.port[static_cast<size_t>(lid) * S];  // this LID's entry at every switch
        // The walk from a state on vl: switches to D, or -1 when it fails.
        auto tail = [&](int32_t state, int vl, int sl) -> int {
          const uint32_t key = gen << 4 | (sl_keyed ? sl : 0);
          path.clear();
          int len = 0;
          while (true) {
            if (vl >= V) return -1;  // an undeclared VL
            Memo& m = memo[static_cast<size_t>(state) * V + vl];
            if (m.key == key) {
              if (m.len == kInProgress) return -1;  // a loop
              len = m.len;
              break;
            }
            const int last_sl = m.key & 15;
            m.key = key;
            m.len = kInProgress;
            const int n = m.node;
            if (n == D) {
              arrivals.push_back({state, vl, sl});
              m.len = 1, m.out = kNoPort;
              len = 1;
              break;
            }
            const int out = lft[n];
            if (out < 1 || out >= static_cast<int>(port_base[n + 1] - port_base[n])) return -1;
            const int32_t next = enter[port_base[n] + out];
            if (next < 0) return -1;  // not cabled, or a host from a switch not its own
            if (m.out != out || (sl_keyed && last_sl != sl)) {
              const int in_port = state_port[state];
              const int ov = out_vl(ts.switches[n].sl2vl, in_port, out, sl, vl);
              saw.vl[ov] = true;
              saw.vl15 |= ov == kManagementVl;
              deps[n].set(in_port, vl, out, ov);
              m.out = static_cast<PortNum>(out), m.ov = static_cast<uint8_t>(ov);
            }
            path.push_back(&m);
            state = next, vl = m.ov;
          }
          for (auto it = path.rbegin(); it != path.rend(); ++it) {
            if (++len >= kInProgress) return -1;
            (*it)->len = static_cast<uint16_t>(len);
          }
          return len;
        };
        firsts.clear();
        if (k == 0) {  // each record once: the rows that sources beyond D read
          sl_mask = 0;
          for (size_t r = 0; r < rows.size(); ++r) {
            row_recs[r] = (*rows[r])[g.first];
            if (row_sw[r] == D) continue;
            if (row_recs[r].empty()) return false;
            for (const PathRecord& rec : row_recs[r]) {
              if (rec.sl >= kNumSls || rec.dlid < ts.hosts[g.first].base_lid ||
                  rec.dlid >= ts.hosts[g.first].base_lid + lids)
                return false;
              sl_mask |= 1u << rec.sl;
            }
          }
          pairs += static_cast<long>(H - hosts_on[D]) * static_cast<long>(g.hosts.size());
        }
        const bool by_switch = V == 1 && (!sl_keyed || (sl_mask & (sl_mask - 1)) == 0);
        if (!by_switch && !g.diffs.empty()) return false;  // cables apart under several SLs: pair by pair
        diffs = &g.diffs;
        for (const Diff& d : g.diffs) diff_key[d.sw] = gen;
        const int sl0 = sl_mask ? __builtin_ctz(sl_mask) : 0;
        const uint32_t key = gen << 4 | (sl_keyed ? sl0 : 0);
        // Sources on other switches: the first hop per class (its dependencies for every port
        // of the class), the rest by distance() or tail().
        for (PairClass& c : classes.list) {
          if (c.sw == D) continue;
          for (const PathRecord& rec : row_recs[row_of[c.id]]) {
            if (rec.dlid != lid) continue;
            const int out = lft[c.sw];
            if (out < 1 || out >= static_cast<int>(port_base[c.sw + 1] - port_base[c.sw])) return false;
            const int32_t next = enter[port_base[c.sw] + out];
            if (next < 0) return false;
            const int ov = first_hop(c, out, rec.sl);
            if (!by_switch) {
              firsts.push_back({next, c.sw, ov, rec.sl});
              continue;
            }
            const int len = ov == 0 ? distance(c.sw, D, lft, key) : -1;  // else a VL above the one declared
            if (len < 0) return false;
            max_hops = std::max(max_hops, len + 1);
            if (diff_key[c.sw] == gen)  // other hosts of the group: another cable to D
              for (const Diff& d : g.diffs)
                if (d.sw == c.sw && first_hop(c, d.out, rec.sl) != 0) return false;
          }
        }
        if (by_switch && !transitions(D, lft, sl0, key)) return false;
        for (const First& f : firsts) {  // state by state
          const int len = tail(f.state, f.ov, f.sl);
          if (len < 0) return false;
          max_hops = std::max(max_hops, len + 2);
        }
        // Walks from beyond D: the last hop toward each host of the group (its LID k) from
        // every state that entered D.
        for (const Arrival& a : arrivals)
          for (int q : g.hosts) {
            const int out = last_hop(q, static_cast<Lid>(ts.hosts[q].base_lid + k));
            if (out < 0) return false;
            int32_t state = a.state;  // q's own cable into D, where it has one
            if (a.from >= 0 && diff_key[a.from] == gen)
              for (const Diff& d : g.diffs)
                if (d.host == q && d.sw == a.from) state = enter[port_base[d.sw] + d.out];
            const int in_port = state_port[state], ov = out_vl(dtab, in_port, out, a.sl, a.vl);
            saw.vl[ov] = true;
            saw.vl15 |= ov == kManagementVl;
            deps[D].set(in_port, a.vl, out, ov);
          }
      }
      // Sources on D, host by host of the group: one hop to the destination.
      for (int ci : classes_on[D]) {
        PairClass& c = classes.list[ci];
        const HostTables& src = ts.hosts[c.hosts.front()];
        for (int q : g.hosts) {
          const bool inside = classes.of[q] == c.id;
          if (c.hosts.size() == 1 && inside) continue;
          const Span<PathRecord> recs = src.paths[q];
          if (recs.empty()) return false;
          for (const PathRecord& rec : recs) {
            if (rec.sl >= kNumSls || rec.dlid < ts.hosts[q].base_lid || rec.dlid >= ts.hosts[q].base_lid + lids)
              return false;
            const int out = last_hop(q, rec.dlid);
            if (out < 0) return false;
            const Vl inj = src.sl2vl[rec.sl];
            const int iv = inj & 15, ov = out_vl(dtab, c.ports.front(), out, rec.sl, iv);
            saw.sl[rec.sl] = saw.vl[iv] = saw.vl[ov] = true;
            saw.vl15 |= inj >= kManagementVl || ov == kManagementVl;
            for (size_t i = 0; i < c.hosts.size(); ++i)
              if (c.hosts[i] != q) deps[D].set(c.ports[i], iv, out, ov);
            max_hops = std::max(max_hops, 2);
          }
          pairs += static_cast<long>(c.hosts.size()) - inside;
        }
      }
    }
  if (pairs != static_cast<long>(H) * (H - 1)) return false;
  rep.pairs = rep.routed_pairs = pairs;
  rep.max_hops = max_hops;
  seen = saw;
  return true;
}

}  // namespace ibsc::routing
