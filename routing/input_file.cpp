#include "routing/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

namespace ibsc::routing {
namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";  // U+FEFF in UTF-8

const char* type_of(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a named pipe (FIFO)";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "of an unknown type";
}

std::string size_text(uint64_t bytes) {
  char b[32];
  if (bytes >= 1024 * kMiB) std::snprintf(b, sizeof b, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * kMiB));
  else if (bytes >= kMiB) std::snprintf(b, sizeof b, "%.1f MiB", static_cast<double>(bytes) / kMiB);
  else std::snprintf(b, sizeof b, "%llu bytes", static_cast<unsigned long long>(bytes));
  return b;
}

[[noreturn]] void refuse(const std::string& path, const InputKind& kind, const std::string& what) {
  throw std::invalid_argument(printable(path) + ": " + what + " (" + kind.what + ")");
}

// What identifies a file's bytes without reading them: an edit or a replacement changes one of these.
struct Stamp {
  dev_t dev;
  ino_t ino;
  off_t size;
  int64_t mtime_ns;
  bool operator==(const Stamp& o) const {
    return dev == o.dev && ino == o.ino && size == o.size && mtime_ns == o.mtime_ns;
  }
};
Stamp stamp_of(const struct stat& st) {
  return {st.st_dev, st.st_ino, st.st_size, static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

std::mutex g_read_mutex;
std::map<std::string, Stamp>& read_paths() {  // absolute path -> the file as first read
  static std::map<std::string, Stamp> s;
  return s;
}

void note_read(const std::string& path, const struct stat& st) {
  std::error_code ec;
  std::string abs = std::filesystem::weakly_canonical(path, ec).string();
  if (ec) abs = path;
  const std::lock_guard<std::mutex> lock(g_read_mutex);
  read_paths().emplace(abs, stamp_of(st));
}

// The checked file, open for reading. O_NONBLOCK: opening a FIFO for reading would wait for a
// writer; the type is checked on the open descriptor, so what was checked is what is read.
int open_checked(const std::string& path, const InputKind& kind) {
  if (path.empty()) throw std::invalid_argument(std::string("empty path given for the ") + kind.what);
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    const int err = errno;
    throw std::invalid_argument(printable(path) + ": cannot open the " + kind.what + " (" + std::strerror(err) + ")");
  }
  struct stat st {};
  const bool known = fstat(fd, &st) == 0;
  if (!known || !S_ISREG(st.st_mode)) {
    ::close(fd);
    refuse(path, kind,
           std::string("is ") + (known ? type_of(st.st_mode) : "of an unknown type") + ", not a regular file");
  }
  if (static_cast<uint64_t>(st.st_size) > kind.max_bytes) {
    ::close(fd);
    refuse(path, kind,
           "is " + size_text(static_cast<uint64_t>(st.st_size)) + ", above the " + size_text(kind.max_bytes) +
               " limit (" + kind.why + "): is it the right file?");
  }
  note_read(path, st);
  return fd;
}

}  // namespace

void check_input_file(const std::string& path, const InputKind& kind) { ::close(open_checked(path, kind)); }

std::ifstream open_input_file(const std::string& path, const InputKind& kind) {
  check_input_file(path, kind);
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse(path, kind, "cannot open");
  char head[3] = {};
  in.read(head, 3);
  const bool bom = in.gcount() == 3 && std::string_view(head, 3) == kBom;
  in.clear();
  in.seekg(bom ? 3 : 0);
  return in;
}

std::string read_input_file(const std::string& path, const InputKind& kind) {
  const int fd = open_checked(path, kind);
  std::string text;
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      refuse(path, kind, std::string("cannot read: ") + std::strerror(err));
    }
    if (n == 0) break;
    if (text.size() + static_cast<size_t>(n) > kind.max_bytes) {
      ::close(fd);
      refuse(path, kind, "grew above the " + size_text(kind.max_bytes) + " limit while being read");
    }
    text.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  if (text.compare(0, 3, kBom) == 0) text.erase(0, 3);
  return text;
}

std::vector<std::string> input_files_read() {
  const std::lock_guard<std::mutex> lock(g_read_mutex);
  std::vector<std::string> paths;
  for (const auto& [path, stamp] : read_paths()) paths.push_back(path);
  return paths;
}

bool input_file_changed_since_read(const std::string& path) {
  struct stat st {};
  const bool there = ::stat(path.c_str(), &st) == 0;
  const std::lock_guard<std::mutex> lock(g_read_mutex);
  const auto it = read_paths().find(path);
  return it != read_paths().end() && (!there || !(stamp_of(st) == it->second));
}

// One line a file: "DEV INO SIZE MTIME_NS LENGTH PATH\n", the path counted, since a path may
// hold any byte but NUL.
std::string input_files_read_since(const std::vector<std::string>& before) {
  const std::lock_guard<std::mutex> lock(g_read_mutex);
  std::string lines;
  for (const auto& [path, s] : read_paths()) {
    if (std::binary_search(before.begin(), before.end(), path)) continue;
    lines += std::to_string(s.dev) + " " + std::to_string(s.ino) + " " + std::to_string(s.size) + " " +
             std::to_string(s.mtime_ns) + " " + std::to_string(path.size()) + " " + path + "\n";
  }
  return lines;
}

void adopt_input_files_read(const std::string& lines) {
  std::vector<std::pair<std::string, Stamp>> read;  // all parsed before any is taken in
  size_t at = 0;
  while (at < lines.size()) {
    unsigned long long dev = 0, ino = 0, length = 0;
    long long size = 0, mtime_ns = 0;
    int used = 0;
    // sscanf stops before the path: LENGTH says where it ends.
    if (std::sscanf(lines.c_str() + at, "%llu %llu %lld %lld %llu%n", &dev, &ino, &size, &mtime_ns, &length, &used) !=
            5 ||
        lines.compare(at + static_cast<size_t>(used), 1, " ") != 0 ||
        length > lines.size() - at - static_cast<size_t>(++used) ||
        lines.compare(at + static_cast<size_t>(used) + length, 1, "\n") != 0)
      throw std::runtime_error("a forked process's record of the files it read is cut short or garbled");
    read.emplace_back(lines.substr(at + static_cast<size_t>(used), length),
                      Stamp{static_cast<dev_t>(dev), static_cast<ino_t>(ino), static_cast<off_t>(size),
                            static_cast<int64_t>(mtime_ns)});
    at += static_cast<size_t>(used) + length + 1;
  }
  const std::lock_guard<std::mutex> lock(g_read_mutex);
  for (auto& [path, stamp] : read) read_paths().emplace(std::move(path), stamp);
}

bool has_control_char(std::string_view text) {
  for (char c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == '\x7f') return true;
  return false;
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c == '\0') out += "\\0";
    else if (c == '\\') out += "\\\\";
    else if (u < 0x20 || u == 0x7f) {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", u);
      out += b;
    } else out += c;
  }
  return out;
}

}  // namespace ibsc::routing
