#include "routing/graph.h"

#include <algorithm>

namespace ibsc::routing {

SwitchGraph::SwitchGraph(const Topology& t) : n(t.num_switches) {
  out.resize(n);
  in.resize(n);
  by_port_offset.resize(n + 1, 0);
  for (int s = 0; s < n; ++s) by_port_offset[s + 1] = by_port_offset[s] + t.nodes[s].num_ports + 1;
  by_port.assign(by_port_offset[n], -1);
  for (int s = 0; s < n; ++s) {
    const Node& node = t.nodes[s];
    for (int p = 1; p <= node.num_ports; ++p) {
      const PortPeer& pp = node.ports[p];
      if (pp.node < 0 || pp.node >= n || pp.node == s) continue;
      int id = static_cast<int>(channels.size());
      channels.push_back({s, p, pp.node, pp.port});
      out[s].push_back(id);
      by_port[by_port_offset[s] + p] = id;
    }
  }
  reverse.resize(channels.size());
  for (size_t c = 0; c < channels.size(); ++c) {
    const Channel& ch = channels[c];
    in[ch.to].push_back(static_cast<int>(c));
    reverse[c] = by_port[by_port_offset[ch.to] + ch.to_port];
  }
}

FlatChannels::FlatChannels(const SwitchGraph& g) : first(g.n + 1, 0) {
  to.reserve(g.channels.size());
  port.reserve(g.channels.size());
  for (int x = 0; x < g.n; ++x) {
    for (int c : g.out[x]) to.push_back(g.channels[c].to), port.push_back(g.channels[c].port);
    first[x + 1] = static_cast<int>(to.size());
  }
}

namespace {

// Breadth-first search from src into dist (-1: not reached); it stops once every switch has
// its distance.
void search(const FlatChannels& f, int src, std::vector<int>& dist, std::vector<int>& queue) {
  const std::vector<int>&first = f.first, &to = f.to;
  const int n = static_cast<int>(dist.size());
  std::fill(dist.begin(), dist.end(), -1);
  dist[src] = 0;
  queue[0] = src;
  for (int head = 0, tail = 1; head < tail && tail < n; ++head) {
    const int x = queue[head];
    for (int i = first[x]; i < first[x + 1]; ++i)
      if (dist[to[i]] < 0) dist[to[i]] = dist[x] + 1, queue[tail++] = to[i];
  }
}

}  // namespace

std::vector<int> bfs_distances(const SwitchGraph& g, int src) {
  std::vector<int> dist(g.n, -1);
  std::vector<int> queue;
  queue.reserve(g.n);
  dist[src] = 0;
  queue.push_back(src);
  for (size_t i = 0; i < queue.size() && static_cast<int>(queue.size()) < g.n; ++i) {  // to the last switch
    int x = queue[i];
    for (int c : g.out[x]) {
      int y = g.channels[c].to;
      if (dist[y] < 0) {
        dist[y] = dist[x] + 1;
        queue.push_back(y);
      }
    }
  }
  return dist;
}

std::vector<uint16_t> all_pairs_distances(const SwitchGraph& g) {
  std::vector<uint16_t> d(static_cast<size_t>(g.n) * g.n, kUnreachable);
  const FlatChannels f(g);
  std::vector<int> row(g.n), queue(g.n);
  for (int s = 0; s < g.n; ++s) {
    search(f, s, row, queue);
    uint16_t* out = d.data() + static_cast<size_t>(s) * g.n;
    for (int x = 0; x < g.n; ++x)
      if (row[x] >= 0) out[x] = static_cast<uint16_t>(row[x]);
  }
  return d;
}

}  // namespace ibsc::routing
