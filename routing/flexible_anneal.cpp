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

// anneal_acyclic(): its members are the paths, their channel dependency graph, the loads and
// the best state so far; its methods one move (a pair rerouted and the move judged) and the
// minimal-path search it uses.
class Annealer {
 public:
  Annealer(const SwitchGraph& g, RouteResult& r, uint64_t seed);
  bool run(long moves, RouteResult& r);

 private:
  int D(int a, int b) const { return static_cast<int>(dist_[size_t(a) * n_ + b]); }
  double uniform() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }
  int64_t ideal() const;
  bool reroute(size_t pi, double temp, std::vector<int>& out);
  void move(long i, long moves);
  void write_paths(RouteResult& r) const;

  const SwitchGraph& g_;
  const int n_, C_;
  const std::vector<uint16_t> dist_;
  std::vector<std::vector<int>> path_;  // index d * n + s
  PathCdg cdg_;
  std::vector<size_t> pairs_;
  Loads L_;
  int64_t floor_sumsq_;
  int best_max_;
  int64_t best_sumsq_;
  std::vector<Undo> undo_;  // accepted moves since the best state
  bool changed_ = false;
  std::mt19937_64 rng_;
  // reroute()'s: per channel its noisy weight, best cost to d and next channel, and the
  // search (epoch) that set them; the channels by distance to d.
  std::vector<double> w_, best_;
  std::vector<int> next_;
  std::vector<uint32_t> done_;
  uint32_t epoch_ = 0;
  std::vector<std::vector<int>> layer_;
  std::vector<int> fresh_;
};

Annealer::Annealer(const SwitchGraph& g, RouteResult& r, uint64_t seed)
    : g_(g),
      n_(g.n),
      C_(static_cast<int>(g.channels.size())),
      dist_(all_pairs_distances(g)),
      path_(size_t(n_) * n_),
      cdg_(C_),
      L_(r.load),
      rng_(seed * 0x9E3779B97F4A7C15ull + 0x5F1E),
      w_(C_),
      best_(C_),
      next_(C_),
      done_(C_, 0) {
  const int n = n_;
  for (int d = 0; d < n; ++d)
    for (int s = 0; s < n; ++s) {
      auto& p = path_[size_t(d) * n + s];
      p.assign(r.paths.chans.begin() + r.paths.begin(s, d), r.paths.chans.begin() + r.paths.end(s, d));
      cdg_.add_path(p);
      if (s != d) pairs_.push_back(size_t(d) * n + s);
    }
  floor_sumsq_ = ideal();
  best_max_ = L_.max;
  best_sumsq_ = L_.sumsq;
}

// Lower bound of the sum of squares for the current total (reached: nothing left to gain).
int64_t Annealer::ideal() const {
  int64_t total = 0;
  for (int x : L_.load) total += x;
  const int64_t q = total / C_, rem = total % C_;
  return rem * (q + 1) * (q + 1) + (C_ - rem) * q * q;
}

// Best minimal path for pair pi under the current loads and graph, noisy by `temp`; empty
// when every minimal path would close a cycle.
bool Annealer::reroute(size_t pi, double temp, std::vector<int>& out) {
  const int d = static_cast<int>(pi / n_), s = static_cast<int>(pi % n_);
  const int len = D(s, d);
  ++epoch_;
  minimal_channel_layers(
      g_.channels, [this](int a, int b) { return D(a, b); }, s, d, layer_);
  for (int l = 1; l <= len; ++l)
    for (int c : layer_[l]) {
      w_[c] = 2 * L_.load[c] + 1 - temp * std::log(1.0 - uniform());
      double here = HUGE_VAL;
      int arg = -1;
      if (g_.channels[c].to == d) {
        here = w_[c];
      } else {
        for (int c2 : g_.out[g_.channels[c].to]) {
          if (done_[c2] != epoch_ || best_[c2] == HUGE_VAL) continue;
          const double mine = best_[c2] + w_[c];
          if (mine < here && cdg_.acceptable(c, c2)) here = mine, arg = c2;
        }
      }
      best_[c] = here;
      next_[c] = arg;
      done_[c] = epoch_;
    }
  int first = -1;
  for (int c : g_.out[s])
    if (done_[c] == epoch_ && best_[c] != HUGE_VAL && (first < 0 || best_[c] < best_[first])) first = c;
  out.clear();
  for (int c = first; c >= 0; c = next_[c]) out.push_back(c);
  return first >= 0;
}

// Move i of `moves`: a random pair rerouted at the temperature of the moment, kept if the
// Metropolis rule and the dependency graph accept it.
void Annealer::move(long i, long moves) {
  // Temperature in units of the marginal cost 2*load+1; geometric cooling.
  const double t0 = 4.0, t1 = 0.05;
  const double temp = t0 * std::pow(t1 / t0, static_cast<double>(i) / moves);
  const size_t pi = pairs_[rng_() % pairs_.size()];
  std::vector<int>& old = path_[pi];
  // Mostly work on the hot channels: pairs below the maximum are skipped 3 times in 4.
  bool on_max = false;
  for (int c : old) on_max |= L_.load[c] == L_.max;
  if (!on_max && (rng_() & 3) != 0) return;
  const int max_before = L_.max;
  for (int c : old) L_.dec(c);
  cdg_.release_path(old);
  int64_t old_cost = 0;
  for (int c : old) old_cost += 2 * L_.load[c] + 1;
  bool accept = reroute(pi, temp, fresh_) && fresh_ != old;
  if (accept) {
    int64_t new_cost = 0;
    int new_max = L_.max;
    for (int c : fresh_) new_cost += 2 * L_.load[c] + 1, new_max = std::max(new_max, L_.load[c] + 1);
    // Raising the maximum costs as much as a sizeable sum-of-squares step: the maximum
    // (crossing path) is what the comparison ranks first.
    const double delta = static_cast<double>(new_cost - old_cost) + kMaxPenalty * (new_max - max_before) * best_max_;
    accept = delta <= 0 || uniform() < std::exp(-delta / temp);
  }
  if (accept && cdg_.try_add_path(fresh_)) {
    undo_.push_back({pi, old});
    old = fresh_;
    changed_ = true;
  } else {
    cdg_.add_path(old);
  }
  for (int c : old) L_.inc(c);
  if (L_.max < best_max_ || (L_.max == best_max_ && L_.sumsq < best_sumsq_)) {
    best_max_ = L_.max, best_sumsq_ = L_.sumsq;
    undo_.clear();
    floor_sumsq_ = ideal();  // shorter paths lower the total
  }
}

void Annealer::write_paths(RouteResult& r) const {
  r.paths.chans.clear();
  r.paths.offset.assign(1, 0);
  for (int d = 0; d < n_; ++d)
    for (int s = 0; s < n_; ++s) {
      const auto& p = path_[size_t(d) * n_ + s];
      r.paths.chans.insert(r.paths.chans.end(), p.begin(), p.end());
      r.paths.offset.push_back(static_cast<uint32_t>(r.paths.chans.size()));
    }
}

bool Annealer::run(long moves, RouteResult& r) {
  for (long i = 0; i < moves && L_.sumsq > floor_sumsq_; ++i) move(i, moves);
  // Back to the best state (undoing keeps the graph acyclic: that state was).
  for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) {
    std::vector<int>& p = path_[it->pair];
    for (int c : p) L_.dec(c);
    p.swap(it->path);
    for (int c : p) L_.inc(c);
  }
  if (changed_) write_paths(r);
  return changed_;
}

}  // namespace

bool anneal_acyclic(const SwitchGraph& g, RouteResult& r, uint64_t seed, long moves) {
  const int n = g.n, C = static_cast<int>(g.channels.size());
  if (r.unreachable_src >= 0 || r.revisits || n < 3 || C == 0 || moves <= 0) return false;
  return Annealer(g, r, seed).run(moves, r);
}

}  // namespace ibsc::routing
