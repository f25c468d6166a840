// PhaseProgress (tb/cli/phase_progress.h, issue 37): a long phase prints its elapsed time on
// stderr and a done line; a quick one prints nothing, so quick commands' output is unchanged.
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "tb/cli/phase_progress.h"

using namespace std::chrono_literals;

namespace {

// What `body` writes on stderr (fd 2), through a temporary file.
template <class F>
std::string stderr_of(F body) {
  std::fflush(stderr);
  char name[] = "/tmp/ibsc_progress_XXXXXX";
  const int fd = mkstemp(name);
  const int saved = dup(2);
  dup2(fd, 2);
  body();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  close(fd);
  std::ifstream in(name);
  std::stringstream text;
  text << in.rdbuf();
  unlink(name);
  return text.str();
}

}  // namespace

BOOST_AUTO_TEST_CASE(long_phase_shows_elapsed_time_and_end) {
  const std::string out = stderr_of([] {
    ibsc::tb::PhaseProgress p("ibsc route: routing x", 40ms, 100ms);
    std::this_thread::sleep_for(300ms);  // ticks due at 40, 140 and 240 ms
  });
  size_t ticks = 0;
  for (size_t at = 0; (at = out.find("ibsc route: routing x: 0 s ...\n", at)) != std::string::npos; ++at) ++ticks;
  BOOST_TEST(ticks >= 2u, out);  // a loaded machine may wake the thread late for the third
  BOOST_TEST(ticks <= 3u, out);
  BOOST_TEST(out.find("ibsc route: routing x: done in 0.") == out.rfind("ibsc route: routing x:"), out);
}

BOOST_AUTO_TEST_CASE(quick_or_quiet_phase_prints_nothing) {
  BOOST_TEST(stderr_of([] { ibsc::tb::PhaseProgress p("quick", 1000ms, 1000ms); }) == "");
  BOOST_TEST(stderr_of([] {
               ibsc::tb::PhaseProgress p("", 10ms, 10ms);
               std::this_thread::sleep_for(50ms);
             }) == "");
}
