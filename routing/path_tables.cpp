// From switch-pair paths to destination-only LFTs, with destination renaming (seeds/000
// section 3, ref [13]): an IBA switch routes by DLID only, so two paths toward one destination
// that leave a switch by different ports need different DLIDs. Each destination switch's
// paths are coloured greedily (sources in index order, first colour whose LFT entries agree
// along the whole path); colour c is LID base + c of every host on that switch. The LMC is the
// smallest that holds the largest number of colours.
#include <string>

#include "routing/generic.h"
#include "routing/lids.h"

namespace ibsc::routing {
namespace {
struct RenamingOverflow : RoutingError {
  using RoutingError::RoutingError;
};

// Destination renaming: each pair's path toward d gets the first colour whose entries agree
// with it at every switch it passes. next[d][c * n + x]: output port at switch x for colour c
// toward d (kNoPort: not set); colour[d * n + s]: the pair's colour. Returns the most colours
// a destination needs.
int colour_paths(const Topology& t, const SwitchGraph& g, const PathSet& paths, const RoutingOptions& opt,
                 const std::string& name, std::vector<std::vector<PortNum>>& next, std::vector<uint8_t>& colour) {
  const int n = t.num_switches;
  const int max_colours = 1 << std::min(opt.max_lmc, kMaxLmc);
  next.assign(n, {});
  colour.assign(static_cast<size_t>(n) * n, 0);
  int colours_used = 1;
  for (int d = 0; d < n; ++d) {
    auto& nx = next[d];
    nx.assign(n, kNoPort);
    int colours = 1;
    for (int s = 0; s < n; ++s) {
      if (s == d) continue;
      const size_t b = paths.begin(s, d), e = paths.end(s, d);
      if (b == e) continue;  // unreachable: the checks report it
      int c = 0;
      for (;; ++c) {
        if (c == colours) {
          if (colours == max_colours)
            throw RenamingOverflow(name + ": destination renaming needs more than " + std::to_string(max_colours) +
                                   " LIDs for switch " + t.nodes[d].name + " (LMC limit " +
                                   std::to_string(opt.max_lmc) + ")");
          nx.resize(nx.size() + n, kNoPort);
          ++colours;
        }
        bool fits = true;
        for (size_t i = b; i < e && fits; ++i) {
          const Channel& ch = g.channels[paths.chans[i]];
          PortNum have = nx[static_cast<size_t>(c) * n + ch.from];
          fits = have == kNoPort || have == ch.port;
        }
        if (fits) break;
      }
      for (size_t i = b; i < e; ++i) {
        const Channel& ch = g.channels[paths.chans[i]];
        PortNum& slot = nx[static_cast<size_t>(c) * n + ch.from];
        if (slot != kNoPort && slot != ch.port)
          throw RoutingError(name + ": the path from " + t.nodes[s].name + " to " + t.nodes[d].name +
                             " passes switch " + t.nodes[ch.from].name + " twice by different ports");
        slot = static_cast<PortNum>(ch.port);
      }
      colour[static_cast<size_t>(d) * n + s] = static_cast<uint8_t>(c);
    }
    colours_used = std::max(colours_used, colours);
  }
  return colours_used;
}

}  // namespace

TableSet tables_from_paths(const Topology& t, const SwitchGraph& g, const PathSet& paths, const RoutingOptions& opt,
                           const std::string& name) {
  const int n = t.num_switches;
  const int vls = opt.vls <= 0 ? 1 : opt.vls;
  if (vls > 2) throw RoutingError(name + " supports 1 or 2 VLs (asked for " + std::to_string(vls) + ")");
  if (vls > opt.max_vls || vls > opt.max_sls)
    throw RoutingError(name + " with " + std::to_string(vls) + " VLs needs " + std::to_string(vls) +
                       " SLs and VLs; the budget is " + std::to_string(opt.max_sls) + " SLs, " +
                       std::to_string(opt.max_vls) + " VLs");
  std::vector<std::vector<PortNum>> next;
  std::vector<uint8_t> colour;  // [d * n + s]
  const int colours_used = colour_paths(t, g, paths, opt, name, next, colour);
  int lmc = 0;
  while ((1 << lmc) < colours_used) ++lmc;

  TableSet ts;
  ts.algorithm = name;
  ts.sls_used = vls;
  ts.vls_used = vls;
  assign_lids(t, lmc, ts);
  fill_renamed_lfts(t, next, lmc, ts);
  for (int s = 0; s < n; ++s)
    for (int sl = 0; sl < vls; ++sl) ts.switches[s].sl2vl.set_all(sl, static_cast<Vl>(sl));
  // The records of a host depend on its switch and, with 2 VLs, on its parity: one row each.
  std::vector<PathRow> rows(static_cast<size_t>(n) * vls);
  for (int h = 0; h < t.num_hosts; ++h) {
    HostTables& ht = ts.hosts[h];
    for (int sl = 0; sl < vls; ++sl) ht.sl2vl[sl] = static_cast<Vl>(sl);
    const int a = t.host_switch(h);
    if (a < 0 || a >= n) continue;
    PathRow& row = rows[static_cast<size_t>(a) * vls + (vls == 2 ? h % 2 : 0)];
    if (row.size() == 0) {
      row.assign(t.num_hosts);
      for (int q = 0; q < t.num_hosts; ++q) {
        const int b = t.host_switch(q);
        if (b < 0 || b >= n) continue;
        const int c = a == b ? 0 : colour[static_cast<size_t>(b) * n + a];
        row.set(q, {static_cast<Lid>(ts.hosts[q].base_lid + c), static_cast<Sl>(vls == 2 ? (h + q) % 2 : 0)});
      }
    }
    ht.paths = row;
  }
  route_switch_lids(t, g, ts);
  return ts;
}

}  // namespace ibsc::routing

namespace ibsc::routing {

TableSet tables_with_fallback(const Topology& t, const SwitchGraph& g, const TurnRules& rules, const RouteResult& first,
                              const RoutingOptions& opt, const std::string& name, bool check_cdg) {
  if (first.paths.n > 0) {  // empty: the caller already knows free choices would overflow
    try {
      return tables_from_paths(t, g, first.paths, opt, name);
    } catch (const RenamingOverflow&) {
    }
  }
  RouteResult r = route_with_turns(g, rules, opt.seed, true, opt.updown_paths);
  if (check_cdg && !path_cdg_cycle(g, r.paths).empty())
    throw RoutingError(name + ": destination renaming needs more than " + std::to_string(1 << opt.max_lmc) +
                       " LIDs per host, and the destination-consistent paths are not deadlock-free");
  return tables_from_paths(t, g, r.paths, opt, name);
}

void fill_renamed_lfts(const Topology& t, const std::vector<std::vector<PortNum>>& layers, int lmc, TableSet& ts) {
  const int n = t.num_switches;
  const auto by_switch = hosts_by_switch(t);
  for (int d = 0; d < n; ++d) {
    const int colours = static_cast<int>(layers[d].size() / n);
    for (int h : by_switch[d]) {
      const Lid base = ts.hosts[h].base_lid;
      const PortNum local = static_cast<PortNum>(t.host_switch_port(h));
      for (int c = 0; c < (1 << lmc); ++c) ts.switches[d].lft.set(base + c, local);
      for (int c = 0; c < colours; ++c)
        for (int x = 0; x < n; ++x) {
          PortNum p = layers[d][static_cast<size_t>(c) * n + x];
          if (p != kNoPort && x != d) ts.switches[x].lft.set(base + c, p);
        }
    }
  }
}

}  // namespace ibsc::routing
