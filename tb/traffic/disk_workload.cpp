#include "tb/traffic/disk_workload.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "models/param_error.h"
#include "routing/types.h"
#include "tb/traffic/injection.h"
#include "tb/traffic/traffic.h"

namespace ibsc::tb {

namespace {
// Message sizes and their weights (out of 100).
constexpr std::pair<uint32_t, int> kSizes[] = {{512, 20}, {4096, 30}, {8192, 40}, {65536, 10}};
}  // namespace

void DiskWorkloadConfig::validate(int hosts) const {
  if (disks < 1 || disks >= hosts)
    throw ParamError("traffic.disk.disks", "traffic.disk.disks must be 1.." + std::to_string(hosts - 1) +
                                               " (hosts - 1), got " + std::to_string(disks));
  if (!(compression > 0)) throw ParamError("traffic.disk.compression", "traffic.disk.compression must be > 0");
  if (mtu < 1 || mtu > kMaxMtuBytes)
    throw ParamError("traffic.disk.mtu", "traffic.disk.mtu must be 1.." + std::to_string(kMaxMtuBytes) + " (IBA MTU)");
}

DiskWorkload::DiskWorkload(const DiskWorkloadConfig& cfg, int hosts, uint64_t seed) : cfg_(cfg), disk_(hosts, false) {
  cfg_.validate(hosts);
  std::mt19937_64 pick(seed ^ 0x5DEECE66Dull);
  std::vector<int> order(hosts);
  std::iota(order.begin(), order.end(), 0);
  for (int i = 0; i < cfg.disks; ++i) {  // a partial Fisher-Yates shuffle: the first `disks` are disks
    const int j = i + static_cast<int>(uniform_below(pick, static_cast<uint64_t>(hosts - i)));
    std::swap(order[i], order[j]);
    disk_[order[i]] = true;
  }
  for (int h = 0; h < hosts; ++h) (disk_[h] ? disks_ : workstations_).push_back(h);
  hosts_.reserve(hosts);
  for (int h = 0; h < hosts; ++h) {
    hosts_.push_back(Host{});
    hosts_.back().rng =
        models::make_random_stream(seed * 0xD6E8FEB86659FD93ull + static_cast<uint64_t>(h) * 0x9E3779B97F4A7C15ull + 1);
  }
}

double DiskWorkload::exponential_ps(Host& h, double mean_us) {
  return -portable_log(1.0 - uniform01(h.rng)) * mean_us * 1e6 / cfg_.compression;
}

uint64_t DiskWorkload::next_gap(int host) {
  Host& h = hosts_[host];
  if (h.message_left > 0) return 0;
  double gap;
  if (h.burst_left == 0) {  // a new burst: geometric count of messages, mean kBurstMessages
    gap = exponential_ps(h, kIdleGapUs);
    h.burst_left = 1;
    while (uniform01(h.rng) >= 1.0 / kBurstMessages) ++h.burst_left;
  } else {
    gap = exponential_ps(h, kBurstGapUs);
  }
  --h.burst_left;
  int w = static_cast<int>(uniform_below(h.rng, 100));
  uint32_t size = kSizes[0].first;
  for (const auto& [s, weight] : kSizes) {
    if (w < weight) {
      size = s;
      break;
    }
    w -= weight;
  }
  if (cfg_.max_message > 0) size = std::min(size, cfg_.max_message);
  h.message_left = size;
  const std::vector<int>& peers = disk_[host] ? workstations_ : disks_;
  h.dst = static_cast<uint32_t>(peers[uniform_below(h.rng, peers.size())]);
  return static_cast<uint64_t>(gap + 0.5);
}

void DiskWorkload::make(int host, uint32_t& dst, uint32_t& length, bool& ends) {
  Host& h = hosts_[host];
  dst = h.dst;
  length = static_cast<uint32_t>(std::min<uint64_t>(cfg_.mtu, h.message_left));
  h.message_left -= length;
  ends = h.message_left == 0;
}

}  // namespace ibsc::tb
