// The 2 MB-page policy (tb/fabric/huge_pages.h): the collapse is paid only by runs planned long enough
// to earn it back, and it moves pages without changing what they hold; the heap of a large
// fabric's process takes 2 MB pages as it is first touched, also after its free memory is
// handed back before forking.
#include <malloc.h>

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <fstream>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "tb/fabric/huge_pages.h"

using namespace ibsc;

BOOST_AUTO_TEST_SUITE(huge_pages)

// A default run (20 us warm-up, 100 us window) at 16,384 hosts, where the collapse costs more
// CPU than the run gains, pays nothing; from 500 us on it pays. Fabrics that fit the caches
// (below 4,096 hosts: no gain from 2 MB pages) never pay, however long the run.
BOOST_AUTO_TEST_CASE(planned_length_rule) {
  BOOST_TEST(!tb::huge_pages_pay_off(16384, 120e3));
  BOOST_TEST(!tb::huge_pages_pay_off(16384, 499e3));
  BOOST_TEST(tb::huge_pages_pay_off(16384, 500e3));
  BOOST_TEST(tb::huge_pages_pay_off(4096, 1e6));
  BOOST_TEST(!tb::huge_pages_pay_off(4095, 1e6));
  BOOST_TEST(!tb::huge_pages_pay_off(16384, 0));  // length unknown
  BOOST_TEST(!tb::huge_pages_pay_off(1024, std::numeric_limits<double>::infinity()));
  BOOST_TEST(tb::huge_pages_pay_off(16384, std::numeric_limits<double>::infinity()));
}

// Whatever the kernel accepts, every byte stays where it was.
BOOST_AUTO_TEST_CASE(collapse_keeps_contents) {
  std::vector<uint32_t> v(6u << 20 >> 2);  // 6 MB, malloc's own mapping: at least two 2 MB pages
  std::iota(v.begin(), v.end(), 12345u);
  const uint32_t* before = v.data();
  tb::back_with_huge_pages();
  BOOST_TEST(v.data() == before);
  bool same = true;
  for (size_t i = 0; i < v.size(); ++i) same &= v[i] == 12345u + i;
  BOOST_TEST(same);
}

namespace {

// kB of the heap's mappings backed with 2 MB pages (/proc/self/smaps).
long heap_huge_kb() {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool in_heap = false;
  long kb = 0;
  while (std::getline(smaps, line)) {
    if (line.find("-") != std::string::npos && line.find(' ') < line.find(':', line.find(' ')))
      in_heap = line.find("[heap]") != std::string::npos;  // a mapping's first line
    else if (in_heap && line.rfind("AnonHugePages:", 0) == 0) kb += std::stol(line.substr(14));
  }
  return kb;
}

// Whether the kernel gives 2 MB pages to memory marked for them ("always" or "madvise" mode).
bool thp_available() {
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  return std::getline(f, mode) && mode.find("[never]") == std::string::npos;
}

// 48 MB in blocks small enough for malloc to serve from the heap, every page touched.
std::vector<std::unique_ptr<char[]>> touch_heap_blocks() {
  std::vector<std::unique_ptr<char[]>> blocks;
  for (int i = 0; i < 6; ++i) {
    blocks.emplace_back(new char[8u << 20]);
    for (size_t b = 0; b < (8u << 20); b += 4096) blocks.back()[b] = static_cast<char>(b);
  }
  return blocks;
}

}  // namespace

// Below 1,024 hosts the heap is left alone. From there the reserve is marked once, and what the
// fabric allocates afterwards is backed with 2 MB pages when it is first touched: at least a
// third of 48 MB (all of it on an idle machine; the kernel may fall back to 4 KB pages where it
// has no free 2 MB block). Handing free memory back before forking keeps that true.
BOOST_AUTO_TEST_CASE(heap_growth_takes_huge_pages) {
  BOOST_TEST(tb::back_heap_growth_with_huge_pages(1023) == 0u);
  const size_t marked = tb::back_heap_growth_with_huge_pages(16384);
  if (!thp_available() || mallopt(M_TOP_PAD, 128 * 1024) != 1) {
    BOOST_TEST(marked == 0u);
    BOOST_TEST_MESSAGE("transparent huge pages are off, or malloc is a sanitizer's: nothing to back");
    return;
  }
  BOOST_TEST(marked >= size_t{512} << 20);                        // 16,384 hosts: the reserve, at least 512 MB
  BOOST_TEST(tb::back_heap_growth_with_huge_pages(16384) == 0u);  // once per process
  const long before = heap_huge_kb();
  auto blocks = touch_heap_blocks();
  const long gained = heap_huge_kb() - before;
  BOOST_TEST(gained >= 16 * 1024, gained << " kB of 48 MB on 2 MB pages");
  blocks.clear();
  tb::release_free_heap();
  const long after_release = heap_huge_kb();
  blocks = touch_heap_blocks();
  const long regained = heap_huge_kb() - after_release;
  BOOST_TEST(regained >= 16 * 1024, regained << " kB of 48 MB on 2 MB pages after release_free_heap");
}

BOOST_AUTO_TEST_SUITE_END()
