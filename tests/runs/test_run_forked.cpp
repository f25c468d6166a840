// run_forked (tb/run/sweep.h), the forked children every sweep and study runs its items in: a
// child that dies without a result is reported with the item's name and how it died (a SIGKILL is
// most often the kernel's out-of-memory killer), and on_done may shorten the text it is given
// (a study's, once runs/NAME holds the per-link figures), which is then the one returned.
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <csignal>
#include <stdexcept>
#include <string>
#include <vector>

#include "tb/run/sweep.h"
#include "tests/support/sc_test_main.h"

using ibsc::tb::run_forked;

BOOST_AUTO_TEST_CASE(a_killed_child_is_named_with_its_item_and_signal) {
  std::string message;
  try {
    run_forked(3, 1, [](int i) -> std::string {
      if (i == 1) raise(SIGKILL);
      return "{}";
    });
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  BOOST_TEST(message ==
             "item 1: its forked process died without a result (killed by signal 9 (SIGKILL: out of memory?))");
}

BOOST_AUTO_TEST_CASE(a_child_that_exits_without_a_result_says_its_exit_code) {
  std::string message;
  try {
    run_forked(
        1, 1, [](int) -> std::string { _exit(3); }, {},
        [](int i) { return "load point " + std::to_string(i + 1) + "/1"; });
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  BOOST_TEST(message == "load point 1/1: its forked process died without a result (exit code 3)");
}

BOOST_AUTO_TEST_CASE(on_done_may_shorten_the_texts_returned) {
  int calls = 0;
  const auto texts = run_forked(
      4, 2, [](int i) { return std::string(1000, static_cast<char>('a' + i)); },
      [&](int i, std::string& text) {
        BOOST_TEST(text == std::string(1000, static_cast<char>('a' + i)));
        text = std::to_string(i);
        ++calls;
      });
  BOOST_TEST(calls == 4);
  BOOST_TEST(texts == (std::vector<std::string>{"0", "1", "2", "3"}), boost::test_tools::per_element());
}
