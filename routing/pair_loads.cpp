#include "routing/pair_loads.h"

#include <algorithm>
#include <memory>

#include "routing/dense_lft.h"
#include "routing/graph.h"
#include "routing/lids.h"

namespace ibsc::routing {
namespace {

// Walks one record from source host h's switch, adding `weight` to every channel crossed. With
// `dense` (no switch keeps an LFT per input VL, so the VL never matters) the primary ports come
// from its matrix, a few cache lines per destination.
bool walk(const Topology& t, const TableSet& ts, const SwitchGraph& g, const DenseLft* dense, int h, int dst_switch,
          const PathRecord& rec, long weight, std::vector<long>& load) {
  int x = t.host_switch(h), in_port = t.host_switch_port(h);
  Vl vl = ts.hosts[h].sl2vl[rec.sl];
  for (int steps = 0; steps <= g.n; ++steps) {
    if (x == dst_switch) return true;
    PortNum out;
    if (dense) {
      out = dense->at(rec.dlid, x);
    } else {
      const LftEntry e = ts.switches[x].route(rec.dlid, vl);
      out = e.primary();
    }
    if (out == kNoPort || out > t.nodes[x].num_ports) return false;
    const int c = g.channel_at(x, out);
    if (c < 0) return false;
    if (!dense) {
      const Sl2VlTable& tab = ts.switches[x].sl2vl;
      vl = tab.get(in_port, out, tab.key() == Sl2VlTable::Key::Sl ? rec.sl : vl);
    }
    load[c] += weight;
    in_port = g.channels[c].to_port;
    x = g.channels[c].to;
  }
  return false;
}

const PathRecord* record(const TableSet& ts, int src, int dst) {
  if (ts.hosts[src].paths.size() <= static_cast<size_t>(dst) || ts.hosts[src].paths[dst].empty()) return nullptr;
  return &ts.hosts[src].paths[dst].front();
}

PairLoads walk_pairs(const Topology& t, const TableSet& ts, const SwitchGraph& g, const DenseLft* dense,
                     const std::vector<std::pair<int, int>>& pairs) {
  PairLoads r;
  r.channel_load.assign(g.channels.size(), 0);
  for (const auto& [s, d] : pairs) {
    const PathRecord* rec = record(ts, s, d);
    if (rec && t.host_switch(d) >= 0 && walk(t, ts, g, dense, s, t.host_switch(d), *rec, 1, r.channel_load)) ++r.pairs;
    else ++r.broken;
  }
  return r;
}

std::unique_ptr<DenseLft> dense_unless_per_vl(const TableSet& ts) {
  for (const SwitchTables& st : ts.switches)
    if (st.per_vl()) return nullptr;
  return std::make_unique<DenseLft>(ts);
}

}  // namespace

long PairLoads::busiest() const {
  return channel_load.empty() ? 0 : *std::max_element(channel_load.begin(), channel_load.end());
}

PairLoads uniform_pair_loads(const Topology& t, const TableSet& ts) {
  const SwitchGraph g(t);
  PairLoads r;
  r.channel_load.assign(g.channels.size(), 0);
  const auto by_switch = hosts_by_switch(t);
  // Sources of one switch with the same DLID share a walk: the LFTs see only the DLID unless a
  // switch keeps one per input VL, when the SL and the source's port (its first VL) count too.
  const std::unique_ptr<DenseLft> dense = dense_unless_per_vl(ts);
  const bool per_vl = !dense;
  std::vector<std::pair<int, long>> group;  // (first source, sources)
  for (int q = 0; q < t.num_hosts; ++q) {
    const int b = t.host_switch(q);
    if (b < 0) continue;
    for (int a = 0; a < t.num_switches; ++a) {
      group.clear();
      for (int h : by_switch[a]) {
        if (h == q) continue;
        const PathRecord* rec = record(ts, h, q);
        if (!rec) {
          ++r.broken;
          continue;
        }
        auto it = std::find_if(group.begin(), group.end(), [&](const std::pair<int, long>& g0) {
          const PathRecord& o = *record(ts, g0.first, q);
          return o.dlid == rec->dlid &&
                 (!per_vl || (o.sl == rec->sl && t.host_switch_port(g0.first) == t.host_switch_port(h) &&
                              ts.hosts[g0.first].sl2vl[o.sl] == ts.hosts[h].sl2vl[rec->sl]));
        });
        if (it == group.end()) group.push_back({h, 1});
        else ++it->second;
      }
      for (const auto& [h, n] : group) {
        if (a == b) {
          r.pairs += n;
          continue;
        }
        if (walk(t, ts, g, dense.get(), h, b, *record(ts, h, q), n, r.channel_load)) r.pairs += n;
        else r.broken += n;
      }
    }
  }
  return r;
}

PairLoads pair_loads(const Topology& t, const TableSet& ts, const std::vector<std::pair<int, int>>& pairs) {
  return walk_pairs(t, ts, SwitchGraph(t), nullptr, pairs);
}

long busiest_shift(const Topology& t, const TableSet& ts, const std::vector<int>& order) {
  const SwitchGraph g(t);
  const std::unique_ptr<DenseLft> dense = dense_unless_per_vl(ts);
  const int n = static_cast<int>(order.size());
  long worst = 0;
  std::vector<std::pair<int, int>> pairs(n);
  for (int j = 1; j < n; ++j) {
    for (int i = 0; i < n; ++i) pairs[i] = {order[i], order[(i + j) % n]};
    worst = std::max(worst, walk_pairs(t, ts, g, dense.get(), pairs).busiest());
  }
  return worst;
}

}  // namespace ibsc::routing
