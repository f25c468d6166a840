// Flexible routing, second stage (seeds/000 section 4): rebalancing in path space while the
// channel dependency graph stays acyclic.
// The text says Flexible breaks each direction of a cycle at its own switch and may remove
// further dependencies to balance traffic; any set of removed dependencies (prohibited turns
// "in channel -> out channel") that leaves the dependency graph of the chosen paths acyclic is
// such a routing. The turn-space search of flexible.cpp moves whole prohibitions; this stage
// then moves single paths:
//   - every dependency carries the number of paths that create it;
//   - a pair's path is ripped up (its dependencies released when no other path needs them) and
//     the pair re-routed over its minimal paths, using dependencies already present or ones
//     that close no cycle; the most loaded channel along the path counts first, then the load
//     sum, so paths leave the hot channels;
//   - the new path is kept only when it is strictly better than the old one under the same
//     loads, else the old one goes back (always possible: its dependencies were acyclic with
//     everything else). Hence the result stays connected, acyclic, and never gets longer.
// First-come greedy construction from an empty dependency graph was tried and rejected: early
// long paths take dependencies that later leave pairs without any legal path.
#include "routing/flexible_cdg.h"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "routing/path_cdg.h"

namespace ibsc::routing {
namespace {

// (most loaded channel after adding the path, load sum); lower is better.
using Cost = std::pair<int, long>;
const Cost kInfinite{1 << 30, 0};

Cost path_cost(const std::vector<int>& path, const std::vector<int>& load) {
  Cost c{0, 0};
  for (int ch : path) c.first = std::max(c.first, load[ch] + 1), c.second += load[ch] + 1;
  return c;
}

}  // namespace

bool improve_acyclic(const SwitchGraph& g, RouteResult& r, int passes) {
  const int n = g.n, C = static_cast<int>(g.channels.size());
  if (r.unreachable_src >= 0 || r.revisits || n < 2) return false;
  std::vector<uint16_t> dist = all_pairs_distances(g);
  auto D = [&](int a, int b) { return static_cast<int>(dist[size_t(a) * n + b]); };

  std::vector<std::vector<int>> path(size_t(n) * n);  // index d * n + s
  PathCdg cdg(C);
  for (int d = 0; d < n; ++d)
    for (int s = 0; s < n; ++s) {
      auto& p = path[size_t(d) * n + s];
      p.assign(r.paths.chans.begin() + r.paths.begin(s, d), r.paths.chans.begin() + r.paths.end(s, d));
      for (size_t i = 0; i + 1 < p.size(); ++i) cdg.add(p[i], p[i + 1]);
    }
  std::vector<int>& load = r.load;

  bool changed_any = false;
  std::vector<Cost> best(C);
  std::vector<int> next(C);
  std::vector<uint32_t> done(C, 0);
  uint32_t epoch = 0;
  std::vector<std::vector<int>> layer;
  for (int pass = 0; pass < passes; ++pass) {
    bool changed = false;
    for (int d = 0; d < n; ++d)
      for (int s = 0; s < n; ++s) {
        if (s == d) continue;
        std::vector<int>& old = path[size_t(d) * n + s];
        for (int ch : old) --load[ch];
        for (size_t i = 0; i + 1 < old.size(); ++i) cdg.release(old[i], old[i + 1]);
        const Cost old_cost = path_cost(old, load);
        // Best completion toward d from each channel of a minimal s -> d path, nearest first.
        ++epoch;
        const int len = D(s, d);
        layer.assign(len + 1, {});
        for (int c = 0; c < C; ++c) {
          const Channel& ch = g.channels[c];
          const int dl = D(ch.from, d);
          if (dl <= len && D(ch.to, d) == dl - 1 && D(s, ch.from) + dl == len) layer[dl].push_back(c);
        }
        for (int l = 1; l <= len; ++l)
          for (int c : layer[l]) {
            Cost here = kInfinite;
            int arg = -1;
            if (g.channels[c].to == d) {
              here = Cost{load[c] + 1, load[c] + 1};
            } else {
              for (int c2 : g.out[g.channels[c].to]) {
                if (done[c2] != epoch || best[c2].first >= (1 << 30)) continue;
                Cost mine{std::max(best[c2].first, load[c] + 1), best[c2].second + load[c] + 1};
                if (mine < here && cdg.acceptable(c, c2)) here = mine, arg = c2;
              }
            }
            best[c] = here;
            next[c] = arg;
            done[c] = epoch;
          }
        int first = -1;
        for (int c : g.out[s])
          if (done[c] == epoch && best[c].first < (1 << 30) && (first < 0 || best[c] < best[first])) first = c;
        std::vector<int> fresh;
        if (first >= 0 && best[first] < old_cost)
          for (int c = first; c >= 0; c = next[c]) fresh.push_back(c);
        // Each new dependency was acceptable alone; together they may close a cycle, so they go
        // in one by one and the old path returns if one does not fit.
        size_t added = 0;
        bool fits = !fresh.empty();
        while (fits && added + 1 < fresh.size()) {
          if (!cdg.acceptable(fresh[added], fresh[added + 1])) {
            fits = false;
          } else {
            cdg.add(fresh[added], fresh[added + 1]);
            ++added;
          }
        }
        if (!fits) {
          for (size_t i = 0; i < added; ++i) cdg.release(fresh[i], fresh[i + 1]);
          for (size_t i = 0; i + 1 < old.size(); ++i) cdg.add(old[i], old[i + 1]);
        } else {
          old.swap(fresh);
          changed = true;
        }
        for (int ch : old) ++load[ch];
      }
    changed_any |= changed;
    if (!changed) break;
  }
  if (changed_any) {
    r.paths.chans.clear();
    r.paths.offset.assign(1, 0);
    for (int d = 0; d < n; ++d)
      for (int s = 0; s < n; ++s) {
        const auto& p = path[size_t(d) * n + s];
        r.paths.chans.insert(r.paths.chans.end(), p.begin(), p.end());
        r.paths.offset.push_back(static_cast<uint32_t>(r.paths.chans.size()));
      }
  }
  return changed_any;
}

}  // namespace ibsc::routing
