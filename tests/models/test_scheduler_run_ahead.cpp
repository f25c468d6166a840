// The scheduler's run-ahead (Scheduler::run_ahead_until): wake-ups run at their own times
// (now_ps()) without a return to SystemC's kernel in between, but never past another process's
// next activity nor past the caller's end, so nothing outside the scheduler can tell. Each case
// in its own process: one Scheduler each.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/scheduler.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using models::Picos;

namespace {

constexpr Picos kNs = 1000;
constexpr Picos kPeriod = 10 * kNs;

// Wakes itself every 10 ns from 10 ns on; records the model's and the kernel's time at each.
struct Ticker : models::Wakeable {
  models::WakeUp w;
  std::vector<Picos> model, kernel;
  int refuse_at = -1;  // at this wake-up (0-based) it asks for the kernel's time
  explicit Ticker(models::Scheduler& s) : w(s, *this) { w.at(kPeriod); }
  void wake() override {
    if (static_cast<int>(model.size()) == refuse_at) models::require_kernel_time("the test's ticker");
    model.push_back(models::now_ps());
    kernel.push_back(models::kernel_now_ps());
    w.at(models::now_ps() + kPeriod);
  }
};

// Another process: runs at 0 (initialisation), 55 and 155 ns of SystemC's time and notes how
// many ticks it saw at the last two. A method, not a thread: ASan cannot follow a SystemC
// thread's own stack when an exception unwinds (.ci/run), and the last case throws.
SC_MODULE(Observer) {
  Ticker* ticker = nullptr;
  std::vector<size_t> seen;
  int runs = 0;
  SC_CTOR(Observer) { SC_METHOD(watch); }
  void watch() {
    if (runs++ > 0) seen.push_back(ticker->model.size());
    if (runs == 1) next_trigger(55, sc_core::SC_NS);
    else if (runs == 2) next_trigger(100, sc_core::SC_NS);
  }
};

struct Run {
  std::vector<Picos> model, kernel;
  std::vector<size_t> seen;
  uint64_t activations = 0;
};

// 295 ns with run-ahead allowed up to the end: ticks at 10, 20, ..., 290 ns.
Run run(int refuse_at = -1) {
  testing::ScStrict strict;
  models::Scheduler sched("sched");
  Ticker ticker(sched);
  ticker.refuse_at = refuse_at;
  Observer obs("obs");
  obs.ticker = &ticker;
  sched.run_ahead_until(295 * kNs);
  sc_core::sc_start(295, sc_core::SC_NS);
  return {ticker.model, ticker.kernel, obs.seen, sched.activations()};
}

std::vector<Picos> ticks() {
  std::vector<Picos> t;
  for (Picos k = 1; k <= 29; ++k) t.push_back(k * kPeriod);
  return t;
}

}  // namespace

BOOST_AUTO_TEST_CASE(runs_ahead_up_to_other_processes_and_the_end) {
  unsetenv("IBSC_RUN_AHEAD");
  const Run r = run();
  // Every wake-up at its own time, and none at or past the end (295 ns).
  BOOST_TEST(r.model == ticks(), boost::test_tools::per_element());
  // The other process saw the ticks due before it and no later one: 5 by 55 ns, 15 by 155 ns.
  BOOST_TEST(r.seen == (std::vector<size_t>{5, 15}), boost::test_tools::per_element());
  // The kernel was entered at 0 (initialisation, the observer runnable too: no run-ahead),
  // 10 ns (ran 10-50, stopped before the observer's 55), 60 ns (60-150) and 160 ns (160-290):
  // 4 times instead of 30. Within a stretch the kernel stays at the stretch's first time.
  BOOST_TEST(r.activations == 4u);
  BOOST_TEST(r.kernel[0] == 10 * kNs);
  BOOST_TEST(r.kernel[4] == 10 * kNs);    // the tick at 50 ns
  BOOST_TEST(r.kernel[5] == 60 * kNs);    // at 60 ns
  BOOST_TEST(r.kernel[28] == 160 * kNs);  // at 290 ns
  BOOST_TEST(models::g_ahead_ps == 0u);   // the kernel's time again once the scheduler is done
}

BOOST_AUTO_TEST_CASE(off_by_environment) {
  setenv("IBSC_RUN_AHEAD", "off", 1);
  const Run r = run();
  BOOST_TEST(r.model == ticks(), boost::test_tools::per_element());
  BOOST_TEST(r.kernel == ticks(), boost::test_tools::per_element());
  BOOST_TEST(r.seen == (std::vector<size_t>{5, 15}), boost::test_tools::per_element());
  BOOST_TEST(r.activations == 30u);  // at 0 and at each of the 29 ticks
}

BOOST_AUTO_TEST_CASE(bad_value_is_refused) {
  setenv("IBSC_RUN_AHEAD", "maybe", 1);
  try {
    models::Scheduler sched("sched");
    BOOST_FAIL("IBSC_RUN_AHEAD=maybe was accepted");
  } catch (const std::invalid_argument& e) {
    BOOST_TEST(std::string(e.what()) == "environment variable IBSC_RUN_AHEAD=maybe: expected on or off");
  }
}

// A module that notifies SystemC events from a wake-up (the message layer under TLM sockets and
// MPI hosts) refuses to run while the scheduler is ahead of the kernel; the error says why.
BOOST_AUTO_TEST_CASE(kernel_time_required_while_ahead) {
  unsetenv("IBSC_RUN_AHEAD");
  try {
    run(2);  // the tick at 30 ns runs ahead (kernel at 10 ns)
    BOOST_FAIL("the ticker ran ahead of the kernel");
  } catch (const std::exception& e) {
    BOOST_TEST(std::string(e.what()).find("the test's ticker notifies SystemC events from the model: the scheduler "
                                          "must not run ahead") != std::string::npos);
  }
  BOOST_TEST(models::g_ahead_ps == 0u);  // reset on the way out of the failed wake-up
}
