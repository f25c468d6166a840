// Distance+k and Deflection+k (seeds/001), on any topology: non-minimal adaptive routing whose
// VL counts down the hops a packet may still take, so every hop between switches lowers the VL
// by one and the channel dependency graph cannot close a cycle.
//   The source sends on VL = d(src, dst) + k - 1 (d: switch hops), and its switch forwards on
//   that same VL (VL2VL keeps the VL from a host port, as towards one). At switch `curr`, a
//   packet that will leave on VL w may go to a neighbour `next` with
//     priority 1 (our 0) if d(next) = d(curr) - 1,
//     priority 2 (our 1) if d(next) = d(curr) <= w,          (a sideways move)
//     priority 3 (our 2) if d(next) = d(curr) + 1 <= w       (deflection only),
//   d(.) being the distance to the destination's switch. So a packet takes at most k hops
//   beyond its minimal path: "+k" is the extra hops, k = 0 the talk's plain "Distance" (minimal
//   adaptive), and the highest VL, d + k - 1, is that of the first switch-to-switch hop:
//   diameter + k VLs, the talk's 8 for Distance +4 on its diameter-4 flattened butterfly.
//   (An earlier reading lowered the VL at the source's switch too, which allows k - 1 extra hops
//   in the same VLs and leaves the highest VL to the host links: reports/large-direct.)
//   The LFT is one per input VL, not per input port, so a list must suit a packet from a host
//   (w = v) and one from a switch (w = v - 1) alike: it offers the moves w = v - 1 allows. A
//   packet from a host thus detours at its source switch only for k >= 2 and keeps the unused
//   hop for later. VL v = d(curr) - 1 is reached only from a host with k = 0: minimal moves.
#include <algorithm>
#include <string>

#include "routing/graph.h"
#include "routing/routing.h"
#include "routing/vl_routing.h"

namespace ibsc::routing {

namespace {

// The VL rules of Distance+k or Deflection+k: its members are the distances and the list of
// moves last made; its methods are VlRules' callbacks.
class DistanceRules {
 public:
  DistanceRules(const Topology& t, const RoutingOptions& opt, bool deflection);
  VlRules rules();

 private:
  int d(int a, int b) const { return static_cast<int>(dist_[static_cast<size_t>(a) * g_.n + b]); }
  int make_all(int s, int dst);
  void candidates(int s, int v, int dst, std::vector<PortCandidate>& out);
  void column_key(int s, int dst, std::string& key);
  Vl next_vl(int s, int in_port, int v) const;
  Vl first_vl(int src, int dst) const { return static_cast<Vl>(std::max(d(src, dst) + k_ - 1, 0)); }

  const Topology& t_;
  const std::string name_;
  const bool deflection_;
  const int k_;
  const SwitchGraph g_;
  std::vector<uint16_t> dist_;
  int vls_ = 0;
  // The moves allowed on VL v are a prefix of one list per (switch, destination), ordered by
  // priority: the minimal ones always (v >= d(curr)), the sideways ones once d(curr) <= v - 1,
  // the deflections once d(curr) + 1 <= v - 1. build_vl_tables asks VL after VL for one pair,
  // so the list is made once per pair. The switch's channels and their far ends' rows of
  // distances are looked up once per switch (the pairs come switch by switch).
  std::vector<PortCandidate> all_;
  std::vector<const uint16_t*> far_row_;  // [channel of s]: distances from its far switch
  std::vector<PortNum> far_port_;
  std::vector<uint64_t> mask_;                                         // [64 channels][priority]
  int all_s_ = -1, all_dst_ = -1, rows_s_ = -1, ends_[3] = {0, 0, 0};  // end of each priority in `all`
};

DistanceRules::DistanceRules(const Topology& t, const RoutingOptions& opt, bool deflection)
    : t_(t), name_(deflection ? "deflection" : "distance"), deflection_(deflection), k_(opt.k), g_(t) {
  if (opt.k < 0) throw RoutingError(name_ + ": k must be >= 0 (0: minimal moves only)");
  if (g_.n == 0) throw RoutingError(name_ + ": the topology has no switches");
  dist_ = all_pairs_distances(g_);
  int diameter = 0;
  for (uint16_t x : dist_) {
    if (x == kUnreachable) throw RoutingError(name_ + ": the switches are not all connected");
    diameter = std::max<int>(diameter, x);
  }
  vls_ = diameter + opt.k;
  seeds001_vl_budget(name_, opt.vls, opt.max_vls, vls_,
                     "diameter " + std::to_string(diameter) + " + k " + std::to_string(opt.k));
}

int DistanceRules::make_all(int s, int dst) {
  const int here = d(s, dst);
  if (s == all_s_ && dst == all_dst_) return here;
  if (s != rows_s_) {
    far_row_.clear();
    far_port_.clear();
    for (int c : g_.out[s]) {
      far_row_.push_back(dist_.data() + static_cast<size_t>(g_.channels[c].to) * g_.n);
      far_port_.push_back(static_cast<PortNum>(g_.channels[c].port));
    }
    rows_s_ = s;
  }
  // A bit mask per priority (and 64 channels), built without a branch per channel (the
  // priorities follow no pattern a predictor learns), then read in channel order.
  const size_t m = far_row_.size(), blocks = (m + 63) / 64;
  mask_.resize(3 * blocks);
  for (size_t k = 0; k < blocks; ++k) {
    uint64_t closer = 0, sideways = 0, farther = 0;  // in registers, not through memory
    for (size_t i = 64 * k; i < std::min(m, 64 * k + 64); ++i) {
      const int p = far_row_[i][dst] - here + 1;  // 0 closer, 1 sideways, 2 farther
      closer |= static_cast<uint64_t>(p == 0) << i % 64;
      sideways |= static_cast<uint64_t>(p == 1) << i % 64;
      farther |= static_cast<uint64_t>(p == 2 && deflection_) << i % 64;
    }
    mask_[3 * k] = closer, mask_[3 * k + 1] = sideways, mask_[3 * k + 2] = farther;
  }
  all_.clear();
  for (int prio = 0; prio < 3; ++prio) {
    for (size_t k = 0; k < blocks; ++k)
      for (uint64_t b = mask_[3 * k + prio]; b; b &= b - 1)
        all_.push_back({far_port_[64 * k + __builtin_ctzll(b)], static_cast<uint8_t>(prio)});
    ends_[prio] = static_cast<int>(all_.size());
  }
  all_s_ = s, all_dst_ = dst;
  return here;
}

void DistanceRules::candidates(int s, int v, int dst, std::vector<PortCandidate>& out) {
  const int here = make_all(s, dst);
  if (v < here - 1) return;  // no packet reaches this state (see the top)
  const int w = v - 1, n = here + 1 <= w ? ends_[2] : here <= w ? ends_[1] : ends_[0];
  out.insert(out.end(), all_.begin(), all_.begin() + n);
}

// The lists of every VL follow from d(curr), the list's ports and where each priority ends
// (which gives the priorities; no candidate is an escape one): a short key, hashed per pair.
void DistanceRules::column_key(int s, int dst, std::string& key) {
  const int here = make_all(s, dst);
  key.push_back(static_cast<char>(here));
  for (int e : ends_) key.push_back(static_cast<char>(e));
  for (const PortCandidate& c : all_) key.push_back(static_cast<char>(c.port));
}

Vl DistanceRules::next_vl(int s, int in_port, int v) const {
  const int from = in_port > 0 ? t_.nodes[s].ports[in_port].node : -1;
  return static_cast<Vl>(from >= 0 && t_.is_switch(from) ? std::max(v - 1, 0) : v);  // v = 0 from a switch: no packet
}

VlRules DistanceRules::rules() {
  VlRules r;
  r.name = name_;
  r.vls = vls_;
  r.candidates = [this](int s, int v, int dst, std::vector<PortCandidate>& out) { candidates(s, v, dst, out); };
  r.column_key = [this](int s, int dst, std::string& key) { column_key(s, dst, key); };
  r.next_vl = [this](int s, int in_port, int, int v) { return next_vl(s, in_port, v); };
  r.first_vl = [this](int src, int dst) { return first_vl(src, dst); };
  return r;
}

}  // namespace

TableSet route_distance(const Topology& t, const RoutingOptions& opt, bool deflection) {
  DistanceRules rules(t, opt, deflection);
  return build_vl_tables(t, rules.rules());
}

}  // namespace ibsc::routing
