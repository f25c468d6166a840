#include "tb/stats/output_files.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

namespace ibsc::tb {
namespace {

// Blocks SIGINT and SIGTERM for its lifetime; one that arrives meanwhile is delivered on exit.
class InterruptsHeld {
 public:
  InterruptsHeld() {
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    sigprocmask(SIG_BLOCK, &s, &old_);
  }
  ~InterruptsHeld() { sigprocmask(SIG_SETMASK, &old_, nullptr); }
  InterruptsHeld(const InterruptsHeld&) = delete;
  InterruptsHeld& operator=(const InterruptsHeld&) = delete;

 private:
  sigset_t old_;
};

std::runtime_error failure(const std::string& path, const std::string& doing, int err) {
  return std::runtime_error(path + ": cannot " + doing + " (" + std::strerror(err) + ")");
}

}  // namespace

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

}  // namespace ibsc::tb
