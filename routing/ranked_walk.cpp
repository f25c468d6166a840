#include "routing/ranked_walk.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <thread>

#include "routing/destination_groups.h"
#include "routing/pair_classes.h"

namespace ibsc::routing {
namespace {

constexpr int kV = kDepVls;
constexpr int kGroups = 8;  // VL2VL groups of input ports per switch (ADOR on 4 dimensions: 5)

// What every walker reads: the cabling, the input port groups and their output VLs per switch.
// Per-port arrays are indexed pbase[s] + p; per-VL ones [v * ports + pbase[s] + p], so that
// the states of one VL, visited in switch order, read them in order.
struct Prep {
  int S = 0;
  int groups = 1;             // the most groups of any switch
  size_t ports = 0;           // pbase[S]
  std::vector<int> p1;        // [s]: ports + 1
  std::vector<size_t> pbase;  // [s]: first index of s in the per-port arrays
  struct Peer {
    int32_t node = -1;
    uint8_t port = 0;
    int8_t group = -1;      // the VL2VL group of this input port at its switch (-1: not cabled)
    int8_t far_group = -1;  // the group of the far end's port at its switch
  };
  std::vector<Peer> peer;       // [pbase + p]: the far end of port p, and p's own group
  std::vector<uint64_t> gmask;  // [s * kGroups + k]: the input ports of group k
  std::vector<uint8_t> ovt;     // [(k * kV + v) * ports + pbase + p]: output VL
  // [(s * kV + v) * kGroups + k]: the output VL of every port of s toward a switch, when they
  // all give the same (Distance+k's v - 1), else kNoOvl.
  static constexpr uint8_t kNoOvl = 0xff;
  std::vector<uint8_t> uniform;
  PairClasses classes;
  std::vector<uint64_t> class_mask;  // [class]: its hosts' ports
  struct Source {                    // what a walk reads of a class, packed (class_mask beside it)
    const PathRow* row;
    int sw, group;  // the class's switch, its hosts' VL2VL group there
    Vl sl2vl[kNumSls];
  };
  std::vector<Source> sources;               // [class]
  std::vector<std::vector<int>> classes_on;  // [switch]
  std::vector<std::vector<int>> hosts_on;    // [switch]
  std::vector<int> group_of;                 // destination_groups
};

bool prepare(const Topology& t, const TableSet& ts, Prep& pr) {
  const int S = pr.S = t.num_switches;
  pr.p1.resize(S);
  pr.pbase.resize(S + 1, 0);
  for (int s = 0; s < S; ++s) {
    pr.p1[s] = t.nodes[s].num_ports + 1;
    pr.pbase[s + 1] = pr.pbase[s] + pr.p1[s];
  }
  pr.ports = pr.pbase[S];
  pr.peer.assign(pr.ports, {});
  pr.gmask.assign(static_cast<size_t>(S) * kGroups, 0);
  pr.ovt.assign(pr.ports * kGroups * kV, 0);
  for (int s = 0; s < S; ++s) {
    const Node& node = t.nodes[s];
    const Sl2VlTable& tab = ts.switches[s].sl2vl;
    const int P = node.num_ports;
    std::vector<std::string> rows;  // [group]: the VL2VL row of its first port
    for (int p = 1; p <= P; ++p) {
      Prep::Peer& x = pr.peer[pr.pbase[s] + p];
      if (node.ports[p].node < 0) continue;
      x.node = node.ports[p].node;
      x.port = static_cast<uint8_t>(node.ports[p].port);
      std::string row;
      for (int out = 1; out <= P; ++out)
        for (int v = 0; v < kV; ++v) row.push_back(static_cast<char>(tab.get(p, out, v) & 15));
      const auto k = std::find(rows.begin(), rows.end(), row) - rows.begin();
      if (k == static_cast<long>(rows.size())) {
        if (k == kGroups) return false;
        rows.push_back(row);
        for (int out = 1; out <= P; ++out)
          for (int v = 0; v < kV; ++v)
            pr.ovt[(k * kV + v) * pr.ports + pr.pbase[s] + out] = static_cast<uint8_t>(row[(out - 1) * kV + v]);
      }
      x.group = static_cast<int8_t>(k);
      pr.groups = std::max(pr.groups, static_cast<int>(k) + 1);
      pr.gmask[static_cast<size_t>(s) * kGroups + k] |= 1ULL << p;
    }
  }
  for (Prep::Peer& x : pr.peer)
    if (x.node >= 0 && x.node < S) x.far_group = pr.peer[pr.pbase[x.node] + x.port].group;
  pr.uniform.assign(static_cast<size_t>(S) * kV * kGroups, Prep::kNoOvl);
  for (int s = 0; s < S; ++s)
    for (int v = 0; v < kV; ++v)
      for (int k = 0; k < pr.groups; ++k) {
        int ov = -1;
        for (int p = 1; p < pr.p1[s] && ov != -2; ++p) {
          if (pr.peer[pr.pbase[s] + p].node < 0 || pr.peer[pr.pbase[s] + p].node >= S) continue;
          const int x = pr.ovt[(k * kV + v) * pr.ports + pr.pbase[s] + p];
          ov = ov == -1 || ov == x ? x : -2;
        }
        if (ov >= 0) pr.uniform[(static_cast<size_t>(s) * kV + v) * kGroups + k] = static_cast<uint8_t>(ov);
      }
  pr.classes = pair_classes(t, ts);
  if (pr.classes.list.empty()) return false;
  pr.classes_on.assign(S, {});
  pr.hosts_on.assign(S, {});
  for (const PairClass& c : pr.classes.list) {
    uint64_t m = 0;
    for (int p : c.ports) m |= 1ULL << p;
    pr.class_mask.push_back(m);
    const HostTables& h = ts.hosts[c.hosts.front()];
    Prep::Source src{&h.paths, c.sw, pr.peer[pr.pbase[c.sw] + c.ports.front()].group, {}};
    std::copy_n(h.sl2vl, kNumSls, src.sl2vl);
    pr.sources.push_back(src);
    pr.classes_on[c.sw].push_back(c.id);
  }
  for (int h = 0; h < t.num_hosts; ++h) pr.hosts_on[t.host_switch(h)].push_back(h);
  pr.group_of = destination_groups(t, ts);
  return true;
}

// One thread's walks and what they saw.
class Walker {
 public:
  Walker(const Topology& t, const TableSet& ts, const Prep& pr) : t_(t), ts_(ts), pr_(pr) {
    st_.assign(static_cast<size_t>(pr.S) * kV, {});
    root_at_.assign(st_.size(), 0);
    col_.assign(pr.S, 0);
    dep.assign(pr.ports * kV, 0);
  }
  // Every host of destination switch D; false: gave up.
  bool destination_switch(int D);

  std::vector<uint64_t> dep;  // [v * ports + pbase[s] + output port]: input ports
  RankedWalk out;

 private:
  struct State {        // a packet entering a switch on a VL, [v * S + s]; zero between walks
    uint64_t mask = 0;  // the input ports that reached it
    // [group]: the longest walk into the state by that group's ports, in links (at most
    // 2 + 15: hops between switches lower the VL, and only a first hop raises it). Beside the
    // mask: one cache line per arrival.
    uint8_t depth[kGroups] = {};
  };
  uint8_t* depth_of(size_t state) { return st_[state].depth; }
  struct AtD {  // the states that reached the destination switch from other switches
    int rep = -1;
    uint64_t mask[kV] = {};
    uint8_t depth[kV][kGroups] = {};
  };
  LftEntry entry(int s, int v, Lid dlid) const {
    const VlLftPool* pool = ts_.switches[s].vl_pool.get();
    if (!pool) return ts_.switches[s].route(dlid, static_cast<Vl>(v));
    return col_[s] == UINT32_MAX || v >= pool->vls() ? LftEntry{} : pool->entry(col_[s], v);
  }
  bool inject(const Prep::Source& c, int q, Lid dlid, uint64_t bits, uint64_t* mask, uint8_t (*depth)[kGroups]);
  bool walk_to(int q, AtD& at);
  bool visit(int s, int v, uint64_t m, Lid dlid, bool ranked, int root_depth);
  bool finish_at(int q, const AtD& at);

  const Topology& t_;
  const TableSet& ts_;
  const Prep& pr_;
  std::vector<State> st_;
  uint32_t walk_vls_ = 0;                           // bit per VL with states this walk
  std::vector<uint32_t> col_;                       // [s]: the DLID's pool column (vl_lft.h)
  std::vector<std::pair<size_t, uint64_t>> roots_;  // first-hop states (v * S + s), host ports
  std::vector<size_t> root_at_;                     // [state]: its place in roots_
};

// One path record row's records toward q from class c, as first hops: into `mask` / `depth`
// when given (the destination switch's sources), else into the walk's states.
bool Walker::inject(const Prep::Source& c, int q, Lid dlid, uint64_t bits, uint64_t* mask, uint8_t (*depth)[kGroups]) {
  const Span<PathRecord> recs = (*c.row)[q];
  if (recs.empty()) return false;
  const int k = c.group;
  for (const PathRecord& rec : recs) {
    if (rec.sl >= kNumSls || rec.dlid != dlid) return false;
    out.sl_seen[rec.sl] = true;
    const Vl inj = c.sl2vl[rec.sl];
    const int v = inj & 15;
    out.vl_seen[v] = true;
    out.vl15 |= inj >= kManagementVl;
    if (mask) {
      mask[v] |= bits;
      depth[v][k] = std::max<uint8_t>(depth[v][k], 1);
      continue;
    }
    if (!bits) continue;
    walk_vls_ |= 1u << v;
    const size_t i = static_cast<size_t>(v) * pr_.S + c.sw;
    State& x = st_[i];  // only first hops have states yet: an empty mask is a new one
    if (!x.mask) root_at_[i] = roots_.size(), roots_.emplace_back(i, 0);
    roots_[root_at_[i]].second |= bits;
    x.mask |= bits;
    depth_of(i)[k] = std::max<uint8_t>(depth_of(i)[k], 1);
  }
  return true;
}

// A state's candidates, for the input ports m (ranked: each output VL below v; root_depth > 0:
// the depth of every port, a first hop).
bool Walker::visit(int s, int v, uint64_t m, Lid dlid, bool ranked, int root_depth) {
  const LftEntry e = entry(s, v, dlid);
  if (!e.routed()) return false;
  // Everything the loop reads, in locals: its stores (bytes among them) would otherwise make
  // the compiler load each again per candidate.
  const int S = pr_.S, P = pr_.p1[s] - 1;
  const size_t base = pr_.pbase[s];
  const Prep::Peer* peer = pr_.peer.data() + base;
  uint64_t* dep_row = dep.data() + static_cast<size_t>(v) * pr_.ports + base;
  State* st = st_.data();
  const uint8_t* ovt[kGroups];  // per group of m: the output VL by output port
  int ds[kGroups], n = 0, ks0 = 0;
  const State& here = st[static_cast<size_t>(v) * S + s];
  for (int k = 0; k < pr_.groups; ++k)
    if (m & pr_.gmask[static_cast<size_t>(s) * kGroups + k]) {
      ovt[n] = pr_.ovt.data() + (k * kV + v) * pr_.ports + base;
      ds[n] = (root_depth > 0 ? root_depth : here.depth[k]) + 1;
      if (!n) ks0 = k;
      ++n;
    }
  uint32_t seen = 0;  // output VLs, kept in a register
  const uint8_t uni = n == 1 ? pr_.uniform[(static_cast<size_t>(s) * kV + v) * kGroups + ks0] : Prep::kNoOvl;
  if (uni != Prep::kNoOvl) {  // one group, one output VL: the loop below without its lookups
    if (ranked && uni >= v) return false;
    State* row = st + static_cast<size_t>(uni) * S;
    const int d = ds[0];
    for (const PortCandidate& c : e.candidates) {
      if (c.port < 1 || c.port > P) return false;
      const Prep::Peer to = peer[c.port];
      if (to.node < 0 || to.node >= S) return false;
      dep_row[c.port] |= m;
      State& x = row[to.node];
      x.mask |= 1ULL << to.port;
      uint8_t& xd = x.depth[to.far_group];
      xd = static_cast<uint8_t>(std::max<int>(xd, d));
    }
    if (!e.candidates.empty()) walk_vls_ |= 1u << uni;
    return true;
  }
  for (const PortCandidate& c : e.candidates) {
    if (c.port < 1 || c.port > P) return false;
    const Prep::Peer to = peer[c.port];
    if (to.node < 0 || to.node >= S) return false;  // not cabled, or a host beyond the destination switch
    dep_row[c.port] |= m;
    const uint64_t pbit = 1ULL << to.port;
    for (int j = 0; j < n; ++j) {
      const int ov = ovt[j][c.port];
      if (ranked && ov >= v) return false;
      seen |= 1u << ov;
      State& x = st[static_cast<size_t>(ov) * S + to.node];
      x.mask |= pbit;
      uint8_t& xd = x.depth[to.far_group];
      xd = static_cast<uint8_t>(std::max<int>(xd, ds[j]));
    }
  }
  walk_vls_ |= seen;
  return true;
}

// The walks toward q (a group's first host) from every source beyond q's switch D, up to D.
bool Walker::walk_to(int q, AtD& at) {
  const int D = t_.host_switch(q);
  const Lid dlid = ts_.hosts[q].base_lid;
  walk_vls_ = 0;  // the states are zero: each is cleared once visited
  roots_.clear();
  for (int s = 0; s < pr_.S; ++s) {  // independent loads, one pass
    const SwitchTables& st = ts_.switches[s];
    col_[s] = dlid < st.vl_column.size() ? st.vl_column[dlid] : UINT32_MAX;
  }
  for (size_t id = 0; id < pr_.sources.size(); ++id)
    if (pr_.sources[id].sw != D && !inject(pr_.sources[id], q, dlid, pr_.class_mask[id], nullptr, nullptr))
      return false;
  // First hops that keep or raise the VL (from a host, which no hop enters) go first.
  for (const auto& [i, bits] : roots_) {
    const int s = static_cast<int>(i % pr_.S), v = static_cast<int>(i / pr_.S);
    bool up = false;
    for (const PortCandidate& c : entry(s, v, dlid).candidates) {
      if (c.port < 1 || c.port >= pr_.p1[s]) continue;  // visit() gives up
      for (int k = 0; k < pr_.groups; ++k)
        up |= (bits & pr_.gmask[static_cast<size_t>(s) * kGroups + k]) &&
              pr_.ovt[(k * kV + v) * pr_.ports + pr_.pbase[s] + c.port] >= v;
    }
    if (!up) continue;
    if (!visit(s, v, bits, dlid, false, 1)) return false;
    if (!(st_[i].mask &= ~bits)) st_[i] = {};  // no depth left behind without its ports
  }
  // The rest VL by VL from the highest, each VL's switches in order; each state is cleared
  // once visited (visits add states of lower VLs only), those of D once copied to `at`.
  State* st = st_.data();
  for (int v = kV - 1; v >= 0; --v) {
    if (!(walk_vls_ >> v & 1)) continue;
    State* row = st + static_cast<size_t>(v) * pr_.S;
    for (int s = 0; s < pr_.S; ++s)
      if (row[s].mask && s != D) {
        if (!visit(s, v, row[s].mask, dlid, true, 0)) return false;
        row[s] = {};
      }
  }
  at.rep = q;
  for (int v = 0; v < kV; ++v) {
    State& x = st[static_cast<size_t>(v) * pr_.S + D];
    at.mask[v] = x.mask;
    std::copy_n(x.depth, pr_.groups, at.depth[v]);
    x = {};
  }
  for (int v = 0; v < kV; ++v) out.vl_seen[v] |= walk_vls_ >> v & 1;
  out.vl15 |= walk_vls_ >> kManagementVl & 1;
  return true;
}

// The last hop toward q, at its switch D: from the states that reached D (at) and from the
// sources on D.
bool Walker::finish_at(int q, const AtD& at) {
  const int D = t_.host_switch(q), qport = t_.host_switch_port(q);
  uint64_t mask[kV];
  uint8_t depth[kV][kGroups];
  std::copy_n(at.mask, kV, mask);
  std::memcpy(depth, at.depth, sizeof depth);
  for (int id : pr_.classes_on[D]) {
    const uint64_t bits = pr_.class_mask[id] & ~(1ULL << qport);
    if (bits && !inject(pr_.sources[id], q, ts_.hosts[q].base_lid, bits, mask, depth)) return false;
  }
  const Lid dlid = ts_.hosts[q].base_lid;
  const size_t base = pr_.pbase[D];
  for (int v = 0; v < kV; ++v) {
    if (!mask[v]) continue;
    const LftEntry e = ts_.switches[D].route(dlid, static_cast<Vl>(v));
    if (!e.routed()) return false;
    uint64_t* dep_row = dep.data() + static_cast<size_t>(v) * pr_.ports + base;
    for (const PortCandidate& c : e.candidates) {
      if (c.port < 1 || c.port >= pr_.p1[D] || pr_.peer[base + c.port].node != t_.host_node(q)) return false;
      dep_row[c.port] |= mask[v];
      for (int k = 0; k < pr_.groups; ++k) {
        if (!(mask[v] & pr_.gmask[static_cast<size_t>(D) * kGroups + k])) continue;
        const int ov = pr_.ovt[(k * kV + v) * pr_.ports + base + c.port];
        out.vl_seen[ov] = true;
        out.vl15 |= ov == kManagementVl;
        out.max_hops = std::max(out.max_hops, depth[v][k] + 1);
      }
    }
  }
  out.pairs += t_.num_hosts - 1;
  return true;
}

bool Walker::destination_switch(int D) {
  std::vector<AtD> reps;
  for (int q : pr_.hosts_on[D]) {
    const int r = pr_.group_of[q];
    if (r == q) {
      reps.emplace_back();
      if (!walk_to(q, reps.back())) return false;
    }
    const auto it = std::find_if(reps.begin(), reps.end(), [&](const AtD& a) { return a.rep == r; });
    if (it == reps.end() || !finish_at(q, *it)) return false;
  }
  return true;
}

}  // namespace

bool ranked_walk_applies(const Topology& t, const TableSet& ts) {
  for (int s = 0; s < t.num_switches; ++s) {
    const SwitchTables& st = ts.switches[s];
    if (!st.per_vl() || st.sl2vl.key() != Sl2VlTable::Key::InputVl || st.sl2vl.num_ports() < t.nodes[s].num_ports ||
        t.nodes[s].num_ports > 63)
      return false;
  }
  for (const HostTables& h : ts.hosts)
    if (h.lmc != 0) return false;
  return true;
}

bool ranked_walk(const Topology& t, const TableSet& ts, std::vector<SwitchDeps>& deps, RankedWalk& out, int threads) {
  Prep pr;
  if (!prepare(t, ts, pr)) return false;
  threads = std::max(1, std::min(threads, pr.S));
  std::vector<Walker> walkers;
  walkers.reserve(threads);
  for (int i = 0; i < threads; ++i) walkers.emplace_back(t, ts, pr);
  std::vector<char> ok(threads, 1);
  auto work = [&](int w) {  // destination switches w, w + threads, ...
    for (int D = w; D < pr.S && ok[w]; D += threads)
      if (!pr.hosts_on[D].empty()) ok[w] = walkers[w].destination_switch(D);
  };
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back(work, i);
  work(0);
  for (std::thread& th : pool) th.join();
  if (std::find(ok.begin(), ok.end(), 0) != ok.end()) return false;
  for (const Walker& w : walkers) {
    out.pairs += w.out.pairs;
    out.max_hops = std::max(out.max_hops, w.out.max_hops);
    out.vl15 |= w.out.vl15;
    for (int v = 0; v < kV; ++v) {
      out.sl_seen[v] |= w.out.sl_seen[v];
      out.vl_seen[v] |= w.out.vl_seen[v];
    }
  }
  for (int s = 0; s < pr.S; ++s) {
    const Sl2VlTable& tab = ts.switches[s].sl2vl;
    for (int v = 0; v < kV; ++v)
      for (int p = 1; p < pr.p1[s]; ++p) {
        uint64_t m = 0;
        for (const Walker& w : walkers) m |= w.dep[v * pr.ports + pr.pbase[s] + p];
        for (; m; m &= m - 1) {
          const int in = __builtin_ctzll(m);
          deps[s].set(in, v, p, tab.get(in, p, v) & 15);
        }
      }
  }
  return true;
}

}  // namespace ibsc::routing
