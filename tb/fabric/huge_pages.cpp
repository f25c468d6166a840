#include "tb/fabric/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25  // Linux 6.1; older headers lack the name
#endif

namespace ibsc::tb {

// Break-even of the collapse, measured with bench/large_fabric_bench (DOR at load 0.13, about
// half of saturation; 100 + 400 us at 16,384 hosts, 100 + 800 us at 4,096; CPU s on the 2-core
// VM shared with two other jobs, two runs each, 2026-11-26). At 16,384 hosts the collapse costs
// 1.1-1.4 s and saves ~500 ns per packet-hop (steady state 1,600-1,700 instead of 2,100-2,200),
// at ~4,500 packet-hops per simulated us 2.3 ms per us: even after ~500 us. At 4,096 hosts
// 0.1-0.2 s against 200-300 ns per hop at ~1,100 hops per us: even after 400-800 us. Cost
// (memory) and gain (hops times misses) grow together, so the break-even is a length more than
// a size: 500 us, from 4,096 hosts on. Below, the fabric fits the caches and 2 MB pages gain
// nothing (1,024 hosts: the same CPU per hop). Distance+4 (8 VLs, load 0.11) at 16,384 hosts
// evens out after 400-600 us too (1.5-2.1 s against 0.3-0.45 s per 100 us); at 4,096 hosts it
// gains sooner (0.05 s per 100 us for a collapse of 0.03-0.08 s), which the rule gives up for
// the simplicity of one length. A lighter load evens out later (fewer hops per us).
constexpr int kHugePagesMinHosts = 4096;
constexpr double kHugePagesBreakEvenNs = 500e3;

bool huge_pages_pay_off(int hosts, double planned_ns) {
  return hosts >= kHugePagesMinHosts && planned_ns >= kHugePagesBreakEvenNs;
}

size_t back_with_huge_pages() {
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  std::FILE* maps = std::fopen("/proc/self/maps", "r");
  if (!maps) return 0;
  size_t accepted = 0;
  char line[512];
  while (std::fgets(line, sizeof line, maps)) {
    unsigned long start = 0, end = 0, inode = 0;
    char perms[8] = {}, path[256] = {};
    // start-end perms offset dev inode [path]
    if (std::sscanf(line, "%lx-%lx %7s %*s %*s %lu %255s", &start, &end, perms, &inode, path) < 4) continue;
    // Private anonymous memory only: the heap and malloc's mmapped blocks (no path), not stacks
    // or files.
    if (std::strcmp(perms, "rw-p") != 0 || inode != 0 || (path[0] && std::strcmp(path, "[heap]") != 0)) continue;
    const uintptr_t a = (start + kHuge - 1) & ~(kHuge - 1), b = end & ~(kHuge - 1);
    if (b <= a) continue;
    void* p = reinterpret_cast<void*>(a);
    if (madvise(p, b - a, MADV_HUGEPAGE) != 0) continue;
    if (madvise(p, b - a, MADV_COLLAPSE) == 0) accepted += b - a;
  }
  std::fclose(maps);
  return accepted;
}

}  // namespace ibsc::tb
