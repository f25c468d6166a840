// TFTR stage 4 (an SL per path, mapping conflicts resolved) and stage 5 (VL balancing).
//
// Stage 4, our reading of seeds/002: a path that crosses x forbidden transitions takes the SL
// made for x transitions (SL0 for none: VL0 throughout, it never conflicts). Paths are placed
// longest first (they have the fewest alternatives; ties: primaries before alternates, then
// pair order); this needs one or two SLs fewer than primaries-first rounds on 7x7..10x10.
// When the path conflicts with the SL's entries (same switch, input and output port, other VL),
// the remedies are tried in this order:
//   1. an alternative path for it: the shortest path disjoint from the pair's other paths that
//      fits the first SL of its own transition count as it stands (SL0 for a legal path);
//   2. an alternative for the other paths of the conflict ("one of the paths causing the
//      conflict"): the path takes the SL, and each path holding a conflicting entry with the
//      other VL (at most kMaxPartners of them) is re-routed by remedy 1; if one cannot be, all
//      is undone;
//   3. an SL already added for x transitions that it fits;
//   4. an alternative fitting any existing SL;
//   5. a new SL for x transitions while the SL budget lasts (opt.max_sls);
//   6. the path is dropped.
// Then added SLs are emptied where possible, the least used first (the same moves), and the
// SLs renumbered: the greedy pass leaves some that its later placements made unnecessary.
// Alternatives are as long as they need to be ("preferably of the same length": the search is
// shortest-first). A pair is never left without a path: if all of its paths were dropped, the
// shortest legal up*/down* path takes SL0 (it cannot conflict).
//
// Stage 5: a path with no transition may ride one higher VL end to end (deadlock-free: it is a
// legal up*/down* path, and each VL's own dependencies come from legal segments only). In pair
// order, a path on SL0 moves to the least loaded higher VL under the first SL (made for at least
// that many transitions) whose entries it fits, while that narrows the gap between VL0's and
// that VL's path hops; no SL is added for it.
#include <algorithm>
#include <cstdint>
#include <tuple>

#include "routing/tftr.h"

namespace ibsc::routing {
namespace {

constexpr size_t kMaxPartners = 3;

// SLs a placement may not use (the SL being emptied, the SL a path gives up).
struct Avoid {
  int a = -1, b = -1;
  bool has(int sl) const { return sl == a || sl == b; }
};

class SlAssigner {
 public:
  SlAssigner(const SwitchGraph& g, TftrResult& r, int max_port, int max_sls, bool paper_remedies)
      : g_(g),
        r_(r),
        max_port_(max_port),
        max_sls_(std::max(1, max_sls)),
        paper_remedies_(paper_remedies),
        first_sl_(r.vls, -1) {
    add_sl(0);  // SL0: no transition, VL0 throughout
    first_sl_[0] = 0;
  }

  void place(int s, int d, size_t i) {
    TftrPath& p = path(s, d, i);
    const int x = p.transitions;
    if (x == 0) return assign(s, d, i, 0);
    if (first_sl_[x] < 0 && static_cast<int>(sls_.size()) < max_sls_) first_sl_[x] = add_sl(x);
    const int main = first_sl_[x];
    if (main >= 0 && sls_[main].fits(g_, p.chans, p.vls)) return assign(s, d, i, main);
    TftrStats& st = r_.stats;
    ++st.conflicts;
    if (alternative(s, d, i, true, {})) return;
    if (main >= 0 && take_with_partners(s, d, i, main, {})) return;
    if (paper_remedies_) return new_sl_or_drop(s, d, i, x);
    if (fit_other(s, d, i, {main, -1})) {
      ++st.other_sl;
      return;
    }
    for (size_t c = 0; c < sls_.size(); ++c)
      if (static_cast<int>(c) != main && sls_[c].transitions() >= x &&
          take_with_partners(s, d, i, static_cast<int>(c), {}))
        return;
    if (alternative(s, d, i, false, {})) return;
    new_sl_or_drop(s, d, i, x);
  }
  // The last remedies: a new SL for x transitions while the budget lasts, else the path goes.
  void new_sl_or_drop(int s, int d, size_t i, int x) {
    if (static_cast<int>(sls_.size()) < max_sls_) {
      ++r_.stats.new_sl;
      return assign(s, d, i, add_sl(x));
    }
    ++r_.stats.dropped;
    path(s, d, i).chans.clear();
  }

  // Tries to empty an added SL (not the first of its transition count): each of its paths moves
  // to another SL, to an alternative path fitting another SL, or into another SL while the paths
  // in its way move. Paths that moved stay moved; the SL is removed (and the higher SLs renumbered)
  // only when all did.
  bool eliminate(int c, const std::vector<std::pair<int, int>>& order) {
    if (c <= 0 || first_sl_[sls_[c].transitions()] == c) return false;
    const long alternatives_before = r_.stats.alternative, partners_before = r_.stats.partners_rerouted;
    bool all = true;
    for (auto [s, d] : order) {
      auto& ps = pairs(s, d);
      for (size_t i = 0; i < ps.size() && all; ++i) {
        if (ps[i].chans.empty() || ps[i].sl != c) continue;
        release(s, d, i);
        const TftrPath keep = ps[i];
        bool moved = fit_other(s, d, i, {c, -1}) || alternative(s, d, i, false, {c, -1});
        for (int o = 0; o < static_cast<int>(sls_.size()) && !moved; ++o)
          moved = o != c && sls_[o].transitions() >= keep.transitions && take_with_partners(s, d, i, o, {c, -1});
        if (!moved) {
          ps[i] = keep;
          assign(s, d, i, c);
          all = false;
        }
      }
    }
    r_.stats.alternative = alternatives_before;
    r_.stats.partners_rerouted = partners_before;
    if (!all) return false;
    sls_.erase(sls_.begin() + c);
    users_.erase(users_.begin() + c);
    for (auto& ps : r_.pairs)
      for (TftrPath& p : ps)
        if (p.sl > c) --p.sl;
    for (int& f : first_sl_)
      if (f > c) --f;
    ++r_.stats.sls_removed;
    return true;
  }

  // Empties added SLs, the least used first, while any can be emptied.
  void eliminate_sls(const std::vector<std::pair<int, int>>& order) {
    for (bool again = true; again;) {
      again = false;
      std::vector<long> used(sls_.size(), 0);
      for (const auto& ps : r_.pairs)
        for (const TftrPath& p : ps)
          if (!p.chans.empty()) ++used[p.sl];
      std::vector<int> by_use;
      for (int c = 1; c < static_cast<int>(sls_.size()); ++c) by_use.push_back(c);
      std::stable_sort(by_use.begin(), by_use.end(), [&](int a, int b) { return used[a] < used[b]; });
      for (int c : by_use)
        if (eliminate(c, order)) {
          again = true;
          break;
        }
    }
  }

  void balance(const std::vector<std::pair<int, int>>& order) {
    const int vls = r_.vls;
    if (vls < 2 || sls_.size() < 2) return;
    std::vector<long> load(vls, 0);
    for (auto [s, d] : order)
      for (const TftrPath& p : r_.paths(s, d))
        for (int v : p.vls) ++load[v];
    for (auto [s, d] : order) {
      auto& ps = pairs(s, d);
      for (size_t i = 0; i < ps.size(); ++i) {
        if (ps[i].sl != 0 || ps[i].chans.empty()) continue;
        int v = 1;
        for (int w = 2; w < vls; ++w)
          if (load[w] < load[v]) v = w;
        const long len = static_cast<long>(ps[i].chans.size());
        if (load[0] - load[v] <= len) continue;
        const std::vector<int> up(ps[i].chans.size(), v);
        for (size_t c = 1; c < sls_.size(); ++c) {
          if (sls_[c].transitions() < v || !sls_[c].fits(g_, ps[i].chans, up)) continue;
          release(s, d, i);
          ps[i].vls = up;
          assign(s, d, i, static_cast<int>(c));
          load[0] -= len;
          load[v] += len;
          ++r_.stats.balanced;
          break;
        }
      }
    }
  }

  std::vector<int> sl_transitions() const {
    std::vector<int> t;
    for (const SlMap& m : sls_) t.push_back(m.transitions());
    return t;
  }

 private:
  std::vector<TftrPath>& pairs(int s, int d) { return r_.pairs[static_cast<size_t>(s) * r_.n + d]; }
  TftrPath& path(int s, int d, size_t i) { return pairs(s, d)[i]; }
  uint32_t id(int s, int d, size_t i) const {
    return static_cast<uint32_t>((static_cast<size_t>(s) * r_.n + d) * r_.k + i);
  }

  int add_sl(int transitions) {
    sls_.emplace_back(g_, max_port_, transitions);
    users_.emplace_back(sls_.back().entries());
    return static_cast<int>(sls_.size()) - 1;
  }
  void assign(int s, int d, size_t i, int sl) {
    TftrPath& p = path(s, d, i);
    p.sl = sl;
    sls_[sl].assign(g_, p.chans, p.vls);
    for (const SlMap::Hop& h : sls_[sl].hops(g_, p.chans, p.vls)) users_[sl][h.entry].push_back(id(s, d, i));
  }
  void release(int s, int d, size_t i) {
    TftrPath& p = path(s, d, i);
    sls_[p.sl].release(g_, p.chans, p.vls);
    const uint32_t me = id(s, d, i);
    for (const SlMap::Hop& h : sls_[p.sl].hops(g_, p.chans, p.vls)) {
      auto& u = users_[p.sl][h.entry];
      u.erase(std::find(u.begin(), u.end(), me));
    }
  }

  // The path as it is, in the first SL (made for at least its transitions) that it fits.
  bool fit_other(int s, int d, size_t i, Avoid avoid) {
    const TftrPath& p = path(s, d, i);
    for (size_t c = 0; c < sls_.size(); ++c) {
      if (avoid.has(static_cast<int>(c)) || sls_[c].transitions() < p.transitions) continue;
      if (!sls_[c].fits(g_, p.chans, p.vls)) continue;
      assign(s, d, i, static_cast<int>(c));
      return true;
    }
    return false;
  }

  // The shortest alternative disjoint from the pair's other paths that fits an SL as it stands
  // (at equal length the lower SL); `main_only`: only the first SL of each transition count.
  // On success the path is replaced and assigned.
  bool alternative(int s, int d, size_t i, bool main_only, Avoid avoid) {
    auto& ps = pairs(s, d);
    PathSearch q = search_around(g_, s, d, ps, i);
    std::vector<int> best;
    int best_sl = -1;
    for (size_t c = 0; c < sls_.size(); ++c) {
      if (main_only && first_sl_[sls_[c].transitions()] != static_cast<int>(c)) continue;
      if (avoid.has(static_cast<int>(c))) continue;
      q.max_vl = std::min(sls_[c].transitions(), r_.vls - 1);
      q.sl = &sls_[c];
      if (!best.empty()) q.max_hops = static_cast<int>(best.size()) - 1;
      std::vector<int> alt = search_path(g_, r_.orientation, q);
      if (!alt.empty()) best = std::move(alt), best_sl = static_cast<int>(c);
    }
    if (best_sl < 0) return false;
    ++r_.stats.alternative;
    TftrPath& p = ps[i];
    p.chans = std::move(best);
    p.vls = transition_vls(g_, r_.orientation, p.chans);
    p.transitions = p.vls.back();
    assign(s, d, i, best_sl);
    return true;
  }

  // The path takes SL `sl`; each path holding a conflicting entry there (at most kMaxPartners)
  // moves to another SL as it is, else to an alternative path fitting another SL; if one
  // cannot, everything is undone.
  bool take_with_partners(int s, int d, size_t i, int sl, Avoid avoid) {
    TftrPath& p = path(s, d, i);
    std::vector<uint32_t> partners;
    for (const SlMap::Hop& h : sls_[sl].hops(g_, p.chans, p.vls)) {
      if (sls_[sl].vl_at(h.entry) < 0 || sls_[sl].vl_at(h.entry) == h.vl) continue;
      for (uint32_t u : users_[sl][h.entry])
        if (std::find(partners.begin(), partners.end(), u) == partners.end()) partners.push_back(u);
      if (partners.size() > kMaxPartners) return false;
    }
    if (partners.empty()) return false;
    struct Saved {
      int s, d;
      size_t i;
      TftrPath path;
    };
    std::vector<Saved> saved;
    for (uint32_t u : partners) {
      const size_t pair = u / r_.k;
      Saved sv{static_cast<int>(pair / r_.n), static_cast<int>(pair % r_.n), u % r_.k, {}};
      sv.path = path(sv.s, sv.d, sv.i);
      release(sv.s, sv.d, sv.i);
      saved.push_back(std::move(sv));
    }
    auto restore = [&] {
      for (Saved& sv : saved) {
        path(sv.s, sv.d, sv.i) = sv.path;
        assign(sv.s, sv.d, sv.i, sv.path.sl);
      }
    };
    if (!sls_[sl].fits(g_, p.chans, p.vls)) {  // cannot happen: the partners held every conflict
      restore();
      return false;
    }
    assign(s, d, i, sl);
    const long alternatives_before = r_.stats.alternative;
    const Avoid keep_out{sl, avoid.a};
    size_t moved = 0;
    while (moved < saved.size()) {
      const Saved& sv = saved[moved];
      if (!fit_other(sv.s, sv.d, sv.i, keep_out) && !alternative(sv.s, sv.d, sv.i, false, keep_out)) break;
      ++moved;
    }
    if (moved == saved.size()) {
      ++r_.stats.partners_rerouted;
      return true;
    }
    // Undo: the partners that moved leave their new SL, the path leaves this one, and every
    // partner returns to its old path and SL.
    r_.stats.alternative = alternatives_before;
    for (size_t j = 0; j < moved; ++j) release(saved[j].s, saved[j].d, saved[j].i);
    release(s, d, i);
    restore();
    return false;
  }

  const SwitchGraph& g_;
  TftrResult& r_;
  int max_port_;
  int max_sls_;
  bool paper_remedies_;
  std::vector<int> first_sl_;  // the SL made first for each transition count; -1: none yet
  std::vector<SlMap> sls_;
  std::vector<std::vector<std::vector<uint32_t>>> users_;  // [SL][entry] -> path ids
};

}  // namespace

void tftr_assign_sls(const SwitchGraph& g, TftrResult& r, const std::vector<std::pair<int, int>>& order, int max_port,
                     int max_sls, bool paper_remedies) {
  SlAssigner a(g, r, max_port, max_sls, paper_remedies);
  // Longest paths first (they have the fewest alternatives), then by rank, then pair order.
  std::vector<std::tuple<size_t, size_t, int, int>> all;  // (length, rank, s, d)
  for (auto [s, d] : order)
    for (size_t i = 0; i < r.paths(s, d).size(); ++i) all.emplace_back(r.paths(s, d)[i].chans.size(), i, s, d);
  std::stable_sort(all.begin(), all.end(), [](const auto& x, const auto& y) {
    return std::get<0>(x) != std::get<0>(y) ? std::get<0>(x) > std::get<0>(y) : std::get<1>(x) < std::get<1>(y);
  });
  for (const auto& [len, i, s, d] : all) a.place(s, d, i);
  a.eliminate_sls(order);
  a.balance(order);
  r.sl_transitions = a.sl_transitions();
}

}  // namespace ibsc::routing
