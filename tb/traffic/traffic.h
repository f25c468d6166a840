// Destination patterns: which host a new packet goes to. Host indices are 0..N-1.
//   uniform          any other host, equally likely (never the source itself);
//   bit-reversal, transpose, bit-complement, bit-rotation, shuffle
//                    fixed permutations of the digits of the source index. The digits are
//                    those of N written in mixed radix on its prime factors in ascending order,
//                    least significant first: for N = 2^b these are exactly the b bits, so the
//                    classic definitions hold (64 hosts: reversal 000001 -> 100000, transpose
//                    swaps the 3-bit halves, complement flips every bit, rotation rotates right
//                    by one, shuffle left by one). For other N (108 = 2*2*3*3*3 on a 3x3x3
//                    torus with 4 hosts/switch) the same digit moves stay bijections on 0..N-1:
//                      bit-reversal    reverses the digit order (radices reversed with them);
//                      transpose       N = L * R with L the product of the lower floor(m/2) of
//                                      the m digits: h = lo + L*hi -> hi + R*lo, i.e. the
//                                      transpose of an R x L row-major matrix;
//                      bit-rotation    the same with L = the lowest digit's radix;
//                      shuffle         the same with L = N / the highest digit's radix;
//                      bit-complement  every digit d -> radix-1-d, which is h -> N-1-h.
//                    A fixed point (image == source) sends nothing. A pattern under which no
//                    host sends at all (N prime, for reversal/transpose) is an error;
//   hotspot          with probability hotspot_fraction one of hotspot_hosts (evenly), else
//                    uniform; a hotspot host that draws itself falls back to uniform;
//   hot-senders      tree saturation (congestion control, issue 34): the hosts of hotspot_senders
//                    send every packet to one of hotspot_hosts (evenly); every other host sends
//                    uniformly among the hosts that are neither hot nor itself (victim flows);
//   all-to-all       each source cycles through all other hosts in order, starting after itself;
//   neighbour        the host in the same slot (position among its switch's hosts, modulo
//                    the neighbour's host count) on a switch adjacent in the torus/mesh,
//                    uniform over the switch's inter-switch ports (the 2n directions of a
//                    torus; fewer at a mesh edge); a host with no adjacent switch sends nothing;
//   permutation      a fixed map read from a file: one "src dst" pair per line, '#' comments;
//                    hosts not listed, and "s s" lines, send nothing.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/random_stream.h"
#include "models/uniform_draw.h"
#include "routing/enum_names.h"
#include "routing/topology.h"
#include "tb/traffic/disk_workload.h"

namespace ibsc::tb {

// traffic.pattern: the destinations above.
enum class TrafficPattern {
  Uniform,
  BitReversal,
  Transpose,
  BitComplement,
  BitRotation,
  Shuffle,
  Hotspot,
  AllToAll,
  Neighbour,
  Permutation,
  HotSenders
};
inline constexpr EnumName<TrafficPattern> kTrafficPatternNames[] = {
    {TrafficPattern::Uniform, "uniform"},          {TrafficPattern::BitReversal, "bit-reversal"},
    {TrafficPattern::Transpose, "transpose"},      {TrafficPattern::BitComplement, "bit-complement"},
    {TrafficPattern::BitRotation, "bit-rotation"}, {TrafficPattern::Shuffle, "shuffle"},
    {TrafficPattern::Hotspot, "hotspot"},          {TrafficPattern::AllToAll, "all-to-all"},
    {TrafficPattern::Neighbour, "neighbour"},      {TrafficPattern::Permutation, "permutation"},
    {TrafficPattern::HotSenders, "hot-senders"},
};
constexpr const auto& enum_names(TrafficPattern) { return kTrafficPatternNames; }

// traffic.workload: the pattern with the injection process and sweep load, or the bursty
// disk-like workload (tb/traffic/disk_workload.h), which gives gaps, destinations and lengths itself.
enum class Workload { Pattern, Disk };
inline constexpr EnumName<Workload> kWorkloadNames[] = {
    {Workload::Pattern, "pattern"},
    {Workload::Disk, "disk"},
};
constexpr const auto& enum_names(Workload) { return kWorkloadNames; }

struct TrafficConfig {
  TrafficPattern pattern = TrafficPattern::Uniform;
  std::vector<int> hotspot_hosts;    // hotspot: hosts taking a share of traffic
  double hotspot_fraction = 0.1;     // share of all packets sent to the hotspot hosts
  std::vector<int> hotspot_senders;  // hot-senders: hosts sending only to the hot hosts
  std::vector<int> silent_hosts;     // hosts that generate nothing (any pattern)
  std::string permutation_file;      // permutation: "src dst" per line
  // A finite workload: each host generates this many packets, then stops (0: no limit). The
  // run then lasts until every packet is delivered (or run.drain_ns after the window).
  uint64_t packets_per_host = 0;
  Workload workload = Workload::Pattern;
  DiskWorkloadConfig disk_config;
};

class DestinationPattern {
 public:
  virtual ~DestinationPattern() = default;
  // Destination host for the next packet generated at src (0..N-1), or -1 when src sends
  // nothing under this pattern (a fixed point of a permutation, a host left out of a file).
  virtual int destination(int src, models::RandomStream& rng) = 0;
};

// Throws ParamError (the traffic.* key, a clear message) for an unknown pattern, bad hotspot host,
// permutation file errors as "FILE:LINE: problem", a pattern under which nobody sends.
std::unique_ptr<DestinationPattern> make_destination_pattern(const TrafficConfig& cfg, const routing::Topology& topo);

// Uniform integer in [0, n) and uniform double in [0, 1) from raw 64-bit draws (models/uniform_draw.h).
using models::uniform01;
using models::uniform_below;

}  // namespace ibsc::tb
