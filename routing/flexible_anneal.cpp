// Flexible routing, third stage: simulated annealing in path space (seeds/000 section 4 says
// Flexible may add restrictions beyond breaking cycles only to balance traffic, and that it
// balances 4-node cycles perfectly; the greedy stages stop in local optima, 9 instead of 8 on
// the 4x4 torus).
//   - State: one path per ordered switch pair and the counted dependency graph of all paths
//     (path_cdg.h), acyclic at every step.
//   - Move: pick a pair (mostly one crossing a channel at the current maximum), rip its path
//     up, re-route it over its minimal paths by a layered shortest-path search whose channel
//     weights are the marginal sum-of-squares cost 2*load+1 plus random noise scaled by the
//     temperature, using only dependencies already present or closing no cycle.
//   - Accept (Metropolis on the change of sum of squared loads, plus a penalty for raising the
//     maximum) only if the new path's dependencies fit together; else the old path returns
//     (its dependencies were acyclic with the rest).
//   - The best state (lowest maximum, then sum of squares) is restored at the end through an
//     undo log; the search stops at a perfect balance (sum of squares at its lower bound).
// Since the total load is fixed for minimal paths, the lowest sum of squares is exactly the
// deviation-0 state when the average load is an integer.
#include "routing/flexible_anneal.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "routing/path_cdg.h"

namespace ibsc::routing {
namespace {

// Channel loads with a running maximum and sum of squares.
struct Loads {
  std::vector<int>& load;
  std::vector<int> count;  // channels per load value
  int max = 0;
  int64_t sumsq = 0;
  explicit Loads(std::vector<int>& l) : load(l) {
    int top = 0;
    for (int x : l) top = std::max(top, x);
    count.assign(top + 2, 0);
    for (int x : l) ++count[x], sumsq += int64_t(x) * x, max = std::max(max, x);
  }
  void inc(int c) {
    int& x = load[c];
    --count[x];
    sumsq += 2 * x + 1;
    ++x;
    if (x + 1 >= static_cast<int>(count.size())) count.resize(x + 2, 0);
    ++count[x];
    max = std::max(max, x);
  }
  void dec(int c) {
    int& x = load[c];
    --count[x];
    sumsq -= 2 * x - 1;
    --x;
    ++count[x];
    while (max > 0 && count[max] == 0) --max;
  }
};

constexpr double kMaxPenalty = 4.0;

struct Undo {
  size_t pair;
  std::vector<int> path;
};

}  // namespace

bool anneal_acyclic(const SwitchGraph& g, RouteResult& r, uint64_t seed, long moves) {
  const int n = g.n, C = static_cast<int>(g.channels.size());
  if (r.unreachable_src >= 0 || r.revisits || n < 3 || C == 0 || moves <= 0) return false;
  const std::vector<uint16_t> dist = all_pairs_distances(g);
  auto D = [&](int a, int b) { return static_cast<int>(dist[size_t(a) * n + b]); };

  std::vector<std::vector<int>> path(size_t(n) * n);  // index d * n + s
  PathCdg cdg(C);
  std::vector<size_t> pairs;
  for (int d = 0; d < n; ++d)
    for (int s = 0; s < n; ++s) {
      auto& p = path[size_t(d) * n + s];
      p.assign(r.paths.chans.begin() + r.paths.begin(s, d), r.paths.chans.begin() + r.paths.end(s, d));
      cdg.add_path(p);
      if (s != d) pairs.push_back(size_t(d) * n + s);
    }
  Loads L(r.load);
  // Lower bound of the sum of squares for the current total (reached: nothing left to gain).
  auto ideal = [&]() {
    int64_t total = 0;
    for (int x : L.load) total += x;
    const int64_t q = total / C, rem = total % C;
    return rem * (q + 1) * (q + 1) + (C - rem) * q * q;
  };
  int64_t floor_sumsq = ideal();
  int best_max = L.max;
  int64_t best_sumsq = L.sumsq;
  std::vector<Undo> undo;  // accepted moves since the best state
  bool changed = false;

  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + 0x5F1E);
  auto uniform = [&]() { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  // Temperature in units of the marginal cost 2*load+1; geometric cooling.
  const double t0 = 4.0, t1 = 0.05;
  std::vector<double> w(C), best(C);
  std::vector<int> next(C);
  std::vector<uint32_t> done(C, 0);
  uint32_t epoch = 0;
  std::vector<std::vector<int>> layer;
  std::vector<int> fresh;

  // Best minimal path for pair pi under the current loads and graph, noisy by `temp`; empty
  // when every minimal path would close a cycle.
  auto reroute = [&](size_t pi, double temp, std::vector<int>& out) {
    const int d = static_cast<int>(pi / n), s = static_cast<int>(pi % n);
    const int len = D(s, d);
    ++epoch;
    layer.assign(len + 1, {});
    for (int c = 0; c < C; ++c) {
      const Channel& ch = g.channels[c];
      const int dl = D(ch.from, d);
      if (dl <= len && D(ch.to, d) == dl - 1 && D(s, ch.from) + dl == len) layer[dl].push_back(c);
    }
    for (int l = 1; l <= len; ++l)
      for (int c : layer[l]) {
        w[c] = 2 * L.load[c] + 1 - temp * std::log(1.0 - uniform());
        double here = HUGE_VAL;
        int arg = -1;
        if (g.channels[c].to == d) {
          here = w[c];
        } else {
          for (int c2 : g.out[g.channels[c].to]) {
            if (done[c2] != epoch || best[c2] == HUGE_VAL) continue;
            const double mine = best[c2] + w[c];
            if (mine < here && cdg.acceptable(c, c2)) here = mine, arg = c2;
          }
        }
        best[c] = here;
        next[c] = arg;
        done[c] = epoch;
      }
    int first = -1;
    for (int c : g.out[s])
      if (done[c] == epoch && best[c] != HUGE_VAL && (first < 0 || best[c] < best[first])) first = c;
    out.clear();
    for (int c = first; c >= 0; c = next[c]) out.push_back(c);
    return first >= 0;
  };
  for (long i = 0; i < moves && L.sumsq > floor_sumsq; ++i) {
    const double temp = t0 * std::pow(t1 / t0, static_cast<double>(i) / moves);
    const size_t pi = pairs[rng() % pairs.size()];
    std::vector<int>& old = path[pi];
    // Mostly work on the hot channels: pairs below the maximum are skipped 3 times in 4.
    bool on_max = false;
    for (int c : old) on_max |= L.load[c] == L.max;
    if (!on_max && (rng() & 3) != 0) continue;
    const int max_before = L.max;
    for (int c : old) L.dec(c);
    cdg.release_path(old);
    int64_t old_cost = 0;
    for (int c : old) old_cost += 2 * L.load[c] + 1;
    bool accept = reroute(pi, temp, fresh) && fresh != old;
    if (accept) {
      int64_t new_cost = 0;
      int new_max = L.max;
      for (int c : fresh) new_cost += 2 * L.load[c] + 1, new_max = std::max(new_max, L.load[c] + 1);
      // Raising the maximum costs as much as a sizeable sum-of-squares step: the maximum
      // (crossing path) is what the comparison ranks first.
      const double delta = static_cast<double>(new_cost - old_cost) + kMaxPenalty * (new_max - max_before) * best_max;
      accept = delta <= 0 || uniform() < std::exp(-delta / temp);
    }
    if (accept && cdg.try_add_path(fresh)) {
      undo.push_back({pi, old});
      old = fresh;
      changed = true;
    } else {
      cdg.add_path(old);
    }
    for (int c : old) L.inc(c);
    if (L.max < best_max || (L.max == best_max && L.sumsq < best_sumsq)) {
      best_max = L.max, best_sumsq = L.sumsq;
      undo.clear();
      floor_sumsq = ideal();  // shorter paths lower the total
    }
  }
  // Back to the best state (undoing keeps the graph acyclic: that state was).
  for (auto it = undo.rbegin(); it != undo.rend(); ++it) {
    std::vector<int>& p = path[it->pair];
    for (int c : p) L.dec(c);
    p.swap(it->path);
    for (int c : p) L.inc(c);
  }
  if (changed) {
    r.paths.chans.clear();
    r.paths.offset.assign(1, 0);
    for (int d = 0; d < n; ++d)
      for (int s = 0; s < n; ++s) {
        const auto& p = path[size_t(d) * n + s];
        r.paths.chans.insert(r.paths.chans.end(), p.begin(), p.end());
        r.paths.offset.push_back(static_cast<uint32_t>(r.paths.chans.size()));
      }
  }
  return changed;
}

}  // namespace ibsc::routing
