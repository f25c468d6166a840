#include "tb/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25  // Linux 6.1; older headers lack the name
#endif

namespace ibsc::tb {

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
