#include "routing/memory_limit.h"

#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "routing/strict_number.h"

namespace ibsc::routing {
namespace {

// A limit file's value in bytes; 0 for "max", an absurd "no limit" value (v1 writes about
// 2^63) or an unreadable file.
double limit_file(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text)) return 0;
  uint64_t v = 0;
  if (!parse_unsigned(text, UINT64_MAX, v) || v >= (uint64_t{1} << 60)) return 0;
  return static_cast<double>(v);
}

// The tightest limit named `file` from `dir` up to `root` (a parent's limit bounds its children).
void tightest(const std::string& root, std::string dir, const std::string& file, const char* source,
              MemoryLimit& best) {
  for (;;) {
    const double v = limit_file(root + dir + (dir.empty() || dir.back() == '/' ? "" : "/") + file);
    if (v > 0 && (best.bytes == 0 || v < best.bytes)) best = {v, source};
    if (dir.empty() || dir == "/") return;
    const size_t cut = dir.find_last_of('/');
    dir = cut == std::string::npos || cut == 0 ? "/" : dir.substr(0, cut);
  }
}

}  // namespace

MemoryLimit cgroup_memory_limit(const std::string& proc_self_cgroup, const std::string& cgroup_root) {
  MemoryLimit best;
  std::istringstream lines(proc_self_cgroup);
  for (std::string line; std::getline(lines, line);) {
    // "0::/path" (v2, unified) or "N:controller,...:/path" (v1).
    const size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
    if (b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    if (path.find("..") != std::string::npos) continue;
    if (controllers.empty() && line.compare(0, a, "0") == 0) {
      tightest(cgroup_root, path, "memory.max", "cgroup memory.max", best);
    } else {
      std::istringstream names(controllers);
      for (std::string c; std::getline(names, c, ',');)
        if (c == "memory")
          tightest(cgroup_root + "/memory", path, "memory.limit_in_bytes", "cgroup memory.limit_in_bytes", best);
    }
  }
  return best;
}

MemoryLimit usable_memory() {
  MemoryLimit best;
  const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && size > 0) best = {static_cast<double>(pages) * static_cast<double>(size), "physical memory"};
  auto take = [&](const MemoryLimit& m) {
    if (m.bytes > 0 && (best.bytes == 0 || m.bytes < best.bytes)) best = m;
  };
  struct rlimit as {};
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
    take({static_cast<double>(as.rlim_cur), "RLIMIT_AS (ulimit -v)"});
  std::ifstream in("/proc/self/cgroup");
  std::stringstream text;
  text << in.rdbuf();
  take(cgroup_memory_limit(text.str(), "/sys/fs/cgroup"));
  return best;
}

}  // namespace ibsc::routing
