#include "routing/fault_analysis.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <stdexcept>

#include "routing/graph.h"

namespace ibsc::routing {
namespace {

constexpr int kSlots = 8;  // (pair, path) slots per pair: one byte of a bitset word
constexpr uint64_t kLowBits = 0x0101010101010101ULL;

int popcount64(uint64_t x) { return __builtin_popcountll(x); }

// Cable graph for connectivity: which switches have hosts, the cables' ends.
struct CableGraph {
  int n = 0;
  std::vector<std::pair<int, int>> ends;
  std::vector<std::vector<std::pair<int, int>>> adj;  // switch -> (neighbour, cable)
  std::vector<char> has_host;
  int host_switches = 0;

  CableGraph(const Topology& t, const PathSets& ps) : n(t.num_switches), ends(ps.cable_ends), adj(n), has_host(n, 0) {
    for (size_t c = 0; c < ends.size(); ++c) {
      adj[ends[c].first].emplace_back(ends[c].second, static_cast<int>(c));
      adj[ends[c].second].emplace_back(ends[c].first, static_cast<int>(c));
    }
    for (int h = 0; h < t.num_hosts; ++h) {
      const int s = t.host_switch(h);
      if (s >= 0 && s < n && !has_host[s]) has_host[s] = 1, ++host_switches;
    }
  }

  // Cables whose failure (on top of `failed`) separates switches with hosts, as a bitset over
  // cables; all of them when `failed` already does. Bridges by an iterative low-link search.
  void separating(const std::vector<char>& failed, std::vector<uint64_t>& out) {
    std::fill(out.begin(), out.end(), 0);
    std::vector<int> disc(n, -1), low(n, 0), hosts_below(n, 0), parent_cable(n, -1);
    std::vector<std::pair<int, size_t>> stack;
    int time = 0, components_with_hosts = 0;
    std::vector<std::pair<int, int>> bridges;  // (cable, host switches below)
    for (int root = 0; root < n; ++root) {
      if (disc[root] >= 0) continue;
      disc[root] = low[root] = time++;
      hosts_below[root] = has_host[root];
      stack.assign(1, {root, 0});
      while (!stack.empty()) {
        auto& [x, k] = stack.back();
        if (k < adj[x].size()) {
          const auto [y, c] = adj[x][k++];
          if (failed[c] || c == parent_cable[x]) continue;
          if (disc[y] < 0) {
            disc[y] = low[y] = time++;
            hosts_below[y] = has_host[y];
            parent_cable[y] = c;
            stack.emplace_back(y, 0);
          } else {
            low[x] = std::min(low[x], disc[y]);
          }
          continue;
        }
        const int done = x;
        stack.pop_back();
        if (stack.empty()) break;
        const int up = stack.back().first;
        low[up] = std::min(low[up], low[done]);
        hosts_below[up] += hosts_below[done];
        if (low[done] > disc[up]) bridges.emplace_back(parent_cable[done], hosts_below[done]);
      }
      if (hosts_below[root] > 0) ++components_with_hosts;
      // Bridges found in this component separate hosts when both sides have some.
      for (auto [c, below] : bridges)
        if (below > 0 && below < hosts_below[root]) out[c >> 6] |= 1ULL << (c & 63);
      bridges.clear();
    }
    if (components_with_hosts > 1)
      for (size_t c = 0; c < ends.size(); ++c)
        if (!failed[c]) out[c >> 6] |= 1ULL << (c & 63);
  }

  bool disconnected(const std::vector<int>& faults) const {
    std::vector<char> failed(ends.size(), 0);
    for (int c : faults) failed[c] = 1;
    std::vector<int> seen(n, 0), stack;
    int start = -1;
    for (int x = 0; x < n && start < 0; ++x)
      if (has_host[x]) start = x;
    if (start < 0) return false;
    int reached = 0;
    stack.push_back(start);
    seen[start] = 1;
    while (!stack.empty()) {
      int x = stack.back();
      stack.pop_back();
      reached += has_host[x];
      for (auto [y, c] : adj[x])
        if (!failed[c] && !seen[y]) seen[y] = 1, stack.push_back(y);
    }
    return reached < host_switches;
  }
};

double choose(int n, int k) {
  double r = 1;
  for (int i = 0; i < k; ++i) r = r * (n - i) / (i + 1);
  return r;
}

}  // namespace

namespace {

// Numbers the cables (out.cable_ends, cable_names, cable_by_port): [channel] -> its cable.
std::vector<int> number_cables(const Topology& t, const SwitchGraph& g, PathSets& out) {
  std::vector<int> cable_of(g.channels.size(), -1);
  for (size_t c = 0; c < g.channels.size(); ++c) {
    const int r = g.reverse[c];
    if (r >= 0 && r < static_cast<int>(c)) {
      cable_of[c] = cable_of[r];
      continue;
    }
    cable_of[c] = static_cast<int>(out.cable_ends.size());
    const Channel& ch = g.channels[c];
    out.cable_ends.emplace_back(ch.from, ch.to);
    out.cable_names.push_back(t.nodes[ch.from].name + ":" + std::to_string(ch.port) + "-" + t.nodes[ch.to].name + ":" +
                              std::to_string(ch.to_port));
  }
  out.cable_by_port.resize(t.num_switches);
  for (int x = 0; x < t.num_switches; ++x) {
    out.cable_by_port[x].assign(t.nodes[x].num_ports + 1, -1);
    for (int p = 1; p <= t.nodes[x].num_ports; ++p)
      if (g.channel_at(x, p) >= 0) out.cable_by_port[x][p] = cable_of[g.channel_at(x, p)];
  }
  return cable_of;
}

// The records of host h toward host q (switches s and d) walked through the LFTs into pp.
void walk_records(const Topology& t, const TableSet& ts, const SwitchGraph& g, const std::vector<int>& cable_of,
                  size_t cables, int h, int q, PairPaths& pp) {
  const int S = t.num_switches, s = t.host_switch(h), d = t.host_switch(q);
  std::vector<int> cable_use(cables, 0), switch_use(S, 0);
  const Span<PathRecord> recs = h < static_cast<int>(ts.hosts.size()) && q < static_cast<int>(ts.hosts[h].paths.size())
                                    ? ts.hosts[h].paths[q]
                                    : Span<PathRecord>{};
  for (const PathRecord& rec : recs) {
    std::vector<int> path;
    int x = s;
    bool arrived = false;
    for (int steps = 0; steps <= S; ++steps) {
      const Lft& lft = ts.switches[x].lft;
      const PortNum port = rec.dlid < lft.size() ? lft[rec.dlid].primary() : kNoPort;
      if (port == kNoPort || port > t.nodes[x].num_ports) break;
      const int y = t.nodes[x].ports[port].node;
      if (y < 0) break;
      if (y >= S) {
        arrived = y == t.host_node(q);
        break;
      }
      const int c = g.channel_at(x, port);
      if (c < 0) break;
      path.push_back(cable_of[c]);
      if (y != d && switch_use[y]++) pp.disjoint = false;
      x = y;
    }
    if (!arrived) {
      pp.walked = false;
      continue;
    }
    for (int c : path)
      if (cable_use[c]++) pp.disjoint = false;
    pp.cables.push_back(std::move(path));
  }
}

}  // namespace

PathSets record_paths(const Topology& t, const TableSet& ts) {
  PathSets out;
  SwitchGraph g(t);
  const std::vector<int> cable_of = number_cables(t, g, out);
  std::map<std::pair<int, int>, std::vector<size_t>> groups;  // switch pair -> indices in out.pairs
  const int S = t.num_switches;
  for (int h = 0; h < t.num_hosts; ++h) {
    const int s = t.host_switch(h);
    for (int q = 0; q < t.num_hosts; ++q) {
      const int d = t.host_switch(q);
      if (q == h || s == d || s < 0 || d < 0 || s >= S || d >= S) continue;
      ++out.host_pairs;
      PairPaths pp;
      pp.src_host = h;
      pp.dst_host = q;
      pp.host_pairs = 1;
      walk_records(t, ts, g, cable_of, out.cable_ends.size(), h, q, pp);
      auto& list = groups[{s, d}];
      bool merged = false;
      for (size_t i : list)
        if (out.pairs[i].cables == pp.cables && out.pairs[i].disjoint == pp.disjoint &&
            out.pairs[i].walked == pp.walked) {
          ++out.pairs[i].host_pairs;
          merged = true;
          break;
        }
      if (!merged) {
        list.push_back(out.pairs.size());
        out.pairs.push_back(std::move(pp));
      }
    }
  }
  return out;
}

PathCensus path_census(const PathSets& ps) {
  PathCensus c;
  for (const PairPaths& p : ps.pairs) {
    size_t n = p.cables.size();
    if (!p.disjoint) {  // greedy: keep records that share no cable with those kept
      std::vector<int> used;
      n = 0;
      for (const auto& path : p.cables) {
        bool clash = false;
        for (int x : path) clash |= std::find(used.begin(), used.end(), x) != used.end();
        if (clash) continue;
        used.insert(used.end(), path.begin(), path.end());
        ++n;
      }
      c.not_disjoint += p.host_pairs;
    }
    if (!p.walked) c.broken += p.host_pairs;
    if (c.with_n.size() <= n) c.with_n.resize(n + 1, 0);
    c.with_n[n] += p.host_pairs;
    c.pairs += p.host_pairs;
  }
  return c;
}

namespace {

// One level of analyse_faults(): m faults. Its members are the pairs m faults can cut as
// bitsets, (pair, path) slots over cables and cables over slots; its methods count the
// combinations that cut a pair without separating the hosts, every one or a sample.
class LevelCounter {
 public:
  LevelCounter(const PathSets& ps, const FaultOptions& opt, CableGraph& cg, int m);
  FaultLevel count();

 private:
  int pair_of_full(const std::vector<uint64_t>& x) const;
  void add_example(std::vector<int> faults);
  void every_combination();
  void prefix(int depth, int from);
  void visit_prefix(int last);
  void sample();

  const FaultOptions& opt_;
  CableGraph& cg_;
  const int m_, L_;
  const size_t Lw_;
  FaultLevel lv_;
  std::vector<const PairPaths*> rel_;
  size_t P_ = 0, W_ = 0;
  std::vector<uint64_t> fill_;
  std::vector<std::vector<uint64_t>> by_cable_;
  std::vector<std::vector<uint64_t>> path_mask_;  // [pair * 8 + slot] -> cables
  // every_combination()'s: the prefix's cables, their slots hit, failed cables, scratch masks.
  std::vector<std::vector<uint64_t>> acc_;
  std::vector<int> idx_;
  std::vector<char> failed_;
  std::vector<uint64_t> complete_, separate_;
};

LevelCounter::LevelCounter(const PathSets& ps, const FaultOptions& opt, CableGraph& cg, int m)
    : opt_(opt), cg_(cg), m_(m), L_(static_cast<int>(ps.cable_ends.size())), Lw_((static_cast<size_t>(L_) + 63) / 64) {
  lv_.faults = m;
  lv_.combinations = choose(L_, m);
  // Pairs that m faults can cut: every path hit needs its own fault (the paths are disjoint
  // in cables; a pair whose records share cables counts its disjoint ones, a lower bound).
  for (const PairPaths& p : ps.pairs)
    if (!p.cables.empty() && static_cast<int>(p.cables.size()) <= m) rel_.push_back(&p);
  P_ = rel_.size(), W_ = (P_ + 7) / 8;
  fill_.assign(W_, 0);
  by_cable_.assign(L_, std::vector<uint64_t>(W_, 0));
  path_mask_.resize(P_ * kSlots);
  for (size_t p = 0; p < P_; ++p) {
    const auto& paths = rel_[p]->cables;
    for (int j = 0; j < kSlots; ++j) {
      const size_t bit = p * kSlots + j;
      if (j >= static_cast<int>(paths.size())) {
        fill_[bit >> 6] |= 1ULL << (bit & 63);
        continue;
      }
      auto& mask = path_mask_[p * kSlots + j];
      mask.assign(Lw_, 0);
      for (int c : paths[j]) {
        by_cable_[c][bit >> 6] |= 1ULL << (bit & 63);
        mask[c >> 6] |= 1ULL << (c & 63);
      }
    }
  }
}

// The first pair whose 8 slots are all hit in x, or -1.
int LevelCounter::pair_of_full(const std::vector<uint64_t>& x) const {
  for (size_t w = 0; w < W_; ++w) {
    uint64_t v = x[w] & (x[w] >> 1);
    v &= v >> 2;
    v &= v >> 4;
    v &= kLowBits;
    if (v) return static_cast<int>(w * 8 + __builtin_ctzll(v) / 8);
  }
  return -1;
}

void LevelCounter::add_example(std::vector<int> faults) {
  if (static_cast<int>(lv_.examples.size()) >= opt_.max_examples) return;
  std::vector<uint64_t> x = fill_;
  for (int c : faults)
    for (size_t w = 0; w < W_; ++w) x[w] |= by_cable_[c][w];
  const int p = pair_of_full(x);
  if (p < 0) return;
  lv_.examples.push_back(
      {std::move(faults), rel_[p]->src_host, rel_[p]->dst_host, static_cast<int>(rel_[p]->cables.size())});
}

// A prefix of m-1 cables (acc_[m-1]) after which `last` is the highest: the last cable by popcount.
void LevelCounter::visit_prefix(int last) {
  const auto& x = acc_[m_ - 1];
  std::fill(complete_.begin(), complete_.end(), 0);
  bool all = false;
  for (size_t w = 0; w < W_ && !all; ++w) {
    uint64_t v = x[w] - ((x[w] >> 1) & 0x5555555555555555ULL);
    v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
    v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    uint64_t hit = (v + kLowBits) & 0x0808080808080808ULL;  // bytes with 7 or 8 slots set
    while (hit) {
      const int b = __builtin_ctzll(hit) / 8;
      hit &= hit - 1;
      const uint8_t byte = static_cast<uint8_t>(x[w] >> (8 * b));
      if (byte == 0xFF) {
        all = true;
        break;
      }
      const size_t p = w * 8 + b;
      const auto& mask = path_mask_[p * kSlots + __builtin_ctz(static_cast<unsigned>(~byte) & 0xFFu)];
      for (size_t k = 0; k < Lw_; ++k) complete_[k] |= mask[k];
    }
  }
  if (all) std::fill(complete_.begin(), complete_.end(), ~0ULL);
  // Only cables after the prefix's last one (each combination once).
  for (size_t k = 0; k < Lw_; ++k) {
    const long lo = static_cast<long>(k) * 64;
    if (lo + 63 <= last) complete_[k] = 0;
    else if (lo <= last) complete_[k] &= ~0ULL << (last - lo + 1);
    if (lo + 64 > L_) complete_[k] &= L_ - lo >= 64 ? ~0ULL : ((1ULL << (L_ - lo)) - 1);
  }
  long singular = 0;
  for (size_t k = 0; k < Lw_; ++k) singular += popcount64(complete_[k]);
  if (!singular) return;
  cg_.separating(failed_, separate_);
  long cut = 0;
  for (size_t k = 0; k < Lw_; ++k) cut += popcount64(complete_[k] & separate_[k]);
  lv_.singular += singular - cut;
  lv_.disconnecting += cut;
  if (static_cast<int>(lv_.examples.size()) < opt_.max_examples && singular > cut)
    for (size_t k = 0; k < Lw_; ++k) {
      const uint64_t ok = complete_[k] & ~separate_[k];
      if (!ok) continue;
      std::vector<int> f(idx_.begin(), idx_.begin() + (m_ - 1));
      f.push_back(static_cast<int>(k * 64 + __builtin_ctzll(ok)));
      add_example(std::move(f));
      break;
    }
}

// Prefixes idx_[0] < ... < idx_[m-2], depth first.
void LevelCounter::prefix(int depth, int from) {
  if (depth == m_ - 1) return visit_prefix(depth > 0 ? idx_[depth - 1] : -1);
  for (int c = from; c <= L_ - (m_ - depth); ++c) {
    idx_[depth] = c;
    failed_[c] = 1;
    for (size_t w = 0; w < W_; ++w) acc_[depth + 1][w] = acc_[depth][w] | by_cable_[c][w];
    prefix(depth + 1, c + 1);
    failed_[c] = 0;
  }
}

// Every combination: prefixes of m-1 cables, the last cable by popcount.
void LevelCounter::every_combination() {
  lv_.examined = static_cast<long>(lv_.combinations);
  acc_.assign(m_, fill_);
  idx_.assign(std::max(m_ - 1, 1), 0);
  failed_.assign(L_, 0);
  complete_.assign(Lw_, 0), separate_.assign(Lw_, 0);
  prefix(0, 0);
}

// Random combinations (Floyd's sampling), seeded per level.
void LevelCounter::sample() {
  lv_.sampled = true;
  lv_.examined = opt_.samples;
  std::mt19937_64 rng(opt_.seed * 1000003ULL + static_cast<uint64_t>(m_));
  std::vector<int> f;
  std::vector<uint64_t> x(W_);
  for (long i = 0; i < opt_.samples; ++i) {
    f.clear();
    for (int j = L_ - m_; j < L_; ++j) {
      const int r = static_cast<int>(std::uniform_int_distribution<int>(0, j)(rng));
      f.push_back(std::find(f.begin(), f.end(), r) == f.end() ? r : j);
    }
    x = fill_;
    for (int c : f)
      for (size_t w = 0; w < W_; ++w) x[w] |= by_cable_[c][w];
    if (pair_of_full(x) < 0) continue;
    if (cg_.disconnected(f)) {
      ++lv_.disconnecting;
      continue;
    }
    ++lv_.singular;
    std::sort(f.begin(), f.end());
    add_example(f);
  }
}

FaultLevel LevelCounter::count() {
  const double prefixes = choose(L_, m_ - 1);
  if (m_ <= opt_.exhaustive_up_to && prefixes * (W_ + Lw_ + 8) < 4e9) every_combination();
  else sample();
  const double base = static_cast<double>(lv_.examined - lv_.disconnecting);
  if (base > 0) {
    const double p = lv_.singular / base;
    lv_.percent = 100 * p;
    if (lv_.sampled) lv_.ci95 = 100 * 1.96 * std::sqrt(p * (1 - p) / base);
  }
  return std::move(lv_);
}

}  // namespace

std::vector<FaultLevel> analyse_faults(const Topology& t, const PathSets& ps, const FaultOptions& opt) {
  if (opt.max_faults < 1 || opt.max_faults > kSlots)
    throw std::invalid_argument("fault analysis: 1 to " + std::to_string(kSlots) + " faults (asked for " +
                                std::to_string(opt.max_faults) + ")");
  const int L = static_cast<int>(ps.cable_ends.size());
  CableGraph cg(t, ps);
  std::vector<FaultLevel> levels;
  for (int m = 1; m <= opt.max_faults && m <= L; ++m) levels.push_back(LevelCounter(ps, opt, cg, m).count());
  return levels;
}

CutReport pairs_cut(const Topology& t, const PathSets& ps, const std::vector<int>& faults) {
  CutReport r;
  for (const PairPaths& p : ps.pairs) {
    bool survives = false;
    for (const auto& path : p.cables) {
      bool hit = false;
      for (int c : path) hit |= std::find(faults.begin(), faults.end(), c) != faults.end();
      survives |= !hit;
    }
    if (!survives) r.cut.push_back(&p);
  }
  r.disconnects = CableGraph(t, ps).disconnected(faults);
  return r;
}

int find_cable(const Topology& t, const PathSets& ps, const std::string& end) {
  const size_t colon = end.rfind(':');
  if (colon == std::string::npos) return -1;
  const std::string name = end.substr(0, colon);
  int port = -1;
  try {
    size_t used = 0;
    port = std::stoi(end.substr(colon + 1), &used);
    if (used != end.size() - colon - 1) return -1;
  } catch (const std::exception&) {
    return -1;
  }
  for (int s = 0; s < t.num_switches; ++s)
    if (t.nodes[s].name == name && s < static_cast<int>(ps.cable_by_port.size()) && port >= 0 &&
        port < static_cast<int>(ps.cable_by_port[s].size()))
      return ps.cable_by_port[s][port];
  return -1;
}

}  // namespace ibsc::routing
