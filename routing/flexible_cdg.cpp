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

// improve_acyclic(): its members are the paths, their dependency graph and the channel loads;
// its methods one pair's search for a better minimal path and the swap that keeps the graph
// acyclic.
class CdgImprover {
 public:
  CdgImprover(const SwitchGraph& g, RouteResult& r);
  bool run(int passes, RouteResult& r);

 private:
  int D(int a, int b) const { return static_cast<int>(dist_[size_t(a) * n_ + b]); }
  void best_completions(int s, int d);
  bool improve_pair(int s, int d);
  bool take_fresh(std::vector<int>& old, std::vector<int>& fresh);

  const SwitchGraph& g_;
  const int n_, C_;
  const std::vector<uint16_t> dist_;
  std::vector<std::vector<int>> path_;  // index d * n + s
  PathCdg cdg_;
  std::vector<int>& load_;
  // best_completions()'s: per channel its best cost to d, next channel and the search (epoch)
  // that set them; the channels by distance to d.
  std::vector<Cost> best_;
  std::vector<int> next_;
  std::vector<uint32_t> done_;
  uint32_t epoch_ = 0;
  std::vector<std::vector<int>> layer_;
};

CdgImprover::CdgImprover(const SwitchGraph& g, RouteResult& r)
    : g_(g),
      n_(g.n),
      C_(static_cast<int>(g.channels.size())),
      dist_(all_pairs_distances(g)),
      path_(size_t(n_) * n_),
      cdg_(C_),
      load_(r.load),
      best_(C_),
      next_(C_),
      done_(C_, 0) {
  const int n = n_;
  for (int d = 0; d < n; ++d)
    for (int s = 0; s < n; ++s) {
      auto& p = path_[size_t(d) * n + s];
      p.assign(r.paths.chans.begin() + r.paths.begin(s, d), r.paths.chans.begin() + r.paths.end(s, d));
      for (size_t i = 0; i + 1 < p.size(); ++i) cdg_.add(p[i], p[i + 1]);
    }
}

// Best completion toward d from each channel of a minimal s -> d path, nearest first.
void CdgImprover::best_completions(int s, int d) {
  ++epoch_;
  const int len = D(s, d);
  minimal_channel_layers(
      g_.channels, [this](int a, int b) { return D(a, b); }, s, d, layer_);
  for (int l = 1; l <= len; ++l)
    for (int c : layer_[l]) {
      Cost here = kInfinite;
      int arg = -1;
      if (g_.channels[c].to == d) {
        here = Cost{load_[c] + 1, load_[c] + 1};
      } else {
        for (int c2 : g_.out[g_.channels[c].to]) {
          if (done_[c2] != epoch_ || best_[c2].first >= (1 << 30)) continue;
          Cost mine{std::max(best_[c2].first, load_[c] + 1), best_[c2].second + load_[c] + 1};
          if (mine < here && cdg_.acceptable(c, c2)) here = mine, arg = c2;
        }
      }
      best_[c] = here;
      next_[c] = arg;
      done_[c] = epoch_;
    }
}

// Each new dependency was acceptable alone; together they may close a cycle, so they go in one
// by one and the old path returns if one does not fit. True: `old` now holds the fresh path.
bool CdgImprover::take_fresh(std::vector<int>& old, std::vector<int>& fresh) {
  size_t added = 0;
  bool fits = !fresh.empty();
  while (fits && added + 1 < fresh.size()) {
    if (!cdg_.acceptable(fresh[added], fresh[added + 1])) {
      fits = false;
    } else {
      cdg_.add(fresh[added], fresh[added + 1]);
      ++added;
    }
  }
  if (!fits) {
    for (size_t i = 0; i < added; ++i) cdg_.release(fresh[i], fresh[i + 1]);
    for (size_t i = 0; i + 1 < old.size(); ++i) cdg_.add(old[i], old[i + 1]);
    return false;
  }
  old.swap(fresh);
  return true;
}

// The pair's path dropped and chosen again; true if it changed.
bool CdgImprover::improve_pair(int s, int d) {
  std::vector<int>& old = path_[size_t(d) * n_ + s];
  for (int ch : old) --load_[ch];
  for (size_t i = 0; i + 1 < old.size(); ++i) cdg_.release(old[i], old[i + 1]);
  const Cost old_cost = path_cost(old, load_);
  best_completions(s, d);
  int first = -1;
  for (int c : g_.out[s])
    if (done_[c] == epoch_ && best_[c].first < (1 << 30) && (first < 0 || best_[c] < best_[first])) first = c;
  std::vector<int> fresh;
  if (first >= 0 && best_[first] < old_cost)
    for (int c = first; c >= 0; c = next_[c]) fresh.push_back(c);
  const bool changed = take_fresh(old, fresh);
  for (int ch : old) ++load_[ch];
  return changed;
}

bool CdgImprover::run(int passes, RouteResult& r) {
  const int n = n_;
  bool changed_any = false;
  for (int pass = 0; pass < passes; ++pass) {
    bool changed = false;
    for (int d = 0; d < n; ++d)
      for (int s = 0; s < n; ++s)
        if (s != d && improve_pair(s, d)) changed = true;
    changed_any |= changed;
    if (!changed) break;
  }
  if (changed_any) {
    r.paths.chans.clear();
    r.paths.offset.assign(1, 0);
    for (int d = 0; d < n; ++d)
      for (int s = 0; s < n; ++s) {
        const auto& p = path_[size_t(d) * n + s];
        r.paths.chans.insert(r.paths.chans.end(), p.begin(), p.end());
        r.paths.offset.push_back(static_cast<uint32_t>(r.paths.chans.size()));
      }
  }
  return changed_any;
}

}  // namespace

bool improve_acyclic(const SwitchGraph& g, RouteResult& r, int passes) {
  if (r.unreachable_src >= 0 || r.revisits || g.n < 2) return false;
  return CdgImprover(g, r).run(passes, r);
}

}  // namespace ibsc::routing
