#include "tb/channel_load.h"

#include <algorithm>
#include <deque>
#include <random>
#include <stdexcept>

namespace ibsc::tb {

std::vector<Demand> traffic_matrix(const TrafficConfig& cfg, const routing::Topology& topo) {
  const int n = topo.num_hosts;
  std::vector<Demand> m;
  if (cfg.pattern == "uniform") {
    if (n < 2) return m;
    for (int s = 0; s < n; ++s)
      for (int d = 0; d < n; ++d)
        if (d != s) m.push_back({s, d, 1.0 / (n - 1)});
    return m;
  }
  if (cfg.pattern == "hotspot") {
    // Expected shares (TrafficConfig's hotspot): with probability f one of the listed hosts, each
    // listing equally likely; a draw of the source itself falls back to uniform, as does 1 - f.
    make_destination_pattern(cfg, topo);  // validates hosts and fraction
    if (n < 2) return m;
    const double f = cfg.hotspot_fraction, per = f / cfg.hotspot_hosts.size();
    for (int s = 0; s < n; ++s) {
      std::vector<double> w(n, 0.0);
      double uni = 1.0 - f;
      for (int h : cfg.hotspot_hosts) (h == s ? uni : w[h]) += per;
      for (int d = 0; d < n; ++d)
        if (d != s) m.push_back({s, d, w[d] + uni / (n - 1)});
    }
    return m;
  }
  auto pattern = make_destination_pattern(cfg, topo);
  std::mt19937_64 a(1), b(2);
  for (int s = 0; s < n; ++s) {
    int d = pattern->destination(s, a);
    if (d != pattern->destination(s, b) || d != pattern->destination(s, a))
      throw std::invalid_argument("traffic pattern '" + cfg.pattern +
                                  "' draws its destinations at random: its channel-load bound is not computed");
    if (d >= 0 && d != s) m.push_back({s, d, 1.0});
  }
  return m;
}

namespace {

// Dense channel index: (node, port) of the sending side.
struct Channels {
  std::vector<int> first;  // per node, index of its port 0
  int count = 0;
  explicit Channels(const routing::Topology& t) {
    for (const auto& node : t.nodes) {
      first.push_back(count);
      count += node.num_ports + 1;
    }
  }
  int at(int node, int port) const { return first[node] + port; }
};

// Switch-to-switch hop counts from one switch (BFS over cables).
std::vector<int> switch_distances(const routing::Topology& t, int from) {
  std::vector<int> dist(t.num_switches, -1);
  std::deque<int> q{from};
  dist[from] = 0;
  while (!q.empty()) {
    int s = q.front();
    q.pop_front();
    for (const auto& p : t.nodes[s].ports)
      if (p.node >= 0 && t.is_switch(p.node) && dist[p.node] < 0) {
        dist[p.node] = dist[s] + 1;
        q.push_back(p.node);
      }
  }
  return dist;
}

}  // namespace

ChannelLoadBound channel_load_bound(const routing::Topology& topo, const routing::TableSet& tables,
                                    const std::vector<Demand>& demand, double link_bytes_per_ns) {
  Channels ch(topo);
  std::vector<double> load(ch.count, 0.0);
  std::vector<double> sent(topo.num_hosts, 0.0);
  const int max_hops = topo.num_switches + 2;
  std::vector<std::vector<int>> dist(topo.num_switches);
  for (const Demand& d : demand) {
    int a = topo.host_switch(d.src);
    if (dist[a].empty()) dist[a] = switch_distances(topo, a);
  }
  ChannelLoadBound b;
  for (const Demand& d : demand) {
    sent[d.src] += d.share;
    const routing::PathRecord& rec = tables.path(d.src, d.dst);
    int node = topo.host_node(d.src), port = 1;
    int vl = tables.hosts[d.src].sl2vl[rec.sl];
    for (int hop = 0;; ++hop) {
      load[ch.at(node, port)] += d.share;
      const routing::PortPeer& far = topo.nodes[node].peer(port);
      if (far.node < 0 || hop > max_hops)
        throw std::runtime_error("channel-load bound: the path from host " + std::to_string(d.src) + " to host " +
                                 std::to_string(d.dst) + " does not reach its destination");
      if (!topo.is_switch(far.node)) {
        if (topo.host_index(far.node) != d.dst)
          throw std::runtime_error("channel-load bound: the path from host " + std::to_string(d.src) +
                                   " ends at host " + std::to_string(topo.host_index(far.node)));
        ++b.paths;
        // hop counts links from the source host; switch-to-switch links are hop - 1.
        if (hop - 1 > dist[topo.host_switch(d.src)][topo.host_switch(d.dst)]) ++b.non_minimal_paths;
        break;
      }
      const routing::SwitchTables& st = tables.switches[far.node];
      int out = st.route(rec.dlid, static_cast<ibsc::Vl>(vl)).primary();
      if (out == ibsc::kNoPort)
        throw std::runtime_error("channel-load bound: switch " + topo.nodes[far.node].name + " has no route to LID " +
                                 std::to_string(rec.dlid));
      int key = st.sl2vl.key() == routing::Sl2VlTable::Key::Sl ? rec.sl : vl;
      vl = st.sl2vl.get(far.port, out, key);
      node = far.node;
      port = out;
    }
  }

  double senders_share = 0;
  for (double s : sent) senders_share += s;
  auto best = std::max_element(load.begin(), load.end());
  if (best == load.end() || *best <= 0) return b;
  b.max_channel_share = *best;
  int idx = static_cast<int>(best - load.begin());
  int node = static_cast<int>(std::upper_bound(ch.first.begin(), ch.first.end(), idx) - ch.first.begin()) - 1;
  b.busiest = (topo.is_switch(node) ? "switch " + topo.nodes[node].name : "host " + topo.nodes[node].name) + " port " +
              std::to_string(idx - ch.first[node]);
  // Every host injects r bytes/ns; the busiest channel carries r * share <= link rate.
  const double per_switch = senders_share / topo.num_switches;
  b.routed = link_bytes_per_ns / b.max_channel_share * per_switch;

  // Any routing, any rates: each host h sends r_h <= link rate, its bytes cross at least
  // hops_h switch channels on average, and all switch channels together carry at most
  // channels x link rate. Maximise sum r_h: fill the hosts with the fewest hops first.
  std::vector<double> hops(topo.num_hosts, 0.0);
  for (const Demand& d : demand)
    hops[d.src] += d.share * dist[topo.host_switch(d.src)][topo.host_switch(d.dst)] / sent[d.src];
  int switch_channels = 0;
  for (int s = 0; s < topo.num_switches; ++s)
    for (const auto& p : topo.nodes[s].ports)
      if (p.node >= 0 && topo.is_switch(p.node)) ++switch_channels;
  std::vector<int> order;
  for (int h = 0; h < topo.num_hosts; ++h)
    if (sent[h] > 0) order.push_back(h);
  std::sort(order.begin(), order.end(), [&](int x, int y) { return hops[x] < hops[y]; });
  double budget = link_bytes_per_ns * switch_channels, total = 0;
  for (int h : order) {
    // Injection link. (Ejection needs no term: under uniform traffic and permutations each
    // host receives the share it sends.)
    double r = link_bytes_per_ns;
    if (hops[h] > 0) r = std::min(r, budget / hops[h]);
    budget -= r * hops[h];
    total += r;
  }
  b.topology = total / topo.num_switches;
  return b;
}

}  // namespace ibsc::tb
