#include "routing/metrics.h"

#include <cmath>

#include "routing/dense_lft.h"
#include "routing/graph.h"
#include "routing/lids.h"

namespace ibsc::routing {

Metrics compute_metrics(const Topology& t, const TableSet& ts) {
  Metrics m;
  const SwitchGraph g(t);
  const int n = g.n;
  const auto by_switch = hosts_by_switch(t);
  m.channel_load.assign(g.channels.size(), 0);
  long hops = 0, topo = 0, topo_pairs = 0;
  const DenseLft dense(ts);
  for (int a = 0; a < n; ++a) {
    std::vector<int> dist = bfs_distances(g, a);
    if (by_switch[a].empty()) {
      ++m.switches_without_hosts;
      continue;
    }
    for (int b = 0; b < n; ++b)  // the same pairs as the routed paths, so the two compare
      if (b != a && !by_switch[b].empty() && dist[b] >= 0) topo += dist[b], ++topo_pairs;
  }
  // Destination-major, so the walks of one DLID share the same dense LFT row.
  for (int b = 0; b < n; ++b) {
    if (by_switch[b].empty()) continue;
    const int q = by_switch[b].front();
    for (int a = 0; a < n; ++a) {
      if (b == a || by_switch[a].empty()) continue;
      const int h = by_switch[a].front();
      if (ts.hosts[h].paths.size() <= static_cast<size_t>(q) || ts.hosts[h].paths[q].empty()) {
        ++m.broken_pairs;
        continue;
      }
      const PathRecord& rec = ts.hosts[h].paths[q].front();
      int x = a, in_port = t.host_switch_port(h);
      Vl vl = ts.hosts[h].sl2vl[rec.sl];
      int steps = 0;
      bool ok = false;
      while (steps <= n) {
        if (x == b) {
          ok = true;
          break;
        }
        int out;
        if (dense.exact) {
          out = dense.at(rec.dlid, x);
          if (out == kNoPort) break;
        } else {
          const LftEntry& e = ts.switches[x].route(rec.dlid, vl);
          if (!e.routed()) break;
          out = e.primary();
        }
        const int c = out <= t.nodes[x].num_ports ? g.channel_at(x, out) : -1;
        if (c < 0) break;
        const Sl2VlTable& tab = ts.switches[x].sl2vl;
        if (!dense.exact) vl = tab.get(in_port, out, tab.key() == Sl2VlTable::Key::Sl ? rec.sl : vl);
        ++m.channel_load[c];
        ++steps;
        in_port = g.channels[c].to_port;
        x = g.channels[c].to;
      }
      if (!ok) {
        ++m.broken_pairs;
        continue;
      }
      hops += steps;
      ++m.switch_pairs;
    }
  }
  if (m.switch_pairs) m.average_distance = static_cast<double>(hops) / m.switch_pairs;
  if (topo_pairs) m.average_topological_distance = static_cast<double>(topo) / topo_pairs;
  if (!g.channels.empty()) {
    double sum = 0, sq = 0;
    for (int l : m.channel_load) {
      m.crossing_path = std::max(m.crossing_path, l);
      sum += l;
      sq += static_cast<double>(l) * l;
    }
    const double k = static_cast<double>(g.channels.size());
    m.mean_crossing = sum / k;
    m.deviation_crossing = std::sqrt(std::max(0.0, sq / k - m.mean_crossing * m.mean_crossing));
  }
  return m;
}

}  // namespace ibsc::routing
