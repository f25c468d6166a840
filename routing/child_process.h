// A child program in its own process group, for the external tools IBSC drives (ibsim and
// OpenSM, opensm_engine.h): started with fork and exec, output to a file, extra environment
// variables, waited for under a time limit and stopped with its whole group, so nothing it
// started outlives it. The child also gets SIGTERM when this process dies without stopping it
// (Linux's PR_SET_PDEATHSIG: killed by mpirun or by hand), so an ibsim or OpenSM is never left
// running. Plain C++17 on Linux, no SystemC.
#pragma once
#include <sys/types.h>
#include <string>
#include <utility>
#include <vector>

namespace ibsc::routing {

class ChildProcess {
 public:
  ChildProcess() = default;
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;
  ~ChildProcess() { stop(); }

  // Starts argv[0] (a path) in `dir` with stdout and stderr appended to `output_file`, the
  // environment plus `env` (NAME, VALUE). Throws std::runtime_error when it cannot start.
  void start(const std::vector<std::string>& argv, const std::string& dir, const std::string& output_file,
             const std::vector<std::pair<std::string, std::string>>& env);
  // Waits up to `seconds` for the child to end; true when it has (exit_code() then tells how).
  bool wait_for(double seconds);
  // Whether it has ended (without waiting).
  bool ended();
  // The exit status once ended: the code, or 128 + signal when a signal ended it.
  int exit_code() const { return code_; }
  // Its process id (also its group's), -1 before start().
  pid_t pid() const { return pid_; }
  // SIGTERM to the whole group, SIGKILL after a short grace, then reaps it. Safe to repeat.
  void stop();

 private:
  pid_t pid_ = -1;
  bool running_ = false;
  int code_ = -1;
};

}  // namespace ibsc::routing
