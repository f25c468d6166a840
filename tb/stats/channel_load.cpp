#include "tb/stats/channel_load.h"

#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <stdexcept>

namespace ibsc::tb {

namespace {
std::vector<Demand> pattern_matrix(const TrafficConfig& cfg, const routing::Topology& topo);
}  // namespace

// Silent hosts (traffic.silent_hosts) send nothing: their rows are left out.
std::vector<Demand> traffic_matrix(const TrafficConfig& cfg, const routing::Topology& topo) {
  std::vector<Demand> m = pattern_matrix(cfg, topo);
  if (cfg.silent_hosts.empty()) return m;
  m.erase(std::remove_if(m.begin(), m.end(),
                         [&](const Demand& d) {
                           return std::find(cfg.silent_hosts.begin(), cfg.silent_hosts.end(), d.src) !=
                                  cfg.silent_hosts.end();
                         }),
          m.end());
  return m;
}

namespace {
std::vector<Demand> pattern_matrix(const TrafficConfig& cfg, const routing::Topology& topo) {
  const int n = topo.num_hosts;
  std::vector<Demand> m;
  if (cfg.pattern == TrafficPattern::HotSenders) {
    // Expected shares: a hot sender's packets evenly over the hot hosts; every other host's
    // uniformly over the hosts neither hot nor itself.
    make_destination_pattern(cfg, topo);  // validates the hosts
    std::vector<uint8_t> hot(n, 0), sender(n, 0);
    for (int h : cfg.hotspot_hosts) hot[h] = 1;
    for (int h : cfg.hotspot_senders) sender[h] = 1;
    const int cold = n - static_cast<int>(std::count(hot.begin(), hot.end(), 1));
    for (int s = 0; s < n; ++s) {
      if (sender[s]) {
        for (int h : cfg.hotspot_hosts) m.push_back({s, h, 1.0 / cfg.hotspot_hosts.size()});
        continue;
      }
      const int others = cold - (hot[s] ? 0 : 1);
      for (int d = 0; d < n; ++d)
        if (d != s && !hot[d] && others > 0) m.push_back({s, d, 1.0 / others});
    }
    return m;
  }
  if (cfg.pattern == TrafficPattern::Uniform) {
    if (n < 2) return m;
    for (int s = 0; s < n; ++s)
      for (int d = 0; d < n; ++d)
        if (d != s) m.push_back({s, d, 1.0 / (n - 1)});
    return m;
  }
  if (cfg.pattern == TrafficPattern::Hotspot) {
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
  models::RandomStream a = models::make_random_stream(1), b = models::make_random_stream(2);
  for (int s = 0; s < n; ++s) {
    int d = pattern->destination(s, a);
    if (d != pattern->destination(s, b) || d != pattern->destination(s, a))
      throw std::invalid_argument("traffic pattern '" + enum_name(cfg.pattern) +
                                  "' draws its destinations at random: its channel-load bound is not computed");
    if (d >= 0 && d != s) m.push_back({s, d, 1.0});
  }
  return m;
}

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

namespace {

// Walks primary paths through the LFTs and sums their shares per channel; the two bounds
// follow from the sums (see the header). One walk may stand for several sources: the hosts of
// one switch that share a path record row and enter the same VLs (uniform traffic).
class LoadWalk {
 public:
  LoadWalk(const routing::Topology& topo, const routing::TableSet& tables)
      : t_(topo), ts_(tables), ch_(topo), load_(ch_.count, 0.0), dist_(topo.num_switches) {}

  const std::vector<int>& distances(int sw) {
    if (dist_[sw].empty()) dist_[sw] = switch_distances(t_, sw);
    return dist_[sw];
  }
  void add(int node, int port, double share) { load_[ch_.at(node, port)] += share; }

  // The path of (src, dst) from src's first switch on: src's injection channel is not added.
  // `weight` is the share it carries, `pairs` the host pairs it stands for.
  // `trace`, when given, gets every channel the path crosses, the injection channel first.
  void walk_from_switch(int src, int dst, double weight, long pairs, std::vector<int32_t>* trace = nullptr) {
    const routing::PathRecord& rec = ts_.path(src, dst);
    int node = t_.host_node(src), port = 1;
    int vl = ts_.hosts[src].sl2vl[rec.sl];
    const int max_hops = t_.num_switches + 2;
    for (int hop = 0;; ++hop) {
      if (hop > 0) load_[ch_.at(node, port)] += weight;
      if (trace) trace->push_back(ch_.at(node, port));
      const routing::PortPeer& far = t_.nodes[node].peer(port);
      if (far.node < 0 || hop > max_hops)
        throw std::runtime_error("channel-load bound: the path from host " + std::to_string(src) + " to host " +
                                 std::to_string(dst) + " does not reach its destination");
      if (!t_.is_switch(far.node)) {
        if (t_.host_index(far.node) != dst)
          throw std::runtime_error("channel-load bound: the path from host " + std::to_string(src) + " ends at host " +
                                   std::to_string(t_.host_index(far.node)));
        b_.paths += pairs;
        // hop counts links from the source host; switch-to-switch links are hop - 1.
        if (hop - 1 > distances(t_.host_switch(src))[t_.host_switch(dst)]) b_.non_minimal_paths += pairs;
        return;
      }
      const routing::SwitchTables& st = ts_.switches[far.node];
      int out = st.route(rec.dlid, static_cast<ibsc::Vl>(vl)).primary();
      if (out == ibsc::kNoPort)
        throw std::runtime_error("channel-load bound: switch " + t_.nodes[far.node].name + " has no route to LID " +
                                 std::to_string(rec.dlid));
      int key = st.sl2vl.key() == routing::Sl2VlTable::Key::Sl ? rec.sl : vl;
      vl = st.sl2vl.get(far.port, out, key);
      node = far.node;
      port = out;
    }
  }

  int channels() const { return ch_.count; }

  // sent[h]: the shares host h sends (its injection channel's load); hops[h]: the mean
  // switch-to-switch distance of its traffic.
  ChannelLoadBound finish(const std::vector<double>& sent, const std::vector<double>& hops, double link_bytes_per_ns) {
    for (int h = 0; h < t_.num_hosts; ++h)
      if (sent[h] > 0) add(t_.host_node(h), 1, sent[h]);
    double senders_share = 0;
    for (double s : sent) senders_share += s;
    auto best = std::max_element(load_.begin(), load_.end());
    if (best == load_.end() || *best <= 0) return b_;
    b_.max_channel_share = *best;
    int idx = static_cast<int>(best - load_.begin());
    int node = static_cast<int>(std::upper_bound(ch_.first.begin(), ch_.first.end(), idx) - ch_.first.begin()) - 1;
    b_.busiest = (t_.is_switch(node) ? "switch " + t_.nodes[node].name : "host " + t_.nodes[node].name) + " port " +
                 std::to_string(idx - ch_.first[node]);
    // Every host injects r bytes/ns; the busiest channel carries r * share <= link rate.
    const double per_switch = senders_share / t_.num_switches;
    b_.routed = link_bytes_per_ns / b_.max_channel_share * per_switch;

    // Any routing, any rates: each host h sends r_h <= link rate, its bytes cross at least
    // hops_h switch channels on average, and all switch channels together carry at most
    // channels x link rate. Maximise sum r_h: fill the hosts with the fewest hops first.
    int switch_channels = 0;
    for (int s = 0; s < t_.num_switches; ++s)
      for (const auto& p : t_.nodes[s].ports)
        if (p.node >= 0 && t_.is_switch(p.node)) ++switch_channels;
    std::vector<int> order;
    for (int h = 0; h < t_.num_hosts; ++h)
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
    b_.topology = total / t_.num_switches;
    return b_;
  }

 private:
  const routing::Topology& t_;
  const routing::TableSet& ts_;
  Channels ch_;
  std::vector<double> load_;
  std::vector<std::vector<int>> dist_;
  ChannelLoadBound b_;
};

// Hosts whose walks coincide from their first switch on: same switch, same path record row,
// same HCA SL2VL, and the same SL2VL rows at that switch for their input ports.
std::vector<std::vector<int>> same_walk_groups(const routing::Topology& topo, const routing::TableSet& tables) {
  std::map<std::string, std::vector<int>> by_key;
  for (int h = 0; h < topo.num_hosts; ++h) {
    const int sw = topo.host_switch(h), in = topo.host_switch_port(h);
    const routing::HostTables& ht = tables.hosts[h];
    std::string key = std::to_string(sw) + "/" + std::to_string(reinterpret_cast<uintptr_t>(ht.paths.identity())) + "/";
    key.append(reinterpret_cast<const char*>(ht.sl2vl), sizeof ht.sl2vl);
    const routing::Sl2VlTable& m = tables.switches[sw].sl2vl;
    for (int o = 0; o <= m.num_ports(); ++o)
      for (int k = 0; k < ibsc::kNumSls; ++k) key.push_back(static_cast<char>(m.get(in, o, k)));
    by_key[key].push_back(h);
  }
  std::vector<std::vector<int>> groups;
  groups.reserve(by_key.size());
  for (auto& kv : by_key) groups.push_back(std::move(kv.second));
  return groups;
}

}  // namespace

double bound_fraction(const ChannelLoadBound& b) {
  return b.max_channel_share > 0 ? std::min(1.0, 1.0 / b.max_channel_share) : 1.0;
}

ChannelLoadBound channel_load_bound(const routing::Topology& topo, const routing::TableSet& tables,
                                    const std::vector<Demand>& demand, double link_bytes_per_ns) {
  LoadWalk w(topo, tables);
  std::vector<double> sent(topo.num_hosts, 0.0), hops(topo.num_hosts, 0.0);
  for (const Demand& d : demand) {
    sent[d.src] += d.share;
    w.walk_from_switch(d.src, d.dst, d.share, 1);
  }
  for (const Demand& d : demand)
    hops[d.src] += d.share * w.distances(topo.host_switch(d.src))[topo.host_switch(d.dst)] / sent[d.src];
  return w.finish(sent, hops, link_bytes_per_ns);
}

ChannelLoadBound channel_load_bound(const routing::Topology& topo, const routing::TableSet& tables,
                                    const TrafficConfig& traffic, double link_bytes_per_ns) {
  if (traffic.pattern != TrafficPattern::Uniform)
    return channel_load_bound(topo, tables, traffic_matrix(traffic, topo), link_bytes_per_ns);
  // Uniform: every host sends 1/(n-1) of its rate to each other host. One walk per group of
  // hosts that share their walks (a switch's hosts, usually) and destination, weighted by the
  // group's senders: hosts x switches walks instead of hosts squared, and no demand list.
  const int n = topo.num_hosts;
  LoadWalk w(topo, tables);
  std::vector<double> sent(n, 0.0), hops(n, 0.0);
  if (n < 2) return w.finish(sent, hops, link_bytes_per_ns);
  const double share = 1.0 / (n - 1);
  std::vector<char> member(n, 0);
  for (const std::vector<int>& g : same_walk_groups(topo, tables)) {
    for (int h : g) member[h] = 1;
    const std::vector<int>& dist = w.distances(topo.host_switch(g.front()));
    double hop_sum = 0;
    for (int d = 0; d < n; ++d) {
      const long senders = static_cast<long>(g.size()) - member[d];
      hop_sum += dist[topo.host_switch(d)];
      if (senders == 0) continue;
      const int src = g.front() != d ? g.front() : g[1];  // a host's own row hides itself
      w.walk_from_switch(src, d, share * senders, senders);
    }
    for (int h : g) {
      member[h] = 0;
      sent[h] = 1.0;
      hops[h] = hop_sum * share;  // the host's own switch adds distance 0
    }
  }
  return w.finish(sent, hops, link_bytes_per_ns);
}

DemandPaths demand_paths(const routing::Topology& topo, const routing::TableSet& tables,
                         const std::vector<Demand>& demand) {
  LoadWalk w(topo, tables);
  DemandPaths p;
  p.channels = w.channels();
  p.offset.reserve(demand.size() + 1);
  p.offset.push_back(0);
  for (const Demand& d : demand) {
    w.walk_from_switch(d.src, d.dst, 0.0, 1, &p.chans);
    p.offset.push_back(static_cast<uint32_t>(p.chans.size()));
  }
  return p;
}

}  // namespace ibsc::tb
