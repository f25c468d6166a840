#include "tb/run/mpi_progress.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "routing/digest.h"
#include "routing/input_file.h"
#include "tb/stats/output_files.h"

namespace ibsc::tb {
namespace fs = std::filesystem;

namespace {
std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream t;
  t << in.rdbuf();
  return t.str();
}

// "rank 1: a, b; rank 3: c" from held.json, or empty.
std::string held_text(const fs::path& p) {
  std::string out;
  if (!fs::exists(p)) return out;
  try {
    const auto j = nlohmann::json::parse(read_text(p));
    for (const auto& [rank, keys] : j.at("held").items()) {
      if (keys.empty()) continue;
      const size_t r = std::stoul(rank);
      const auto& places = j.at("ranks");
      out += (out.empty() ? "" : "; ") + std::string("rank ") + rank +
             (r < places.size() ? " (" + places[r].get<std::string>() + ")" : "") + ":";
      for (const auto& k : keys) out += " " + k.get<std::string>() + ",";
      out.pop_back();
    }
  } catch (const std::exception&) {
    return "(held.json unreadable)";
  }
  return out;
}
// What rank 0 says when mpirun stops it (SIGTERM: another rank died, or the user stopped the
// job): which ranks held what. Kept ready as text, since a signal handler may only write(2).
char g_stop_text[8192];
volatile sig_atomic_t g_stop_len = 0;
pid_t g_stop_owner = 0;  // rank 0's process: its forked workers inherit the handler and a stale text

extern "C" void say_held_and_stop(int sig) {
  if (g_stop_len > 0 && getpid() == g_stop_owner) {
    ssize_t ignored = write(2, g_stop_text, static_cast<size_t>(g_stop_len));
    (void)ignored;
  }
  std::signal(sig, SIG_DFL);
  raise(sig);
}

void set_stop_text(const std::string& text) {
  sigset_t term, old;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  sigprocmask(SIG_BLOCK, &term, &old);  // the handler never sees half a text
  const size_t n = std::min(text.size(), sizeof g_stop_text);
  std::memcpy(g_stop_text, text.data(), n);
  g_stop_len = static_cast<sig_atomic_t>(n);
  sigprocmask(SIG_SETMASK, &old, nullptr);
}

// The temporary files of writes a stop cut short (write_file_atomically's ".NAME.XXXXXX"; mpirun
// follows its SIGTERM with SIGKILL a second later, which may land in an fsync), in the folders
// the command writes: OUT (the folder that holds FOLDER), FOLDER, OUT/scenarios and each
// OUT/runs/NAME. Only names of the kinds ibsc writes: OUT may be a folder with the user's files.
bool cut_write_name(const std::string& n) {
  if (n.size() < 9 || n[0] != '.' || n[n.size() - 7] != '.') return false;
  for (size_t i = n.size() - 6; i < n.size(); ++i)
    if (!std::isalnum(static_cast<unsigned char>(n[i]))) return false;
  const std::string target = n.substr(1, n.size() - 8);
  if (target == "ibsc-write-test") return true;
  const size_t dot = target.rfind('.');
  if (dot == std::string::npos || dot == 0) return false;
  static const std::set<std::string> kinds = {"json", "jsonl", "csv", "md",  "yaml",   "txt",
                                              "dat",  "gp",    "svg", "log", "partial"};
  return kinds.count(target.substr(dot + 1)) > 0;
}

void remove_cut_writes(const fs::path& folder) {
  const fs::path out = folder.parent_path();
  std::vector<fs::path> places = {out, folder, out / "scenarios"};
  std::error_code ec;
  for (auto it = fs::directory_iterator(out / "runs", ec); !ec && it != fs::end(it); it.increment(ec))
    if (it->is_directory(ec)) places.push_back(it->path());
  for (const fs::path& place : places)
    for (auto it = fs::directory_iterator(place, ec); !ec && it != fs::end(it); it.increment(ec)) {
      if (!cut_write_name(it->path().filename().string()) || !it->is_regular_file(ec)) continue;
      std::fprintf(stderr, "ibsc: removing %s, a write the stop cut short\n", it->path().c_str());
      std::error_code gone;
      fs::remove(it->path(), gone);
    }
}

// What changed from record A to record B: the first line that differs, both ways.
std::string first_difference(const std::string& a, const std::string& b) {
  const auto [x, y] = first_different_lines(a, b);
  return x == y ? "its record's format" : "was '" + x + "', now '" + y + "'";
}

// FOLDER.replaced, or FOLDER.replaced-N for the first N not taken.
fs::path aside_name(const fs::path& folder) {
  fs::path p = folder.string() + ".replaced";
  for (int n = 2; fs::exists(p); ++n) p = folder.string() + ".replaced-" + std::to_string(n);
  return p;
}

}  // namespace

std::string digest_of_text(const std::string& bytes) { return routing::digest_hex(bytes); }

std::string digest_of(const std::string& path) {
  return std::ifstream(path) ? digest_of_text(read_text(path)) : "unreadable";
}

std::pair<std::string, std::string> first_different_lines(const std::string& a, const std::string& b) {
  std::istringstream ia(a), ib(b);
  for (;;) {
    std::string x, y;
    const bool more_a = static_cast<bool>(std::getline(ia, x)), more_b = static_cast<bool>(std::getline(ib, y));
    if (!more_a && !more_b) return {};
    if (x != y) return {x, y};
  }
}

namespace {
// The input files read so far, by absolute path, but for those under OUT's folders that ibsc
// writes (mpi-progress, scenarios, runs): its own outputs read back. OUT itself may hold the
// user's inputs (--out .).
std::vector<std::string> inputs_read(const std::string& out) {
  std::error_code ec;
  std::string o = fs::weakly_canonical(out, ec).string();
  if (ec || o.empty()) o = out;
  if (o.back() != '/') o += '/';
  const std::string written[] = {o + "mpi-progress/", o + "scenarios/", o + "runs/"};
  std::vector<std::string> paths;
  for (const std::string& path : routing::input_files_read())
    if (std::none_of(std::begin(written), std::end(written),
                     [&](const std::string& w) { return path.rfind(w, 0) == 0; }))
      paths.push_back(path);
  return paths;
}

constexpr const char* kChangedWhileRead = "changed-while-read";

// "read PATH: DIGEST" -> {PATH, DIGEST}; empty PATH if LINE is not of that form.
std::pair<std::string, std::string> read_line(const std::string& line) {
  const size_t colon = line.rfind(": ");
  if (line.rfind("read ", 0) != 0 || colon == std::string::npos || colon < 5) return {};
  return {line.substr(5, colon - 5), line.substr(colon + 2)};
}
}  // namespace

std::string inputs_read_key(const std::string& out) {
  std::string lines;
  for (const std::string& path : inputs_read(out)) lines += "read " + path + ": " + digest_of(path) + "\n";
  return lines;
}

std::string reads_beyond(const std::string& out, const std::string& key_reads) {
  std::set<std::string> known;
  std::istringstream in(key_reads);
  for (std::string line; std::getline(in, line);) known.insert(read_line(line).first);
  std::string lines;
  for (const std::string& path : inputs_read(out)) {
    if (known.count(path)) continue;
    // Digested now, at the item's end: a file edited since it was read would pass for the bytes
    // the result was built from, so it gets a digest no file has.
    const std::string digest = routing::input_file_changed_since_read(path) ? kChangedWhileRead : digest_of(path);
    lines += "read " + path + ": " + digest + "\n";
  }
  return lines;
}

std::string changed_input(const std::string& reads, std::string* changed_path) {
  std::istringstream in(reads);
  for (std::string line; std::getline(in, line);) {
    const auto [path, digest] = read_line(line);
    if (changed_path) *changed_path = path;
    if (path.empty()) return "its record names no file in '" + line + "'";
    if (digest == kChangedWhileRead) return path + " changed while the item ran";
    const std::string now = digest_of(path);
    if (now == "unreadable") return path + " is gone";
    if (now != digest) return path + " has changed";
  }
  return "";
}

std::string pack_reads(const std::string& reads, const std::string& text) {
  return std::to_string(reads.size()) + "\n" + reads + text;
}

std::pair<std::string, std::string> unpack_reads(const std::string& packed) {
  const size_t nl = packed.find('\n');
  size_t n = 0;
  bool ok = nl != std::string::npos && nl > 0 && nl <= 12;
  for (size_t i = 0; ok && i < nl; ++i) {
    ok = std::isdigit(static_cast<unsigned char>(packed[i])) != 0;
    n = n * 10 + static_cast<size_t>(packed[i] - '0');
  }
  if (!ok || n > packed.size() - nl - 1)
    throw std::runtime_error("an item's result came back without the record of the files it read");
  return {packed.substr(nl + 1, n), packed.substr(nl + 1 + n)};
}

std::string progress_key(const std::vector<std::string>& args, const std::string& exe) {
  // One spelling per argument: "--opt=value" as "--opt value", a file by its absolute path.
  std::vector<std::string> words;
  for (const std::string& a : args) {
    const size_t eq = a.find('=');
    if (a.rfind("--", 0) == 0 && eq != std::string::npos) {
      words.push_back(a.substr(0, eq));
      words.push_back(a.substr(eq + 1));
    } else {
      words.push_back(a);
    }
  }
  std::string command = "ibsc", files;
  for (size_t i = 0; i < words.size(); ++i) {
    std::string a = words[i];
    if (a == "--quiet") continue;
    if (a == "--jobs") {
      ++i;  // and its value
      continue;
    }
    std::error_code ec;
    if (!a.empty() && a[0] != '-' && fs::is_regular_file(a, ec)) {
      const std::string path = fs::weakly_canonical(a, ec).string();
      if (!ec) a = path;
      files += "file " + a + ": " + digest_of(a) + "\n";
    }
    command += " " + a;
  }
  return "command: " + command + "\n" + files + "build: " + digest_of(exe) + "\n";
}

void MpiProgress::open(const std::string& folder, const std::string& key, const std::vector<std::string>& places) {
  folder_ = folder;
  places_ = places;
  const fs::path dir(folder);
  if (fs::exists(dir / "command.txt")) {
    const std::string was = read_text(dir / "command.txt");
    if (was == key) {
      // Lines are whole JSON objects; a line cut short by a kill is skipped (its item runs again)
      // and left out of the file, which new lines are appended to.
      const std::string lines = read_text(dir / "finished.jsonl");
      std::istringstream in(lines);
      std::string whole;
      int unreadable = 0;
      for (std::string line; std::getline(in, line);) try {
          const auto j = nlohmann::json::parse(line);
          done_[j.at("key").get<std::string>()] = {j.at("text").get<std::string>(), j.value("reads", "")};
          whole += line + "\n";
        } catch (const std::exception&) {
          ++unreadable;
        }
      if (whole != lines) write_file_atomically((dir / "finished.jsonl").string(), whole);
      remove_cut_writes(dir);
      const std::string held = held_text(dir / "held.json");
      const std::string cut = unreadable == 0 ? ""
                                              : " " + std::to_string(unreadable) +
                                                    " line(s) of finished.jsonl were cut short: their items run again.";
      std::fprintf(stderr,
                   "ibsc: %s: an earlier run of this command did not finish; %zu finished item(s) are kept, the rest "
                   "run now.%s%s%s\n",
                   folder.c_str(), done_.size(), cut.c_str(),
                   held.empty() ? "" : " It stopped while ranks held: ", held.c_str());
    } else {
      const fs::path aside = aside_name(dir);
      std::error_code ec;
      fs::rename(dir, aside, ec);
      if (ec)
        throw std::runtime_error(folder +
                                 ": holds the unfinished record of another command, and it cannot be moved to " +
                                 aside.string() + " (" + ec.message() + "); move or remove it");
      std::fprintf(stderr,
                   "ibsc: %s: the unfinished record of another command, build or input (%s) is kept as %s; this run "
                   "starts afresh\n",
                   folder.c_str(), first_difference(was, key).c_str(), aside.c_str());
    }
  }
  check_output_folder(folder, "MPI progress folder");
  g_stop_owner = getpid();
  std::signal(SIGTERM, say_held_and_stop);
  write_file_atomically((dir / "command.txt").string(), key);
  if (done_.empty()) write_file_atomically((dir / "finished.jsonl").string(), "");
  write_held();
}

const std::string* MpiProgress::finished(const std::string& key) const {
  auto it = done_.find(key);
  return it == done_.end() ? nullptr : &it->second.text;
}

std::string MpiProgress::stale_input(const std::string& key) const {
  auto it = done_.find(key);
  return it == done_.end() ? "" : changed_input(it->second.reads);
}

void MpiProgress::hand_out(int rank, const std::string& key) {
  if (!is_open()) return;
  held_[rank].insert(key);
  write_held();
}

void MpiProgress::give_back(int rank, const std::string& key, bool ok, const std::string& text,
                            const std::string& reads) {
  if (!is_open()) return;
  held_[rank].erase(key);
  if (ok) ++done_count_;
  if (ok && !done_.count(key)) {  // an item the earlier run finished is on file already
    std::ofstream out(fs::path(folder_) / "finished.jsonl", std::ios::app);
    nlohmann::json line{{"key", key}, {"rank", rank}, {"text", text}};
    if (!reads.empty()) line["reads"] = reads;
    out << line.dump() << "\n";
    out.flush();
    if (!out) throw std::runtime_error(folder_ + "/finished.jsonl: cannot append");
  }
  write_held();
}

void MpiProgress::write_held() const {
  nlohmann::ordered_json j;
  j["ranks"] = places_;
  nlohmann::ordered_json held = nlohmann::ordered_json::object();
  for (const auto& [rank, keys] : held_) held[std::to_string(rank)] = keys;
  j["held"] = held;
  write_file_atomically(folder_ + "/held.json", j.dump(2) + "\n");
  std::string text;
  for (const auto& [rank, keys] : held_) {
    if (keys.empty()) continue;
    text += "ibsc: rank " + std::to_string(rank) +
            (rank < static_cast<int>(places_.size()) ? " (" + places_[rank] + ")" : "") + " held:";
    for (const auto& k : keys) text += " " + k + ",";
    text.back() = '\n';
  }
  set_stop_text("ibsc: the MPI job was stopped (mpirun names the rank that died, if one did); " +
                std::to_string(done_count_) + " item(s) finished. Rerun the same command to resume: " + folder_ +
                " keeps them.\n" + text);
}

void MpiProgress::remove() {
  if (!is_open()) return;
  std::signal(SIGTERM, SIG_DFL);
  fs::remove_all(folder_);
  folder_.clear();
}

}  // namespace ibsc::tb
