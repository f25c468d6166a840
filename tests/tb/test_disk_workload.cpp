// The bursty disk-like workload (tb/traffic/disk_workload.h): disks and workstations only talk to each
// other, messages are the mix's sizes split at the MTU and sent back to back, and the mean gap
// between messages is the burst model's, divided by the compression factor:
//   per burst of B messages (mean 8) one idle gap (2000 us) and B - 1 burst gaps (20 us), so
//   (2000 + 7 x 20) / 8 = 267.5 us per message; mean message 0.2 x 512 + 0.3 x 4096 +
//   0.4 x 8192 + 0.1 x 65536 = 11161.6 bytes. The last packet of each message is marked (AckReq).
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <set>
#include <stdexcept>

#include "tb/traffic/disk_workload.h"

using namespace ibsc;

BOOST_AUTO_TEST_SUITE(disk_workload)

BOOST_AUTO_TEST_CASE(shape_and_rate) {
  constexpr int kHosts = 128, kPackets = 20000;
  tb::DiskWorkloadConfig cfg;
  cfg.compression = 4;
  tb::DiskWorkload w(cfg, kHosts, 11);
  int disks = 0;
  for (int h = 0; h < kHosts; ++h) disks += w.is_disk(h);
  BOOST_TEST(disks == 23);
  const std::set<uint32_t> sizes{512, 4096, 8192, 65536};
  double gaps_ps = 0, bytes = 0;
  uint64_t messages = 0, bad_size = 0, bad_peer = 0, bad_len = 0, bad_end = 0;
  for (int h = 0; h < kHosts; ++h) {
    uint32_t size = 0, dst = 0;
    bool last_ends = true;
    for (int k = 0; k < kPackets; ++k) {
      const uint64_t g = w.next_gap(h);  // > 0: a new message starts with this packet
      uint32_t d = 0, len = 0;
      bool ends = false;  // the last packet of its message (AckReq)
      w.make(h, d, len, ends);
      bad_end += (g > 0) != last_ends;  // a message starts right after one ended, and only then
      last_ends = ends;
      if (g > 0) {
        if (size > 0) bad_size += sizes.count(size) == 0;
        gaps_ps += static_cast<double>(g);
        bytes += size;
        ++messages;
        size = 0;
        dst = d;
      }
      bad_peer += d != dst || w.is_disk(static_cast<int>(d)) == w.is_disk(h);
      bad_len += len > 512u;
      size += len;
    }
  }
  BOOST_TEST(bad_size == 0u);
  BOOST_TEST(bad_peer == 0u);
  BOOST_TEST(bad_len == 0u);
  BOOST_TEST(bad_end == 0u);
  // bytes holds every message but each host's first (counted when the next one starts).
  BOOST_TEST(bytes / (messages - kHosts) == 11161.6, boost::test_tools::tolerance(0.03));
  BOOST_TEST(gaps_ps / messages / 1e6 == 267.5 / 4, boost::test_tools::tolerance(0.03));
}

BOOST_AUTO_TEST_CASE(bad_settings_named) {
  tb::DiskWorkloadConfig cfg;
  cfg.disks = 8;
  BOOST_CHECK_THROW(cfg.validate(8), std::invalid_argument);
  cfg.disks = 2;
  cfg.compression = 0;
  BOOST_CHECK_THROW(cfg.validate(8), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
