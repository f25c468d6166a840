#include "tb/run/sweep.h"

#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "models/param_error.h"

namespace ibsc::tb {

void SweepConfig::validate() const {
  for (double l : loads)
    if (!(l > 0.0 && (l <= 1.0 || load_unit == LoadUnit::BytesPerNs)))
      throw ParamError("sweep.loads", "sweep.loads: every load must be in (0, 1] of link capacity");
  if (!(start > 0.0 && start <= 1.0)) throw ParamError("sweep.start", "sweep.start must be in (0, 1]");
  if (!(step > 0.0)) throw ParamError("sweep.step", "sweep.step must be > 0");
  if (!(max >= start && max <= 1.0)) throw ParamError("sweep.max", "sweep.max must be in [start, 1]");
  if (refine < 0 || refine > kMaxRefine)
    throw ParamError("sweep.refine", "sweep.refine must be 0.." + std::to_string(kMaxRefine));
  if (jobs < 0) throw ParamError("sweep.jobs", "sweep.jobs must be >= 0");
  for (double m : beyond)
    if (!(m > 1.0 && m <= 1000.0))
      throw ParamError("sweep.beyond", "sweep.beyond: every multiple must be in (1, 1000]");
  if (!beyond.empty() && !loads.empty())
    throw ParamError("sweep.beyond", "sweep.beyond needs the automatic sweep (no sweep.loads)");
}

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

}  // namespace

std::vector<std::string> run_forked(int n, int jobs, const std::function<std::string(int)>& fn,
                                    const std::function<void(int, const std::string&)>& on_done) {
  if (jobs <= 0) jobs = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
  std::vector<std::string> out(n);
  std::map<pid_t, std::pair<int, int>> running;  // pid -> (index, result file descriptor)
  int next = 0;
  std::string failure;
  auto reap_one = [&]() {
    int status = 0;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0 && errno == EINTR) return;
    auto it = running.find(pid);
    if (it == running.end()) return;
    auto [idx, fd] = it->second;
    running.erase(it);
    std::string text = read_all(fd);
    close(fd);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      out[idx] = std::move(text);
      if (on_done) on_done(idx, out[idx]);
    } else if (failure.empty())
      failure = text.empty() ? "worker process for point " + std::to_string(idx) + " died (status " +
                                   std::to_string(status) + ")"
                             : text;
  };
  const pid_t self = getpid();
  while (next < n || !running.empty()) {
    while (next < n && static_cast<int>(running.size()) < jobs && failure.empty()) {
      const int fd = anonymous_file();
      std::fflush(nullptr);
      pid_t pid = fork();
      if (pid < 0) {
        close(fd);
        throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
      }
      if (pid == 0) {
        die_with_parent(self);
        int code = 0;
        std::string text;
        try {
          text = fn(next);
        } catch (const std::exception& e) {
          text = e.what();
          code = 2;
        }
        write_all(fd, text);
        std::fflush(nullptr);
        _exit(code);
      }
      running[pid] = {next, fd};
      ++next;
    }
    if (!running.empty()) reap_one();
    if (!failure.empty() && running.empty()) throw std::runtime_error(failure);
  }
  return out;
}

namespace {
// `kind` names the count in progress lines: "load point 3/10", "load point 3 of up to 10"
// (a sweep that stops at saturation), "refinement 1/2".
std::vector<LoadPointResult> run_points(const PointSetup& s, const std::vector<double>& loads, int jobs,
                                        int first_index, int total, const char* kind = "load point %d/%d") {
  auto texts = run_forked(static_cast<int>(loads.size()), jobs, [&](int i) {
    char count[64], label[128];
    std::snprintf(count, sizeof count, kind, first_index + i + 1, total);
    std::snprintf(label, sizeof label, "%s (load %.3f)", count, loads[i]);
    if (s.run.progress) std::fprintf(stderr, "  %s: started\n", label);
    LoadPointResult r = run_load_point(s, loads[i], label);
    if (s.run.progress)
      std::fprintf(stderr, "  %s: done, accepted %.4f B/ns/switch, avg latency %.0f ns, %.1f s\n", label,
                   r.accepted_bytes_per_ns_per_switch, r.avg_latency_ns, r.wall_seconds);
    nlohmann::json j = nlohmann::json::parse(to_json(r).dump());
    j["__wall_seconds"] = r.wall_seconds;
    return j.dump();
  });
  std::vector<LoadPointResult> pts;
  for (const auto& t : texts) {
    auto j = nlohmann::json::parse(t);
    LoadPointResult r = point_from_json(j);
    r.wall_seconds = j.value("__wall_seconds", 0.0);
    pts.push_back(std::move(r));
  }
  return pts;
}
}  // namespace

std::vector<LoadPointResult> run_sweep(const PointSetup& s, const SweepConfig& cfg) {
  cfg.validate();
  std::vector<LoadPointResult> pts;
  if (!cfg.loads.empty()) {
    std::vector<double> loads = cfg.loads;
    if (cfg.load_unit == LoadUnit::BytesPerNs) {
      const double link = s.fabric.link.bytes_per_ns();
      for (double& l : loads) {
        l /= link;
        if (l > 1.0 + 1e-9)
          throw ParamError("sweep.loads", "sweep.loads: " + std::to_string(l * link) +
                                              " bytes/ns exceeds the link rate of " + std::to_string(link) +
                                              " bytes/ns");
      }
    }
    pts = run_points(s, loads, cfg.jobs, 0, static_cast<int>(loads.size()));
  } else {
    // Rising loads in batches of `jobs`, until two saturated points are seen.
    std::vector<double> all;
    for (int k = 0;; ++k) {
      double l = std::round((cfg.start + k * cfg.step) * 1e6) / 1e6;
      if (l > cfg.max + 1e-9) break;
      all.push_back(l);
    }
    int jobs = cfg.jobs > 0 ? cfg.jobs : std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
    // The points kept end at the second saturated load in load order, whatever the batch size,
    // so the results do not depend on --jobs (extra points of the last batch are dropped).
    size_t done = 0;
    bool stop = false;
    while (done < all.size() && !stop) {
      std::vector<double> batch(all.begin() + done, all.begin() + std::min(all.size(), done + jobs));
      auto r =
          run_points(s, batch, jobs, static_cast<int>(done), static_cast<int>(all.size()), "load point %d of up to %d");
      for (auto& p : r) {
        if (stop) break;
        pts.push_back(std::move(p));
        stop = std::count_if(pts.begin(), pts.end(), [](auto& q) { return q.saturated; }) >= 2;
      }
      done += batch.size();
    }
  }
  // Bisection between the last unsaturated and the first saturated load.
  for (int k = 0; k < cfg.refine; ++k) {
    std::sort(pts.begin(), pts.end(), [](auto& a, auto& b) { return a.offered_load < b.offered_load; });
    const SaturationPoint knee = find_saturation(pts);
    auto first_sat =
        std::find_if(pts.begin(), pts.end(), [&](auto& p) { return knee.found && p.offered_load == knee.load; });
    if (first_sat == pts.end() || first_sat == pts.begin()) break;
    double mid = std::round((first_sat->offered_load + std::prev(first_sat)->offered_load) / 2 * 1e6) / 1e6;
    auto r = run_points(s, {mid}, 1, k, cfg.refine, "refinement %d/%d");
    pts.push_back(std::move(r[0]));
  }
  std::sort(pts.begin(), pts.end(), [](auto& a, auto& b) { return a.offered_load < b.offered_load; });
  if (const SaturationPoint knee = find_saturation(pts); knee.found && !cfg.beyond.empty()) {
    std::vector<double> more;
    for (double m : cfg.beyond) {
      const double l = std::round(std::min(knee.load * m, cfg.max) * 1e6) / 1e6;
      const bool seen = std::any_of(pts.begin(), pts.end(), [&](auto& p) { return p.offered_load == l; }) ||
                        std::find(more.begin(), more.end(), l) != more.end();
      if (!seen) more.push_back(l);
    }
    // Past saturation the accepted traffic is a transient for a long time after the fabric is
    // full: these points warm up until it is steady (run.warmup: rate), unless nothing warms up.
    PointSetup past = s;
    if (past.run.warmup_ns > 0) past.run.warmup = Warmup::Rate;
    if (!more.empty())
      for (auto& p : run_points(past, more, cfg.jobs, 0, static_cast<int>(more.size()), "past saturation %d/%d"))
        pts.push_back(std::move(p));
    std::sort(pts.begin(), pts.end(), [](auto& a, auto& b) { return a.offered_load < b.offered_load; });
  }
  return pts;
}

}  // namespace ibsc::tb
