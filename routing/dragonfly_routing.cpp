// Deterministic routings of seeds/001's dragonfly rows, "Static" and "GSID". The talk gives
// only their names; our reconstruction (routing/README.md, seeds/001):
//   static  minimal: a local hop to the group's switch that owns the global cable toward the
//           destination's group (the first such cable when there are several), the global
//           hop, a local hop to the destination switch.
//   gsid    "global link by source ID": the source switch leaves at once by one of its own
//           global cables, picked by the destination switch (index mod its global cables),
//           and from the group it lands in goes on minimally as static. Every switch of a
//           group thus sends its traffic for one far group over its own cables, spread by
//           destination, instead of all of it over the one cable between the two groups.
//           Destinations in the source's own group are reached by the direct local hop.
//           The modulus (routing.gsid_modulus, routing.h): the switch's own cable count by
//           default; with `h` the dragonfly's h, a residue past this switch's cables going the
//           static way. They differ where groups lack cables (fewer groups than a x h + 1): on
//           the talk's dragonfly the switches with 7 cables of 8 spread by mod 7, and every group
//           reaches the highest-numbered groups through its 7-cable switch, so those cables carry
//           1.5 times their share and the uniform bound falls from 50.4% (h) to 38.3%.
// VLs: the HCA sends on VL 0 and every global hop raises the VL by one (VL2VL: out VL = in VL
// + 1 toward a global port, kept toward a local one), so the dependencies only go
// local VL0 -> global VL1 -> local VL1 -> global VL2 -> local VL2: acyclic; static uses VLs
// 0-1, gsid 0-2. The LFT copy of input VL 0 (the source switch) is where gsid differs. With
// gsid_modulus `h` a host's packet that takes a local hop first (within its group, or a residue
// its switch lacks a cable for) goes on VL 1 from there: local VL1 -> global VL2 -> local VL2.
// Groups come from the switch names the dragonfly generator gives (G<group>S<switch>).
#include <algorithm>
#include <map>
#include <string>

#include "routing/routing.h"
#include "routing/vl_routing.h"

namespace ibsc::routing {

TableSet route_dragonfly(const Topology& t, const RoutingOptions& opt, bool gsid) {
  const std::string name = gsid ? "gsid" : "static";
  if (t.kind != "dragonfly") throw RoutingError(name + " needs a dragonfly (topology is '" + t.kind + "')");
  const int S = t.num_switches;
  std::vector<int> group(S, -1);
  int groups = 0;
  for (int s = 0; s < S; ++s) {
    const std::string& nm = t.nodes[s].name;
    const size_t at = nm.find('S');
    if (nm.empty() || nm[0] != 'G' || at == std::string::npos)
      throw RoutingError(name + ": switch '" + nm + "' is not named G<group>S<switch>");
    group[s] = std::stoi(nm.substr(1, at - 1));
    groups = std::max(groups, group[s] + 1);
  }
  seeds001_vl_budget(name, opt.vls, opt.max_vls, gsid ? 3 : 2, "one more per global hop");
  // Per switch: its local port to each switch of its group; per (group, group): the cables.
  std::vector<std::map<int, int>> local_port(S);
  std::vector<std::vector<int>> global_ports(S);
  std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> cables;  // (g, g') -> (switch, port)
  for (int s = 0; s < S; ++s)
    for (int p = 1; p <= t.nodes[s].num_ports; ++p) {
      const int x = t.nodes[s].ports[p].node;
      if (x < 0 || x >= S || x == s) continue;
      if (group[x] == group[s]) {
        local_port[s].emplace(x, p);
      } else {
        global_ports[s].push_back(p);
        cables[{group[s], group[x]}].push_back({s, p});
      }
    }
  auto local_to = [&](int s, int x) {
    auto it = local_port[s].find(x);
    if (it == local_port[s].end())
      throw RoutingError(name + ": " + t.nodes[s].name + " has no local cable to " + t.nodes[x].name);
    return static_cast<PortNum>(it->second);
  };
  auto minimal = [&](int s, int dst) -> PortNum {
    if (group[s] == group[dst]) return local_to(s, dst);
    auto it = cables.find({group[s], group[dst]});
    if (it == cables.end())
      throw RoutingError(name + ": no global cable between groups " + std::to_string(group[s]) + " and " +
                         std::to_string(group[dst]));
    const auto [owner, port] = it->second.front();
    return owner == s ? static_cast<PortNum>(port) : local_to(s, owner);
  };
  VlRules r;
  r.name = name;
  r.vls = gsid ? 3 : 2;
  size_t h = 0;  // the most global cables of a switch: the dragonfly's h
  for (const auto& g : global_ports) h = std::max(h, g.size());
  const bool by_h = opt.gsid_modulus == GsidModulus::H;
  r.candidates = [&](int s, int v, int dst, std::vector<PortCandidate>& out) {
    if (gsid && v == 0 && group[s] != group[dst] && !global_ports[s].empty()) {
      const size_t i = dst % (by_h ? h : global_ports[s].size());
      if (i < global_ports[s].size()) {
        out.push_back({static_cast<PortNum>(global_ports[s][i]), 0});
        return;
      }
    }
    out.push_back({minimal(s, dst), 0});
  };
  r.next_vl = [&](int s, int in_port, int out_port, int v) {
    const int x = t.nodes[s].ports[out_port].node;
    if (group[x] != group[s]) return static_cast<Vl>(std::min(v + 1, r.vls - 1));
    // With `h`, a source's residue it has no cable for leaves by a local hop: on VL 1, so that
    // the switch it reaches routes it minimally (VL 0's tables there would spread it again).
    // Only a host's own traffic arrives on VL 0, and only then does a local hop raise it.
    const int from = t.nodes[s].ports[in_port].node;
    if (gsid && by_h && v == 0 && from >= S) return Vl{1};
    return static_cast<Vl>(v);
  };
  r.first_vl = [](int, int) { return Vl{0}; };
  return build_vl_tables(t, r);
}

}  // namespace ibsc::routing
