#include "tb/run/probe_journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

#include "tb/run/mpi_progress.h"

namespace ibsc::tb {

ProbeJournal::ProbeJournal(std::string path, std::string record, std::function<std::string()> reads_now)
    : path_(std::move(path)), record_(std::move(record)), reads_now_(std::move(reads_now)) {
  std::ifstream in(path_, std::ios::binary);
  std::string line;
  while (std::getline(in, line)) {
    open_line_ = in.eof();  // the last line had no newline
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object() || !j.contains("record") || j["record"] != record_ || !j.contains("step") ||
        !j["step"].is_number_integer() || !j.contains("point") || !j["point"].is_object())
      continue;
    const int step = j["step"].get<int>();
    if (j.contains("reads")) {
      const std::string why =
          j["reads"].is_string() ? changed_input(j["reads"].get<std::string>()) : "its record of files read is garbled";
      if (!why.empty()) {
        stale_[step] = why;
        probes_.erase(step);  // the last line of a step is the one that counts
        continue;
      }
    }
    const double cpu = j.contains("cpu_seconds") && j["cpu_seconds"].is_number() ? j["cpu_seconds"].get<double>() : 0;
    probes_[step] = Probe{j["point"], cpu};
    stale_.erase(step);  // run again since, and kept
  }
}

const std::string* ProbeJournal::stale(int step) const {
  const auto it = stale_.find(step);
  return it == stale_.end() ? nullptr : &it->second;
}

const ProbeJournal::Probe* ProbeJournal::find(int step) const {
  const auto it = probes_.find(step);
  return it == probes_.end() ? nullptr : &it->second;
}

void ProbeJournal::add(int step, nlohmann::json point, double cpu_seconds) {
  if (!on()) return;
  nlohmann::json j;
  j["record"] = record_;
  j["step"] = step;
  j["cpu_seconds"] = cpu_seconds;
  j["point"] = point;
  if (const std::string reads = reads_now_ ? reads_now_() : ""; !reads.empty()) j["reads"] = reads;
  const std::string line = (open_line_ ? "\n" : "") + j.dump() + "\n";
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path_).parent_path(), ec);
  const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  const ssize_t n = fd < 0 ? -1 : ::write(fd, line.data(), line.size());
  const int err = errno;
  if (fd >= 0) ::close(fd);
  open_line_ = false;
  if (n != static_cast<ssize_t>(line.size())) {
    std::fprintf(stderr, "ibsc: note: %s: cannot keep the probe (%s); a rerun would run it again\n", path_.c_str(),
                 n < 0 ? std::strerror(err) : "short write");
    path_.clear();
  }
  probes_[step] = Probe{std::move(point), cpu_seconds};
  stale_.erase(step);
}

}  // namespace ibsc::tb
