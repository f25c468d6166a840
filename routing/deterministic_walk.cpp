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

// The walk of walk_deterministic_by_switch(): its members are the state the walks share, its
// methods the steps, in the order run() takes them.
class ByswitchWalk {
 public:
  ByswitchWalk(const Topology& t, const TableSet& ts, const DenseLft& dense, PairClasses& classes,
               std::vector<SwitchDeps>& deps);
  bool run(WalkSeen& seen, CheckReport& rep);

 private:
  static constexpr int32_t kToHost = -1, kNoCable = -2;
  static constexpr uint16_t kInProgress = 0xFFFF;
  static constexpr uint8_t kUnknown = 0xFF;
  // Per state and VL: the switches from there to D, D included, valid while `key` is the
  // walk's (group, LID and, where an SL2VL reads it, SL in the low 4 bits); and the last
  // transition taken from it (output port and VL, its dependency set), which walks toward the
  // next destinations mostly take again: its SL2VL entry and dependency bits are then not
  // read again (both far apart in memory). 12 bytes, so that the walks' states stay in cache.
  struct Memo {
    uint32_t key = 0;
    int32_t node = 0;  // the switch entered
    uint16_t len = 0;
    PortNum out = kNoPort;
    uint8_t ov = 0;
  };
  struct Arrival {  // a state entering D
    int32_t state;
    int vl, sl;
    int from = -1;  // the switch it came from, where the group's hosts' cables may differ
  };
  struct First {  // a first hop of a group's walks: the state it enters, from where, on what
    int32_t state;
    int sw, ov, sl;
  };

  void number_states();
  void index_rows();
  bool walk_group(int D, const Group& g);
  bool read_records(int D, const Group& g);
  bool walk_lid(int D, const Group& g, int k);
  bool first_hops(int D, const Group& g, Lid lid, const PortNum* lft, bool by_switch, uint32_t key);
  bool last_hops(int D, const Group& g, int k);
  bool sources_on(int D, const Group& g);
  int last_hop(int D, int q, Lid dlid) const;
  // The steps of one walk.
  int distance(int sw, int D, const PortNum* lft, uint32_t key);
  bool step(int32_t state, int n, int out, int sl);
  bool transitions(int D, const PortNum* lft, int sl, uint32_t key);
  int first_hop(PairClass& c, int out, Sl sl);
  int tail(int32_t state, int vl, int sl, int D, const PortNum* lft);

  const Topology& t_;
  const TableSet& ts_;
  const DenseLft& dense_;
  PairClasses& classes_;
  std::vector<SwitchDeps>& deps_;
  const int S_, H_;
  const int V_;  // the VLs declared: a walk above them goes to the pair walk, which names it
  std::vector<std::vector<Group>> groups_;
  std::vector<std::vector<int>> classes_on_;
  // The walks' states: a packet entering a switch from another switch (one per cable end,
  // numbered by the switch it left, so that a pass over switches reads them in order) on a VL
  // below the declared ones. enter_[port_base_[n] + out]: the state a packet leaving switch n by
  // `out` enters, or kToHost, kNoCable.
  std::vector<size_t> port_base_;
  std::vector<int32_t> enter_;
  std::vector<int32_t> state_port_;  // [state]: the input port
  std::vector<int32_t> state_node_;  // [state]: the switch entered
  std::vector<Memo> memo_;
  bool sl_keyed_ = false;
  // Per class: the output VL of its first hop by output port under SL class_sl_ (kUnknown: not
  // taken yet), so that a first hop taken before costs neither its SL2VL entry nor its
  // dependency bits.
  size_t ports_max_ = 0;
  std::vector<uint8_t> class_ov_, class_sl_;
  // The distinct path record rows the classes read (one for every DOR source): a group's
  // records are looked up once per row, not once per class.
  std::vector<const PathRow*> rows_;
  std::vector<int> row_of_;
  std::vector<Span<PathRecord>> row_recs_;
  std::vector<int> row_sw_;  // the one switch of a row's classes, or -1
  std::vector<int> hosts_on_;
  uint32_t sl_mask_ = 0;  // the SLs of the group's records from beyond D
  WalkSeen saw_;
  long pairs_ = 0;
  int max_hops_ = 0;
  uint32_t gen_ = 0;
  // Switches where some host of the group being walked leaves by another cable (Group::diffs).
  std::vector<uint32_t> diff_key_;
  std::vector<Arrival> arrivals_;
  std::vector<First> firsts_;
  // Walks on one VL under one SL (or SL2VL tables that read no SL): a state is then its cable
  // end alone, and how far a switch is from D depends on the switch alone. So a group's walks
  // are passes over switches on arrays that stay in cache: from each source switch, the
  // switches to D (marking every switch walked, with its next state and switch); then from
  // each switch walked, the transition at the switch it enters. They fail as tail() does.
  std::vector<uint32_t> sw_key_;
  std::vector<int32_t> sw_len_, next_state_, next_node_;
  std::vector<int> chain_;
  // Per state: the output ports whose transition (on VL 0, under SL state_sl_) is set.
  std::vector<uint64_t> state_done_;
  std::vector<uint8_t> state_sl_;
  const std::vector<Diff>* diffs_ = nullptr;  // the group's
  std::vector<Memo*> path_;
};

ByswitchWalk::ByswitchWalk(const Topology& t, const TableSet& ts, const DenseLft& dense, PairClasses& classes,
                           std::vector<SwitchDeps>& deps)
    : t_(t),
      ts_(ts),
      dense_(dense),
      classes_(classes),
      deps_(deps),
      S_(t.num_switches),
      H_(t.num_hosts),
      V_(std::clamp(ts.vls_used, 1, kDepVls)) {
  groups_ = groups_by_switch(t, ts, dense, V_ == 1);
  split_by_records(t, ts, classes, groups_);
  classes_on_.resize(S_);
  for (const PairClass& c : classes.list) classes_on_[c.sw].push_back(c.id);
  number_states();
  memo_.resize(state_node_.size() * V_);
  for (size_t i = 0; i < memo_.size(); ++i) memo_[i].node = state_node_[i / V_];
  sl_keyed_ = std::any_of(ts.switches.begin(), ts.switches.end(),
                          [](const SwitchTables& st) { return st.sl2vl.key() == Sl2VlTable::Key::Sl; });
  for (int s = 0; s < S_; ++s) ports_max_ = std::max(ports_max_, port_base_[s + 1] - port_base_[s]);
  class_ov_.assign(classes.list.size() * ports_max_, kUnknown);
  class_sl_.assign(classes.list.size(), 0);
  index_rows();
  hosts_on_.assign(S_, 0);
  for (int q = 0; q < H_; ++q) ++hosts_on_[t.host_switch(q)];
  diff_key_.assign(S_, 0);
  sw_key_.assign(S_, 0);
  sw_len_.assign(S_, 0), next_state_.assign(S_, 0), next_node_.assign(S_, 0);
  state_done_.assign(state_node_.size(), 0);
  state_sl_.assign(state_node_.size(), 0);
}

// One state per switch-to-switch cable end (port_base_, enter_, state_port_, state_node_).
void ByswitchWalk::number_states() {
  port_base_.assign(S_ + 1, 0);
  for (int s = 0; s < S_; ++s) port_base_[s + 1] = port_base_[s] + t_.nodes[s].num_ports + 1;
  enter_.assign(port_base_[S_], kNoCable);
  for (int n = 0; n < S_; ++n)
    for (int p = 1; p <= t_.nodes[n].num_ports; ++p) {
      const PortPeer& to = t_.nodes[n].ports[p];
      if (to.node < 0) continue;
      if (to.node >= S_) {
        enter_[port_base_[n] + p] = kToHost;  // a host's cable end is no state: hosts only inject
        continue;
      }
      enter_[port_base_[n] + p] = static_cast<int32_t>(state_port_.size());
      state_port_.push_back(to.port);
      state_node_.push_back(to.node);
    }
}

// The distinct rows the classes read (rows_, row_of_) and the one switch of each row's classes.
void ByswitchWalk::index_rows() {
  row_of_.resize(classes_.list.size());
  std::map<const void*, int> index;
  for (const PairClass& c : classes_.list) {
    const PathRow& row = ts_.hosts[c.hosts.front()].paths;
    const auto it = index.emplace(row.identity(), static_cast<int>(rows_.size())).first;
    if (it->second == static_cast<int>(rows_.size())) rows_.push_back(&row);
    row_of_[c.id] = it->second;
  }
  row_recs_.resize(rows_.size());
  row_sw_.assign(rows_.size(), -2);
  for (const PairClass& c : classes_.list) {
    int& sw = row_sw_[row_of_[c.id]];
    sw = sw == -2 || sw == c.sw ? c.sw : -1;
  }
}

// Switches from sw to D along the LID's entries (lft), or -1.
int ByswitchWalk::distance(int sw, int D, const PortNum* lft, uint32_t key) {
  chain_.clear();
  int n = sw, len = 0;
  while (true) {
    if (sw_key_[n] == key) {
      len = sw_len_[n];
      if (len < 0) return -1;  // a loop
      break;
    }
    sw_key_[n] = key;
    sw_len_[n] = -1;
    if (n == D) {
      len = sw_len_[n] = 1;
      break;
    }
    const int out = lft[n];
    if (out < 1 || out >= static_cast<int>(port_base_[n + 1] - port_base_[n])) return -1;
    const int32_t next = enter_[port_base_[n] + out];
    if (next < 0) return -1;  // not cabled, or a host from a switch not its own
    next_state_[n] = next;
    next_node_[n] = state_node_[next];
    chain_.push_back(n);
    n = next_node_[n];
  }
  for (auto it = chain_.rbegin(); it != chain_.rend(); ++it) sw_len_[*it] = ++len;
  return len;
}

// The transition from `state` (entering switch n) by `out` on VL 0; false if it leaves on another.
bool ByswitchWalk::step(int32_t state, int n, int out, int sl) {
  uint64_t& done = state_done_[state];
  if (state_sl_[state] != sl) done = 0, state_sl_[state] = static_cast<uint8_t>(sl);
  if (out < 64 && (done >> out & 1)) return true;
  const int in_port = state_port_[state];
  if (out_vl(ts_.switches[n].sl2vl, in_port, out, sl, 0) != 0) return false;  // a VL above the one declared
  deps_[n].set(in_port, 0, out, 0);
  if (out < 64) done |= 1ULL << out;
  return true;
}

// From each switch distance() walked, the transition at the switch it enters.
bool ByswitchWalk::transitions(int D, const PortNum* lft, int sl, uint32_t key) {
  saw_.vl[0] = true;
  for (int p = 0; p < S_; ++p) {
    if (sw_key_[p] != key || p == D) continue;
    const int32_t state = next_state_[p];
    const int n = next_node_[p];
    if (n == D) {
      arrivals_.push_back({state, 0, sl, p});
      continue;
    }
    if (!step(state, n, lft[n], sl)) return false;
    if (diff_key_[n] == gen_)
      for (const Diff& d : *diffs_)
        if (d.sw == n && !step(state, n, d.out, sl)) return false;
  }
  return true;
}

// The first hop of class c by `out` under `sl`: its output VL, its dependencies for every
// port of the class set once.
int ByswitchWalk::first_hop(PairClass& c, int out, Sl sl) {
  uint8_t* known = &class_ov_[c.id * ports_max_];
  if (class_sl_[c.id] != sl) std::fill(known, known + ports_max_, kUnknown), class_sl_[c.id] = sl;
  if (known[out] != kUnknown) return known[out];
  const Vl inj = ts_.hosts[c.hosts.front()].sl2vl[sl];
  const int iv = inj & 15, ov = out_vl(ts_.switches[c.sw].sl2vl, c.ports.front(), out, sl, iv);
  saw_.sl[sl] = saw_.vl[iv] = saw_.vl[ov] = true;
  saw_.vl15 |= inj >= kManagementVl || ov == kManagementVl;
  const size_t combo = ((static_cast<size_t>(iv) * (t_.nodes[c.sw].num_ports + 1)) + out) * kDepVls + ov;
  if (!(c.seen[combo >> 6] >> (combo & 63) & 1)) {
    c.seen[combo >> 6] |= 1ULL << (combo & 63);
    for (int p : c.ports) deps_[c.sw].set(p, iv, out, ov);
  }
  return known[out] = static_cast<uint8_t>(ov);
}

// The walk from a state on vl toward the LID (its entries lft): switches to D, or -1 when it fails.
int ByswitchWalk::tail(int32_t state, int vl, int sl, int D, const PortNum* lft) {
  const uint32_t key = gen_ << 4 | (sl_keyed_ ? sl : 0);
  path_.clear();
  int len = 0;
  while (true) {
    if (vl >= V_) return -1;  // an undeclared VL
    Memo& m = memo_[static_cast<size_t>(state) * V_ + vl];
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
      arrivals_.push_back({state, vl, sl});
      m.len = 1, m.out = kNoPort;
      len = 1;
      break;
    }
    const int out = lft[n];
    if (out < 1 || out >= static_cast<int>(port_base_[n + 1] - port_base_[n])) return -1;
    const int32_t next = enter_[port_base_[n] + out];
    if (next < 0) return -1;  // not cabled, or a host from a switch not its own
    if (m.out != out || (sl_keyed_ && last_sl != sl)) {
      const int in_port = state_port_[state];
      const int ov = out_vl(ts_.switches[n].sl2vl, in_port, out, sl, vl);
      saw_.vl[ov] = true;
      saw_.vl15 |= ov == kManagementVl;
      deps_[n].set(in_port, vl, out, ov);
      m.out = static_cast<PortNum>(out), m.ov = static_cast<uint8_t>(ov);
    }
    path_.push_back(&m);
    state = next, vl = m.ov;
  }
  for (auto it = path_.rbegin(); it != path_.rend(); ++it) {
    if (++len >= kInProgress) return -1;
    (*it)->len = static_cast<uint16_t>(len);
  }
  return len;
}

// The port of D toward host q's `dlid`, or -1 when it does not lead to q.
int ByswitchWalk::last_hop(int D, int q, Lid dlid) const {
  const Node& dn = t_.nodes[D];
  const int out = dense_.at(dlid, D);
  return cabled(dn, out) && dn.ports[out].node == t_.host_node(q) ? out : -1;
}

// Each record once, for the group's first LID: the rows that sources beyond D read (row_recs_,
// sl_mask_), and the pairs they stand for.
bool ByswitchWalk::read_records(int D, const Group& g) {
  const int lids = 1 << ts_.hosts[g.first].lmc;
  sl_mask_ = 0;
  for (size_t r = 0; r < rows_.size(); ++r) {
    row_recs_[r] = (*rows_[r])[g.first];
    if (row_sw_[r] == D) continue;
    if (row_recs_[r].empty()) return false;
    for (const PathRecord& rec : row_recs_[r]) {
      if (rec.sl >= kNumSls || rec.dlid < ts_.hosts[g.first].base_lid || rec.dlid >= ts_.hosts[g.first].base_lid + lids)
        return false;
      sl_mask_ |= 1u << rec.sl;
    }
  }
  pairs_ += static_cast<long>(H_ - hosts_on_[D]) * static_cast<long>(g.hosts.size());
  return true;
}

// Sources on other switches: the first hop per class (its dependencies for every port of the
// class), the rest by distance() (by_switch) or, later, by tail() from firsts_.
bool ByswitchWalk::first_hops(int D, const Group& g, Lid lid, const PortNum* lft, bool by_switch, uint32_t key) {
  for (PairClass& c : classes_.list) {
    if (c.sw == D) continue;
    for (const PathRecord& rec : row_recs_[row_of_[c.id]]) {
      if (rec.dlid != lid) continue;
      const int out = lft[c.sw];
      if (out < 1 || out >= static_cast<int>(port_base_[c.sw + 1] - port_base_[c.sw])) return false;
      const int32_t next = enter_[port_base_[c.sw] + out];
      if (next < 0) return false;
      const int ov = first_hop(c, out, rec.sl);
      if (!by_switch) {
        firsts_.push_back({next, c.sw, ov, rec.sl});
        continue;
      }
      const int len = ov == 0 ? distance(c.sw, D, lft, key) : -1;  // else a VL above the one declared
      if (len < 0) return false;
      max_hops_ = std::max(max_hops_, len + 1);
      if (diff_key_[c.sw] == gen_)  // other hosts of the group: another cable to D
        for (const Diff& d : g.diffs)
          if (d.sw == c.sw && first_hop(c, d.out, rec.sl) != 0) return false;
    }
  }
  return true;
}

// Walks from beyond D: the last hop toward each host of the group (its LID k) from every state
// that entered D.
bool ByswitchWalk::last_hops(int D, const Group& g, int k) {
  const Sl2VlTable& dtab = ts_.switches[D].sl2vl;
  for (const Arrival& a : arrivals_)
    for (int q : g.hosts) {
      const int out = last_hop(D, q, static_cast<Lid>(ts_.hosts[q].base_lid + k));
      if (out < 0) return false;
      int32_t state = a.state;  // q's own cable into D, where it has one
      if (a.from >= 0 && diff_key_[a.from] == gen_)
        for (const Diff& d : g.diffs)
          if (d.host == q && d.sw == a.from) state = enter_[port_base_[d.sw] + d.out];
      const int in_port = state_port_[state], ov = out_vl(dtab, in_port, out, a.sl, a.vl);
      saw_.vl[ov] = true;
      saw_.vl15 |= ov == kManagementVl;
      deps_[D].set(in_port, a.vl, out, ov);
    }
  return true;
}

// The walks toward LID k of the group's hosts from every source beyond D.
bool ByswitchWalk::walk_lid(int D, const Group& g, int k) {
  ++gen_;
  arrivals_.clear();
  const Lid lid = static_cast<Lid>(ts_.hosts[g.first].base_lid + k);
  const PortNum* lft = &dense_.port[static_cast<size_t>(lid) * S_];  // this LID's entry at every switch
  firsts_.clear();
  if (k == 0 && !read_records(D, g)) return false;
  const bool by_switch = V_ == 1 && (!sl_keyed_ || (sl_mask_ & (sl_mask_ - 1)) == 0);
  if (!by_switch && !g.diffs.empty()) return false;  // cables apart under several SLs: pair by pair
  diffs_ = &g.diffs;
  for (const Diff& d : g.diffs) diff_key_[d.sw] = gen_;
  const int sl0 = sl_mask_ ? __builtin_ctz(sl_mask_) : 0;
  const uint32_t key = gen_ << 4 | (sl_keyed_ ? sl0 : 0);
  if (!first_hops(D, g, lid, lft, by_switch, key)) return false;
  if (by_switch && !transitions(D, lft, sl0, key)) return false;
  for (const First& f : firsts_) {  // state by state
    const int len = tail(f.state, f.ov, f.sl, D, lft);
    if (len < 0) return false;
    max_hops_ = std::max(max_hops_, len + 2);
  }
  return last_hops(D, g, k);
}

// Sources on D, host by host of the group: one hop to the destination.
bool ByswitchWalk::sources_on(int D, const Group& g) {
  const Sl2VlTable& dtab = ts_.switches[D].sl2vl;
  const int lids = 1 << ts_.hosts[g.first].lmc;
  for (int ci : classes_on_[D]) {
    PairClass& c = classes_.list[ci];
    const HostTables& src = ts_.hosts[c.hosts.front()];
    for (int q : g.hosts) {
      const bool inside = classes_.of[q] == c.id;
      if (c.hosts.size() == 1 && inside) continue;
      const Span<PathRecord> recs = src.paths[q];
      if (recs.empty()) return false;
      for (const PathRecord& rec : recs) {
        if (rec.sl >= kNumSls || rec.dlid < ts_.hosts[q].base_lid || rec.dlid >= ts_.hosts[q].base_lid + lids)
          return false;
        const int out = last_hop(D, q, rec.dlid);
        if (out < 0) return false;
        const Vl inj = src.sl2vl[rec.sl];
        const int iv = inj & 15, ov = out_vl(dtab, c.ports.front(), out, rec.sl, iv);
        saw_.sl[rec.sl] = saw_.vl[iv] = saw_.vl[ov] = true;
        saw_.vl15 |= inj >= kManagementVl || ov == kManagementVl;
        for (size_t i = 0; i < c.hosts.size(); ++i)
          if (c.hosts[i] != q) deps_[D].set(c.ports[i], iv, out, ov);
        max_hops_ = std::max(max_hops_, 2);
      }
      pairs_ += static_cast<long>(c.hosts.size()) - inside;
    }
  }
  return true;
}

bool ByswitchWalk::walk_group(int D, const Group& g) {
  const int lids = 1 << ts_.hosts[g.first].lmc;
  for (int k = 0; k < lids; ++k)  // the walks toward each LID of the group's hosts in turn
    if (!walk_lid(D, g, k)) return false;
  return sources_on(D, g);
}

bool ByswitchWalk::run(WalkSeen& seen, CheckReport& rep) {
  for (int D = 0; D < S_; ++D)
    for (const Group& g : groups_[D])
      if (!g.hosts.empty() && !walk_group(D, g)) return false;
  if (pairs_ != static_cast<long>(H_) * (H_ - 1)) return false;
  rep.pairs = rep.routed_pairs = pairs_;
  rep.max_hops = max_hops_;
  seen = saw_;
  return true;
}

}  // namespace

bool walk_deterministic_by_switch(const Topology& t, const TableSet& ts, const DenseLft& dense, PairClasses& classes,
                                  std::vector<SwitchDeps>& deps, WalkSeen& seen, CheckReport& rep) {
  for (const HostTables& h : ts.hosts)
    if (h.base_lid == 0 || h.lmc > 7 || h.base_lid + (1 << h.lmc) - 1 > ts.max_lid) return false;
  return ByswitchWalk(t, ts, dense, classes, deps).run(seen, rep);
}

}  // namespace ibsc::routing
