// Huge pages for a large fabric. A 16,384-host fabric holds about 600 MB of tables, queues and
// random streams, and every packet-hop reads a dozen lines of it that no cache holds (each
// switch port sees a packet every ~15 us of simulated time). With 4 KB pages each of those
// misses also misses the TLB, and in a VM a page walk costs several more memory reads: with
// 2 MB pages 4,096- and 16,384-host fabrics take 10-40% less CPU per packet-hop (Distance+4 at
// 16,384 hosts 3.0 instead of 4.9 us), a 1,024-host one with DOR, which mostly fits the
// caches, no less, with the seeds/001 switch past saturation 5% less (huge_pages.cpp,
// bench/large_fabric_bench.cpp).
//
// Two ways, both through transparent huge pages ("madvise" mode or "always"), neither moving
// an address, so neither changes a result; best effort: where the kernel refuses, memory stays
// as it was.
// - back_heap_growth_with_huge_pages(), before the tables and the fabric are built: what they
//   allocate takes 2 MB pages as it is first touched, however short the run, for little more
//   than the kernel zeroing 2 MB at a time (16,384 hosts: routing +0.05-0.2 CPU s).
// - back_with_huge_pages(), after building: memory already mapped (the heap and malloc's large
//   blocks) is collapsed into 2 MB pages (MADV_COLLAPSE, Linux 6.1 and later), about 2 CPU ms
//   per page in this VM, which only a run of some 500 simulated microseconds earns back
//   (huge_pages_pay_off()). After the first, little is left for it to collapse.
#pragma once
#include <cstddef>

namespace ibsc::tb {

// Bytes the kernel accepted to back with huge pages (0 where it refused all of it).
size_t back_with_huge_pages();

// Before the tables and the fabric of a network of `hosts` hosts are built, in the process that
// will build them: for 1,024 hosts or more, marks the heap and a reserve ahead of it (128 KB a
// host, at most half the memory this process may use, at most 2 GB) MADV_HUGEPAGE, so that
// what they allocate there is backed with 2 MB pages as it is first touched, with no collapse
// to pay. Once per process; later calls do nothing. Bytes marked (0: none, or refused).
size_t back_heap_growth_with_huge_pages(int hosts);

// Hands the heap's free memory back to the system (malloc_trim), e.g. before forking workers
// that would otherwise each carry it resident; then restores the marked reserve, if asked for.
void release_free_heap();

// Whether a run of `planned_ns` simulated time on `hosts` hosts earns the collapse back: 500 us
// or more on 4,096 hosts or more (huge_pages.cpp gives the measurement).
bool huge_pages_pay_off(int hosts, double planned_ns);

}  // namespace ibsc::tb
