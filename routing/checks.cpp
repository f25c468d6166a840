#include "routing/checks.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <tuple>

#include "routing/dense_lft.h"
#include "routing/destination_groups.h"
#include "routing/deterministic_walk.h"
#include "routing/duato_check.h"
#include "routing/pair_classes.h"
#include "routing/port_mask_deps.h"
#include "routing/ranked_walk.h"
#include "routing/switch_deps.h"

namespace ibsc::routing {
namespace {

constexpr int kV = 16;  // VL field values, VL15 included so a misuse is still recorded

struct Tail {  // the end of a deterministic walk
  enum Status { Ok, WrongHost, Broken, Loop } status = Ok;
  int hops = 0;      // links walked, the host link at the end included
  std::string what;  // the problem, without the pair
};

struct State {  // a packet entering `node` through `in_port` on `vl`
  int node, in_port, vl;
  size_t next_candidate = 0;
  long id = -1;     // its memo slot (-1: none)
  int32_t res = 1;  // links from here to the host so far, or kBadRes / kLoopRes
};
constexpr int32_t kBadRes = -1, kLoopRes = -2, kInProgress = -3;

}  // namespace

CheckReport check_tables(const Topology& t, const TableSet& ts, const CheckLimits& limits) {
  // One LFT per switch: the dense copy reads every entry, so it also tells whether an entry
  // has an escape candidate (only the rare tables with several candidates are searched again).
  std::optional<DenseLft> dense_first;
  if (std::none_of(ts.switches.begin(), ts.switches.end(), [](const SwitchTables& st) { return st.per_vl(); }))
    dense_first.emplace(ts);
  if (!(dense_first && dense_first->exact && !dense_first->escape) &&
      has_escape_candidates(ts)) {  // walks, budgets on the escape sub-network; then Duato
    CheckReport rep = check_tables(t, escape_subnetwork(ts), limits);
    check_escape_channels(t, ts, limits, rep);
    return rep;
  }
  CheckReport rep;
  const int S = t.num_switches;
  std::vector<SwitchDeps> deps(S);
  for (int s = 0; s < S; ++s) deps[s].init(t.nodes[s].num_ports);
  bool sl_seen[kNumSls] = {}, vl_seen[kV] = {};
  bool vl15 = false, bad_sl = false;
  auto problem = [&](const std::string& p) {
    if (static_cast<int>(rep.problems.size()) < limits.max_problems) rep.problems.push_back(p);
  };
  if (static_cast<int>(ts.switches.size()) != S || static_cast<int>(ts.hosts.size()) != t.num_hosts) {
    problem("the table set has " + std::to_string(ts.switches.size()) + " switches and " +
            std::to_string(ts.hosts.size()) + " hosts; the topology has " + std::to_string(S) + " and " +
            std::to_string(t.num_hosts));
    rep.text();
    return rep;
  }
  if (limits.walk_by_destination_switch && limits.walk_in_vl_order && ranked_walk_applies(t, ts)) {
    RankedWalk rw;
    if (ranked_walk(t, ts, deps, rw, limits.threads)) {
      rep.pairs = rep.routed_pairs = rw.pairs;
      rep.max_hops = rw.max_hops;
      rep.walked_in_vl_order = true;
      check_verdict(t, ts, limits, rw.sl_seen, rw.vl_seen, rw.vl15, false, deps, rep);
      return rep;
    }
    for (int s = 0; s < S; ++s) deps[s].init(t.nodes[s].num_ports);  // gave up: walk again from scratch
  }
  const int max_depth = 4 * (S + 2);
  std::vector<State> stack;
  std::vector<uint64_t> on_path;
  if (!dense_first) dense_first.emplace(ts);
  const DenseLft& dense = *dense_first;
  PairClasses classes = dense.exact ? pair_classes(t, ts) : PairClasses{};
  if (!classes.list.empty() && limits.walk_by_destination_switch) {  // deterministic_walk.h
    WalkSeen seen;
    if (walk_deterministic_by_switch(t, ts, dense, classes, deps, seen, rep)) {
      rep.walked_by_switch = true;
      check_verdict(t, ts, limits, seen.sl, seen.vl, seen.vl15, false, deps, rep);
      return rep;
    }  // else some walk fails: pair by pair below, for the problems' names
  }
  // Memo of the adaptive walks (tables with several candidates or per-VL LFTs): one slot per
  // (switch, input port, input VL below the declared VLs, SL unless every table is VL2VL),
  // valid while its stamp is that of the (destination, DLID, SL) being walked.
  const bool all_vl2vl = std::all_of(ts.switches.begin(), ts.switches.end(),
                                     [](const SwitchTables& st) { return st.sl2vl.key() == Sl2VlTable::Key::InputVl; });
  const int memo_vls = std::clamp(ts.vls_used, 1, kV), memo_sls = all_vl2vl ? 1 : kNumSls;
  std::vector<long> port_base(S + 1, 0);
  for (int s = 0; s < S; ++s) port_base[s + 1] = port_base[s] + t.nodes[s].num_ports + 1;
  std::vector<uint32_t> memo_gen;
  std::vector<int32_t> memo_res;
  if (!dense.exact) {
    memo_gen.assign(static_cast<size_t>(port_base[S]) * memo_vls * memo_sls, 0);
    memo_res.assign(memo_gen.size(), 0);
  }
  // Walks by (switch, input VL) with the input ports as masks where the output VLs allow
  // (port_mask_deps.h), with destination groups; one stamp per destination (LMC 0).
  PortMaskDeps by_mask;
  const bool port_free =
      !dense.exact && all_vl2vl && limits.walk_by_destination_switch &&
      std::all_of(ts.hosts.begin(), ts.hosts.end(), [](const HostTables& h) { return h.lmc == 0; }) &&
      PortMaskDeps::applies(t, ts);
  if (port_free) by_mask.init(t, memo_gen.size());
  auto memo_id = [&](int node_i, int in_port, int vl, Sl sl) -> long {
    if (vl >= memo_vls) return -1;
    if (port_free) return static_cast<long>(node_i) * memo_vls + vl;  // dense: the walks' few states stay in cache
    return ((port_base[node_i] + in_port) * memo_vls + vl) * memo_sls + (all_vl2vl ? 0 : sl);
  };
  uint32_t stamp_next = 0;
  int stamp_q = -1;
  std::vector<std::pair<uint32_t, uint32_t>> stamps;  // (DLID << 8 | SL, stamp) of destination stamp_q
  auto memo_stamp = [&](int q, const PathRecord& rec) {
    if (q != stamp_q) stamps.clear(), stamp_q = q;
    const uint32_t key = (static_cast<uint32_t>(rec.dlid) << 8) | (all_vl2vl ? 0 : rec.sl);
    for (const auto& k : stamps)
      if (k.first == key) return k.second;
    if (port_free) by_mask.flush(t, ts);  // the slots are about to serve another destination
    if (++stamp_next == 0) {              // wrapped: forget everything
      std::fill(memo_gen.begin(), memo_gen.end(), 0);
      stamps.clear();
      stamp_next = 1;
    }
    stamps.emplace_back(key, stamp_next);
    return stamp_next;
  };
  // A deterministic walk from a switch on; its result is shared by every host on the switch
  // the walk came from.
  auto walk = [&](int node_i, int in_port, int vl, int steps, Lid dlid, Sl sl, int q) {
    Tail r;
    while (true) {
      if (node_i >= S) {
        r.hops = steps + 1;
        if (node_i != t.host_node(q)) {
          r.status = Tail::WrongHost;
          r.what = "DLID " + std::to_string(dlid) + " delivered to " + t.nodes[node_i].name;
        }
        return r;
      }
      const Node& node = t.nodes[node_i];
      const int out = dense.at(dlid, node_i);
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
      const Sl2VlTable& tab = ts.switches[node_i].sl2vl;
      const int key = tab.key() == Sl2VlTable::Key::Sl ? sl : vl;
      const int ov = tab.num_ports() >= std::max(out, in_port) ? tab.get(in_port, out, key) & 15 : 0;
      vl_seen[ov] = true;
      vl15 |= ov == kManagementVl;
      deps[node_i].set(in_port, vl, out, ov);
      // Reaching a switch twice is a loop, so a walk longer than the switch count has one.
      if (++steps > S) {
        r.status = Tail::Loop;
        r.what = "DLID " + std::to_string(dlid) + " loops at switch " + node.name;
        return r;
      }
      const PortPeer& nx = node.ports[out];
      node_i = nx.node, in_port = nx.port, vl = ov;
    }
  };
  // Blocks of destinations, sources, destinations of the block: the path records of a source
  // are read in order and the walks touch only the block's dense LFT rows (one miss per pair
  // otherwise: 37 s for 2,048 switches x 4 hosts). One shared walk slot per (switch, destination).
  constexpr int kBlock = 64;
  std::vector<Tail> tails(static_cast<size_t>(S) * kBlock);
  std::vector<uint64_t> tail_key_of(tails.size(), 0);
  std::vector<int> tail_dest(tails.size(), -1);
  // The walk after the first switch, shared by every pair that leaves it alike (see above).
  auto tail_after = [&](int node_i, int out, int ov, const PathRecord& rec, int q, int q0) -> const Tail& {
    const Node& node = t.nodes[node_i];
    const uint64_t tail_key = (static_cast<uint64_t>(rec.dlid) << 32) | (static_cast<uint64_t>(rec.sl) << 24) |
                              (static_cast<uint64_t>(ov) << 16) | (static_cast<uint64_t>(out) << 8) | 1;
    const size_t slot = static_cast<size_t>(node_i) * kBlock + (q - q0);
    if (tail_key_of[slot] != tail_key || tail_dest[slot] != q) {
      tails[slot] = walk(node.ports[out].node, node.ports[out].port, ov, 1, rec.dlid, rec.sl, q);
      tail_key_of[slot] = tail_key;
      tail_dest[slot] = q;
    }
    return tails[slot];
  };
  // Depth-first from a packet entering node0 through in0 on vl0 toward rec's DLID, over every
  // candidate. Each state's outcome (links to the host, or a problem) is kept for the
  // destination (memo), so sources sharing states walk them once: adaptive tables have
  // exponentially many walks but few states. A state met again while still on the current
  // walk is a loop. Returns the outcome of the first state.
  struct Arrival {  // a state entering record_at from another switch (destination_groups.h)
    int in_port, vl;
    Sl sl;
    long id;  // its memo slot (-1: none)
  };
  int record_at = -1;
  std::vector<Arrival> arrivals;
  auto dfs = [&](int node0, int in0, int vl0, const PathRecord& rec, int q, uint32_t stamp, const auto& pair,
                 bool& pair_ok, bool& pair_loop) {
    int32_t root = kBadRes;
    auto enter = [&](int node_i, int in_port, int vl, State* parent) {
      auto give = [&](int32_t r) {  // a child's outcome to its parent (or to the pair)
        if (r == kLoopRes) pair_loop = true;
        if (r < 0) pair_ok = false;
        if (!parent) {
          root = r;
          return;
        }
        if (r < 0) parent->res = parent->res == kLoopRes ? kLoopRes : r;
        else if (parent->res >= 0) parent->res = std::max(parent->res, r + 1);
      };
      if (node_i >= S) {  // reached a host
        if (node_i != t.host_node(q)) {
          problem(pair() + ": DLID " + std::to_string(rec.dlid) + " delivered to " + t.nodes[node_i].name);
          give(kBadRes);
        } else {
          give(1);
        }
        return;
      }
      const long id = memo_id(node_i, in_port, vl, rec.sl);
      const bool known = id >= 0 && memo_gen[id] == stamp;
      if (port_free && id >= 0) by_mask.arrive(id, in_port, !known);
      if (port_free && node_i == record_at && t.nodes[node_i].ports[in_port].node < S)
        arrivals.push_back({in_port, vl, rec.sl, id});  // at every arrival: the state is not per port
      if (known) {
        if (memo_res[id] == kInProgress) {
          problem(pair() + ": DLID " + std::to_string(rec.dlid) + " loops at switch " + t.nodes[node_i].name);
          give(kLoopRes);
        } else {
          give(memo_res[id]);
        }
        return;
      }
      const uint64_t code = (static_cast<uint64_t>(node_i) << 24) | (static_cast<uint64_t>(in_port) << 8) | vl;
      if (id < 0 && (std::find(on_path.begin(), on_path.end(), code + 1) != on_path.end() ||
                     static_cast<int>(stack.size()) > max_depth)) {
        problem(pair() + ": DLID " + std::to_string(rec.dlid) + " loops at switch " + t.nodes[node_i].name);
        give(kLoopRes);
        return;
      }
      if (id >= 0) memo_gen[id] = stamp, memo_res[id] = kInProgress;
      if (port_free && id >= 0) by_mask.walked(node_i, vl, rec.dlid, id);
      if (!port_free && node_i == record_at && t.nodes[node_i].ports[in_port].node < S)
        arrivals.push_back({in_port, vl, rec.sl, id});
      stack.push_back({node_i, in_port, vl, 0, id, 1});
      on_path.push_back(code + 1);
    };
    stack.clear();
    on_path.clear();
    enter(node0, in0, vl0, nullptr);
    while (!stack.empty()) {
      State& st = stack.back();
      const LftEntry& e = ts.switches[st.node].route(rec.dlid, static_cast<Vl>(st.vl));
      if (st.next_candidate == 0 && !e.routed()) {
        problem(pair() + ": switch " + t.nodes[st.node].name + " has no LFT entry for DLID " +
                std::to_string(rec.dlid));
        st.res = kBadRes;
      }
      if (st.next_candidate >= e.candidates.size()) {
        const State done = st;
        stack.pop_back();
        on_path.pop_back();
        if (done.id >= 0) memo_res[done.id] = done.res;
        if (done.res == kLoopRes) pair_loop = true;
        if (done.res < 0) pair_ok = false;
        if (stack.empty()) {
          root = done.res;
        } else {
          State& up = stack.back();
          if (done.res < 0) up.res = up.res == kLoopRes ? kLoopRes : done.res;
          else if (up.res >= 0) up.res = std::max(up.res, done.res + 1);
        }
        continue;
      }
      const int out = e.candidates[st.next_candidate++].port;
      const Node& node = t.nodes[st.node];
      if (out < 1 || out > node.num_ports || node.ports[out].node < 0) {
        problem(pair() + ": switch " + node.name + " sends DLID " + std::to_string(rec.dlid) + " to port " +
                std::to_string(out) + ", which is not cabled");
        st.res = st.res == kLoopRes ? kLoopRes : kBadRes;
        continue;
      }
      const Sl2VlTable& tab = ts.switches[st.node].sl2vl;
      const int key = tab.key() == Sl2VlTable::Key::Sl ? rec.sl : st.vl;
      const int ov = tab.num_ports() >= std::max(out, st.in_port) ? tab.get(st.in_port, out, key) & 15 : 0;
      vl_seen[ov] = true;
      vl15 |= ov == kManagementVl;
      if (!port_free || st.id < 0) deps[st.node].set(st.in_port, st.vl, out, ov);  // else by_mask.flush()
      const PortPeer& nx = node.ports[out];
      enter(nx.node, nx.port, ov, &stack.back());  // st may move: stack grows
    }
    return root;
  };
  // One ordered pair, every record of it walked.
  auto check_pair = [&](int h, int q, int q0) {
    const int hn = t.host_node(h);
    ++rep.pairs;
    auto pair = [&] { return t.nodes[hn].name + " -> " + t.nodes[t.host_node(q)].name; };
    if (q >= static_cast<int>(ts.hosts[h].paths.size()) || ts.hosts[h].paths[q].empty()) {
      ++rep.unrouted_pairs;
      problem(pair() + ": no path record");
      return;
    }
    const HostTables& dst = ts.hosts[q];
    const int dst_lids = 1 << dst.lmc;
    bool pair_ok = true, pair_loop = false;
    for (const PathRecord& rec : ts.hosts[h].paths[q]) {
      if (rec.sl >= kNumSls) {
        bad_sl = true;
        continue;
      }
      sl_seen[rec.sl] = true;
      if (rec.dlid < dst.base_lid || rec.dlid >= dst.base_lid + dst_lids) {
        pair_ok = false;
        problem(pair() + ": path record DLID " + std::to_string(rec.dlid) + " is not a LID of the destination");
        continue;
      }
      const PortPeer& first = t.nodes[hn].ports.at(1);
      if (first.node < 0) {
        pair_ok = false;
        problem(pair() + ": the source HCA port is not cabled");
        continue;
      }
      const Vl inj = ts.hosts[h].sl2vl[rec.sl];
      vl_seen[inj & 15] = true;
      vl15 |= inj >= kManagementVl;
      if (dense.exact) {
        // Deterministic, destination-only LFTs: the walk after the first switch depends only
        // on (first switch, its output port, the VL chosen there, DLID, SL), so hosts on one
        // switch share it; only the first hop, whose SL2VL entry depends on the host's input
        // port, is per pair.
        int node_i = first.node, in_port = first.port, vl = inj & 15, steps = 0;
        if (node_i < S) {
          const int out = dense.at(rec.dlid, node_i);
          const Node& node = t.nodes[node_i];
          if (out != kNoPort && out >= 1 && out <= node.num_ports && node.ports[out].node >= 0) {
            const Sl2VlTable& tab = ts.switches[node_i].sl2vl;
            const int key = tab.key() == Sl2VlTable::Key::Sl ? rec.sl : vl;
            const int ov = tab.num_ports() >= std::max(out, in_port) ? tab.get(in_port, out, key) & 15 : 0;
            vl_seen[ov] = true;
            vl15 |= ov == kManagementVl;
            deps[node_i].set(in_port, vl, out, ov);
            const Tail& r = tail_after(node_i, out, ov, rec, q, q0);
            if (r.status == Tail::Loop) pair_loop = true;
            if (r.status != Tail::Ok) pair_ok = false;
            if (r.status != Tail::Ok) problem(pair() + ": " + r.what);
            if (r.status == Tail::Ok || r.status == Tail::WrongHost) rep.max_hops = std::max(rep.max_hops, r.hops);
            continue;
          }
        }
        const Tail r = walk(node_i, in_port, vl, steps, rec.dlid, rec.sl, q);
        if (r.status == Tail::Loop) pair_loop = true;
        if (r.status != Tail::Ok) pair_ok = false;
        if (r.status != Tail::Ok) problem(pair() + ": " + r.what);
        if (r.status == Tail::Ok || r.status == Tail::WrongHost) rep.max_hops = std::max(rep.max_hops, r.hops);
        continue;
      }
      const uint32_t stamp = memo_stamp(q, rec);
      const int32_t res = dfs(first.node, first.port, inj & 15, rec, q, stamp, pair, pair_ok, pair_loop);
      if (res > 0) rep.max_hops = std::max(rep.max_hops, res);
    }
    if (pair_loop) ++rep.looping_pairs;
    else if (pair_ok) ++rep.routed_pairs;
    else ++rep.unrouted_pairs;
  };
  // Adaptive walks, one full walk per destination group (destination_groups.h): the group's
  // first host is walked from every source, recording the states that enter its switch D from
  // other switches and their outcomes; another host q of the group is walked only from those
  // states. When each gives the outcome it gave the first host (and no problem), every pair
  // toward q from beyond D ends as the one toward the first host did; otherwise q is walked
  // pair by pair after all, as without groups.
  std::vector<int> group_of;
  if (!dense.exact && limits.walk_by_destination_switch) group_of = destination_groups(t, ts);
  std::vector<int> members_left(group_of.size(), 0);  // [first host]
  for (size_t q = 0; q < group_of.size(); ++q)
    if (group_of[q] != static_cast<int>(q)) ++members_left[group_of[q]];
  struct GroupWalk {
    std::vector<Arrival> arrivals;
    std::vector<int32_t> res;
    bool usable = false;
  };
  std::map<int, GroupWalk> walked;
  // Sources, likewise, by class (pair_classes): the class's first host is walked, and when its
  // pair ends well the others, whose walks differ only in the first hop's input port, get that
  // hop's dependencies (a class holding the destination is walked pair by pair).
  PairClasses sources;
  if (!group_of.empty()) sources = pair_classes(t, ts);
  std::vector<int> hosts_on(S, 0);
  for (int h = 0; h < t.num_hosts; ++h)
    if (t.host_switch(h) >= 0 && t.host_switch(h) < S) ++hosts_on[t.host_switch(h)];
  auto first_hop_of_class = [&](PairClass& c, int q) {
    const Node& node = t.nodes[c.sw];
    const Sl2VlTable& tab = ts.switches[c.sw].sl2vl;
    const HostTables& src = ts.hosts[c.hosts.front()];
    for (const PathRecord& rec : src.paths[q]) {
      const int inj = src.sl2vl[rec.sl] & 15;
      for (const PortCandidate& cand : ts.switches[c.sw].route(rec.dlid, static_cast<Vl>(inj)).candidates) {
        const int key = tab.key() == Sl2VlTable::Key::Sl ? rec.sl : inj;
        const int ov = tab.get(c.ports.front(), cand.port, key) & 15;
        const size_t combo = ((static_cast<size_t>(inj) * (node.num_ports + 1)) + cand.port) * kV + ov;
        if (c.seen[combo >> 6] >> (combo & 63) & 1) continue;
        c.seen[combo >> 6] |= 1ULL << (combo & 63);
        for (int p : c.ports) deps[c.sw].set(p, inj, cand.port, ov);
      }
    }
  };
  auto walk_sources = [&](int q, int q0, int only_switch) {
    if (sources.list.empty()) {
      for (int h = 0; h < t.num_hosts; ++h)
        if (h != q && (only_switch < 0 || t.host_switch(h) == only_switch)) check_pair(h, q, q0);
      return;
    }
    for (PairClass& c : sources.list) {
      if (only_switch >= 0 && c.sw != only_switch) continue;
      size_t next = 0;
      if (sources.of[q] != c.id) {
        const auto before = std::make_tuple(rep.unrouted_pairs, rep.looping_pairs, rep.problems.size());
        check_pair(c.hosts.front(), q, q0);
        next = 1;
        if (before == std::make_tuple(rep.unrouted_pairs, rep.looping_pairs, rep.problems.size())) {
          first_hop_of_class(c, q);
          rep.pairs += static_cast<long>(c.hosts.size()) - 1;
          rep.routed_pairs += static_cast<long>(c.hosts.size()) - 1;
          continue;
        }
      }
      for (size_t i = next; i < c.hosts.size(); ++i)
        if (c.hosts[i] != q) check_pair(c.hosts[i], q, q0);
    }
  };
  auto walk_destination = [&](int q, int q0) {
    const int first = group_of.empty() ? q : group_of[q];
    const int D = t.host_switch(q);
    if (first == q && group_of.empty()) {
      for (int h = 0; h < t.num_hosts; ++h)
        if (h != q) check_pair(h, q, q0);
      return;
    }
    if (first == q) {
      const auto before = std::make_tuple(rep.unrouted_pairs, rep.looping_pairs, rep.problems.size());
      if (members_left[q]) record_at = D, arrivals.clear();
      walk_sources(q, q0, -1);
      record_at = -1;
      if (!members_left[q]) return;
      GroupWalk& g = walked[q];
      g.usable = before == std::make_tuple(rep.unrouted_pairs, rep.looping_pairs, rep.problems.size());
      std::sort(arrivals.begin(), arrivals.end(), [](const Arrival& a, const Arrival& b) {
        return std::tie(a.in_port, a.vl, a.sl) < std::tie(b.in_port, b.vl, b.sl);
      });
      arrivals.erase(std::unique(arrivals.begin(), arrivals.end(),
                                 [](const Arrival& a, const Arrival& b) {
                                   return std::tie(a.in_port, a.vl, a.sl) == std::tie(b.in_port, b.vl, b.sl);
                                 }),
                     arrivals.end());
      for (const Arrival& a : arrivals) {
        g.usable = g.usable && a.id >= 0;
        g.res.push_back(a.id >= 0 ? memo_res[a.id] : kBadRes);
      }
      g.arrivals = std::move(arrivals);
      return;
    }
    const GroupWalk& g = walked.at(first);
    bool shortcut = g.usable;
    const size_t problems = rep.problems.size();
    auto label = [&] { return t.nodes[D].name + " (arrivals) -> " + t.nodes[t.host_node(q)].name; };
    for (size_t i = 0; shortcut && i < g.arrivals.size(); ++i) {
      const Arrival& a = g.arrivals[i];
      const PathRecord rec{ts.hosts[q].base_lid, a.sl};
      bool ok = true, loop = false;
      const int32_t res = dfs(D, a.in_port, a.vl, rec, q, memo_stamp(q, rec), label, ok, loop);
      shortcut = res == g.res[i] && ok && !loop && rep.problems.size() == problems;
    }
    if (!shortcut) {  // walked again pair by pair, with a fresh memo, for the problems' names
      rep.problems.resize(std::min(rep.problems.size(), problems));
      stamps.clear();
      stamp_q = -1;
    }
    walk_sources(q, q0, shortcut ? D : -1);
    if (shortcut) {
      const long beyond = t.num_hosts - hosts_on[D];
      rep.pairs += beyond;
      rep.routed_pairs += beyond;
    }
    if (--members_left[first] == 0) walked.erase(first);
  };
  // All pairs from class c to q at once, when every walk ends well; false leaves them to
  // check_pair (which reports the problems), having set only what check_pair sets too.
  struct Step {
    int out, ov;
    const Tail* tail;
  };
  std::vector<Step> steps;
  auto class_pair = [&](PairClass& c, int q, int q0) {
    if (classes.of[q] == c.id) return false;
    const HostTables& src = ts.hosts[c.hosts.front()];
    const Span<PathRecord> recs = src.paths[q];
    if (recs.empty()) return false;
    const HostTables& dst = ts.hosts[q];
    const Node& node = t.nodes[c.sw];
    const Sl2VlTable& tab = ts.switches[c.sw].sl2vl;
    steps.clear();
    for (const PathRecord& rec : recs) {
      if (rec.sl >= kNumSls || rec.dlid < dst.base_lid || rec.dlid >= dst.base_lid + (1 << dst.lmc)) return false;
      const int out = dense.at(rec.dlid, c.sw);
      if (out == kNoPort || out < 1 || out > node.num_ports || node.ports[out].node < 0) return false;
      const int key = tab.key() == Sl2VlTable::Key::Sl ? rec.sl : src.sl2vl[rec.sl] & 15;
      const int ov = tab.get(c.ports.front(), out, key) & 15;
      const Tail& r = tail_after(c.sw, out, ov, rec, q, q0);
      if (r.status != Tail::Ok) return false;
      steps.push_back({out, ov, &r});
    }
    for (size_t i = 0; i < recs.size(); ++i) {
      const PathRecord& rec = recs[i];
      const Step& st = steps[i];
      const Vl inj = src.sl2vl[rec.sl];
      sl_seen[rec.sl] = vl_seen[inj & 15] = vl_seen[st.ov] = true;
      vl15 |= inj >= kManagementVl || st.ov == kManagementVl;
      const size_t combo = ((static_cast<size_t>(inj & 15) * (node.num_ports + 1)) + st.out) * kV + st.ov;
      if (!(c.seen[combo >> 6] >> (combo & 63) & 1)) {
        c.seen[combo >> 6] |= 1ULL << (combo & 63);
        for (int p : c.ports) deps[c.sw].set(p, inj & 15, st.out, st.ov);
      }
      rep.max_hops = std::max(rep.max_hops, st.tail->hops);
    }
    rep.pairs += static_cast<long>(c.hosts.size());
    rep.routed_pairs += static_cast<long>(c.hosts.size());
    return true;
  };
  auto all_pairs = [&](bool shared) {
    for (int q0 = 0; q0 < t.num_hosts; q0 += kBlock) {
      const int q1 = std::min(q0 + kBlock, t.num_hosts);
      if (!shared && !dense.exact) {  // adaptive walks: destination by destination, for the memo
        for (int q = q0; q < q1; ++q) walk_destination(q, q0);
        continue;
      }
      if (!shared) {
        for (int h = 0; h < t.num_hosts; ++h)
          for (int q = q0; q < q1; ++q)
            if (q != h) check_pair(h, q, q0);
        continue;
      }
      for (PairClass& c : classes.list)
        for (int q = q0; q < q1; ++q)
          if (!class_pair(c, q, q0))
            for (int h : c.hosts)
              if (q != h) check_pair(h, q, q0);
    }
  };
  all_pairs(!classes.list.empty());
  if (!classes.list.empty() && (rep.unrouted_pairs > 0 || rep.looping_pairs > 0)) {
    // Problems are reported in source order, as without classes: count again that way (the
    // SLs, VLs and dependencies seen are the same either way).
    rep.pairs = rep.routed_pairs = rep.unrouted_pairs = rep.looping_pairs = 0;
    rep.max_hops = 0;
    rep.problems.clear();
    all_pairs(false);
  }
  if (!group_of.empty() && (rep.unrouted_pairs > 0 || rep.looping_pairs > 0)) {
    // Broken tables: the problems as the walk of every DLID by port names them (where a loop
    // is first seen depends on the walk's states).
    CheckLimits by_dlid = limits;
    by_dlid.walk_by_destination_switch = false;
    return check_tables(t, ts, by_dlid);
  }
  if (port_free) {
    by_mask.flush(t, ts);
    by_mask.for_each(ts, [&](int s, int ip, int iv, int op, int ov) { deps[s].set(ip, iv, op, ov); });
  }
  check_verdict(t, ts, limits, sl_seen, vl_seen, vl15, bad_sl, deps, rep);
  return rep;
}

}  // namespace ibsc::routing
