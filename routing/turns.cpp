// Shortest paths under turn restrictions, balanced over channels.
#include <algorithm>

#include "routing/cycle.h"
#include "routing/generic.h"

namespace ibsc::routing {
namespace {

// Position of channel c in the out list of its source switch.
std::vector<int> out_positions(const SwitchGraph& g) {
  std::vector<int> pos(g.channels.size());
  for (int s = 0; s < g.n; ++s)
    for (size_t k = 0; k < g.out[s].size(); ++k) pos[g.out[s][k]] = static_cast<int>(k);
  return pos;
}

uint64_t mix(uint64_t x) {  // splitmix64 finaliser: a fixed, seedable tie-break order
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

TurnRules TurnRules::all_but_u_turns(const SwitchGraph& g) {
  TurnRules r;
  r.allowed.resize(g.channels.size());
  for (size_t c = 0; c < g.channels.size(); ++c) {
    const auto& outs = g.out[g.channels[c].to];
    r.allowed[c].assign(outs.size(), 1);
    for (size_t k = 0; k < outs.size(); ++k)
      if (outs[k] == g.reverse[c]) r.allowed[c][k] = 0;
  }
  r.kind = Kind::AllButUTurns;
  return r;
}

bool TurnRules::allows(const SwitchGraph& g, int in_ch, int out_ch) const {
  const auto& outs = g.out[g.channels[in_ch].to];
  for (size_t k = 0; k < outs.size(); ++k)
    if (outs[k] == out_ch) return allowed[in_ch][k];
  return false;
}

void TurnRules::set(const SwitchGraph& g, int in_ch, int out_ch, bool allow) {
  kind = Kind::General;
  updown_label.clear();
  const auto& outs = g.out[g.channels[in_ch].to];
  for (size_t k = 0; k < outs.size(); ++k)
    if (outs[k] == out_ch) allowed[in_ch][k] = allow;
}

namespace {
// dist[c] for rules that come from a switch-level rule, by a BFS over (switch, phase) states:
// phase 0 may still go up, phase 1 only down (up*/down*); minimum hop has phase 0 alone.
// Channels on a shortest legal path get the channel BFS's value: it differs only where a
// U-turn would be the shortest way on, and such a channel leads away from d, so it is never
// on a shortest path (tests compare both on tori, meshes and irregular networks).
void switch_distances(const SwitchGraph& g, const TurnRules& rules, int d, std::vector<int>& sw_dist,
                      std::vector<int>& queue, std::vector<int>& dist) {
  const bool updown = rules.kind == TurnRules::Kind::UpDown;
  const auto& label = rules.updown_label;
  auto up = [&](int c) { return updown && label[g.channels[c].to] > label[g.channels[c].from]; };
  const int phases = updown ? 2 : 1;
  sw_dist.assign(static_cast<size_t>(g.n) * phases, -1);  // [x * phases + phase]
  queue.clear();
  for (int ph = 0; ph < phases; ++ph) {
    sw_dist[static_cast<size_t>(d) * phases + ph] = 0;
    queue.push_back(d * phases + ph);
  }
  for (size_t i = 0; i < queue.size(); ++i) {
    const int y = queue[i] / phases, ph = queue[i] % phases, dy = sw_dist[queue[i]];
    for (int c : g.in[y]) {
      const int x = g.channels[c].from;
      // x -> y on c: an up channel continues in phase 0; a down channel continues in phase 1
      // (down only) and can be taken from either phase at x.
      if (updown && (up(c) ? ph != 0 : ph != 1)) continue;
      for (int from_ph = 0; from_ph < phases; ++from_ph) {
        if (updown && up(c) && from_ph != 0) continue;
        const size_t k = static_cast<size_t>(x) * phases + from_ph;
        if (sw_dist[k] < 0) {
          sw_dist[k] = dy + 1;
          queue.push_back(static_cast<int>(k));
        }
      }
    }
  }
  for (size_t c = 0; c < dist.size(); ++c) {
    const int y = g.channels[c].to;
    dist[c] = sw_dist[static_cast<size_t>(y) * phases + (up(static_cast<int>(c)) || !updown ? 0 : 1)];
  }
}

}  // namespace

// Up to this many switches, route_with_turns re-routes every pair in further passes.
constexpr int kReroutePassSwitches = 128;

namespace {

// route_with_turns(): its members are the state shared by the pairs' searches, its methods the
// steps, per destination (distances, source order) and per pair (a greedy walk or a DAG search).
class TurnRouter {
 public:
  TurnRouter(const SwitchGraph& g, const TurnRules& rules, uint64_t seed, bool consistent, ShortestPathChoice choice);
  RouteResult run();

 private:
  void channel_distances(int d);
  void order_sources(int d);
  void route_pair(int s, int d);
  void greedy_path(int s, int d, std::vector<int32_t>& path);
  void dag_path(int s, int d, std::vector<int32_t>& path);
  void take(int s, int d, int cur, std::vector<int32_t>& path);
  // In consistent mode a channel some earlier path toward d already leaves its switch by is
  // preferred over the others (fewer distinct ports per switch and destination: fewer LIDs).
  int reuse(int y, int d) const { return consistent_ && used_for_[y] == d ? 1 : 0; }
  bool preferred(int c_cur, int y, int d) const;
  bool greedy_better(int y, int cur, int d) const;
  std::vector<int32_t>& slot(int s, int d) { return passes_ > 1 ? all_[static_cast<size_t>(d) * n_ + s] : pending_[s]; }

  const SwitchGraph& g_;
  const TurnRules& rules_;
  const bool consistent_;
  const ShortestPathChoice choice_;
  const int n_;
  const size_t C_;
  const std::vector<int> pos_;
  std::vector<uint64_t> tie_;
  RouteResult r_;
  std::vector<int> dist_, queue_, sw_dist_;
  std::vector<int> seen_, hops_, order_;
  std::vector<std::vector<int32_t>> pending_;
  std::vector<int> dag_, nxt_, bmax_, bsum_, mark_;
  // Highest: the up*/down* labels, and per DAG channel the highest label from it to d.
  const std::vector<int>& label_;
  std::vector<int> bpeak_;
  int stamp_ = 0;
  // The DAG search costs the DAG's size per pair: fine up to a few hundred switches, too much
  // for 2,048-switch tori (paths of 30 hops span thousands of channels); those go hop by hop.
  const bool use_dp_;
  std::vector<int> fixed_for_, fixed_, used_for_;
  // Small networks get rip-up-and-reroute passes: each pair drops its path and chooses again
  // knowing every other pair's load, which removes most of the order dependence.
  const int passes_;
  std::vector<std::vector<int32_t>> all_;
};

TurnRouter::TurnRouter(const SwitchGraph& g, const TurnRules& rules, uint64_t seed, bool consistent,
                       ShortestPathChoice choice)
    : g_(g),
      rules_(rules),
      consistent_(consistent),
      choice_(choice),
      n_(g.n),
      C_(g.channels.size()),
      pos_(out_positions(g)),
      tie_(C_),
      dist_(C_),
      seen_(n_, -1),
      hops_(n_),
      order_(n_),
      pending_(n_),
      nxt_(C_),
      bmax_(C_),
      bsum_(C_),
      mark_(C_, 0),
      label_(rules.updown_label),
      bpeak_(choice == ShortestPathChoice::Highest ? C_ : 0),
      use_dp_(n_ <= 512),
      fixed_for_(consistent ? C_ : 0, -1),
      fixed_(consistent ? C_ : 0, -1),
      used_for_(consistent ? C_ : 0, -1),
      passes_(use_dp_ && !consistent && n_ <= kReroutePassSwitches &&
                      (choice == ShortestPathChoice::Balanced || choice == ShortestPathChoice::Highest)
                  ? 3
                  : 1),
      all_(passes_ > 1 ? static_cast<size_t>(n_) * n_ : 0) {
  for (size_t c = 0; c < C_; ++c) tie_[c] = mix(seed * 0x100000001b3ULL + c);
  r_.paths.n = n_;
  r_.paths.offset.reserve(static_cast<size_t>(n_) * n_ + 1);
  r_.paths.offset.push_back(0);
  r_.load.assign(C_, 0);
  queue_.reserve(C_);
}

bool TurnRouter::preferred(int c_cur, int y, int d) const {  // is y better than the current choice c_cur?
  if (c_cur < 0) return true;
  int ry = reuse(y, d), rc = reuse(c_cur, d);
  if (ry != rc) return ry > rc;
  if (choice_ == ShortestPathChoice::First) return g_.channels[y].port < g_.channels[c_cur].port;
  if (choice_ == ShortestPathChoice::Random) return tie_[y] < tie_[c_cur];
  if (choice_ == ShortestPathChoice::Highest && bpeak_[y] != bpeak_[c_cur]) return bpeak_[y] > bpeak_[c_cur];
  if (bmax_[y] != bmax_[c_cur]) return bmax_[y] < bmax_[c_cur];
  if (bsum_[y] != bsum_[c_cur]) return bsum_[y] < bsum_[c_cur];
  return tie_[y] < tie_[c_cur];
}

// Large networks: the same preferences hop by hop, on the channel load alone.
bool TurnRouter::greedy_better(int y, int cur, int d) const {
  if (cur < 0) return true;
  int ry = reuse(y, d), rc = reuse(cur, d);
  if (ry != rc) return ry > rc;
  if (choice_ == ShortestPathChoice::First) return g_.channels[y].port < g_.channels[cur].port;
  if (choice_ == ShortestPathChoice::Random) return tie_[y] < tie_[cur];
  if (choice_ == ShortestPathChoice::Highest) {  // hop by hop: toward the higher label
    const int ly = label_[g_.channels[y].to], lc = label_[g_.channels[cur].to];
    if (ly != lc) return ly > lc;
  }
  if (r_.load[y] != r_.load[cur]) return r_.load[y] < r_.load[cur];
  return tie_[y] < tie_[cur];
}

// dist_[c]: channels still to cross after c to reach d (backward BFS over legal turns).
void TurnRouter::channel_distances(int d) {
  if (rules_.kind != TurnRules::Kind::General) {
    switch_distances(g_, rules_, d, sw_dist_, queue_, dist_);
    return;
  }
  std::fill(dist_.begin(), dist_.end(), -1);
  queue_.clear();
  for (int c : g_.in[d]) {
    dist_[c] = 0;
    queue_.push_back(c);
  }
  for (size_t i = 0; i < queue_.size(); ++i) {
    const int c = queue_[i];
    const int x = g_.channels[c].from;
    for (int p : g_.in[x])
      if (dist_[p] < 0 && rules_.allowed[p][pos_[c]]) {
        dist_[p] = dist_[c] + 1;
        queue_.push_back(p);
      }
  }
}

// Sources farthest from d first (they have the most choices), ties rotated by d so no switch
// is always served first; paths are stored in source order afterwards.
void TurnRouter::order_sources(int d) {
  for (int s = 0; s < n_; ++s) {
    hops_[s] = -1;
    for (int c : g_.out[s])
      if (dist_[c] >= 0 && (hops_[s] < 0 || dist_[c] + 1 < hops_[s])) hops_[s] = dist_[c] + 1;
    order_[s] = s;
  }
  const int n = n_;
  std::sort(order_.begin(), order_.end(), [&](int a, int b) {
    if (hops_[a] != hops_[b]) return hops_[a] > hops_[b];
    return (a - d + n) % n < (b - d + n) % n;
  });
}

// Channel cur onto the path of (s, d), with its load, its fixing (consistent mode) and the
// revisit check.
void TurnRouter::take(int s, int d, int cur, std::vector<int32_t>& path) {
  path.push_back(cur);
  ++r_.load[cur];
  const int x = g_.channels[cur].to;
  if (x != d && seen_[x] == s * n_ + d) r_.revisits = true;
  seen_[x] = s * n_ + d;
}

void TurnRouter::greedy_path(int s, int d, std::vector<int32_t>& path) {
  int cur = -1;
  for (int c : g_.out[s])
    if (dist_[c] >= 0 && dist_[c] + 1 == hops_[s] && greedy_better(c, cur, d)) cur = c;
  if (cur < 0) {
    if (r_.unreachable_src < 0) r_.unreachable_src = s, r_.unreachable_dst = d;
    return;
  }
  seen_[s] = s * n_ + d;
  while (cur >= 0) {
    int next = -1;
    const int x = g_.channels[cur].to;
    if (x != d) {
      if (consistent_ && fixed_for_[cur] == d) {
        next = fixed_[cur];
      } else {
        const auto& outs = g_.out[x];
        for (size_t k = 0; k < outs.size(); ++k) {
          int y = outs[k];
          if (rules_.allowed[cur][k] && dist_[y] == dist_[cur] - 1 && greedy_better(y, next, d)) next = y;
        }
      }
    }
    if (consistent_) fixed_for_[cur] = d, fixed_[cur] = next, used_for_[cur] = d;
    take(s, d, cur, path);
    cur = next;
  }
}

// The shortest legal paths from s form a DAG (each hop lowers dist by one); gather it layer by
// layer, then pick the path whose most loaded channel is least loaded (then the lowest load
// sum), the balancing rule of [18] restricted to shortest legal paths.
void TurnRouter::dag_path(int s, int d, std::vector<int32_t>& path) {
  dag_.clear();
  ++stamp_;
  for (int c : g_.out[s])
    if (dist_[c] >= 0 && dist_[c] + 1 == hops_[s]) dag_.push_back(c), mark_[c] = stamp_;
  const size_t firsts = dag_.size();
  if (firsts == 0) {
    if (r_.unreachable_src < 0) r_.unreachable_src = s, r_.unreachable_dst = d;
    return;
  }
  for (size_t i = 0; i < dag_.size(); ++i) {
    const int c = dag_[i];
    if (dist_[c] == 0) continue;
    const auto& outs = g_.out[g_.channels[c].to];
    for (size_t k = 0; k < outs.size(); ++k) {
      int y = outs[k];
      if (rules_.allowed[c][k] && dist_[y] == dist_[c] - 1 && mark_[y] != stamp_) mark_[y] = stamp_, dag_.push_back(y);
    }
  }
  for (size_t i = dag_.size(); i-- > 0;) {
    const int c = dag_[i];
    nxt_[c] = -1;
    bmax_[c] = bsum_[c] = r_.load[c];
    const bool peak = !bpeak_.empty();
    if (peak) bpeak_[c] = label_[g_.channels[c].to];
    if (dist_[c] == 0) continue;
    if (consistent_ && fixed_for_[c] == d) {  // an earlier path fixed where c continues
      nxt_[c] = fixed_[c];
      bmax_[c] = std::max(r_.load[c], bmax_[nxt_[c]]);
      bsum_[c] = r_.load[c] + bsum_[nxt_[c]];
      if (peak) bpeak_[c] = std::max(bpeak_[c], bpeak_[nxt_[c]]);
      continue;
    }
    const auto& outs = g_.out[g_.channels[c].to];
    for (size_t k = 0; k < outs.size(); ++k) {
      int y = outs[k];
      if (!rules_.allowed[c][k] || dist_[y] != dist_[c] - 1) continue;
      if (preferred(nxt_[c], y, d)) nxt_[c] = y;
    }
    bmax_[c] = std::max(r_.load[c], bmax_[nxt_[c]]);
    bsum_[c] = r_.load[c] + bsum_[nxt_[c]];
    if (peak) bpeak_[c] = std::max(bpeak_[c], bpeak_[nxt_[c]]);
  }
  int best = -1;
  for (size_t i = 0; i < firsts; ++i) {
    int c = dag_[i];
    if (preferred(best, c, d)) best = c;
  }
  seen_[s] = s * n_ + d;
  for (int cur = best; cur >= 0; cur = nxt_[cur]) {
    if (consistent_) fixed_for_[cur] = d, fixed_[cur] = nxt_[cur], used_for_[cur] = d;
    take(s, d, cur, path);
  }
}

void TurnRouter::route_pair(int s, int d) {
  std::vector<int32_t>& path = slot(s, d);
  if (passes_ > 1)  // the previous pass's path of this pair (single pass: the last destination's)
    for (int c : path) --r_.load[c];
  path.clear();
  if (s == d) return;
  if (use_dp_) dag_path(s, d, path);
  else greedy_path(s, d, path);
}

RouteResult TurnRouter::run() {
  for (int pass = 0; pass < passes_; ++pass) {
    r_.revisits = false;
    r_.unreachable_src = r_.unreachable_dst = -1;
    for (int d = 0; d < n_; ++d) {
      channel_distances(d);
      order_sources(d);
      for (int s : order_) route_pair(s, d);
      if (passes_ == 1)
        for (int s = 0; s < n_; ++s) {
          r_.paths.chans.insert(r_.paths.chans.end(), pending_[s].begin(), pending_[s].end());
          r_.paths.offset.push_back(static_cast<uint32_t>(r_.paths.chans.size()));
        }
    }
  }
  if (passes_ > 1)
    for (const auto& path : all_) {
      r_.paths.chans.insert(r_.paths.chans.end(), path.begin(), path.end());
      r_.paths.offset.push_back(static_cast<uint32_t>(r_.paths.chans.size()));
    }
  return std::move(r_);
}

}  // namespace

RouteResult route_with_turns(const SwitchGraph& g, const TurnRules& rules, uint64_t seed, bool consistent,
                             ShortestPathChoice choice) {
  if (choice == ShortestPathChoice::Tree)
    throw RoutingError("shortest paths: 'tree' paths are not shortest ones (route_updown builds them)");
  if (choice == ShortestPathChoice::Highest && rules.updown_label.size() != static_cast<size_t>(g.n))
    throw RoutingError("shortest paths: 'highest' needs up*/down* labels (an up*/down* routing)");
  return TurnRouter(g, rules, seed, consistent, choice).run();
}

std::vector<int> path_cdg_cycle(const SwitchGraph& g, const PathSet& paths) {
  std::vector<std::pair<int, int>> edges;
  for (int d = 0; d < paths.n; ++d)
    for (int s = 0; s < paths.n; ++s)
      for (size_t i = paths.begin(s, d); i + 1 < paths.end(s, d); ++i)
        edges.emplace_back(paths.chans[i], paths.chans[i + 1]);
  std::vector<uint32_t> off;
  std::vector<int> tgt;
  compress_edges(static_cast<int>(g.channels.size()), edges, off, tgt);
  return find_cycle(off, tgt);
}

}  // namespace ibsc::routing
