#include "tb/fabric/huge_pages.h"

#include <malloc.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "routing/memory_limit.h"

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
// Fabrics from which the heap takes 2 MB pages from the first touch (no collapse, so no
// length to earn it back): the seeds/001 switch past saturation, distance +4 bit-complement at
// 0.5, `bench/large_fabric_bench --model seeds001`, steady CPU per packet-hop, 6 rounds
// alternating with and without (2026-11-30): 1,024 hosts 5,790 -> 5,522 ns (medians, faster in
// 5), 2,048 hosts 3,321 -> 2,920 (faster in 5); DOR at 1,024 hosts, 0.13: no change beyond the
// noise. Smaller fabrics (the tests', the tori of the BookSim2 comparison) keep malloc's
// defaults: not measured worth changing.
constexpr int kHeapHugePagesMinHosts = 1024;
// Heap reserved ahead per host: the peaks of bench/large_fabric_bench at 16,384 hosts are
// 30-90 KB a host (DOR 475 MB, Distance+4 on the seeds/001 switch 1,448 MB). Address space
// only: what is never touched takes no memory.
constexpr double kHeapReservePerHost = 128 * 1024;
// glibc's largest mmap threshold on 64-bit machines, and its default top pad.
constexpr int kMallocMmapThresholdMax = 32 << 20;
constexpr int kMallocTopPadDefault = 128 * 1024;

bool huge_pages_pay_off(int hosts, double planned_ns) {
  return hosts >= kHugePagesMinHosts && planned_ns >= kHugePagesBreakEvenNs;
}

namespace {

// Marks the process's private anonymous memory of 2 MB and more -- the heap (only it, with
// heap_only) and malloc's large blocks -- MADV_HUGEPAGE, and with collapse also backs what is
// already mapped with 2 MB pages (MADV_COLLAPSE). Bytes the kernel accepted.
size_t mark_anonymous_memory(bool heap_only, bool collapse) {
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
    const bool heap = std::strcmp(path, "[heap]") == 0;
    if (std::strcmp(perms, "rw-p") != 0 || inode != 0 || (path[0] && !heap) || (heap_only && !heap)) continue;
    const uintptr_t a = (start + kHuge - 1) & ~(kHuge - 1), b = end & ~(kHuge - 1);
    if (b <= a) continue;
    void* p = reinterpret_cast<void*>(a);
    if (madvise(p, b - a, MADV_HUGEPAGE) != 0) continue;
    if (!collapse || madvise(p, b - a, MADV_COLLAPSE) == 0) accepted += b - a;
  }
  std::fclose(maps);
  return accepted;
}

// The heap grows by brk. A brk extension is a new mapping without the MADV_HUGEPAGE mark, so the
// mark must be on the addresses before the tables and the fabric touch them: the heap is grown
// by the reserve at once (untouched, so it costs address space, not memory), the whole heap is
// marked, and malloc is told to keep it (no trimming) and to serve blocks up to 32 MB from it
// rather than from separate mappings. A fault in the marked heap then takes a 2 MB page at
// once: nothing to collapse later, so even a short run gains.
double g_heap_reserve = 0;  // bytes kept marked ahead of the heap's top (0: not asked for)

// Whether the kernel backs marked memory with 2 MB pages: transparent huge pages in "always"
// or "madvise" mode (not "never", nor a kernel without them).
bool kernel_backs_marked_memory() {
  std::FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (!f) return false;
  char mode[128] = {};
  const bool read = std::fgets(mode, sizeof mode, f) != nullptr;
  std::fclose(f);
  return read && std::strstr(mode, "[never]") == nullptr;
}

size_t grow_and_mark_heap() {
  mallopt(M_TOP_PAD, static_cast<int>(std::min(g_heap_reserve, double{std::numeric_limits<int>::max()})));
  // A block larger than the heap's free top makes malloc extend the heap by it plus the pad.
  // (Through a volatile pointer: GCC drops a malloc whose block is only freed.)
  void* volatile grow = std::malloc(kMallocMmapThresholdMax / 2);
  std::free(grow);
  mallopt(M_TOP_PAD, kMallocTopPadDefault);  // growth past the reserve as usual
  return mark_anonymous_memory(/*heap_only=*/true, /*collapse=*/false);
}

}  // namespace

size_t back_with_huge_pages() { return mark_anonymous_memory(/*heap_only=*/false, /*collapse=*/true); }

size_t back_heap_growth_with_huge_pages(int hosts) {
  if (g_heap_reserve > 0 || hosts < kHeapHugePagesMinHosts || !kernel_backs_marked_memory()) return 0;
  const routing::MemoryLimit usable = routing::usable_memory();
  double reserve = static_cast<double>(hosts) * kHeapReservePerHost;
  if (usable.bytes > 0) reserve = std::min(reserve, usable.bytes / 2);
  // mallopt is glibc's; a sanitizer's malloc, which has no heap to grow, refuses it (0).
  if (mallopt(M_MMAP_THRESHOLD, kMallocMmapThresholdMax) != 1) return 0;
  mallopt(M_TRIM_THRESHOLD, -1);  // never give the top back (mallopt(3): -1 disables trimming)
  g_heap_reserve = reserve;
  return grow_and_mark_heap();
}

void release_free_heap() {
  malloc_trim(0);
  if (g_heap_reserve > 0) grow_and_mark_heap();  // the trim gave the reserve back too
}

}  // namespace ibsc::tb
