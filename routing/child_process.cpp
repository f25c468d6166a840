// ChildProcess (child_process.h).
#include "routing/child_process.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace ibsc::routing {
namespace {

void note_status(int status, int& code) {
  code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

}  // namespace

void ChildProcess::start(const std::vector<std::string>& argv, const std::string& dir, const std::string& output_file,
                         const std::vector<std::pair<std::string, std::string>>& env) {
  if (running_) throw std::logic_error("ChildProcess::start: already running");
  // The environment: ours with the given names replaced.
  std::vector<std::string> envs;
  for (char** e = environ; *e; ++e) {
    bool replaced = false;
    for (const auto& [name, value] : env)
      if (std::strncmp(*e, name.c_str(), name.size()) == 0 && (*e)[name.size()] == '=') replaced = true;
    if (!replaced) envs.emplace_back(*e);
  }
  for (const auto& [name, value] : env) envs.push_back(name + "=" + value);
  std::vector<char*> envp, args;
  for (auto& e : envs) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::vector<std::string> argv_copy = argv;
  for (auto& a : argv_copy) args.push_back(a.data());
  args.push_back(nullptr);

  // Everything the child needs is made before fork(): between fork() and exec only
  // async-signal-safe calls are allowed (we may have threads).
  const char* out_path = output_file.c_str();
  const char* chdir_path = dir.empty() ? nullptr : dir.c_str();
  int report[2];  // the child's errno when it cannot exec; closed unread when it can
  if (::pipe2(report, O_CLOEXEC) != 0)
    throw std::runtime_error("cannot start " + argv[0] + ": pipe: " + std::strerror(errno));
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    ::close(report[0]);
    ::close(report[1]);
    throw std::runtime_error("cannot start " + argv[0] + ": fork: " + std::strerror(e));
  }
  if (pid == 0) {
    ::setpgid(0, 0);  // its own group: stop() ends everything it started
    // Ended with us even when we are killed (SIGTERM from mpirun, SIGKILL), where no destructor
    // runs; the check after it covers a parent that died before the prctl.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(127);
    int e = 0;
    // stdin from /dev/null (ibsim reads commands from it), stdout and stderr to the file.
    const int in = ::open("/dev/null", O_RDONLY);
    const int out = ::open(out_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (in < 0 || out < 0 || ::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(out, 2) < 0 ||
        (chdir_path && ::chdir(chdir_path) != 0))
      e = errno;
    else {
      if (in > 2) ::close(in);
      if (out > 2) ::close(out);
      ::execve(args[0], args.data(), envp.data());
    }
    if (e == 0) e = errno;
    ssize_t unused = ::write(report[1], &e, sizeof e);
    (void)unused;
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also here, so a stop() straight after start() finds the group
  ::close(report[1]);
  int e = 0;
  ssize_t n;
  do n = ::read(report[0], &e, sizeof e);
  while (n < 0 && errno == EINTR);
  ::close(report[0]);
  if (n == static_cast<ssize_t>(sizeof e)) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(e));
  }
  pid_ = pid;
  running_ = true;
  code_ = -1;
}

bool ChildProcess::ended() {
  if (!running_) return true;
  int status = 0;
  const pid_t r = waitpid(pid_, &status, WNOHANG);
  if (r == pid_ || (r < 0 && errno == ECHILD)) {
    if (r == pid_) note_status(status, code_);
    running_ = false;
    ::kill(-pid_, SIGKILL);  // anything it left behind in its group
  }
  return !running_;
}

bool ChildProcess::wait_for(double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  auto pause = std::chrono::milliseconds(2);
  while (!ended()) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(pause);
    if (pause < std::chrono::milliseconds(50)) pause *= 2;
  }
  return true;
}

void ChildProcess::stop() {
  if (!running_) return;
  ::kill(-pid_, SIGTERM);
  if (!wait_for(2.0)) {
    ::kill(-pid_, SIGKILL);
    int status = 0;
    if (waitpid(pid_, &status, 0) == pid_) note_status(status, code_);
    running_ = false;
  }
}

}  // namespace ibsc::routing
