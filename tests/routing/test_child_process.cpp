// ChildProcess (routing/child_process.h): the exit code, the output file and environment, the
// time limit, a clean error for a program that cannot start, and no child left running when
// the process that started it is killed (the SIGTERM mpirun sends, or SIGKILL).
#include <boost/test/unit_test.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "routing/child_process.h"

using ibsc::routing::ChildProcess;
namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "ibsc-child-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

std::string read_all(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Running: a zombie (ended, not yet reaped by whoever adopted it) counts as ended.
bool alive(pid_t pid) {
  if (::kill(pid, 0) != 0) return false;
  const std::string stat = read_all("/proc/" + std::to_string(pid) + "/stat");
  const auto close = stat.rfind(')');
  return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] != 'Z';
}

// Waits up to `seconds` for `path` to hold a whole line; returns it ("" when it never does).
std::string wait_for_line(const fs::path& path, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    const std::string s = read_all(path);
    if (!s.empty() && s.back() == '\n') return s.substr(0, s.size() - 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(exit_code_output_and_environment) {
  TempDir d;
  const fs::path out = d.path / "out.txt";
  ChildProcess c;
  // The variable replaces one of ours of the same name; the working folder is `dir`.
  ::setenv("IBSC_CHILD_TEST", "ours", 1);
  c.start({"/bin/sh", "-c", "echo \"$IBSC_CHILD_TEST $(pwd)\"; echo err >&2; exit 3"}, d.path.string(), out.string(),
          {{"IBSC_CHILD_TEST", "given"}});
  ::unsetenv("IBSC_CHILD_TEST");
  BOOST_TEST(c.wait_for(10.0));
  BOOST_TEST(c.exit_code() == 3);
  BOOST_TEST(read_all(out) == "given " + fs::canonical(d.path).string() + "\nerr\n");
}

BOOST_AUTO_TEST_CASE(a_signal_is_128_plus_its_number_and_stop_ends_the_group) {
  TempDir d;
  ChildProcess c;
  // The shell starts a grandchild in its group and reports its pid; stop() must end both.
  c.start({"/bin/sh", "-c", "sleep 60 & echo $!; wait"}, "", (d.path / "out.txt").string(), {});
  const std::string line = wait_for_line(d.path / "out.txt", 10.0);
  BOOST_REQUIRE(!line.empty());
  const pid_t grandchild = std::stoi(line);
  BOOST_TEST(!c.wait_for(0.05));
  c.stop();
  BOOST_TEST(c.ended());
  BOOST_TEST(c.exit_code() == 128 + SIGTERM);
  for (int i = 0; i < 200 && alive(grandchild); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  BOOST_TEST(!alive(grandchild));
}

BOOST_AUTO_TEST_CASE(a_program_that_cannot_start_is_a_clean_error) {
  TempDir d;
  ChildProcess c;
  try {
    c.start({"/nonexistent/ibsim"}, "", (d.path / "out.txt").string(), {});
    BOOST_FAIL("started a missing program");
  } catch (const std::runtime_error& e) {
    BOOST_TEST(std::string(e.what()) == "cannot start /nonexistent/ibsim: No such file or directory");
  }
  BOOST_TEST(c.ended());
  try {
    c.start({"/bin/true"}, (d.path / "no-such-folder").string(), (d.path / "out.txt").string(), {});
    BOOST_FAIL("started in a missing folder");
  } catch (const std::runtime_error& e) {
    BOOST_TEST(std::string(e.what()) == "cannot start /bin/true: No such file or directory");
  }
}

// The case the destructor cannot cover: the process that started the child is killed. Here a
// forked stand-in for ibsc starts `sleep 60`, writes its pid and is killed with each signal;
// the sleep must end with it.
BOOST_AUTO_TEST_CASE(the_child_ends_when_its_starter_is_killed) {
  for (const int signal : {SIGTERM, SIGKILL}) {
    TempDir d;
    const fs::path pid_file = d.path / "pid.txt";
    const pid_t starter = ::fork();
    BOOST_REQUIRE(starter >= 0);
    if (starter == 0) {
      try {
        ChildProcess c;
        c.start({"/bin/sleep", "60"}, "", (d.path / "out.txt").string(), {});
        std::ofstream(pid_file) << c.pid() << "\n";
        std::this_thread::sleep_for(std::chrono::seconds(60));
      } catch (...) {
      }
      ::_exit(1);
    }
    const std::string line = wait_for_line(pid_file, 10.0);
    BOOST_REQUIRE(!line.empty());
    const pid_t child = std::stoi(line);
    BOOST_TEST(alive(child));
    ::kill(starter, signal);
    int status = 0;
    ::waitpid(starter, &status, 0);
    BOOST_TEST(WIFSIGNALED(status));
    for (int i = 0; i < 300 && alive(child); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    BOOST_TEST(!alive(child), "signal " << signal << ": pid " << child << " still running");
    if (alive(child)) ::kill(child, SIGKILL);
  }
}
