#include "tb/run/sweep.h"

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
#include "tb/fabric/huge_pages.h"
#include "tb/run/forked_workers.h"

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

std::vector<std::string> run_forked(int n, int jobs, const WorkItem& fn, const WorkDone& on_done,
                                    const WorkName& name) {
  if (const WorkSpreader* spread = active_spreader()) return spread->run(n, jobs, fn, on_done, name);
  jobs = local_jobs(jobs);
  // Memory the parent freed (routing's and the checks' scratch) is handed back to the system
  // before forking: each child would otherwise carry it resident into its own peak.
  release_free_heap();
  std::vector<std::string> out(n);
  ForkedWorkers workers;
  int next = 0;
  std::string failure;
  while (next < n || workers.running() > 0) {
    while (next < n && workers.running() < jobs && failure.empty()) workers.start(next++, fn);
    if (workers.running() > 0) {
      FinishedItem f = workers.wait(true);
      if (f.index < 0) continue;
      if (f.ok) {
        out[f.index] = std::move(f.text);
        if (on_done) on_done(f.index, out[f.index]);
      } else if (failure.empty()) {
        failure =
            f.died ? (name ? name(f.index) : "item " + std::to_string(f.index)) + ": " + f.text : std::move(f.text);
      }
    }
    if (!failure.empty() && workers.running() == 0) throw std::runtime_error(failure);
  }
  return out;
}

namespace {
// `kind` names the count in progress lines: "load point 3/10", "load point 3 of up to 10"
// (a sweep that stops at saturation), "refinement 1/2".
std::vector<LoadPointResult> run_points(const PointSetup& s, const std::vector<double>& loads, int jobs,
                                        int first_index, int total, const char* kind = "load point %d/%d") {
  auto label_of = [&](int i) {
    char count[64], label[128];
    std::snprintf(count, sizeof count, kind, first_index + i + 1, total);
    std::snprintf(label, sizeof label, "%s (load %.3f)", count, loads[i]);
    return std::string(label);
  };
  auto item = [&](int i) {
    const std::string text = label_of(i);
    const char* label = text.c_str();
    if (s.run.progress) std::fprintf(stderr, "  %s: started\n", label);
    LoadPointResult r = run_load_point(s, loads[i], label);
    if (s.run.progress)
      std::fprintf(stderr, "  %s: done, accepted %.4f B/ns/switch, avg latency %.0f ns, %.1f s\n", label,
                   r.accepted_bytes_per_ns_per_switch, r.avg_latency_ns, r.wall_seconds);
    return point_with_wall_seconds(r).dump();
  };
  auto texts = run_forked(static_cast<int>(loads.size()), jobs, item, {}, label_of);
  std::vector<LoadPointResult> pts;
  for (const auto& t : texts) pts.push_back(point_with_wall_seconds(nlohmann::json::parse(t)));
  return pts;
}
}  // namespace

nlohmann::json point_with_wall_seconds(const LoadPointResult& r) {
  nlohmann::json j = nlohmann::json::parse(to_json(r).dump());
  j["__wall_seconds"] = r.wall_seconds;
  return j;
}

LoadPointResult point_with_wall_seconds(const nlohmann::json& j) {
  LoadPointResult r = point_from_json(j);
  r.wall_seconds = j.value("__wall_seconds", 0.0);
  return r;
}

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
    // Rising loads in batches as wide as all processes (of every rank), until two saturated
    // points are seen.
    std::vector<double> all;
    for (int k = 0;; ++k) {
      double l = std::round((cfg.start + k * cfg.step) * 1e6) / 1e6;
      if (l > cfg.max + 1e-9) break;
      all.push_back(l);
    }
    // Under mpirun a batch fills every rank's processes (the same width on every rank).
    const int width = active_spreader() ? active_spreader()->width(cfg.jobs) : local_jobs(cfg.jobs);
    // The points kept end at the second saturated load in load order, whatever the batch size,
    // so the results do not depend on --jobs (extra points of the last batch are dropped).
    size_t done = 0;
    bool stop = false;
    while (done < all.size() && !stop) {
      std::vector<double> batch(all.begin() + done, all.begin() + std::min(all.size(), done + width));
      // Each rank `cfg.jobs` at a time: the width is all ranks' (rank 0 alone would run it all).
      auto r = run_points(s, batch, cfg.jobs, static_cast<int>(done), static_cast<int>(all.size()),
                          "load point %d of up to %d");
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
