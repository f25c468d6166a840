// Memory latency of this machine (issue 35, "flat at scale"): nanoseconds per dependent read of
// a random cache line in a working set of N MB, with 4 KB pages and with 2 MB pages (the
// fabric's, tb/fabric/huge_pages.h). A packet-hop on a fabric whose state has left the cache
// pays about this per line it touches that no prefetch fetched in time, so this curve bounds
// what large_fabric_bench's ratio between 16,384 and 1,024 hosts can be on a given machine:
// where the 1,024-host fabric's state (about 30 MB) already misses, the ratio is the number of
// lines per hop, not the cache size.
//   memory_latency [--max-mb N] [--reads N]
// Sizes 1, 2, 4, ... up to N MB (default 1024); each read waits for the previous one (a random
// cyclic chain through every line), so the hardware prefetchers cannot run ahead.
#include <sys/mman.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

constexpr size_t kLine = 64;
constexpr size_t kHuge = size_t{2} << 20;

// ns per dependent read over `mb` MB; huge: 2 MB pages asked for (MADV_HUGEPAGE).
double ns_per_read(size_t mb, bool huge, size_t reads) {
  const size_t bytes = mb << 20, lines = bytes / kLine;
  void* map = mmap(nullptr, bytes + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED) {
    std::fprintf(stderr, "memory_latency: cannot map %zu MB\n", mb);
    std::exit(1);
  }
  // Aligned to 2 MB so that the kernel can back the whole set with huge pages.
  char* raw = static_cast<char*>(map);
  char* base = raw + (kHuge - reinterpret_cast<uintptr_t>(raw) % kHuge) % kHuge;
  madvise(base, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  std::vector<uint32_t> order(lines);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937_64 rng(1);
  std::shuffle(order.begin(), order.end(), rng);
  for (size_t i = 0; i < lines; ++i)
    *reinterpret_cast<char**>(base + order[i] * kLine) = base + order[(i + 1) % lines] * kLine;
  char* p = base + order[0] * kLine;
  for (size_t i = 0; i < lines; ++i) p = *reinterpret_cast<char**>(p);  // first touch, TLB warm-up
  const auto t0 = std::chrono::steady_clock::now();
  for (size_t i = 0; i < reads; ++i) p = *reinterpret_cast<char**>(p);
  const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
  // The chain's end is printed nowhere but used, so that the loop is not dropped.
  if (p == nullptr) std::puts("");
  munmap(map, bytes + kHuge);
  return ns / static_cast<double>(reads);
}

bool parse_size(const char* s, size_t lo, size_t hi, size_t& out) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 10);
  if (end == s || *end != '\0' || v < lo || v > hi) return false;
  out = static_cast<size_t>(v);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  size_t max_mb = 1024, reads = 10000000;
  for (int i = 1; i < argc; i += 2) {
    const bool mb = !std::strcmp(argv[i], "--max-mb");
    const bool ok = (mb || !std::strcmp(argv[i], "--reads")) && i + 1 < argc &&
                    parse_size(argv[i + 1], 1, mb ? 16384 : 1000000000, mb ? max_mb : reads);
    if (!ok) {
      std::fprintf(stderr, "usage: memory_latency [--max-mb 1..16384] [--reads 1..1000000000]  (bad argument '%s')\n",
                   argv[i]);
      return 2;
    }
  }
  std::printf("working set   4 KB pages   2 MB pages   (ns per dependent random read, %zu reads)\n", reads);
  for (size_t mb = 1; mb <= max_mb; mb *= 2)
    std::printf("%8zu MB %12.1f %12.1f\n", mb, ns_per_read(mb, false, reads), ns_per_read(mb, true, reads));
  return 0;
}
