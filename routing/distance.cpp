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

TableSet route_distance(const Topology& t, const RoutingOptions& opt, bool deflection) {
  const std::string name = deflection ? "deflection" : "distance";
  if (opt.k < 0) throw RoutingError(name + ": k must be >= 0 (0: minimal moves only)");
  const SwitchGraph g(t);
  if (g.n == 0) throw RoutingError(name + ": the topology has no switches");
  const std::vector<uint16_t> dist = all_pairs_distances(g);
  int diameter = 0;
  for (uint16_t d : dist) {
    if (d == kUnreachable) throw RoutingError(name + ": the switches are not all connected");
    diameter = std::max<int>(diameter, d);
  }
  const int vls = diameter + opt.k;
  seeds001_vl_budget(name, opt.vls, opt.max_vls, vls,
                     "diameter " + std::to_string(diameter) + " + k " + std::to_string(opt.k));
  auto d = [&](int a, int b) { return static_cast<int>(dist[static_cast<size_t>(a) * g.n + b]); };
  VlRules r;
  r.name = name;
  r.vls = vls;
  // The moves allowed on VL v are a prefix of one list per (switch, destination), ordered by
  // priority: the minimal ones always (v >= d(curr)), the sideways ones once d(curr) <= v - 1,
  // the deflections once d(curr) + 1 <= v - 1. build_vl_tables asks VL after VL for one pair,
  // so the list is made once per pair. The switch's channels and their far ends' rows of
  // distances are looked up once per switch (the pairs come switch by switch).
  std::vector<PortCandidate> all;
  std::vector<const uint16_t*> far_row;  // [channel of s]: distances from its far switch
  std::vector<PortNum> far_port;
  std::vector<uint64_t> mask;                                      // [64 channels][priority]
  int all_s = -1, all_dst = -1, rows_s = -1, ends[3] = {0, 0, 0};  // end of each priority in `all`
  auto make_all = [&](int s, int dst) {
    const int here = d(s, dst);
    if (s != all_s || dst != all_dst) {
      if (s != rows_s) {
        far_row.clear();
        far_port.clear();
        for (int c : g.out[s]) {
          far_row.push_back(dist.data() + static_cast<size_t>(g.channels[c].to) * g.n);
          far_port.push_back(static_cast<PortNum>(g.channels[c].port));
        }
        rows_s = s;
      }
      // A bit mask per priority (and 64 channels), built without a branch per channel (the
      // priorities follow no pattern a predictor learns), then read in channel order.
      const size_t m = far_row.size(), blocks = (m + 63) / 64;
      mask.resize(3 * blocks);
      for (size_t k = 0; k < blocks; ++k) {
        uint64_t closer = 0, sideways = 0, farther = 0;  // in registers, not through memory
        for (size_t i = 64 * k; i < std::min(m, 64 * k + 64); ++i) {
          const int p = far_row[i][dst] - here + 1;  // 0 closer, 1 sideways, 2 farther
          closer |= static_cast<uint64_t>(p == 0) << i % 64;
          sideways |= static_cast<uint64_t>(p == 1) << i % 64;
          farther |= static_cast<uint64_t>(p == 2 && deflection) << i % 64;
        }
        mask[3 * k] = closer, mask[3 * k + 1] = sideways, mask[3 * k + 2] = farther;
      }
      all.clear();
      for (int prio = 0; prio < 3; ++prio) {
        for (size_t k = 0; k < blocks; ++k)
          for (uint64_t b = mask[3 * k + prio]; b; b &= b - 1)
            all.push_back({far_port[64 * k + __builtin_ctzll(b)], static_cast<uint8_t>(prio)});
        ends[prio] = static_cast<int>(all.size());
      }
      all_s = s, all_dst = dst;
    }
    return here;
  };
  r.candidates = [&](int s, int v, int dst, std::vector<PortCandidate>& out) {
    const int here = make_all(s, dst);
    if (v < here - 1) return;  // no packet reaches this state (see the top)
    const int w = v - 1, n = here + 1 <= w ? ends[2] : here <= w ? ends[1] : ends[0];
    out.insert(out.end(), all.begin(), all.begin() + n);
  };
  // The lists of every VL follow from d(curr), the list's ports and where each priority ends
  // (which gives the priorities; no candidate is an escape one): a short key, hashed per pair.
  r.column_key = [&](int s, int dst, std::string& key) {
    const int here = make_all(s, dst);
    key.push_back(static_cast<char>(here));
    for (int e : ends) key.push_back(static_cast<char>(e));
    for (const PortCandidate& c : all) key.push_back(static_cast<char>(c.port));
  };
  r.next_vl = [&](int s, int in_port, int, int v) {
    const int from = in_port > 0 ? t.nodes[s].ports[in_port].node : -1;
    return static_cast<Vl>(from >= 0 && t.is_switch(from) ? std::max(v - 1, 0) : v);  // v = 0 from a switch: no packet
  };
  r.first_vl = [&](int src, int dst) { return static_cast<Vl>(std::max(d(src, dst) + opt.k - 1, 0)); };
  return build_vl_tables(t, r);
}

}  // namespace ibsc::routing
