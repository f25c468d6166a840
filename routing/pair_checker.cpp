#include "routing/pair_checker.h"

#include <algorithm>
#include <tuple>

#include "routing/destination_groups.h"

namespace ibsc::routing {

PairChecker::PairChecker(const Topology& t, const TableSet& ts, const CheckLimits& limits, const DenseLft& dense,
                         PairClasses classes, std::vector<SwitchDeps>& deps, CheckReport& rep)
    : t_(t),
      ts_(ts),
      limits_(limits),
      dense_(dense),
      deps_(deps),
      rep_(rep),
      S_(t.num_switches),
      classes_(std::move(classes)) {
  max_depth_ = 4 * (S_ + 2);
  init_memo();
  // Blocks of destinations, sources, destinations of the block: the path records of a source
  // are read in order and the walks touch only the block's dense LFT rows (one miss per pair
  // otherwise: 37 s for 2,048 switches x 4 hosts).
  tails_.resize(static_cast<size_t>(S_) * kBlock);
  tail_key_of_.assign(tails_.size(), 0);
  tail_dest_.assign(tails_.size(), -1);
  // Adaptive walks, one full walk per destination group (destination_groups.h): see
  // walk_destination. Sources likewise by class (pair_classes.h): see walk_sources.
  if (!dense_.exact && limits_.walk_by_destination_switch) group_of_ = destination_groups(t_, ts_);
  members_left_.assign(group_of_.size(), 0);
  for (size_t q = 0; q < group_of_.size(); ++q)
    if (group_of_[q] != static_cast<int>(q)) ++members_left_[group_of_[q]];
  if (!group_of_.empty()) sources_ = pair_classes(t_, ts_);
  hosts_on_.assign(S_, 0);
  for (int h = 0; h < t_.num_hosts; ++h)
    if (t_.host_switch(h) >= 0 && t_.host_switch(h) < S_) ++hosts_on_[t_.host_switch(h)];
}

void PairChecker::init_memo() {
  all_vl2vl_ = std::all_of(ts_.switches.begin(), ts_.switches.end(),
                           [](const SwitchTables& st) { return st.sl2vl.key() == Sl2VlTable::Key::InputVl; });
  memo_vls_ = std::clamp(ts_.vls_used, 1, kV);
  memo_sls_ = all_vl2vl_ ? 1 : kNumSls;
  port_base_.assign(S_ + 1, 0);
  for (int s = 0; s < S_; ++s) port_base_[s + 1] = port_base_[s] + t_.nodes[s].num_ports + 1;
  if (!dense_.exact) {
    memo_gen_.assign(static_cast<size_t>(port_base_[S_]) * memo_vls_ * memo_sls_, 0);
    memo_res_.assign(memo_gen_.size(), 0);
  }
  port_free_ = !dense_.exact && all_vl2vl_ && limits_.walk_by_destination_switch &&
               std::all_of(ts_.hosts.begin(), ts_.hosts.end(), [](const HostTables& h) { return h.lmc == 0; }) &&
               PortMaskDeps::applies(t_, ts_);
  if (port_free_) by_mask_.init(t_, memo_gen_.size());
}

void PairChecker::problem(const std::string& p) {
  if (static_cast<int>(rep_.problems.size()) < limits_.max_problems) rep_.problems.push_back(p);
}

std::string PairChecker::pair_name(int h, int q) const {
  return t_.nodes[t_.host_node(h)].name + " -> " + t_.nodes[t_.host_node(q)].name;
}

int PairChecker::output_vl(int node_i, int in_port, int out, int vl, Sl sl) {
  const Sl2VlTable& tab = ts_.switches[node_i].sl2vl;
  const int key = tab.key() == Sl2VlTable::Key::Sl ? sl : vl;
  const int ov = tab.num_ports() >= std::max(out, in_port) ? tab.get(in_port, out, key) & 15 : 0;
  vl_seen_[ov] = true;
  vl15_ |= ov == kManagementVl;
  return ov;
}

long PairChecker::memo_id(int node_i, int in_port, int vl, Sl sl) const {
  if (vl >= memo_vls_) return -1;
  if (port_free_) return static_cast<long>(node_i) * memo_vls_ + vl;  // dense: the walks' few states stay in cache
  return ((port_base_[node_i] + in_port) * memo_vls_ + vl) * memo_sls_ + (all_vl2vl_ ? 0 : sl);
}

uint32_t PairChecker::memo_stamp(int q, const PathRecord& rec) {
  if (q != stamp_q_) stamps_.clear(), stamp_q_ = q;
  const uint32_t key = (static_cast<uint32_t>(rec.dlid) << 8) | (all_vl2vl_ ? 0 : rec.sl);
  for (const auto& k : stamps_)
    if (k.first == key) return k.second;
  if (port_free_) by_mask_.flush(t_, ts_);  // the slots are about to serve another destination
  if (++stamp_next_ == 0) {                 // wrapped: forget everything
    std::fill(memo_gen_.begin(), memo_gen_.end(), 0);
    stamps_.clear();
    stamp_next_ = 1;
  }
  stamps_.emplace_back(key, stamp_next_);
  return stamp_next_;
}

// A deterministic walk from a switch on; its result is shared by every host on the switch the
// walk came from.
PairChecker::Tail PairChecker::walk(int node_i, int in_port, int vl, int steps, Lid dlid, Sl sl, int q) {
  Tail r;
  while (true) {
    if (node_i >= S_) {
      r.hops = steps + 1;
      if (node_i != t_.host_node(q)) {
        r.status = Tail::WrongHost;
        r.what = "DLID " + std::to_string(dlid) + " delivered to " + t_.nodes[node_i].name;
      }
      return r;
    }
    const Node& node = t_.nodes[node_i];
    const int out = dense_.at(dlid, node_i);
    if (out == kNoPort) {
      r.status = Tail::Broken;
      r.what = "switch " + node.name + " has no LFT entry for DLID " + std::to_string(dlid);
      return r;
    }
    if (out < 1 || out > node.num_ports || node.ports[out].node < 0) {
      r.status = Tail::Broken;
      r.what = "switch " + node.name + " sends DLID " + std::to_string(dlid) + " to port " + std::to_string(out) +
               ", which is not cabled";
      return r;
    }
    const int ov = output_vl(node_i, in_port, out, vl, sl);
    deps_[node_i].set(in_port, vl, out, ov);
    // Reaching a switch twice is a loop, so a walk longer than the switch count has one.
    if (++steps > S_) {
      r.status = Tail::Loop;
      r.what = "DLID " + std::to_string(dlid) + " loops at switch " + node.name;
      return r;
    }
    const PortPeer& nx = node.ports[out];
    node_i = nx.node, in_port = nx.port, vl = ov;
  }
}

// The walk after the first switch, shared by every pair that leaves it alike.
const PairChecker::Tail& PairChecker::tail_after(int node_i, int out, int ov, const PathRecord& rec, int q, int q0) {
  const Node& node = t_.nodes[node_i];
  const uint64_t tail_key = (static_cast<uint64_t>(rec.dlid) << 32) | (static_cast<uint64_t>(rec.sl) << 24) |
                            (static_cast<uint64_t>(ov) << 16) | (static_cast<uint64_t>(out) << 8) | 1;
  const size_t slot = static_cast<size_t>(node_i) * kBlock + (q - q0);
  if (tail_key_of_[slot] != tail_key || tail_dest_[slot] != q) {
    tails_[slot] = walk(node.ports[out].node, node.ports[out].port, ov, 1, rec.dlid, rec.sl, q);
    tail_key_of_[slot] = tail_key;
    tail_dest_[slot] = q;
  }
  return tails_[slot];
}

void PairChecker::note_tail(const Tail& r, int h, int q, PairOutcome& o) {
  if (r.status == Tail::Loop) o.loop = true;
  if (r.status != Tail::Ok) o.ok = false;
  if (r.status != Tail::Ok) problem(pair_name(h, q) + ": " + r.what);
  if (r.status == Tail::Ok || r.status == Tail::WrongHost) rep_.max_hops = std::max(rep_.max_hops, r.hops);
}

// A child state's outcome to its parent (or, for the first state, to the walk).
void PairChecker::dfs_give(int32_t r, State* parent, PairOutcome& o, int32_t& root) {
  if (r == kLoopRes) o.loop = true;
  if (r < 0) o.ok = false;
  if (!parent) {
    root = r;
    return;
  }
  if (r < 0) parent->res = parent->res == kLoopRes ? kLoopRes : r;
  else if (parent->res >= 0) parent->res = std::max(parent->res, r + 1);
}

// A packet entering node_i through in_port on vl: a host ends the walk; a state known for this
// destination gives its outcome (or a loop, if still on the walk); a new one is pushed.
template <class Name>
void PairChecker::dfs_enter(int node_i, int in_port, int vl, State* parent, const PathRecord& rec, int q,
                            uint32_t stamp, const Name& pair, PairOutcome& o, int32_t& root) {
  if (node_i >= S_) {  // reached a host
    if (node_i != t_.host_node(q)) {
      problem(pair() + ": DLID " + std::to_string(rec.dlid) + " delivered to " + t_.nodes[node_i].name);
      dfs_give(kBadRes, parent, o, root);
    } else {
      dfs_give(1, parent, o, root);
    }
    return;
  }
  const long id = memo_id(node_i, in_port, vl, rec.sl);
  const bool known = id >= 0 && memo_gen_[id] == stamp;
  if (port_free_ && id >= 0) by_mask_.arrive(id, in_port, !known);
  if (port_free_ && node_i == record_at_ && t_.nodes[node_i].ports[in_port].node < S_)
    arrivals_.push_back({in_port, vl, rec.sl, id});  // at every arrival: the state is not per port
  if (known) {
    if (memo_res_[id] == kInProgress) {
      problem(pair() + ": DLID " + std::to_string(rec.dlid) + " loops at switch " + t_.nodes[node_i].name);
      dfs_give(kLoopRes, parent, o, root);
    } else {
      dfs_give(memo_res_[id], parent, o, root);
    }
    return;
  }
  const uint64_t code = (static_cast<uint64_t>(node_i) << 24) | (static_cast<uint64_t>(in_port) << 8) | vl;
  if (id < 0 && (std::find(on_path_.begin(), on_path_.end(), code + 1) != on_path_.end() ||
                 static_cast<int>(stack_.size()) > max_depth_)) {
    problem(pair() + ": DLID " + std::to_string(rec.dlid) + " loops at switch " + t_.nodes[node_i].name);
    dfs_give(kLoopRes, parent, o, root);
    return;
  }
  if (id >= 0) memo_gen_[id] = stamp, memo_res_[id] = kInProgress;
  if (port_free_ && id >= 0) by_mask_.walked(node_i, vl, rec.dlid, id);
  if (!port_free_ && node_i == record_at_ && t_.nodes[node_i].ports[in_port].node < S_)
    arrivals_.push_back({in_port, vl, rec.sl, id});
  stack_.push_back({node_i, in_port, vl, 0, id, 1});
  on_path_.push_back(code + 1);
}

// Depth-first from a packet entering node0 through in0 on vl0 toward rec's DLID, over every
// candidate. Each state's outcome (links to the host, or a problem) is kept for the destination
// (memo), so sources sharing states walk them once: adaptive tables have exponentially many
// walks but few states. A state met again while still on the current walk is a loop. Returns
// the outcome of the first state.
template <class Name>
int32_t PairChecker::dfs(int node0, int in0, int vl0, const PathRecord& rec, int q, uint32_t stamp, const Name& pair,
                         PairOutcome& o) {
  int32_t root = kBadRes;
  stack_.clear();
  on_path_.clear();
  dfs_enter(node0, in0, vl0, nullptr, rec, q, stamp, pair, o, root);
  while (!stack_.empty()) {
    State& st = stack_.back();
    const LftEntry& e = ts_.switches[st.node].route(rec.dlid, static_cast<Vl>(st.vl));
    if (st.next_candidate == 0 && !e.routed()) {
      problem(pair() + ": switch " + t_.nodes[st.node].name + " has no LFT entry for DLID " + std::to_string(rec.dlid));
      st.res = kBadRes;
    }
    if (st.next_candidate >= e.candidates.size()) {  // every candidate walked: the state is done
      const State done = st;
      stack_.pop_back();
      on_path_.pop_back();
      if (done.id >= 0) memo_res_[done.id] = done.res;
      dfs_give(done.res, stack_.empty() ? nullptr : &stack_.back(), o, root);
      continue;
    }
    const int out = e.candidates[st.next_candidate++].port;
    const Node& node = t_.nodes[st.node];
    if (out < 1 || out > node.num_ports || node.ports[out].node < 0) {
      problem(pair() + ": switch " + node.name + " sends DLID " + std::to_string(rec.dlid) + " to port " +
              std::to_string(out) + ", which is not cabled");
      st.res = st.res == kLoopRes ? kLoopRes : kBadRes;
      continue;
    }
    const int ov = output_vl(st.node, st.in_port, out, st.vl, rec.sl);
    if (!port_free_ || st.id < 0) deps_[st.node].set(st.in_port, st.vl, out, ov);  // else by_mask_.flush()
    const PortPeer& nx = node.ports[out];
    dfs_enter(nx.node, nx.port, ov, &stack_.back(), rec, q, stamp, pair, o, root);  // st may move: stack grows
  }
  return root;
}

// One ordered pair, every record of it walked.
void PairChecker::check_pair(int h, int q, int q0) {
  const int hn = t_.host_node(h);
  ++rep_.pairs;
  if (q >= static_cast<int>(ts_.hosts[h].paths.size()) || ts_.hosts[h].paths[q].empty()) {
    ++rep_.unrouted_pairs;
    problem(pair_name(h, q) + ": no path record");
    return;
  }
  const HostTables& dst = ts_.hosts[q];
  const int dst_lids = 1 << dst.lmc;
  PairOutcome o;
  for (const PathRecord& rec : ts_.hosts[h].paths[q]) {
    if (rec.sl >= kNumSls) {
      bad_sl_ = true;
      continue;
    }
    sl_seen_[rec.sl] = true;
    if (rec.dlid < dst.base_lid || rec.dlid >= dst.base_lid + dst_lids) {
      o.ok = false;
      problem(pair_name(h, q) + ": path record DLID " + std::to_string(rec.dlid) + " is not a LID of the destination");
      continue;
    }
    if (t_.nodes[hn].ports.at(1).node < 0) {
      o.ok = false;
      problem(pair_name(h, q) + ": the source HCA port is not cabled");
      continue;
    }
    check_record(h, q, q0, rec, o);
  }
  if (o.loop) ++rep_.looping_pairs;
  else if (o.ok) ++rep_.routed_pairs;
  else ++rep_.unrouted_pairs;
}

// One path record of a pair whose source port is cabled and whose DLID is the destination's.
void PairChecker::check_record(int h, int q, int q0, const PathRecord& rec, PairOutcome& o) {
  const PortPeer& first = t_.nodes[t_.host_node(h)].ports.at(1);
  const Vl inj = ts_.hosts[h].sl2vl[rec.sl];
  vl_seen_[inj & 15] = true;
  vl15_ |= inj >= kManagementVl;
  if (!dense_.exact) {
    const uint32_t stamp = memo_stamp(q, rec);
    const int32_t res = dfs(
        first.node, first.port, inj & 15, rec, q, stamp, [&] { return pair_name(h, q); }, o);
    if (res > 0) rep_.max_hops = std::max(rep_.max_hops, res);
    return;
  }
  // Deterministic, destination-only LFTs: the walk after the first switch depends only on
  // (first switch, its output port, the VL chosen there, DLID, SL), so hosts on one switch share
  // it; only the first hop, whose SL2VL entry depends on the host's input port, is per pair.
  const int node_i = first.node, in_port = first.port, vl = inj & 15;
  if (node_i < S_) {
    const int out = dense_.at(rec.dlid, node_i);
    const Node& node = t_.nodes[node_i];
    if (out != kNoPort && out >= 1 && out <= node.num_ports && node.ports[out].node >= 0) {
      const int ov = output_vl(node_i, in_port, out, vl, rec.sl);
      deps_[node_i].set(in_port, vl, out, ov);
      note_tail(tail_after(node_i, out, ov, rec, q, q0), h, q, o);
      return;
    }
  }
  note_tail(walk(node_i, in_port, vl, 0, rec.dlid, rec.sl, q), h, q, o);
}

// The first hop's dependencies of every host of class c toward q, from the class's first host's
// records (its walk ended well).
void PairChecker::first_hop_of_class(PairClass& c, int q) {
  const Node& node = t_.nodes[c.sw];
  const Sl2VlTable& tab = ts_.switches[c.sw].sl2vl;
  const HostTables& src = ts_.hosts[c.hosts.front()];
  for (const PathRecord& rec : src.paths[q]) {
    const int inj = src.sl2vl[rec.sl] & 15;
    for (const PortCandidate& cand : ts_.switches[c.sw].route(rec.dlid, static_cast<Vl>(inj)).candidates) {
      const int key = tab.key() == Sl2VlTable::Key::Sl ? rec.sl : inj;
      const int ov = tab.get(c.ports.front(), cand.port, key) & 15;
      const size_t combo = ((static_cast<size_t>(inj) * (node.num_ports + 1)) + cand.port) * kV + ov;
      if (c.seen[combo >> 6] >> (combo & 63) & 1) continue;
      c.seen[combo >> 6] |= 1ULL << (combo & 63);
      for (int p : c.ports) deps_[c.sw].set(p, inj, cand.port, ov);
    }
  }
}

// Every source toward q (only those on only_switch, unless -1), by class where there are classes:
// the class's first host is walked, and when its pair ends well the others, whose walks differ
// only in the first hop's input port, get that hop's dependencies (a class holding the
// destination is walked pair by pair).
void PairChecker::walk_sources(int q, int q0, int only_switch) {
  if (sources_.list.empty()) {
    for (int h = 0; h < t_.num_hosts; ++h)
      if (h != q && (only_switch < 0 || t_.host_switch(h) == only_switch)) check_pair(h, q, q0);
    return;
  }
  for (PairClass& c : sources_.list) {
    if (only_switch >= 0 && c.sw != only_switch) continue;
    size_t next = 0;
    if (sources_.of[q] != c.id) {
      const auto before = counts();
      check_pair(c.hosts.front(), q, q0);
      next = 1;
      if (before == counts()) {
        first_hop_of_class(c, q);
        rep_.pairs += static_cast<long>(c.hosts.size()) - 1;
        rep_.routed_pairs += static_cast<long>(c.hosts.size()) - 1;
        continue;
      }
    }
    for (size_t i = next; i < c.hosts.size(); ++i)
      if (c.hosts[i] != q) check_pair(c.hosts[i], q, q0);
  }
}

// Adaptive walks toward q, by destination group (destination_groups.h): the group's first host
// is walked from every source, recording the states that enter its switch D from other switches
// and their outcomes; another host q of the group is walked only from those states. When each
// gives the outcome it gave the first host (and no problem), every pair toward q from beyond D
// ends as the one toward the first host did; otherwise q is walked pair by pair after all, as
// without groups.
void PairChecker::walk_destination(int q, int q0) {
  const int first = group_of_.empty() ? q : group_of_[q];
  if (first == q && group_of_.empty()) {
    for (int h = 0; h < t_.num_hosts; ++h)
      if (h != q) check_pair(h, q, q0);
    return;
  }
  if (first == q) walk_group_first(q, q0);
  else walk_group_member(q, q0, first);
}

void PairChecker::walk_group_first(int q, int q0) {
  const auto before = counts();
  if (members_left_[q]) record_at_ = t_.host_switch(q), arrivals_.clear();
  walk_sources(q, q0, -1);
  record_at_ = -1;
  if (!members_left_[q]) return;
  GroupWalk& g = walked_[q];
  g.usable = before == counts();
  auto key = [](const Arrival& a) { return std::tie(a.in_port, a.vl, a.sl); };
  std::sort(arrivals_.begin(), arrivals_.end(), [&](const Arrival& a, const Arrival& b) { return key(a) < key(b); });
  arrivals_.erase(std::unique(arrivals_.begin(), arrivals_.end(),
                              [&](const Arrival& a, const Arrival& b) { return key(a) == key(b); }),
                  arrivals_.end());
  for (const Arrival& a : arrivals_) {
    g.usable = g.usable && a.id >= 0;
    g.res.push_back(a.id >= 0 ? memo_res_[a.id] : kBadRes);
  }
  g.arrivals = std::move(arrivals_);
}

void PairChecker::walk_group_member(int q, int q0, int first) {
  const int D = t_.host_switch(q);
  const GroupWalk& g = walked_.at(first);
  bool shortcut = g.usable;
  const size_t problems = rep_.problems.size();
  auto label = [&] { return t_.nodes[D].name + " (arrivals) -> " + t_.nodes[t_.host_node(q)].name; };
  for (size_t i = 0; shortcut && i < g.arrivals.size(); ++i) {
    const Arrival& a = g.arrivals[i];
    const PathRecord rec{ts_.hosts[q].base_lid, a.sl};
    PairOutcome o;
    const int32_t res = dfs(D, a.in_port, a.vl, rec, q, memo_stamp(q, rec), label, o);
    shortcut = res == g.res[i] && o.ok && !o.loop && rep_.problems.size() == problems;
  }
  if (!shortcut) {  // walked again pair by pair, with a fresh memo, for the problems' names
    rep_.problems.resize(std::min(rep_.problems.size(), problems));
    stamps_.clear();
    stamp_q_ = -1;
  }
  walk_sources(q, q0, shortcut ? D : -1);
  if (shortcut) {
    const long beyond = t_.num_hosts - hosts_on_[D];
    rep_.pairs += beyond;
    rep_.routed_pairs += beyond;
  }
  if (--members_left_[first] == 0) walked_.erase(first);
}

// All pairs from class c to q at once, when every walk ends well; false leaves them to
// check_pair (which reports the problems), having set only what check_pair sets too.
bool PairChecker::class_pair(PairClass& c, int q, int q0) {
  if (classes_.of[q] == c.id) return false;
  const HostTables& src = ts_.hosts[c.hosts.front()];
  const Span<PathRecord> recs = src.paths[q];
  if (recs.empty()) return false;
  const HostTables& dst = ts_.hosts[q];
  const Node& node = t_.nodes[c.sw];
  const Sl2VlTable& tab = ts_.switches[c.sw].sl2vl;
  steps_.clear();
  for (const PathRecord& rec : recs) {
    if (rec.sl >= kNumSls || rec.dlid < dst.base_lid || rec.dlid >= dst.base_lid + (1 << dst.lmc)) return false;
    const int out = dense_.at(rec.dlid, c.sw);
    if (out == kNoPort || out < 1 || out > node.num_ports || node.ports[out].node < 0) return false;
    const int key = tab.key() == Sl2VlTable::Key::Sl ? rec.sl : src.sl2vl[rec.sl] & 15;
    const int ov = tab.get(c.ports.front(), out, key) & 15;
    const Tail& r = tail_after(c.sw, out, ov, rec, q, q0);
    if (r.status != Tail::Ok) return false;
    steps_.push_back({out, ov, &r});
  }
  for (size_t i = 0; i < recs.size(); ++i) {
    const PathRecord& rec = recs[i];
    const Step& st = steps_[i];
    const Vl inj = src.sl2vl[rec.sl];
    sl_seen_[rec.sl] = vl_seen_[inj & 15] = vl_seen_[st.ov] = true;
    vl15_ |= inj >= kManagementVl || st.ov == kManagementVl;
    const size_t combo = ((static_cast<size_t>(inj & 15) * (node.num_ports + 1)) + st.out) * kV + st.ov;
    if (!(c.seen[combo >> 6] >> (combo & 63) & 1)) {
      c.seen[combo >> 6] |= 1ULL << (combo & 63);
      for (int p : c.ports) deps_[c.sw].set(p, inj & 15, st.out, st.ov);
    }
    rep_.max_hops = std::max(rep_.max_hops, st.tail->hops);
  }
  rep_.pairs += static_cast<long>(c.hosts.size());
  rep_.routed_pairs += static_cast<long>(c.hosts.size());
  return true;
}

void PairChecker::all_pairs(bool shared) {
  for (int q0 = 0; q0 < t_.num_hosts; q0 += kBlock) {
    const int q1 = std::min(q0 + kBlock, t_.num_hosts);
    if (!shared && !dense_.exact) {  // adaptive walks: destination by destination, for the memo
      for (int q = q0; q < q1; ++q) walk_destination(q, q0);
      continue;
    }
    if (!shared) {
      for (int h = 0; h < t_.num_hosts; ++h)
        for (int q = q0; q < q1; ++q)
          if (q != h) check_pair(h, q, q0);
      continue;
    }
    for (PairClass& c : classes_.list)
      for (int q = q0; q < q1; ++q)
        if (!class_pair(c, q, q0))
          for (int h : c.hosts)
            if (q != h) check_pair(h, q, q0);
  }
}

bool PairChecker::run() {
  all_pairs(!classes_.list.empty());
  if (!classes_.list.empty() && (rep_.unrouted_pairs > 0 || rep_.looping_pairs > 0)) {
    // Problems are reported in source order, as without classes: count again that way (the
    // SLs, VLs and dependencies seen are the same either way).
    rep_.pairs = rep_.routed_pairs = rep_.unrouted_pairs = rep_.looping_pairs = 0;
    rep_.max_hops = 0;
    rep_.problems.clear();
    all_pairs(false);
  }
  // Broken adaptive tables: the problems as the walk of every DLID by port names them (where a
  // loop is first seen depends on the walk's states).
  if (!group_of_.empty() && (rep_.unrouted_pairs > 0 || rep_.looping_pairs > 0)) return false;
  if (port_free_) {
    by_mask_.flush(t_, ts_);
    by_mask_.for_each(ts_, [&](int s, int ip, int iv, int op, int ov) { deps_[s].set(ip, iv, op, ov); });
  }
  check_verdict(t_, ts_, limits_, sl_seen_, vl_seen_, vl15_, bad_sl_, deps_, rep_);
  return true;
}

}  // namespace ibsc::routing
