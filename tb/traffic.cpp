#include "tb/traffic.h"

#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>

namespace ibsc::tb {
namespace {

class Uniform : public DestinationPattern {
 public:
  explicit Uniform(int n) : n_(n) {}
  int destination(int src, std::mt19937_64& rng) override {
    if (n_ < 2) return -1;
    int d = static_cast<int>(uniform_below(rng, n_ - 1));
    return d >= src ? d + 1 : d;
  }
  std::string name() const override { return "uniform"; }

 private:
  int n_;
};

// Any fixed map src -> dst (-1: sends nothing).
class Fixed : public DestinationPattern {
 public:
  Fixed(std::string name, std::vector<int> map) : name_(std::move(name)), map_(std::move(map)) {}
  int destination(int src, std::mt19937_64&) override { return map_[src]; }
  std::string name() const override { return name_; }

 private:
  std::string name_;
  std::vector<int> map_;
};

class Hotspot : public DestinationPattern {
 public:
  Hotspot(int n, std::vector<int> hot, double frac) : uni_(n), hot_(std::move(hot)), frac_(frac) {}
  int destination(int src, std::mt19937_64& rng) override {
    if (uniform01(rng) < frac_) {
      int d = hot_[uniform_below(rng, hot_.size())];
      if (d != src) return d;
    }
    return uni_.destination(src, rng);
  }
  std::string name() const override { return "hotspot"; }

 private:
  Uniform uni_;
  std::vector<int> hot_;
  double frac_;
};

class AllToAll : public DestinationPattern {
 public:
  explicit AllToAll(int n) : n_(n), next_(n, 1) {}
  int destination(int src, std::mt19937_64&) override {
    if (n_ < 2) return -1;
    int d = (src + next_[src]) % n_;
    next_[src] = next_[src] % (n_ - 1) + 1;
    return d;
  }
  std::string name() const override { return "all-to-all"; }

 private:
  int n_;
  std::vector<int> next_;
};

class Neighbour : public DestinationPattern {
 public:
  explicit Neighbour(const routing::Topology& t) : topo_(t) {}
  int destination(int src, std::mt19937_64& rng) override {
    int sw = topo_.host_switch(src);
    const auto& node = topo_.nodes[sw];
    std::vector<int> nbrs;
    for (int p = 1; p <= node.num_ports; ++p)
      if (node.ports[p].node >= 0 && topo_.is_switch(node.ports[p].node)) nbrs.push_back(node.ports[p].node);
    if (nbrs.empty()) return -1;
    int nsw = nbrs[uniform_below(rng, nbrs.size())];
    // Same host slot on the neighbouring switch: the k-th host of sw -> k-th host of nsw.
    std::vector<int> mine, theirs;
    for (int h = 0; h < topo_.num_hosts; ++h) {
      if (topo_.host_switch(h) == sw) mine.push_back(h);
      if (topo_.host_switch(h) == nsw) theirs.push_back(h);
    }
    if (theirs.empty()) return -1;
    size_t slot = 0;
    while (mine[slot] != src) ++slot;
    return theirs[slot % theirs.size()];
  }
  std::string name() const override { return "neighbour"; }

 private:
  const routing::Topology& topo_;
};

std::vector<int> bit_map(int n, const std::function<uint64_t(uint64_t, int)>& f) {
  int b = 0;
  while ((1 << b) < n) ++b;
  std::vector<int> map(n);
  for (int s = 0; s < n; ++s) {
    uint64_t d = f(static_cast<uint64_t>(s), b);
    map[s] = (d >= static_cast<uint64_t>(n) || static_cast<int>(d) == s) ? -1 : static_cast<int>(d);
  }
  return map;
}

uint64_t rotr(uint64_t x, int k, int b) {
  if (b == 0) return x;
  k %= b;
  uint64_t mask = (b == 64) ? ~0ull : ((1ull << b) - 1);
  return ((x >> k) | (x << (b - k))) & mask;
}

std::vector<int> read_permutation(const std::string& file, int n) {
  std::ifstream in(file);
  if (!in) throw std::invalid_argument(file + ": cannot open permutation file (traffic.permutation_file)");
  std::vector<int> map(n, -1);
  std::vector<bool> used(n, false);
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    std::istringstream is(line);
    int s, d;
    if (!(is >> s)) continue;
    std::string extra;
    if (!(is >> d) || (is >> extra))
      throw std::invalid_argument(file + ":" + std::to_string(lineno) + ": expected two host numbers 'src dst'");
    if (s < 0 || s >= n || d < 0 || d >= n)
      throw std::invalid_argument(file + ":" + std::to_string(lineno) + ": host out of range 0.." + std::to_string(n - 1));
    if (map[s] >= 0) throw std::invalid_argument(file + ":" + std::to_string(lineno) + ": source " + std::to_string(s) + " listed twice");
    if (used[d])
      throw std::invalid_argument(file + ":" + std::to_string(lineno) + ": destination " + std::to_string(d) +
                                  " listed twice (not a permutation)");
    used[d] = true;
    map[s] = d == s ? -1 : d;
  }
  return map;
}

}  // namespace

std::unique_ptr<DestinationPattern> make_destination_pattern(const TrafficConfig& c, const routing::Topology& t) {
  const int n = t.num_hosts;
  const std::string& p = c.pattern;
  if (p == "uniform") return std::make_unique<Uniform>(n);
  if (p == "bit-reversal")
    return std::make_unique<Fixed>(p, bit_map(n, [](uint64_t x, int b) {
                                     uint64_t r = 0;
                                     for (int i = 0; i < b; ++i) r |= ((x >> i) & 1) << (b - 1 - i);
                                     return r;
                                   }));
  if (p == "transpose") return std::make_unique<Fixed>(p, bit_map(n, [](uint64_t x, int b) { return rotr(x, b / 2, b); }));
  if (p == "bit-complement")
    return std::make_unique<Fixed>(p, bit_map(n, [](uint64_t x, int b) { return ~x & ((1ull << b) - 1); }));
  if (p == "bit-rotation") return std::make_unique<Fixed>(p, bit_map(n, [](uint64_t x, int b) { return rotr(x, 1, b); }));
  if (p == "shuffle") return std::make_unique<Fixed>(p, bit_map(n, [](uint64_t x, int b) { return rotr(x, b - 1, b); }));
  if (p == "hotspot") {
    if (c.hotspot_hosts.empty()) throw std::invalid_argument("traffic.hotspot_hosts: list at least one host");
    for (int h : c.hotspot_hosts)
      if (h < 0 || h >= n)
        throw std::invalid_argument("traffic.hotspot_hosts: host " + std::to_string(h) + " out of range 0.." + std::to_string(n - 1));
    if (!(c.hotspot_fraction >= 0 && c.hotspot_fraction <= 1))
      throw std::invalid_argument("traffic.hotspot_fraction must be in [0, 1]");
    return std::make_unique<Hotspot>(n, c.hotspot_hosts, c.hotspot_fraction);
  }
  if (p == "all-to-all") return std::make_unique<AllToAll>(n);
  if (p == "neighbour") return std::make_unique<Neighbour>(t);
  if (p == "permutation") return std::make_unique<Fixed>(p, read_permutation(c.permutation_file, n));
  throw std::invalid_argument("traffic.pattern: unknown pattern '" + p + "'");
}

}  // namespace ibsc::tb
