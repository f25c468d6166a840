// Channel dependency graph of a path set under edit (Flexible's path-space stages): every
// dependency "channel a -> channel b" carries the number of paths that create it, so ripping a
// path up releases exactly what no other path needs, and a new dependency is acceptable when it
// is already present or closes no cycle (b does not reach a).
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace ibsc::routing {

class PathCdg {
 public:
  explicit PathCdg(int channels)
      : c_(channels),
        succ_(channels),
        count_(size_t(channels) * channels, 0),
        listed_(count_.size(), false),
        stamp_(channels, 0) {}
  bool present(int a, int b) const { return count_[idx(a, b)] > 0; }
  void add(int a, int b) {
    if (count_[idx(a, b)]++ == 0 && !listed_[idx(a, b)]) {
      listed_[idx(a, b)] = true;
      succ_[a].push_back(b);
    }
  }
  void release(int a, int b) { --count_[idx(a, b)]; }
  bool acceptable(int a, int b) { return present(a, b) || !reaches(b, a); }
  // Path helpers: its consecutive channel pairs.
  void add_path(const std::vector<int>& p) {
    for (size_t i = 0; i + 1 < p.size(); ++i) add(p[i], p[i + 1]);
  }
  void release_path(const std::vector<int>& p) {
    for (size_t i = 0; i + 1 < p.size(); ++i) release(p[i], p[i + 1]);
  }
  // Adds the path's dependencies one by one (each acceptable alone does not make them
  // acceptable together); on a misfit undoes what it added and returns false.
  bool try_add_path(const std::vector<int>& p) {
    for (size_t i = 0; i + 1 < p.size(); ++i) {
      if (!acceptable(p[i], p[i + 1])) {
        for (size_t j = 0; j < i; ++j) release(p[j], p[j + 1]);
        return false;
      }
      add(p[i], p[i + 1]);
    }
    return true;
  }

 private:
  size_t idx(int a, int b) const { return size_t(a) * c_ + b; }
  bool reaches(int from, int target) {
    if (from == target) return true;
    if (++epoch_ == 0) std::fill(stamp_.begin(), stamp_.end(), 0), epoch_ = 1;
    stack_.assign(1, from);
    stamp_[from] = epoch_;
    while (!stack_.empty()) {
      int x = stack_.back();
      stack_.pop_back();
      for (int y : succ_[x]) {
        if (count_[idx(x, y)] == 0) continue;  // released; stays listed for a cheap re-add
        if (y == target) return true;
        if (stamp_[y] != epoch_) {
          stamp_[y] = epoch_;
          stack_.push_back(y);
        }
      }
    }
    return false;
  }
  int c_;
  std::vector<std::vector<int>> succ_;
  std::vector<int> count_;
  std::vector<bool> listed_;
  std::vector<uint32_t> stamp_;
  uint32_t epoch_ = 0;
  std::vector<int> stack_;
};

// The channels of every minimal path from switch s to d, by layer: layer[l] holds the channels
// that leave a switch l hops from d toward one l - 1 hops from it, on a minimal s -> d path.
// D(a, b) is the switch distance. Shared by Flexible's path-space stages (flexible_cdg.cpp,
// flexible_anneal.cpp), which walk these layers to pick a path.
template <class Channels, class Distance>
void minimal_channel_layers(const Channels& channels, const Distance& D, int s, int d,
                            std::vector<std::vector<int>>& layer) {
  const int len = D(s, d);
  layer.assign(len + 1, {});
  for (int c = 0; c < static_cast<int>(channels.size()); ++c) {
    const int dl = D(channels[c].from, d);
    if (dl <= len && D(channels[c].to, d) == dl - 1 && D(s, channels[c].from) + dl == len) layer[dl].push_back(c);
  }
}

}  // namespace ibsc::routing
