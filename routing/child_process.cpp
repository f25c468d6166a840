// ChildProcess (child_process.h).
#include "routing/child_process.h"

#include <fcntl.h>
#include <spawn.h>
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

  // stdin from /dev/null (ibsim reads commands from it), stdout and stderr to the file.
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, output_file.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  if (!dir.empty()) posix_spawn_file_actions_addchdir_np(&fa, dir.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group: stop() ends everything it started
  const int rc = posix_spawn(&pid_, args[0], &fa, &attr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
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
