#include "tb/stats/output_files.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace ibsc::tb {
namespace {

std::runtime_error failure(const std::string& path, const std::string& doing, int err) {
  return std::runtime_error(path + ": cannot " + doing + " (" + std::strerror(err) + ")");
}

}  // namespace

InterruptsHeld::InterruptsHeld() {
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGINT);
  sigaddset(&s, SIGTERM);
  sigprocmask(SIG_BLOCK, &s, &old_);
}
InterruptsHeld::~InterruptsHeld() { sigprocmask(SIG_SETMASK, &old_, nullptr); }

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::filesystem::path target(path);
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
  std::string tmpl = (dir / ("." + target.filename().string() + ".XXXXXX")).string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  InterruptsHeld held;
  const int fd = mkstemp(name.data());
  if (fd < 0) throw failure(path, "write (no temporary file in its folder)", errno);
  const char* p = text.data();
  size_t left = text.size();
  int err = 0;
  while (left > 0 && !err) {
    const ssize_t n = write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      err = n < 0 ? errno : EIO;
      break;
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  // fsync: after a crash the rename must not point at data the disk never got. mkstemp makes
  // the file 0600; results are shared like any other file (0666 less the umask).
  const mode_t mask = umask(0);
  umask(mask);
  if (!err && fchmod(fd, 0666 & ~mask) != 0) err = errno;
  if (!err && fsync(fd) != 0) err = errno;
  if (close(fd) != 0 && !err) err = errno;
  if (!err && std::rename(name.data(), path.c_str()) != 0) err = errno;
  if (err) {
    unlink(name.data());
    throw failure(path, "write", err);
  }
}

void check_output_folder(const std::string& dir, const std::string& what) {
  if (dir.empty()) throw std::runtime_error(what + " \"\": an empty path is not an output folder");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw std::runtime_error(what + " " + dir + ": cannot create the output folder" +
                             (ec ? " (" + ec.message() + ")" : ""));
  std::string tmpl = (std::filesystem::path(dir) / ".ibsc-write-test.XXXXXX").string();
  std::vector<char> name(tmpl.begin(), tmpl.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0)
    throw std::runtime_error(what + " " + dir + ": cannot write in the output folder (" + std::strerror(errno) + ")");
  close(fd);
  unlink(name.data());
}

namespace {

// The pid written in a held lock file, "" if unreadable.
std::string holder_pid(int fd) {
  char text[32] = {};
  const ssize_t n = pread(fd, text, sizeof text - 1, 0);
  std::string pid = n > 0 ? std::string(text, static_cast<size_t>(n)) : "";
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  return pid.find_first_not_of("0123456789") == std::string::npos ? pid : "";
}

}  // namespace

OutputFolderLock::OutputFolderLock(const std::string& dir, const std::string& what) {
  check_output_folder(dir, what);
  path_ = (std::filesystem::path(dir) / ".ibsc.lock").string();
  // A holder removes the file when done; a run that opened it just before must not lock the
  // removed file while a third locks a new one: after locking, the name must still be ours.
  for (int attempt = 0; fd_ < 0; ++attempt) {
    const int fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
    if (fd < 0)
      throw std::runtime_error(what + " " + dir + ": cannot create the lock file .ibsc.lock (" + std::strerror(errno) +
                               ")");
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      const std::string pid = holder_pid(fd);
      ::close(fd);
      if (err == EWOULDBLOCK)
        throw std::runtime_error(what + " " + dir + ": another ibsc" + (pid.empty() ? "" : " (pid " + pid + ")") +
                                 " is writing into this folder; wait for it to end or choose another folder");
      throw std::runtime_error(what + " " + dir + ": cannot lock .ibsc.lock (" + std::strerror(err) + ")");
    }
    struct stat mine {
    }, named{};
    if (fstat(fd, &mine) == 0 && stat(path_.c_str(), &named) == 0 && mine.st_ino == named.st_ino &&
        mine.st_dev == named.st_dev)
      fd_ = fd;
    else if (::close(fd), attempt == 100)
      throw std::runtime_error(what + " " + dir + ": cannot take the lock .ibsc.lock (it keeps being replaced)");
  }
  owner_ = getpid();
  const std::string me = std::to_string(owner_) + "\n";
  // The pid only serves a second writer's message: a failure to write it is harmless.
  [[maybe_unused]] const bool noted =
      ftruncate(fd_, 0) == 0 && pwrite(fd_, me.data(), me.size(), 0) == static_cast<ssize_t>(me.size());
}

OutputFolderLock::~OutputFolderLock() {
  if (fd_ < 0) return;
  if (getpid() == owner_) unlink(path_.c_str());  // while still locked: see the constructor
  ::close(fd_);
}

}  // namespace ibsc::tb
