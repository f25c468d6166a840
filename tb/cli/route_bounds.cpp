#include "tb/cli/route_bounds.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "routing/enum_names.h"
#include "tb/stats/channel_load.h"
#include "tb/stats/minimal_bound.h"
#include "tb/traffic/traffic.h"

namespace ibsc::tb {
namespace {

// Whether some LFT entry offers several ports: then the routed walk (primary ports only) is
// one of the paths the switches may take, and adaptive routing can carry more than it.
bool has_alternatives(const routing::TableSet& tables) {
  for (const routing::SwitchTables& s : tables.switches) {
    if (s.vl_pool) {
      const size_t n = s.vl_pool->columns() * static_cast<size_t>(s.vl_pool->vls());
      return std::any_of(s.vl_pool->slots(), s.vl_pool->slots() + n,
                         [](const routing::Lft::Slot& e) { return e.count > 1; });  // one pool for all
    }
    if (!s.lft.single()) return true;
    for (const routing::Lft& l : s.lft_per_input_vl)
      if (!l.single()) return true;
  }
  return false;
}

// Uniform traffic for minimal_unavoidable_bound, which sums demand per switch pair: one entry
// per pair (a host of each, the pair's whole rate), not one per host pair (16,384 hosts: 268 M
// entries, 4 GB).
std::vector<Demand> uniform_switch_demand(const routing::Topology& topo) {
  const int n = topo.num_hosts;
  std::vector<int> first(topo.num_switches, -1), count(topo.num_switches, 0);
  for (int h = 0; h < n; ++h) {
    const int sw = topo.host_switch(h);
    if (first[sw] < 0) first[sw] = h;
    ++count[sw];
  }
  std::vector<Demand> d;
  if (n < 2) return d;
  for (int a = 0; a < topo.num_switches; ++a)
    for (int b = 0; b < topo.num_switches; ++b)
      if (a != b && count[a] && count[b]) d.push_back({first[a], first[b], double(count[a]) * count[b] / (n - 1)});
  return d;
}

}  // namespace

std::vector<RouteBound> route_bounds(const routing::Topology& topo, const routing::TableSet& tables,
                                     const std::vector<std::string>& patterns) {
  std::vector<RouteBound> out;
  const bool adaptive = has_alternatives(tables);
  for (const std::string& name : patterns) {
    TrafficConfig cfg;
    try {
      cfg.pattern = enum_value<TrafficPattern>(name);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--bound: ") + e.what());
    }
    if (cfg.pattern == TrafficPattern::Permutation || cfg.pattern == TrafficPattern::HotSenders ||
        cfg.pattern == TrafficPattern::Hotspot)
      throw std::invalid_argument("--bound " + name +
                                  ": needs settings a scenario gives (traffic.*); use uniform or a bit pattern");
    ChannelLoadBound b;
    MinimalBound m;
    try {
      // Link rate 1 byte/ns: the bound's fraction of injection bandwidth does not depend on it.
      // Uniform traffic is walked without a hosts x hosts demand list (channel_load.h).
      b = channel_load_bound(topo, tables, cfg, 1.0);
      const bool uniform = cfg.pattern == TrafficPattern::Uniform;
      m = minimal_unavoidable_bound(topo, uniform ? uniform_switch_demand(topo) : traffic_matrix(cfg, topo));
    } catch (const std::exception& e) {
      throw std::invalid_argument("--bound " + name + ": " + e.what());
    }
    RouteBound r;
    r.pattern = name;
    r.routed = 100 * bound_fraction(b);
    r.busiest = b.busiest;
    r.busiest_share = b.max_channel_share;
    r.paths = b.paths;
    r.non_minimal_paths = b.non_minimal_paths;
    r.adaptive = adaptive;
    r.minimal = 100 * m.fraction;
    r.minimal_where = m.where;
    out.push_back(r);
  }
  return out;
}

std::string route_bound_text(const std::string& algorithm, const RouteBound& b) {
  std::string s = fmt::format(
      "bound {} {}: {:.1f} % of injection bandwidth, routed (the busiest channel, {}, carries {:.2f} host rates; "
      "{} of {} host pairs' paths non-minimal){}\n",
      algorithm, b.pattern, b.routed, b.busiest.empty() ? "none" : b.busiest, b.busiest_share, b.non_minimal_paths,
      b.paths, b.adaptive ? "; adaptive tables: primary ports only, the alternatives may carry more" : "");
  s += fmt::format("bound {} {}: {:.1f} % for any minimal routing ({})\n", algorithm, b.pattern, b.minimal,
                   b.minimal_where.empty() ? "no cable that every minimal path of a pair must cross"
                                           : "its busiest unavoidable cables: " + b.minimal_where);
  return s;
}

nlohmann::json route_bound_json(const RouteBound& b) {
  return {{"pattern", b.pattern},
          {"routed_percent", b.routed},
          {"busiest_channel", b.busiest},
          {"busiest_share", b.busiest_share},
          {"paths", b.paths},
          {"non_minimal_paths", b.non_minimal_paths},
          {"primary_ports_only", b.adaptive},
          {"minimal_percent", b.minimal},
          {"minimal_unavoidable", b.minimal_where}};
}

}  // namespace ibsc::tb
