#include "routing/pair_classes.h"

#include <map>
#include <string>
#include <tuple>

namespace ibsc::routing {
namespace {
constexpr int kV = 16;  // VL field values, as checks.cpp
}  // namespace

PairClasses pair_classes(const Topology& t, const TableSet& ts) {
  PairClasses pc;
  pc.of.assign(t.num_hosts, -1);
  std::map<std::tuple<const void*, int, std::string>, int> index;
  for (int h = 0; h < t.num_hosts; ++h) {
    const HostTables& ht = ts.hosts[h];
    const Node& hn = t.nodes[t.host_node(h)];
    if (ht.paths.hidden() != PathRow::kNone || ht.paths.size() != static_cast<size_t>(t.num_hosts) ||
        hn.ports.size() < 2 || hn.ports[1].node < 0 || hn.ports[1].node >= t.num_switches)
      return {};
    const int sw = hn.ports[1].node;
    const auto key = std::make_tuple(ht.paths.identity(), sw, std::string(ht.sl2vl, ht.sl2vl + kNumSls));
    auto it = index.emplace(key, static_cast<int>(pc.list.size())).first;
    if (it->second == static_cast<int>(pc.list.size())) {
      pc.list.emplace_back();
      pc.list.back().id = it->second;
      pc.list.back().sw = sw;
    }
    PairClass& c = pc.list[it->second];
    c.hosts.push_back(h);
    c.ports.push_back(hn.ports[1].port);
    pc.of[h] = c.id;
  }
  for (PairClass& c : pc.list) {
    const Sl2VlTable& tab = ts.switches[c.sw].sl2vl;
    const int P = t.nodes[c.sw].num_ports;
    if (tab.num_ports() < P) return {};
    for (int out = 1; out <= P; ++out)
      for (int k = 0; k < kNumSls; ++k)
        for (int p : c.ports)
          if (p > P || tab.get(p, out, k) != tab.get(c.ports[0], out, k)) return {};
    c.seen.assign((static_cast<size_t>(kV) * (P + 1) * kV + 63) / 64, 0);
  }
  return pc;
}

}  // namespace ibsc::routing
