#include "tb/run/mpi_progress.h"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

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

extern "C" void say_held_and_stop(int sig) {
  if (g_stop_len > 0) {
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
// follows its SIGTERM with SIGKILL a second later, which may land in an fsync) under the output
// folder that holds FOLDER.
void remove_cut_writes(const fs::path& folder) {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(folder.parent_path(), ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    const std::string n = it->path().filename().string();
    const size_t dot = n.rfind('.');
    if (n.size() > 8 && n[0] == '.' && dot != 0 && dot == n.size() - 7 && it->is_regular_file(ec)) {
      std::fprintf(stderr, "ibsc: removing %s, a write the stop cut short\n", it->path().c_str());
      fs::remove(it->path(), ec);
    }
  }
}

}  // namespace

void MpiProgress::open(const std::string& folder, const std::string& command, const std::vector<std::string>& places) {
  folder_ = folder;
  places_ = places;
  const fs::path dir(folder);
  if (fs::exists(dir / "command.txt")) {
    if (read_text(dir / "command.txt") == command) {
      // Lines are whole JSON objects; a line cut short by a kill is skipped (its item runs again).
      std::ifstream in(dir / "finished.jsonl");
      for (std::string line; std::getline(in, line);) try {
          const auto j = nlohmann::json::parse(line);
          done_[j.at("key").get<std::string>()] = j.at("text").get<std::string>();
        } catch (const std::exception&) {
        }
      remove_cut_writes(dir);
      const std::string held = held_text(dir / "held.json");
      std::fprintf(stderr,
                   "ibsc: %s: an earlier run of this command did not finish; %zu finished item(s) are kept, the rest "
                   "run now.%s%s\n",
                   folder.c_str(), done_.size(), held.empty() ? "" : " It stopped while ranks held: ", held.c_str());
    } else {
      std::fprintf(stderr, "ibsc: %s: the unfinished record of another command is replaced\n", folder.c_str());
      fs::remove_all(dir);
    }
  }
  check_output_folder(folder, "MPI progress folder");
  std::signal(SIGTERM, say_held_and_stop);
  write_file_atomically((dir / "command.txt").string(), command);
  if (done_.empty()) write_file_atomically((dir / "finished.jsonl").string(), "");
  write_held();
}

const std::string* MpiProgress::finished(const std::string& key) const {
  auto it = done_.find(key);
  return it == done_.end() ? nullptr : &it->second;
}

void MpiProgress::hand_out(int rank, const std::string& key) {
  if (!is_open()) return;
  held_[rank].insert(key);
  write_held();
}

void MpiProgress::give_back(int rank, const std::string& key, bool ok, const std::string& text) {
  if (!is_open()) return;
  held_[rank].erase(key);
  if (ok) ++done_count_;
  if (ok && !done_.count(key)) {  // an item the earlier run finished is on file already
    std::ofstream out(fs::path(folder_) / "finished.jsonl", std::ios::app);
    out << nlohmann::json{{"key", key}, {"rank", rank}, {"text", text}}.dump() << "\n";
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
