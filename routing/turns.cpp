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

RouteResult route_with_turns(const SwitchGraph& g, const TurnRules& rules, uint64_t seed, bool consistent,
                             ShortestPathChoice choice) {
  const int n = g.n;
  const size_t C = g.channels.size();
  const std::vector<int> pos = out_positions(g);
  std::vector<uint64_t> tie(C);
  for (size_t c = 0; c < C; ++c) tie[c] = mix(seed * 0x100000001b3ULL + c);
  RouteResult r;
  r.paths.n = n;
  r.paths.offset.reserve(static_cast<size_t>(n) * n + 1);
  r.paths.offset.push_back(0);
  r.load.assign(C, 0);
  std::vector<int> dist(C), queue, sw_dist;
  std::vector<int> seen(n, -1), hops(n), order(n);
  std::vector<std::vector<int32_t>> pending(n);
  std::vector<int> dag, nxt(C), bmax(C), bsum(C), mark(C, 0);
  int stamp = 0;
  // The DAG search costs the DAG's size per pair: fine up to a few hundred switches, too much
  // for 2,048-switch tori (paths of 30 hops span thousands of channels); those go hop by hop.
  const bool use_dp = n <= 512;
  std::vector<int> fixed_for(consistent ? C : 0, -1), fixed(consistent ? C : 0, -1), used_for(consistent ? C : 0, -1);
  // In consistent mode a channel some earlier path toward d already leaves its switch by is
  // preferred over the others (fewer distinct ports per switch and destination: fewer LIDs).
  auto reuse = [&](int y, int d) { return consistent && used_for[y] == d ? 1 : 0; };
  auto preferred = [&](int c_cur, int y, int d) {  // is y better than the current choice c_cur?
    if (c_cur < 0) return true;
    int ry = reuse(y, d), rc = reuse(c_cur, d);
    if (ry != rc) return ry > rc;
    if (choice == ShortestPathChoice::First) return g.channels[y].port < g.channels[c_cur].port;
    if (choice == ShortestPathChoice::Random) return tie[y] < tie[c_cur];
    if (bmax[y] != bmax[c_cur]) return bmax[y] < bmax[c_cur];
    if (bsum[y] != bsum[c_cur]) return bsum[y] < bsum[c_cur];
    return tie[y] < tie[c_cur];
  };
  // Small networks get rip-up-and-reroute passes: each pair drops its path and chooses again
  // knowing every other pair's load, which removes most of the order dependence.
  const int passes =
      use_dp && !consistent && n <= kReroutePassSwitches && choice == ShortestPathChoice::Balanced ? 3 : 1;
  std::vector<std::vector<int32_t>> all(passes > 1 ? static_cast<size_t>(n) * n : 0);
  auto slot = [&](int s, int d) -> std::vector<int32_t>& {
    return passes > 1 ? all[static_cast<size_t>(d) * n + s] : pending[s];
  };
  queue.reserve(C);
  for (int pass = 0; pass < passes; ++pass) {
    r.revisits = false;
    r.unreachable_src = r.unreachable_dst = -1;
    for (int d = 0; d < n; ++d) {
      // dist[c]: channels still to cross after c to reach d (backward BFS over legal turns).
      if (rules.kind != TurnRules::Kind::General) {
        switch_distances(g, rules, d, sw_dist, queue, dist);
      } else {
        std::fill(dist.begin(), dist.end(), -1);
        queue.clear();
        for (int c : g.in[d]) {
          dist[c] = 0;
          queue.push_back(c);
        }
        for (size_t i = 0; i < queue.size(); ++i) {
          const int c = queue[i];
          const int x = g.channels[c].from;
          for (int p : g.in[x])
            if (dist[p] < 0 && rules.allowed[p][pos[c]]) {
              dist[p] = dist[c] + 1;
              queue.push_back(p);
            }
        }
      }
      // Sources farthest from d first (they have the most choices), ties rotated by d so no
      // switch is always served first; paths are stored in source order afterwards.
      for (int s = 0; s < n; ++s) {
        hops[s] = -1;
        for (int c : g.out[s])
          if (dist[c] >= 0 && (hops[s] < 0 || dist[c] + 1 < hops[s])) hops[s] = dist[c] + 1;
        order[s] = s;
      }
      std::sort(order.begin(), order.end(), [&](int a, int b) {
        if (hops[a] != hops[b]) return hops[a] > hops[b];
        return (a - d + n) % n < (b - d + n) % n;
      });
      for (int s : order) {
        std::vector<int32_t>& path = slot(s, d);
        if (passes > 1)  // the previous pass's path of this pair (single pass: the last destination's)
          for (int c : path) --r.load[c];
        path.clear();
        if (s == d) continue;
        // The shortest legal paths from s form a DAG (each hop lowers dist by one); gather it
        // layer by layer, then pick the path whose most loaded channel is least loaded (then
        // the lowest load sum), the balancing rule of [18] restricted to shortest legal paths.
        if (!use_dp) {
          // Large networks: the same preferences hop by hop, on the channel load alone.
          auto greedy_better = [&](int y, int cur) {
            if (cur < 0) return true;
            int ry = reuse(y, d), rc = reuse(cur, d);
            if (ry != rc) return ry > rc;
            if (choice == ShortestPathChoice::First) return g.channels[y].port < g.channels[cur].port;
            if (choice == ShortestPathChoice::Random) return tie[y] < tie[cur];
            if (r.load[y] != r.load[cur]) return r.load[y] < r.load[cur];
            return tie[y] < tie[cur];
          };
          int cur = -1;
          for (int c : g.out[s])
            if (dist[c] >= 0 && dist[c] + 1 == hops[s] && greedy_better(c, cur)) cur = c;
          if (cur < 0) {
            if (r.unreachable_src < 0) r.unreachable_src = s, r.unreachable_dst = d;
            continue;
          }
          seen[s] = s * n + d;
          while (cur >= 0) {
            int next = -1;
            const int x = g.channels[cur].to;
            if (x != d) {
              if (consistent && fixed_for[cur] == d) {
                next = fixed[cur];
              } else {
                const auto& outs = g.out[x];
                for (size_t k = 0; k < outs.size(); ++k) {
                  int y = outs[k];
                  if (rules.allowed[cur][k] && dist[y] == dist[cur] - 1 && greedy_better(y, next)) next = y;
                }
              }
            }
            if (consistent) fixed_for[cur] = d, fixed[cur] = next, used_for[cur] = d;
            path.push_back(cur);
            ++r.load[cur];
            if (x != d && seen[x] == s * n + d) r.revisits = true;
            seen[x] = s * n + d;
            cur = next;
          }
          continue;
        }
        dag.clear();
        ++stamp;
        for (int c : g.out[s])
          if (dist[c] >= 0 && dist[c] + 1 == hops[s]) dag.push_back(c), mark[c] = stamp;
        const size_t firsts = dag.size();
        if (firsts == 0) {
          if (r.unreachable_src < 0) r.unreachable_src = s, r.unreachable_dst = d;
          continue;
        }
        for (size_t i = 0; i < dag.size(); ++i) {
          const int c = dag[i];
          if (dist[c] == 0) continue;
          const auto& outs = g.out[g.channels[c].to];
          for (size_t k = 0; k < outs.size(); ++k) {
            int y = outs[k];
            if (rules.allowed[c][k] && dist[y] == dist[c] - 1 && mark[y] != stamp) mark[y] = stamp, dag.push_back(y);
          }
        }
        for (size_t i = dag.size(); i-- > 0;) {
          const int c = dag[i];
          nxt[c] = -1;
          bmax[c] = bsum[c] = r.load[c];
          if (dist[c] == 0) continue;
          if (consistent && fixed_for[c] == d) {  // an earlier path fixed where c continues
            nxt[c] = fixed[c];
            bmax[c] = std::max(r.load[c], bmax[nxt[c]]);
            bsum[c] = r.load[c] + bsum[nxt[c]];
            continue;
          }
          const auto& outs = g.out[g.channels[c].to];
          for (size_t k = 0; k < outs.size(); ++k) {
            int y = outs[k];
            if (!rules.allowed[c][k] || dist[y] != dist[c] - 1) continue;
            if (preferred(nxt[c], y, d)) nxt[c] = y;
          }
          bmax[c] = std::max(r.load[c], bmax[nxt[c]]);
          bsum[c] = r.load[c] + bsum[nxt[c]];
        }
        int best = -1;
        for (size_t i = 0; i < firsts; ++i) {
          int c = dag[i];
          if (preferred(best, c, d)) best = c;
        }
        seen[s] = s * n + d;
        for (int cur = best; cur >= 0; cur = nxt[cur]) {
          if (consistent) fixed_for[cur] = d, fixed[cur] = nxt[cur], used_for[cur] = d;
          path.push_back(cur);
          ++r.load[cur];
          const int x = g.channels[cur].to;
          if (x != d && seen[x] == s * n + d) r.revisits = true;
          seen[x] = s * n + d;
        }
      }
      if (passes == 1)
        for (int s = 0; s < n; ++s) {
          r.paths.chans.insert(r.paths.chans.end(), pending[s].begin(), pending[s].end());
          r.paths.offset.push_back(static_cast<uint32_t>(r.paths.chans.size()));
        }
    }
  }
  if (passes > 1)
    for (const auto& path : all) {
      r.paths.chans.insert(r.paths.chans.end(), path.begin(), path.end());
      r.paths.offset.push_back(static_cast<uint32_t>(r.paths.chans.size()));
    }
  return r;
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
