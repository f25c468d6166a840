// VOQsw stage 5 (SL2VL tables and path records) and the virtual-network baseline, both on
// the base up*/down* tables (LFTs, LIDs and LMC unchanged).
// Deadlock freedom: every (link, VL) dependency projects onto a (link) dependency of the
// up*/down* paths, which is acyclic, so any choice of VLs on those paths stays acyclic;
// `ibsc route --check` verifies it on the tables.
#include <map>
#include <string>

#include "routing/voqsw.h"

namespace ibsc::routing {
namespace {

int sl_budget(const RoutingOptions& opt, const char* name) {
  const int b = opt.sls > 0 ? opt.sls : opt.max_sls;
  if (b > opt.max_sls || b > kNumSls)
    throw RoutingError(std::string(name) + " asked for " + std::to_string(b) + " SLs; the budget is " +
                       std::to_string(opt.max_sls) + " (IBA has 16)");
  return b;
}

TableSet base_tables(const Topology& t, const RoutingOptions& opt) {
  RoutingOptions b = opt;
  b.algorithm = kVoqBaseRouting;
  b.vls = 0;
  b.sls = 0;
  return compute_routing(t, b);
}

}  // namespace

TableSet route_voqsw(const Topology& t, const RoutingOptions& opt) {
  const int budget = sl_budget(opt, "voqsw");
  const int V = opt.vls > 0 ? opt.vls : voq_default_vls(t, opt);
  if (V > opt.max_vls)
    throw RoutingError("voqsw asked for " + std::to_string(V) + " VLs; the budget is " + std::to_string(opt.max_vls));
  TableSet ts = base_tables(t, opt);
  VoqProblem p = voq_problem(t, ts, V, opt.voq_hca);
  p.spread = opt.voq_spread;
  const VoqPlan plan = plan_voq(p, budget);

  // Unconsidered tuples (and SLs no considered tuple uses): SL s -> VL s mod V, spreading the
  // SLs uniformly over the VLs as the paper suggests.
  for (int s = 0; s < t.num_switches; ++s) {
    Sl2VlTable& tab = ts.switches[s].sl2vl;
    for (int sl = 0; sl < kNumSls; ++sl) tab.set_all(sl, static_cast<Vl>(sl % V));
  }
  for (int h = 0; h < t.num_hosts; ++h)
    for (int sl = 0; sl < kNumSls; ++sl) ts.hosts[h].sl2vl[sl] = static_cast<Vl>(sl % V);
  // Considered tuples: (input, output, SL) -> the VL of the next output port. compute_sls
  // guarantees no two considered tuples ask one entry for different VLs; checked here anyway.
  std::vector<std::vector<int8_t>> set_by(t.num_switches);
  for (int s = 0; s < t.num_switches; ++s) {
    const size_t P = t.nodes[s].num_ports + 1;
    set_by[s].assign(P * P * kNumSls, -1);
  }
  for (int path = 0; path < p.paths(); ++path) {
    const int sl = plan.path_sl[path];
    for (uint32_t i = p.offset[path]; i < p.offset[path + 1]; ++i) {
      const int r = p.rank[i];
      if (r >= plan.x) continue;
      const VoqTuple& u = p.tuples[r];
      const int vl = p.group(u.next_out_port);
      if (!t.is_switch(u.sw)) {  // an HCA tuple: the port's SL2VL (compute_sls keeps it consistent)
        ts.hosts[t.host_index(u.sw)].sl2vl[sl] = static_cast<Vl>(vl);
        continue;
      }
      const size_t P = t.nodes[u.sw].num_ports + 1;
      int8_t& mark = set_by[u.sw][(u.in_port * P + u.out_port) * kNumSls + sl];
      if (mark >= 0 && mark != vl)
        throw RoutingError("voqsw: internal conflict at switch " + t.nodes[u.sw].name + " SL " + std::to_string(sl));
      mark = static_cast<int8_t>(vl);
      ts.switches[u.sw].sl2vl.set(u.in_port, u.out_port, sl, static_cast<Vl>(vl));
    }
  }
  for (int path = 0; path < p.paths(); ++path)
    ts.hosts[p.src[path]].paths.set_sl(p.dst[path], 0, static_cast<Sl>(plan.path_sl[path]));
  ts.algorithm = "voqsw";
  ts.sls_used = plan.sls_used;
  ts.vls_used = V;
  return ts;
}

TableSet route_vn(const Topology& t, const RoutingOptions& opt) {
  if (opt.vls > 0 && opt.sls > 0 && opt.vls != opt.sls)
    throw RoutingError("vn uses n SLs on n VLs; asked for " + std::to_string(opt.sls) + " SLs and " +
                       std::to_string(opt.vls) + " VLs");
  const int n = opt.vls > 0 ? opt.vls : opt.sls > 0 ? opt.sls : std::min(voq_default_vls(t, opt), opt.max_sls);
  if (n > opt.max_sls || n > opt.max_vls)
    throw RoutingError("vn with " + std::to_string(n) + " virtual networks needs " + std::to_string(n) +
                       " SLs and VLs; the budget is " + std::to_string(opt.max_sls) + " SLs, " +
                       std::to_string(opt.max_vls) + " VLs");
  TableSet ts = base_tables(t, opt);
  for (int s = 0; s < t.num_switches; ++s)
    for (int sl = 0; sl < n; ++sl) ts.switches[s].sl2vl.set_all(sl, static_cast<Vl>(sl));
  std::map<const void*, PathRow> done;  // base row -> its n-SL form, so shared rows stay shared
  std::vector<PathRecord> recs;
  for (HostTables& h : ts.hosts) {
    for (int sl = 0; sl < n; ++sl) h.sl2vl[sl] = static_cast<Vl>(sl);
    const size_t hidden = h.paths.hidden();
    h.paths.hide(PathRow::kNone);
    auto it = done.find(h.paths.identity());
    if (it == done.end()) {
      PathRow row;
      row.assign(h.paths.size());
      for (size_t q = 0; q < h.paths.size(); ++q) {
        if (h.paths[q].empty()) continue;
        const Lid dlid = h.paths[q].front().dlid;
        recs.clear();
        for (int sl = 0; sl < n; ++sl) recs.push_back({dlid, static_cast<Sl>(sl)});
        row.set(q, recs);
      }
      it = done.emplace(h.paths.identity(), row).first;
    }
    h.paths = it->second;
    h.paths.hide(hidden);
  }
  ts.algorithm = "vn";
  ts.sls_used = n;
  ts.vls_used = n;
  ts.path_choice = PathChoice::RandomPerPacket;
  return ts;
}

}  // namespace ibsc::routing
