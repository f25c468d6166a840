// A bursty, disk-like synthetic workload (seeds/003 drives its fabric with HP Cello disk
// traces, which are not available here; this keeps their shape, not their numbers, so results
// with it are qualitative). traffic.workload: disk.
//   Hosts: `disks` of them (drawn once from the seed) are disks, the rest workstations. A
//   workstation's messages are writes to a random disk; a disk's are read data to a random
//   workstation.
//   Time: each host alternates bursts and idle spells. A burst holds a geometric number of
//   messages (mean kBurstMessages), kBurstGapUs apart on average (exponential); bursts are
//   kIdleGapUs apart on average (exponential). Every gap is divided by the time compression
//   factor, as seeds/003 compresses its traces to load the network more.
//   Messages: 512 B, 4 KB, 8 KB or 64 KB (file-system blocks and a large transfer, weights
//   kSizes), split into packets of at most `mtu` bytes that go back to back.
// The sweep's offered load does not apply: the compression factor sets the rate.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "models/random_stream.h"

namespace ibsc::tb {

struct DiskWorkloadConfig {
  int disks = 23;            // traffic.disk.disks: hosts that are disks (seeds/003: 23)
  double compression = 1.0;  // traffic.disk.compression: every gap divided by this
  uint32_t mtu = 512;        // traffic.disk.mtu: packet payload limit; longer messages are split
  // traffic.disk.max_message: a message drawn longer is cut to this many bytes (0: none is); the
  // same draws otherwise, so it isolates what the long messages cost (seeds/003's 2 KB waste).
  uint32_t max_message = 0;
  void validate(int hosts) const;  // throws ParamError (models/param_error.h) naming the key
};

class DiskWorkload {
 public:
  static constexpr double kBurstMessages = 8;  // mean messages per burst
  static constexpr double kBurstGapUs = 20;    // mean gap between messages of a burst
  static constexpr double kIdleGapUs = 2000;   // mean gap between bursts

  DiskWorkload(const DiskWorkloadConfig& cfg, int hosts, uint64_t seed);
  // Picoseconds to the next packet of `host` (0 inside a message). Plain C++: no SystemC time.
  uint64_t next_gap(int host);
  // The packet that gap announced: its destination and length.
  // ends: that packet is the last of its message.
  void make(int host, uint32_t& dst, uint32_t& length, bool& ends);
  bool is_disk(int host) const { return disk_[host]; }

 private:
  struct Host {
    models::RandomStream rng;
    uint64_t burst_left = 0;    // messages left in this burst
    uint64_t message_left = 0;  // bytes left in this message
    uint32_t dst = 0;
  };
  double exponential_ps(Host& h, double mean_us);
  DiskWorkloadConfig cfg_;
  std::vector<Host> hosts_;
  std::vector<bool> disk_;
  std::vector<int> disks_, workstations_;
};

}  // namespace ibsc::tb
