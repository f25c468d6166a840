// When the scheduler prefetches: from Scheduler::kPrefetchOwners (2,000) switches and HCAs by
// default, and as the environment's IBSC_PREFETCH says otherwise (on: from the first, off: never,
// auto: the default; anything else refused). Each case in its own process: one Scheduler each.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <deque>
#include <stdexcept>
#include <string>

#include "models/scheduler.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;

namespace {

constexpr size_t kDefaultOwners = 2000;  // models/scheduler.h: kPrefetchOwners

struct Idle : models::Wakeable {
  void wake() override {}
};

// Whether the scheduler prefetches after `owners` modules were built, before and after the last.
struct Built {
  bool before_last = false, after_last = false;
};
Built build(const char* env, size_t owners) {
  if (env) setenv("IBSC_PREFETCH", env, 1);
  else unsetenv("IBSC_PREFETCH");
  models::Scheduler sched("sched");
  Idle owner;
  std::deque<models::WakeUp> wakes;
  Built b;
  for (size_t k = 0; k < owners; ++k) {
    if (k + 1 == owners) b.before_last = sched.prefetching();
    wakes.emplace_back(sched, owner);
  }
  b.after_last = sched.prefetching();
  return b;
}

}  // namespace

BOOST_AUTO_TEST_CASE(auto_from_2000_owners) {
  const Built b = build(nullptr, kDefaultOwners);
  BOOST_TEST(!b.before_last);  // 1,999 modules: off
  BOOST_TEST(b.after_last);    // 2,000: on
}

BOOST_AUTO_TEST_CASE(auto_by_name) {
  const Built b = build("auto", kDefaultOwners);
  BOOST_TEST(!b.before_last);
  BOOST_TEST(b.after_last);
}

BOOST_AUTO_TEST_CASE(on_from_the_first_owner) {
  const Built b = build("on", 1);
  BOOST_TEST(b.after_last);
}

BOOST_AUTO_TEST_CASE(off_never) {
  const Built b = build("off", 2 * kDefaultOwners);
  BOOST_TEST(!b.after_last);
}

BOOST_AUTO_TEST_CASE(bad_value_is_refused) {
  setenv("IBSC_PREFETCH", "yes", 1);
  try {
    models::Scheduler sched("sched");
    BOOST_FAIL("IBSC_PREFETCH=yes was accepted");
  } catch (const std::invalid_argument& e) {
    BOOST_TEST(std::string(e.what()) == "environment variable IBSC_PREFETCH=yes: expected on, off or auto");
  }
}
