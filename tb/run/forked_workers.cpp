#include "tb/run/forked_workers.h"

#include <sys/resource.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <utility>
#include <vector>

#include "routing/input_file.h"
#include "tb/run/mpi_progress.h"

namespace ibsc::tb {
namespace {

// The text a worker wrote to its (already unlinked) result file, read from the start.
std::string read_all(int fd) {
  std::string text;
  char buf[65536];
  for (;;) {
    const ssize_t n = pread(fd, buf, sizeof buf, static_cast<off_t>(text.size()));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<size_t>(n));
  }
  return text;
}

void write_all(int fd, const std::string& text) {
  const char* p = text.data();
  for (size_t left = text.size(); left > 0;) {
    const ssize_t n = write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(3);
    p += n;
    left -= static_cast<size_t>(n);
  }
}

// A result file nobody can see: created in the temporary folder and unlinked at once, so it
// vanishes with the last descriptor whatever kills the parent or the worker. The worker
// inherits the descriptor and writes; the parent reads it back after the worker exits.
int anonymous_file() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "ibsc-point-XXXXXX").string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0)
    throw std::runtime_error("cannot create a temporary file in " + std::filesystem::temp_directory_path().string() +
                             " (" + std::strerror(errno) + "; set TMPDIR)");
  unlink(name.data());
  return fd;
}

// In a new worker: die with the parent, so a killed `ibsc run` leaves no orphan simulating on.
void die_with_parent(pid_t parent) {
#ifdef __linux__
  prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
  // The parent may have died before the line above (then no signal comes), or on a system
  // without PR_SET_PDEATHSIG: the worker is re-parented, so its parent id changes.
  if (getppid() != parent) _exit(4);
}

// A worker's file holds its reads and then its text (pack_reads): with ADOPT, the files it read
// join this process's record, so that what this process reports it read (a probe's journal
// line, its experiment's record) names them too. A worker that died may have left nothing, or a
// part.
void take_reads(FinishedItem& f, bool adopt) {
  try {
    auto [reads, text] = unpack_reads(f.text);
    if (adopt) routing::adopt_input_files_read(reads);
    f.text = std::move(text);
  } catch (const std::runtime_error&) {
    if (f.ok) {  // exited cleanly, so it wrote everything: its file is not what it wrote
      f.ok = false;
      f.died = true;
      f.text = "its forked process ended without a whole result";
    } else {
      f.text.clear();  // cut short: reported by how its process ended (wait())
    }
  }
}

}  // namespace

int local_jobs(int jobs) { return jobs > 0 ? jobs : static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN))); }

void ForkedWorkers::start(int index, const WorkItem& fn) {
  const int fd = anonymous_file();
  const pid_t self = getpid();
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fd);
    throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
  }
  if (pid == 0) {
    die_with_parent(self);
    const std::vector<std::string> read_before = routing::input_files_read();
    int code = 0;
    std::string text;
    try {
      text = fn(index);
    } catch (const std::exception& e) {
      text = e.what();
      code = 2;
    }
    // The files this worker read that its parent had not, ahead of its text (wait() takes them in).
    const std::string reads = routing::input_files_read_since(read_before);
    write_all(fd, pack_reads(reads, text));
    std::fflush(nullptr);
    _exit(code);  // no exit handlers: they belong to the parent (and, under mpirun, to MPI)
  }
  running_[pid] = {index, fd};
}

FinishedItem ForkedWorkers::wait(bool block) {
  for (;;) {
    int status = 0;
    const pid_t pid = waitpid(-1, &status, block ? 0 : WNOHANG);
    if (pid < 0 && errno == EINTR) continue;
    if (pid <= 0) return {};
    auto it = running_.find(pid);
    if (it == running_.end()) continue;  // not one of ours
    auto [idx, fd] = it->second;
    running_.erase(it);
    FinishedItem f;
    f.index = idx;
    f.text = read_all(fd);
    close(fd);
    f.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    take_reads(f, adopt_reads_);
    if (!f.ok && f.text.empty()) {
      f.died = true;
      const std::string how = WIFSIGNALED(status)
                                  ? "killed by signal " + std::to_string(WTERMSIG(status)) +
                                        (WTERMSIG(status) == SIGKILL ? " (SIGKILL: out of memory?)" : "")
                                  : "exit code " + std::to_string(WEXITSTATUS(status));
      f.text = "its forked process died without a result (" + how + ")";
    }
    return f;
  }
}

namespace {
double rusage_cpu_seconds(int who) {
  rusage u{};
  getrusage(who, &u);
  auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
  return secs(u.ru_utime) + secs(u.ru_stime);
}
}  // namespace

double own_cpu_seconds() { return rusage_cpu_seconds(RUSAGE_SELF); }
double children_cpu_seconds() { return rusage_cpu_seconds(RUSAGE_CHILDREN); }

}  // namespace ibsc::tb
