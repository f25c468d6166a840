// VOQsw stages 1-4 (seeds/004 section 3.1): tuples, weights, order, SL assignment.
// Choices where the text leaves room (Figure 5 is reconstructed from its text and pseudo-code):
//   - Paths are the primary path records of every ordered pair of distinct hosts, walked
//     through the base LFTs ("from the information contained at the forwarding tables").
//     Pairs on one switch have no tuple and take SL 0.
//   - A tuple exists for each hop that leaves a switch toward another switch. Its input port
//     may be a host port (first switch) and its next output port a host port (last switch):
//     with 8 VLs on 8-port switches each of them has a VL of its own. The HCA is no switch
//     and has no tuple; its SL2VL spreads SLs over VLs like an unconsidered tuple.
//   - Neighbours: same switch, input port and output port, next output port in another VL
//     group. With VLs >= ports (the paper's 8 on 8) that is any other next output port, the
//     paper's definition; with fewer VLs two next ports of one group share a VL, so their
//     paths may share an SL without a conflict in the SL2VL table.
//   - Paths are visited source host by source host, destinations ascending; ties in weight go
//     to the lower (switch, input, output, next output).
//   - Stage 4 stops at the first x that fails (the paper's loop); greedy compute_sls is not
//     monotone in x in general, so a larger x could succeed again: the paper keeps x - 1.
#include "routing/voqsw.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <unordered_map>

namespace ibsc::routing {

VoqProblem voq_problem(const Topology& t, const TableSet& base, int vls, bool hca_tuples) {
  if (vls < 1) throw RoutingError("voqsw: VLs must be at least 1");
  VoqProblem p;
  p.vls = vls;
  p.hca_tuples = hca_tuples;
  const int S = t.num_switches;
  std::unordered_map<uint64_t, int> id_of;  // (sw, in, out, next out) -> first-seen id
  std::vector<VoqTuple> tuples;
  std::vector<int32_t> ids;  // per path, first-seen ids; remapped to ranks below
  p.offset.push_back(0);
  for (int h = 0; h < t.num_hosts; ++h)
    for (int q = 0; q < t.num_hosts; ++q) {
      if (q == h) continue;
      if (base.hosts[h].paths.size() <= static_cast<size_t>(q) || base.hosts[h].paths[q].empty())
        throw RoutingError("voqsw: the base routing has no path from host " + std::to_string(h) + " to " +
                           std::to_string(q));
      const Lid dlid = base.path(h, q).dlid;
      int x = t.host_switch(h), in = t.host_switch_port(h);
      auto out_at = [&](int sw) {
        const int o = base.switches[sw].lft.at(dlid).primary();
        if (o == kNoPort || o < 1 || o > t.nodes[sw].num_ports || t.nodes[sw].ports[o].node < 0)
          throw RoutingError("voqsw: switch " + t.nodes[sw].name + " has no cabled route for DLID " +
                             std::to_string(dlid));
        return o;
      };
      int out = out_at(x);
      auto add_tuple = [&](int sw, int i, int o, int next_out) {
        const uint64_t k = static_cast<uint64_t>(sw) << 24 | static_cast<uint64_t>(i) << 16 |
                           static_cast<uint64_t>(o) << 8 | static_cast<uint64_t>(next_out);
        auto [it, fresh] = id_of.try_emplace(k, static_cast<int>(tuples.size()));
        if (fresh) tuples.push_back({sw, i, o, next_out, 0});
        ++tuples[it->second].weight;
        ids.push_back(it->second);
      };
      if (hca_tuples) add_tuple(t.host_node(h), 0, 1, out);
      for (int steps = 0; t.nodes[x].ports[out].node < S; ++steps) {
        if (steps > S) throw RoutingError("voqsw: the base path for DLID " + std::to_string(dlid) + " loops");
        const PortPeer& nx = t.nodes[x].ports[out];
        const int next_out = out_at(nx.node);
        add_tuple(x, in, out, next_out);
        x = nx.node, in = nx.port, out = next_out;
      }
      p.src.push_back(h);
      p.dst.push_back(q);
      p.offset.push_back(static_cast<uint32_t>(ids.size()));
    }
  std::vector<int> order(tuples.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const VoqTuple &u = tuples[a], &v = tuples[b];
    if (u.weight != v.weight) return u.weight > v.weight;
    return std::tie(u.sw, u.in_port, u.out_port, u.next_out_port) <
           std::tie(v.sw, v.in_port, v.out_port, v.next_out_port);
  });
  std::vector<int32_t> rank_of(tuples.size());
  p.tuples.reserve(tuples.size());
  for (size_t r = 0; r < order.size(); ++r) {
    rank_of[order[r]] = static_cast<int32_t>(r);
    p.tuples.push_back(tuples[order[r]]);
  }
  p.rank.resize(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) p.rank[i] = rank_of[ids[i]];
  std::unordered_map<uint64_t, int> key_of;
  p.key.reserve(p.tuples.size());
  for (const VoqTuple& u : p.tuples) {
    const uint64_t k =
        static_cast<uint64_t>(u.sw) << 16 | static_cast<uint64_t>(u.in_port) << 8 | static_cast<uint64_t>(u.out_port);
    auto [it, fresh] = key_of.try_emplace(k, p.keys);
    if (fresh) ++p.keys;
    p.key.push_back(it->second);
  }
  return p;
}

SlAssignment compute_sls(const VoqProblem& p, int sl_max, int x) {
  if (sl_max < 1) throw RoutingError("voqsw: the SL budget must be at least 1");
  x = std::clamp(x, 0, p.x_max());
  const int words = (sl_max + 63) / 64;
  const int V = p.vls;
  // SLs marked per (switch, input, output): `all` over every next output port, `group` per VL
  // group of the next output port. Considered neighbours in different groups never share an
  // SL, so the SLs a tuple must avoid are all & ~group[its own].
  std::vector<uint64_t> all(static_cast<size_t>(p.keys) * words, 0);
  std::vector<uint64_t> group(static_cast<size_t>(p.keys) * V * words, 0);
  std::vector<uint64_t> busy(words), soft(words);
  SlAssignment a;
  a.path_sl.assign(p.paths(), 0);
  int highest = 0;
  // The lowest SL below sl_max clear in both masks, from `from` on (cyclic); -1: none.
  auto first_clear = [&](const std::vector<uint64_t>& m1, const std::vector<uint64_t>& m2, int from) {
    for (int n = 0; n < sl_max; ++n) {
      const int s = (from + n) % sl_max;
      if (!((m1[s / 64] | m2[s / 64]) >> (s & 63) & 1)) return s;
    }
    return -1;
  };
  for (int path = 0; path < p.paths(); ++path) {
    std::fill(busy.begin(), busy.end(), 0);
    std::fill(soft.begin(), soft.end(), 0);
    bool any = false;
    for (uint32_t i = p.offset[path]; i < p.offset[path + 1]; ++i) {
      const int r = p.rank[i];
      const size_t k = p.key[r], g = k * V + p.group(p.tuples[r].next_out_port);
      std::vector<uint64_t>& mask = r < x ? busy : soft;
      if (r < x) any = true;
      else if (!p.spread) continue;
      for (int w = 0; w < words; ++w) mask[w] |= all[k * words + w] & ~group[g * words + w];
    }
    int sl = -1;
    if (p.spread) {
      sl = first_clear(busy, soft, any ? 0 : std::min(path % V, sl_max - 1));
      if (sl < 0) sl = first_clear(busy, busy, 0);
      if (!any) {  // nothing to mark
        a.path_sl[path] = std::max(sl, 0);
        highest = std::max(highest, a.path_sl[path]);
        continue;
      }
    } else {
      if (!any) continue;  // SL 0; nothing to mark
      for (int w = 0; w < words && sl < 0; ++w)
        if (~busy[w]) sl = w * 64 + __builtin_ctzll(~busy[w]);
    }
    if (sl < 0 || sl >= sl_max) return SlAssignment{};
    a.path_sl[path] = sl;
    highest = std::max(highest, sl);
    const uint64_t bit = 1ULL << (sl & 63);
    for (uint32_t i = p.offset[path]; i < p.offset[path + 1]; ++i) {
      const int r = p.rank[i];
      if (r >= x) continue;
      const size_t k = p.key[r], g = k * V + p.group(p.tuples[r].next_out_port);
      all[k * words + sl / 64] |= bit;
      group[g * words + sl / 64] |= bit;
    }
  }
  a.ok = true;
  a.sls_used = highest + 1;
  return a;
}

int sls_for_full_voq(const VoqProblem& p) {
  for (int budget = 64; budget <= (1 << 16); budget *= 2) {
    SlAssignment a = compute_sls(p, budget, p.x_max());
    if (a.ok) return a.sls_used;
  }
  throw RoutingError("voqsw: full VOQ needs more than 65536 SLs");
}

VoqPlan plan_voq(const VoqProblem& p, int sl_budget) {
  if (sl_budget < 1) throw RoutingError("voqsw: the SL budget must be at least 1");
  VoqPlan plan;
  plan.x_max = p.x_max();
  plan.sl_budget = sl_budget;
  plan.sls_full = sls_for_full_voq(p);
  SlAssignment kept;
  kept.path_sl.assign(p.paths(), 0);
  kept.sls_used = 1;
  int x = 0;
  SlAssignment full = plan.sls_full <= sl_budget ? compute_sls(p, sl_budget, plan.x_max) : SlAssignment{};
  if (full.ok) {  // (with p.spread a free path's SL may depend on the budget: checked, not assumed)
    x = plan.x_max;
    kept = std::move(full);
  } else {
    for (int next = 1; next < plan.x_max; ++next) {
      SlAssignment a = compute_sls(p, sl_budget, next);
      if (!a.ok) break;
      x = next;
      kept = std::move(a);
    }
  }
  plan.x = x;
  for (int r = 0; r < plan.x_max; ++r) {
    plan.weight_total += p.tuples[r].weight;
    if (r < x) plan.weight += p.tuples[r].weight;
  }
  plan.traversals = plan.weight_total + (p.hca_tuples ? 0 : p.paths());
  plan.sls_used = kept.sls_used;
  plan.path_sl = std::move(kept.path_sl);
  return plan;
}

int voq_default_vls(const Topology& t, const RoutingOptions& opt) {
  int ports = 1;
  for (int s = 0; s < t.num_switches; ++s) ports = std::max(ports, t.nodes[s].num_ports);
  return std::min(ports, opt.max_vls);
}

VoqSummary voqsw_summary(const Topology& t, const RoutingOptions& opt) {
  RoutingOptions b = opt;
  b.algorithm = kVoqBaseRouting;
  b.vls = 0;
  b.sls = 0;
  const TableSet base = compute_routing(t, b);
  VoqSummary s;
  s.switches = t.num_switches;
  s.hosts = t.num_hosts;
  s.vls = opt.vls > 0 ? opt.vls : voq_default_vls(t, opt);
  VoqProblem p = voq_problem(t, base, s.vls, opt.voq_hca);
  p.spread = opt.voq_spread;
  s.plan = plan_voq(p, opt.sls > 0 ? opt.sls : opt.max_sls);
  return s;
}

}  // namespace ibsc::routing
