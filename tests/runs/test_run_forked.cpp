// run_forked (tb/run/sweep.h), the forked children every sweep and study runs its items in: a
// child that dies without a result is reported with the item's name and how it died (a SIGKILL is
// most often the kernel's out-of-memory killer), and on_done may shorten the text it is given
// (a study's, once runs/NAME holds the per-link figures), which is then the one returned; the
// files a child read reach the parent.
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "routing/input_file.h"
#include "tb/run/forked_workers.h"
#include "tb/run/sweep.h"
#include "tests/support/sc_test_main.h"
#include "tests/tb/tb_test_util.h"

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

// A file only a child read joins the parent's record as the child read it: a result built from
// it names it (an MPI item's record, a probe's journal line), and an edit made after the child
// read it shows.
BOOST_AUTO_TEST_CASE(a_file_only_a_child_read_joins_the_parents_record) {
  const std::string path = ibsc::tb::test::write_file("child_reads.txt", "0 1\n1 0\n");
  const std::string abs = std::filesystem::weakly_canonical(path).string();
  auto have = [&] {
    const auto read = ibsc::routing::input_files_read();
    return std::count(read.begin(), read.end(), abs);
  };
  BOOST_TEST(have() == 0);
  const auto texts = run_forked(2, 1, [&](int i) {
    if (i == 1) ibsc::routing::read_input_file(path, ibsc::routing::kPermutationFile);
    return std::string("text ") + std::to_string(i);
  });
  BOOST_TEST(texts == (std::vector<std::string>{"text 0", "text 1"}), boost::test_tools::per_element());
  BOOST_TEST(have() == 1);
  BOOST_TEST(!ibsc::routing::input_file_changed_since_read(abs));
  ibsc::tb::test::write_file("child_reads.txt", "0 1\n1 2\n2 0\n");
  BOOST_TEST(ibsc::routing::input_file_changed_since_read(abs));

  // A child that fails after reading a file of its own still says why, in its own words.
  const std::string other = ibsc::tb::test::write_file("child_reads_2.txt", "0 1\n");
  std::string message;
  try {
    run_forked(1, 1, [&](int) -> std::string {
      ibsc::routing::read_input_file(other, ibsc::routing::kPermutationFile);
      throw std::runtime_error("no such host");
    });
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  BOOST_TEST(message == "no such host");
}

// An MPI rank runs unrelated items one after another: what one item's process read must not
// join the rank's record, or every later item's record would name it.
BOOST_AUTO_TEST_CASE(workers_that_do_not_adopt_leave_the_record_alone) {
  const std::string path = ibsc::tb::test::write_file("sibling_reads.txt", "0 1\n1 0\n");
  const std::string abs = std::filesystem::weakly_canonical(path).string();
  ibsc::tb::ForkedWorkers rank(/*adopt_reads=*/false);
  rank.start(0, [&](int) {
    ibsc::routing::read_input_file(path, ibsc::routing::kPermutationFile);
    return std::string("done");
  });
  const ibsc::tb::FinishedItem f = rank.wait(true);
  BOOST_TEST(f.ok);
  BOOST_TEST(f.text == "done");
  const auto read = ibsc::routing::input_files_read();
  BOOST_TEST(std::count(read.begin(), read.end(), abs) == 0);
}
