// Huge pages for a built fabric. A 16,384-host fabric holds about 600 MB of tables, queues and
// random streams, and every packet-hop reads a dozen lines of it that no cache holds (each
// switch port sees a packet every ~15 us of simulated time). With 4 KB pages each of those
// misses also misses the TLB, and in a VM a page walk costs several more memory reads: with
// 2 MB pages 4,096- and 16,384-host fabrics take 10-40% less CPU per packet-hop (Distance+4 at
// 16,384 hosts 3.0 instead of 4.9 us), while a 1,024-host one, which fits the caches, is
// unchanged (bench/large_fabric_bench.cpp). The price is paid once, after building: about
// 2 CPU ms per 2 MB page collapsed in this VM (0.5-1.9 s for the 600 MB of 16,384 hosts with
// DOR), which a run of some 500 simulated microseconds there earns back: huge_pages_pay_off()
// decides from the run's planned length, so that a shorter run does not pay it.
//
// back_with_huge_pages() asks the kernel (transparent huge pages, "madvise" mode or "always")
// to back the process's private anonymous memory of 2 MB and more -- the heap and malloc's
// large blocks -- with 2 MB pages: what is already mapped (MADV_COLLAPSE, Linux 6.1 and later)
// and what those regions fault in later (MADV_HUGEPAGE). No address changes, so neither does
// any result. Best effort: where the kernel refuses, memory stays as it was.
#pragma once
#include <cstddef>

namespace ibsc::tb {

// Bytes the kernel accepted to back with huge pages (0 where it refused all of it).
size_t back_with_huge_pages();

// Whether a run of `planned_ns` simulated time on `hosts` hosts earns the collapse back: 500 us
// or more on 4,096 hosts or more (huge_pages.cpp gives the measurement).
bool huge_pages_pay_off(int hosts, double planned_ns);

}  // namespace ibsc::tb
