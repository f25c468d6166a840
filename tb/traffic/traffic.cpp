#include "tb/traffic/traffic.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "models/param_error.h"
#include "routing/input_file.h"

namespace ibsc::tb {
namespace {

class Uniform : public DestinationPattern {
 public:
  explicit Uniform(int n) : n_(n) {}
  int destination(int src, models::RandomStream& rng) override {
    if (n_ < 2) return -1;
    // Draw among the n-1 others and skip over src, so self is never picked and no draw is wasted.
    int d = static_cast<int>(uniform_below(rng, static_cast<uint64_t>(n_ - 1)));
    return d >= src ? d + 1 : d;
  }

 private:
  int n_;
};

// Any fixed map src -> dst (-1: sends nothing).
class Fixed : public DestinationPattern {
 public:
  explicit Fixed(std::vector<int> map) : map_(std::move(map)) {}
  int destination(int src, models::RandomStream&) override { return map_[src]; }

 private:
  std::vector<int> map_;
};

class Hotspot : public DestinationPattern {
 public:
  Hotspot(int n, std::vector<int> hot, double frac) : uni_(n), hot_(std::move(hot)), frac_(frac) {}
  int destination(int src, models::RandomStream& rng) override {
    if (uniform01(rng) < frac_) {
      int d = hot_[uniform_below(rng, hot_.size())];
      if (d != src) return d;
    }
    return uni_.destination(src, rng);
  }

 private:
  Uniform uni_;
  std::vector<int> hot_;
  double frac_;
};

class HotSenders : public DestinationPattern {
 public:
  HotSenders(int n, std::vector<int> hot, const std::vector<int>& senders) : hot_(std::move(hot)), sender_(n, 0) {
    for (int s : senders) sender_[s] = 1;
    std::vector<uint8_t> is_hot(n, 0);
    for (int h : hot_) is_hot[h] = 1;
    for (int h = 0; h < n; ++h)
      if (!is_hot[h]) cold_.push_back(h);
  }
  int destination(int src, models::RandomStream& rng) override {
    if (sender_[src]) return hot_[uniform_below(rng, hot_.size())];
    // Among the cold hosts other than src (src may be hot itself).
    const bool self_cold = std::binary_search(cold_.begin(), cold_.end(), src);
    const size_t m = cold_.size() - (self_cold ? 1 : 0);
    if (m == 0) return -1;
    size_t k = uniform_below(rng, m);
    if (self_cold && cold_[k] >= src) ++k;
    return cold_[k];
  }

 private:
  std::vector<int> hot_, cold_;  // cold_: ascending
  std::vector<uint8_t> sender_;
};

class AllToAll : public DestinationPattern {
 public:
  explicit AllToAll(int n) : n_(n), next_(n, 1) {}
  int destination(int src, models::RandomStream&) override {
    if (n_ < 2) return -1;
    int d = (src + next_[src]) % n_;
    next_[src] = next_[src] % (n_ - 1) + 1;  // offsets 1, 2, ..., n-1, 1, ...
    return d;
  }

 private:
  int n_;
  std::vector<int> next_;  // per source: offset of the next destination
};

// Candidates are computed once: the pattern is called once per generated packet.
class Neighbour : public DestinationPattern {
 public:
  explicit Neighbour(const routing::Topology& t) : cand_(t.num_hosts) {
    std::vector<std::vector<int>> on_switch(t.num_switches);
    for (int h = 0; h < t.num_hosts; ++h) {
      int sw = t.host_switch(h);
      if (sw >= 0 && sw < t.num_switches) on_switch[sw].push_back(h);
    }
    for (int sw = 0; sw < t.num_switches; ++sw) {
      const auto& node = t.nodes[sw];
      for (size_t slot = 0; slot < on_switch[sw].size(); ++slot) {
        auto& c = cand_[on_switch[sw][slot]];
        for (int p = 1; p <= node.num_ports; ++p) {
          int peer = node.ports[p].node;
          if (peer < 0 || !t.is_switch(peer) || peer == sw || on_switch[peer].empty()) continue;
          c.push_back(on_switch[peer][slot % on_switch[peer].size()]);
        }
      }
    }
  }
  int destination(int src, models::RandomStream& rng) override {
    const auto& c = cand_[src];
    return c.empty() ? -1 : c[uniform_below(rng, c.size())];
  }

 private:
  std::vector<std::vector<int>> cand_;  // per host, one entry per inter-switch port
};

// Radices of n's digits: its prime factors, ascending (least significant digit first).
std::vector<int> digit_radices(int n) {
  std::vector<int> r;
  for (int p = 2; static_cast<long long>(p) * p <= n; ++p)
    while (n % p == 0) {
      r.push_back(p);
      n /= p;
    }
  if (n > 1) r.push_back(n);
  return r;
}

int product(const std::vector<int>& r, size_t from, size_t to) {
  int v = 1;
  for (size_t i = from; i < to; ++i) v *= r[i];
  return v;
}

// h = lo + low*hi  ->  hi + (n/low)*lo: moves the low digits to the top (a rotation).
int swap_split(int h, int n, int low) { return h / low + (n / low) * (h % low); }

int reverse_digits(int h, const std::vector<int>& r) {
  std::vector<int> d(r.size());
  for (size_t i = 0; i < r.size(); ++i) {
    d[i] = h % r[i];
    h /= r[i];
  }
  int v = 0;  // d[0] becomes the most significant digit
  for (size_t i = 0; i < r.size(); ++i) v = v * r[i] + d[i];
  return v;
}

std::vector<int> digit_map(TrafficPattern pattern, int n) {
  const std::vector<int> r = digit_radices(n);
  const size_t m = r.size();
  std::vector<int> map(n);
  for (int s = 0; s < n; ++s) {
    int d = s;
    if (pattern == TrafficPattern::BitReversal) d = reverse_digits(s, r);
    else if (pattern == TrafficPattern::BitComplement) d = n - 1 - s;
    else if (pattern == TrafficPattern::Transpose) d = swap_split(s, n, product(r, 0, m / 2));
    else if (pattern == TrafficPattern::BitRotation) d = m ? swap_split(s, n, r.front()) : s;
    else if (pattern == TrafficPattern::Shuffle) d = m ? swap_split(s, n, n / r.back()) : s;
    map[s] = d == s ? -1 : d;
  }
  return map;
}

std::vector<int> read_permutation(const std::string& file, int n) {
  if (file.empty())
    throw ParamError("traffic.permutation_file", "traffic.permutation_file: name a file of 'src dst' lines");
  std::ifstream in;
  try {
    in = routing::open_input_file(file, routing::kPermutationFile);
  } catch (const std::invalid_argument& e) {
    throw ParamError("traffic.permutation_file", e.what());
  }
  int pairs = 0;
  std::vector<int> map(n, -1);
  std::vector<bool> src_seen(n, false), dst_seen(n, false);
  std::string line;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    const std::string at = routing::printable(file) + ":" + std::to_string(lineno) + ": ";
    auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    std::istringstream is(line);
    long long s = 0, d = 0;
    std::string extra;
    if (!(is >> s)) {
      is.clear();
      if (is >> extra)
        throw ParamError("traffic.permutation_file", at + "expected two host numbers 'src dst', got '" + extra + "'");
      continue;  // blank or comment
    }
    if (!(is >> d) || (is >> extra))
      throw ParamError("traffic.permutation_file", at + "expected two host numbers 'src dst'");
    if (s < 0 || s >= n || d < 0 || d >= n)
      throw ParamError("traffic.permutation_file", at + "host out of range 0.." + std::to_string(n - 1));
    if (src_seen[s]) throw ParamError("traffic.permutation_file", at + "source " + std::to_string(s) + " listed twice");
    if (dst_seen[d])
      throw ParamError("traffic.permutation_file",
                       at + "destination " + std::to_string(d) + " listed twice (not a permutation)");
    src_seen[s] = dst_seen[d] = true;
    map[s] = d == s ? -1 : static_cast<int>(d);
    ++pairs;
  }
  // An empty file (or one of comments) would run with no packet and report "no saturation".
  if (pairs == 0)
    throw ParamError("traffic.permutation_file",
                     routing::printable(file) + ": no 'src dst' line, so nothing would be sent");
  return map;
}

std::unique_ptr<DestinationPattern> make_digit_pattern(TrafficPattern p, int n) {
  std::vector<int> map = digit_map(p, n);
  bool any = false;
  for (int d : map) any |= d >= 0;
  if (!any && n >= 2)
    throw ParamError("traffic.pattern",
                     "traffic.pattern: " + enum_name(p) + " maps each of the " + std::to_string(n) +
                         " hosts to itself (a prime host count has a single digit), so nothing would be sent");
  return std::make_unique<Fixed>(std::move(map));
}

std::unique_ptr<DestinationPattern> make_hotspot(const TrafficConfig& c, int n) {
  if (c.hotspot_hosts.empty())
    throw ParamError("traffic.hotspot_hosts", "traffic.hotspot_hosts: list at least one host");
  for (int h : c.hotspot_hosts)
    if (h < 0 || h >= n)
      throw ParamError("traffic.hotspot_hosts", "traffic.hotspot_hosts: host " + std::to_string(h) +
                                                    " out of range 0.." + std::to_string(n - 1));
  if (!(c.hotspot_fraction >= 0 && c.hotspot_fraction <= 1))
    throw ParamError("traffic.hotspot_fraction", "traffic.hotspot_fraction must be in [0, 1]");
  return std::make_unique<Hotspot>(n, c.hotspot_hosts, c.hotspot_fraction);
}

std::unique_ptr<DestinationPattern> make_hot_senders(const TrafficConfig& c, int n) {
  make_hotspot(c, n);  // the hot hosts' checks
  for (int h : c.hotspot_senders)
    if (h < 0 || h >= n)
      throw ParamError("traffic.hotspot_senders", "traffic.hotspot_senders: host " + std::to_string(h) +
                                                      " out of range 0.." + std::to_string(n - 1));
  for (int h : c.hotspot_senders)
    if (std::find(c.hotspot_hosts.begin(), c.hotspot_hosts.end(), h) != c.hotspot_hosts.end())
      throw ParamError("traffic.hotspot_senders",
                       "traffic.hotspot_senders: host " + std::to_string(h) + " is itself a hot host");
  return std::make_unique<HotSenders>(n, c.hotspot_hosts, c.hotspot_senders);
}

}  // namespace

std::unique_ptr<DestinationPattern> make_destination_pattern(const TrafficConfig& c, const routing::Topology& t) {
  const int n = t.num_hosts;
  switch (c.pattern) {
    case TrafficPattern::Uniform:
      return std::make_unique<Uniform>(n);
    case TrafficPattern::BitReversal:
    case TrafficPattern::Transpose:
    case TrafficPattern::BitComplement:
    case TrafficPattern::BitRotation:
    case TrafficPattern::Shuffle:
      return make_digit_pattern(c.pattern, n);
    case TrafficPattern::Hotspot:
      return make_hotspot(c, n);
    case TrafficPattern::AllToAll:
      return std::make_unique<AllToAll>(n);
    case TrafficPattern::Neighbour:
      if (t.num_switches == 0)
        throw ParamError("traffic.pattern", "traffic.pattern: neighbour needs a switched topology");
      return std::make_unique<Neighbour>(t);
    case TrafficPattern::Permutation:
      return std::make_unique<Fixed>(read_permutation(c.permutation_file, n));
    case TrafficPattern::HotSenders:
      return make_hot_senders(c, n);
  }
  throw std::logic_error("make_destination_pattern: a pattern without a case");
}

}  // namespace ibsc::tb
