// Destination patterns: which host a new packet goes to. Host indices are 0..N-1.
//   uniform          any other host, equally likely;
//   bit-reversal, transpose, bit-complement, bit-rotation, shuffle
//                    permutations of the b = ceil(log2 N) bits of the source index (transpose
//                    swaps the high and low halves, rotation rotates right by one, shuffle
//                    left by one). When N is not a power of two a source whose image is >= N
//                    sends nothing; a fixed point (image == source) sends nothing either;
//   hotspot          with probability hotspot_fraction one of hotspot_hosts (evenly), else
//                    uniform;
//   all-to-all       each source cycles through all other hosts in order, starting after itself;
//   neighbour        a host on a switch adjacent in the torus/mesh (uniform over the 2n
//                    neighbours), same host slot;
//   permutation      a fixed map read from a file: one "src dst" pair per line, '#' comments.
#pragma once
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "routing/topology.h"

namespace ibsc::tb {

struct TrafficConfig {
  std::string pattern = "uniform";
  std::vector<int> hotspot_hosts;   // hotspot: hosts taking a share of traffic
  double hotspot_fraction = 0.1;    // share of all packets sent to the hotspot hosts
  std::string permutation_file;     // permutation: "src dst" per line
};

class DestinationPattern {
 public:
  virtual ~DestinationPattern() = default;
  // Destination host for the next packet generated at src, or -1 when src sends nothing.
  virtual int destination(int src, std::mt19937_64& rng) = 0;
  virtual std::string name() const = 0;
};

// Throws std::invalid_argument with a clear message (bad hotspot host, bad file line, ...).
std::unique_ptr<DestinationPattern> make_destination_pattern(const TrafficConfig& cfg, const routing::Topology& topo);

// Uniform integer in [0, n) from raw 64-bit draws (bit-identical on every standard library).
inline uint64_t uniform_below(std::mt19937_64& rng, uint64_t n) {
  // Lemire's multiply-shift with rejection: unbiased.
  unsigned __int128 m = static_cast<unsigned __int128>(rng()) * n;
  uint64_t low = static_cast<uint64_t>(m);
  if (low < n) {
    uint64_t threshold = (0 - n) % n;
    while (low < threshold) {
      m = static_cast<unsigned __int128>(rng()) * n;
      low = static_cast<uint64_t>(m);
    }
  }
  return static_cast<uint64_t>(m >> 64);
}
// Uniform double in [0, 1).
inline double uniform01(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

}  // namespace ibsc::tb
