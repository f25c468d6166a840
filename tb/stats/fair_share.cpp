#include "tb/stats/fair_share.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>

namespace ibsc::tb {
namespace {

// Flows as weighted channel lists (a flow of rate x puts x * weight on each of its channels),
// each capped; channel capacity 1 (link rate).
struct Flows {
  std::vector<uint32_t> offset{0};
  std::vector<int32_t> chan;
  std::vector<double> weight;
  std::vector<double> cap;
  void add(const std::map<int32_t, double>& use, double c) {
    for (const auto& [ch, w] : use) {
      chan.push_back(ch);
      weight.push_back(w);
    }
    offset.push_back(static_cast<uint32_t>(chan.size()));
    cap.push_back(c);
  }
  size_t size() const { return cap.size(); }
};

// Progressive filling: the unfrozen flows share one rate x; each step raises x to the next
// channel that fills or cap that is met, and freezes the flows concerned. Returns the sum of rates.
double max_min_fair_total(const Flows& f, int channels) {
  const size_t n = f.size();
  std::vector<double> active(channels, 0.0), used(channels, 0.0);
  std::vector<std::vector<uint32_t>> on(channels);  // flows crossing each channel
  for (size_t i = 0; i < n; ++i)
    for (uint32_t k = f.offset[i]; k < f.offset[i + 1]; ++k) {
      active[f.chan[k]] += f.weight[k];
      on[f.chan[k]].push_back(static_cast<uint32_t>(i));
    }
  std::vector<char> frozen(n, 0);
  std::vector<size_t> by_cap(n);
  for (size_t i = 0; i < n; ++i) by_cap[i] = i;
  std::sort(by_cap.begin(), by_cap.end(), [&](size_t a, size_t b) { return f.cap[a] < f.cap[b]; });
  size_t next_cap = 0, left = n;
  double x = 0, total = 0;
  constexpr double kEps = 1e-12;
  auto freeze = [&](size_t i) {
    if (frozen[i]) return;
    frozen[i] = 1;
    --left;
    total += x;
    for (uint32_t k = f.offset[i]; k < f.offset[i + 1]; ++k) active[f.chan[k]] -= f.weight[k];
  };
  while (left > 0) {
    while (next_cap < n && frozen[by_cap[next_cap]]) ++next_cap;
    double step = next_cap < n ? f.cap[by_cap[next_cap]] - x : std::numeric_limits<double>::infinity();
    for (int c = 0; c < channels; ++c)
      if (active[c] > kEps) step = std::min(step, (1.0 - used[c]) / active[c]);
    step = std::max(step, 0.0);
    x += step;
    for (int c = 0; c < channels; ++c) used[c] += step * std::max(active[c], 0.0);
    for (int c = 0; c < channels; ++c)
      if (active[c] > kEps && used[c] >= 1.0 - 1e-9)
        for (uint32_t i : on[c]) freeze(i);
    while (next_cap < n && f.cap[by_cap[next_cap]] <= x + kEps) freeze(by_cap[next_cap++]);
  }
  return total;
}

}  // namespace

FairShareCeiling fair_share_ceiling(const routing::Topology& topo, const routing::TableSet& tables,
                                    const std::vector<Demand>& demand, double link_bytes_per_ns) {
  const DemandPaths p = demand_paths(topo, tables, demand);
  Flows pairs, sources;
  std::map<int, std::map<int32_t, double>> per_source;  // source -> channel -> share
  std::map<int, double> offered;
  for (size_t i = 0; i < demand.size(); ++i) {
    const Demand& d = demand[i];
    if (d.share <= 0) continue;
    std::map<int32_t, double> use;
    for (uint32_t k = p.offset[i]; k < p.offset[i + 1]; ++k) {
      use[p.chans[k]] += 1.0;
      per_source[d.src][p.chans[k]] += d.share;
    }
    pairs.add(use, d.share);
    offered[d.src] += d.share;
  }
  // A source flow of rate x sends x * share to each destination: normalised to its offer.
  for (auto& [src, use] : per_source) {
    for (auto& [ch, w] : use) w /= offered[src];
    sources.add(use, offered[src]);
  }
  const double scale = link_bytes_per_ns / std::max(topo.num_switches, 1);
  return {max_min_fair_total(pairs, p.channels) * scale, max_min_fair_total(sources, p.channels) * scale};
}

}  // namespace ibsc::tb
