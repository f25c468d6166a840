#include "studies/study_report_tftr.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>

#include <fmt/format.h>

#include "studies/report_text.h"
#include "studies/study_fitted.h"
#include "tb/stats/results.h"

namespace ibsc::tb {
namespace {

using report::option;

// One fault count of one network and fault model, over the draws.
struct Level {
  int faults = 0;
  std::vector<double> throughput, peak, bound;  // per draw, bytes/ns/switch
  std::vector<double> steady;                   // per draw whose sweep.beyond points settled: reading (b)
  int unsettled = 0;                            // sweep.beyond points that did not settle
  std::vector<double> unreachable, reachable;   // host pairs without / with a surviving path, per draw
  uint64_t dropped = 0, resent = 0, abandoned = 0, generated = 0;
  double mean() const {
    return throughput.empty() ? NAN : std::accumulate(throughput.begin(), throughput.end(), 0.0) / throughput.size();
  }
  double bound_mean() const {
    return bound.empty() ? NAN : std::accumulate(bound.begin(), bound.end(), 0.0) / bound.size();
  }
  static double mean_of(const std::vector<double>& v) {
    return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / v.size();
  }
  // Standard error of the mean over the draws (0 with one draw).
  double sem() const {
    const size_t n = throughput.size();
    if (n < 2) return 0;
    const double m = mean();
    double ss = 0;
    for (double v : throughput) ss += (v - m) * (v - m);
    return std::sqrt(ss / (n - 1) / n);
  }
};

// Fault count from the pattern name "f3", -1 when it is not one.
int fault_count(const std::string& pattern) {
  if (pattern.size() < 2 || pattern[0] != 'f') return -1;
  try {
    return std::stoi(pattern.substr(1));
  } catch (const std::exception&) {
    return -1;
  }
}

std::string signed_percent(double v) { return std::isnan(v) ? "-" : fmt::format("{:+.1f}%", v); }

// Throughput against faults, a line per network and fault model with the draws' spread, and the
// paper's changes as points scaled to our fault-free throughput.
using PaperPoints = std::map<std::string, std::vector<std::pair<int, double>>>;  // network -> (faults, value)
void write_figure5_plot(const std::string& dir,
                        const std::map<std::pair<std::string, std::string>, std::map<int, Level>>& lv,
                        const PaperPoints& paper) {
  std::ostringstream dat, plot;
  int index = 0;
  for (const auto& [net, points] : paper) {
    dat << "# paper " << net << ": faults, our fault-free throughput times (1 + the paper's change)\n";
    for (const auto& [f, v] : points) dat << f << " " << v << "\n";
    dat << "\n\n";
    plot << (index ? ", " : "") << "'figure-5.dat' index " << index
         << " using 1:2 with points pt 7 ps 1.5 title 'paper " << net << " (text: 6 faults)'";
    ++index;
  }
  for (const auto& [key, levels] : lv) {
    dat << "# " << key.first << " " << key.second << ": faults, mean, min, max (bytes/ns/switch)\n";
    for (const auto& [f, l] : levels)
      dat << f << " " << l.mean() << " " << *std::min_element(l.throughput.begin(), l.throughput.end()) << " "
          << *std::max_element(l.throughput.begin(), l.throughput.end()) << "\n";
    dat << "\n\n";
    plot << (index ? ", " : "") << "'figure-5.dat' index " << index << " using 1:2:3:4 with yerrorlines title '"
         << key.first << " " << key.second << "'";
    ++index;
  }
  std::ofstream(dir + "/figure-5.dat") << dat.str();
  std::ofstream(dir + "/figure-5.gp")
      << "set terminal svg size 800,560 dynamic font 'sans,12' noenhanced\nset output 'figure-5.svg'\n"
         "set title 'Figure 5: throughput under random link faults (TFTR, uniform, 256 B)'\n"
         "set xlabel 'faulty switch-to-switch cables'\nset ylabel 'throughput (bytes/ns/switch)'\n"
         "set grid\nset key bottom left\nset xrange [-0.5:6.5]\nset yrange [0:*]\nplot "
      << plot.str() << "\n";
  if (index == 0 || std::system("command -v gnuplot >/dev/null 2>&1") != 0) return;
  const std::string cmd = "cd '" + dir + "' && gnuplot figure-5.gp 2>/dev/null";
  if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "ibsc: gnuplot failed on %s/figure-5.gp\n", dir.c_str());
}

}  // namespace

std::vector<std::string> write_tftr_report(const std::string& dir, const StudyRun& run) {
  namespace fs = std::filesystem;
  const Study& s = *run.study;
  fs::create_directories(dir);
  std::ostringstream md;
  std::vector<ReportOutlier> outliers;
  std::vector<std::string> failures = study_failures(run, 0.01);
  const std::string judged = option(s, "fault_model").empty() ? "tftr" : option(s, "fault_model")[0];
  const double allowed_points = option(s, "figure5_points").empty() ? 7 : std::stod(option(s, "figure5_points")[0]);

  write_report_opening(md, run, paper_quick_mode(run, "short windows, coarse sweeps, few tori and draws"),
                       RunTally::Simulations);
  md << " Tables 1-2 and Figure 4 come from the routing library alone (`tables.csv`, `figure4.csv`); Figure 5 from "
        "the simulations (`figure5.csv`, every experiment an ordinary scenario in `scenarios/` that `ibsc run` "
        "reads, every load point in `points.csv`).\n\nStudy file: `"
     << s.file << "`; base model: `" << s.base
     << "`. How TFTR's stages were reconstructed: routing/README.md (seeds/002 section) and the header comments of "
        "routing/tftr*.{h,cpp}, routing/disjoint_paths.h.\n\n";

  const auto t0 = std::chrono::steady_clock::now();
  std::ostringstream tables;
  write_tftr_tables(tables, dir, s, run.quick, failures, outliers);
  md << fmt::format("Tables 1-2 and Figure 4 took {:.0f} s more, in this process.\n\n",
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count())
     << tables.str();

  // Figure 5.
  std::map<std::pair<std::string, std::string>, std::map<int, Level>> lv;  // (network, fault model) -> faults -> level
  for (const auto& r : run.results) {
    const int f = fault_count(r.exp.pattern);
    if (f < 0 || !r.error.empty() || r.points.empty()) continue;
    Level& l = lv[{r.exp.torus, r.exp.routing}][f];
    l.faults = f;
    l.throughput.push_back(saturation_throughput(r.points));
    l.peak.push_back(sweep_peak(r.points));
    const ThroughputReadings tr = throughput_readings(r.points);
    if (tr.past_found) l.steady.push_back(tr.past);
    l.unsettled += tr.unsettled;
    l.bound.push_back(r.bound.routed);
    uint64_t unreachable = 0;
    for (const auto& p : r.points) {
      l.dropped += p.faults.packets_dropped;
      l.resent += p.faults.retransmitted;
      l.abandoned += p.faults.packets_abandoned;
      l.generated += p.packets_generated + p.faults.packets_abandoned;
      unreachable = std::max(unreachable, p.faults.unreachable_pairs);
      // No packet may be lost. Without the transport nothing may be dropped (faults from time 0,
      // known at once). With it the fabric's own accounting (Fabric::check_conservation) fails the
      // run unless every host packet is delivered, buffered, on the wire, waiting to go again or
      // given up because its pair lost every path (counted).
      if (!p.has_transport && p.faults.packets_dropped > 0)
        failures.push_back(fmt::format("{} at load {:.3f}: {} packets dropped, {} re-sent", r.exp.name, p.offered_load,
                                       p.faults.packets_dropped, p.faults.retransmitted));
    }
    l.unreachable.push_back(static_cast<double>(unreachable));
    l.reachable.push_back(static_cast<double>(r.bound.paths));  // the pairs the bound walked
  }

  md << "\n## Figure 5: throughput under random link faults\n\n"
        "TFTR on tori with 4 hosts per switch, uniform traffic, 256-byte packets; n switch-to-switch cables drawn at "
        "random, failed from the start and known at once; each source uses its first path record that avoids them "
        "all (the shortest surviving disjoint path). Throughput: the saturation throughput, the highest accepted "
        "traffic (bytes/ns/switch) of the load points the sweep did not flag saturated (generated = accepted within "
        "the interval, every packet of the window delivered), bisected around the saturation load; the mean over the "
        "draws (each draw also seeds the traffic) with min-max; change against no fault. Peak accepted: the highest "
        "accepted traffic of the whole sweep, saturated points included (past saturation it first wobbles a few per "
        "cent up, then falls); the paper's change where its text gives it (6 faults; the figure is not in our copy). "
        "Routed "
        "bound: the busiest channel of the surviving paths at link rate (`tb/stats/channel_load.h` on the tables as "
        "the "
        "sources use them after the faults), mean over the draws. Unreachable: host pairs whose every path record "
        "is cut, mean per draw (their packets are given up at the source: offered, never carried); the last column "
        "divides the throughput by the share of pairs left reachable (as if the unreachable pairs' load were not "
        "offered at all). Steady past saturation: the paper's other possible reading of \"throughput\", the highest "
        "accepted traffic of the `sweep.beyond` points (loads past the saturation load, each warmed up until its "
        "accepted traffic is steady: `run.warmup: rate`), mean over the draws whose points settled (how many, and "
        "in brackets the points that did not settle); the peak of the sweep is a transient of its fixed 20 us "
        "warm-up and is neither reading. Fault models: see the study file.\n\n"
        "| network | fault model | faults | draws | throughput (min-max) | change | paper | peak accepted (change) | "
        "steady past saturation (change) | routed bound | bound change | unreachable pairs | throughput / reachable "
        "share |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  std::ofstream csv(dir + "/figure5.csv");
  csv << "network,fault_model,faults,draws,throughput,min,max,sem,change_percent,paper_percent,peak_accepted,"
         "routed_bound,"
         "bound_change_percent,unreachable_pairs,dropped,resent,abandoned\n";
  PaperPoints paper_points;
  for (auto& [key, levels] : lv) {
    const auto& [net, model] = key;
    const std::vector<std::string> paper_text = option(s, "figure5." + net);
    const double base = levels.count(0) ? levels[0].mean() : NAN,
                 base_bound = levels.count(0) ? levels[0].bound_mean() : NAN,
                 base_peak = levels.count(0) ? Level::mean_of(levels[0].peak) : NAN,
                 base_steady = levels.count(0) && !levels[0].steady.empty() ? Level::mean_of(levels[0].steady) : NAN;
    // Every pair reachable without faults: the share of pairs a draw leaves reachable.
    const double all_pairs = levels.count(0) ? Level::mean_of(levels[0].reachable) : NAN;
    const Level* prev = nullptr;
    for (const auto& [f, l] : levels) {
      const double change = 100 * (l.mean() / base - 1), bchange = 100 * (l.bound_mean() / base_bound - 1);
      const double peak = Level::mean_of(l.peak), pchange = 100 * (peak / base_peak - 1);
      const double paper =
          f < static_cast<int>(paper_text.size()) && paper_text[f] != "~" ? std::stod(paper_text[f]) : NAN;
      std::string steady = "-";
      if (!l.steady.empty()) {
        const double m = Level::mean_of(l.steady);
        steady = fmt::format("{:.3f} ({}; {} draws{})", m, f ? signed_percent(100 * (m / base_steady - 1)) : "-",
                             l.steady.size(), l.unsettled ? fmt::format(" [{} not settled]", l.unsettled) : "");
      }
      md << fmt::format(
          "| {} | {} | {} | {} | {:.3f} ({:.3f}-{:.3f}) | {} | {} | {:.3f} ({}) | {} | {:.3f} | {} | {:.1f} | {:.3f} "
          "|\n",
          net, model, f, l.throughput.size(), l.mean(), *std::min_element(l.throughput.begin(), l.throughput.end()),
          *std::max_element(l.throughput.begin(), l.throughput.end()), f ? signed_percent(change) : "-",
          std::isnan(paper) || f == 0 ? "-" : signed_percent(paper), peak, f ? signed_percent(pchange) : "-", steady,
          l.bound_mean(), f ? signed_percent(bchange) : "-", Level::mean_of(l.unreachable),
          l.mean() / (Level::mean_of(l.reachable) / all_pairs));
      csv << fmt::format("{},{},{},{},{:.4f},{:.4f},{:.4f},{:.4f},{:.2f},{},{:.4f},{:.4f},{:.2f},{:.2f},{},{},{}\n",
                         net, model, f, l.throughput.size(), l.mean(),
                         *std::min_element(l.throughput.begin(), l.throughput.end()),
                         *std::max_element(l.throughput.begin(), l.throughput.end()), l.sem(), change,
                         std::isnan(paper) ? "" : fmt::format("{}", paper), peak, l.bound_mean(), bchange,
                         Level::mean_of(l.unreachable), l.dropped, l.resent, l.abandoned);
      if (f > 0 && !std::isnan(paper) && model == judged) {
        paper_points[net].push_back({0, base});
        paper_points[net].push_back({f, base * (1 + paper / 100)});
      }
      if (f > 0 && !std::isnan(paper)) {
        if (std::abs(change - paper) > s.explain_above * std::abs(paper))
          outliers.push_back({fmt::format("Figure 5 {} {} {} faults", net, model, f),
                              fmt::format("paper {:+.0f}%, ours {:+.1f}%", paper, change)});
        if (model == judged && !run.quick && std::abs(change - paper) > allowed_points)
          failures.push_back(
              fmt::format("Figure 5 {}: {:+.1f}% at {} faults, the paper {:+.0f}% (more than {:.0f} points)", net,
                          change, f, paper, allowed_points));
      }
      // Not rising with the faults: each level at most two standard errors of the difference
      // above the one before (the draws differ in faults and traffic seed).
      if (prev && model == judged) {
        const double noise = 2 * std::hypot(prev->sem(), l.sem());
        if (l.mean() > prev->mean() + noise)
          failures.push_back(
              fmt::format("Figure 5 {} {}: throughput rises from {} to {} faults ({:.4f} to {:.4f}, "
                          "beyond the noise {:.4f})",
                          net, model, prev->faults, f, prev->mean(), l.mean(), noise));
      }
      prev = &l;
    }
    if (model == judged && levels.size() > 1) {
      const Level& first = levels.begin()->second;
      const Level& last = levels.rbegin()->second;
      if (!(last.mean() < first.mean() - 2 * std::hypot(first.sem(), last.sem())))
        failures.push_back(fmt::format("Figure 5 {} {}: no decline from {} to {} faults ({:.4f} to {:.4f})", net, model,
                                       first.faults, last.faults, first.mean(), last.mean()));
    }
  }
  write_figure5_plot(dir, lv, paper_points);
  md << "\n![Figure 5](figure-5.svg)\n";

  md << "\n## Modelling choices\n\n";
  for (const auto& n : s.notes) md << "- " << n << "\n";
  md << "- " << measurement_note(s, run.quick) << "\n";

  write_fitted_choices(md, run, s.figure_pattern, s.figure_length);
  write_differences(md, s, run.quick,
                    "Quick mode: fewer tori, draws and samples and short windows; the differences below are those of "
                    "this run.",
                    outliers, false);
  md << "\n## Checks\n\n"
        "- every TFTR table set connected, deadlock-free (acyclic channel dependency graph over (link, VL) of all "
        "records), every pair with 4 (2D) or 6 (3D) disjoint paths; SLs within 1 of Table 1;\n"
        "- up*/down* (Table 1) and Table 2's n=4 column within 5 points of the paper;\n"
        "- Figure 4: no singular case with up to 3 faults on 2D tori, 5 on 3D;\n"
        "- every simulation deadlock-free (watchdog) and conserving packets; without the transport no packet dropped; "
        "with it every host packet delivered once and in order, buffered, on the wire, waiting to go again after a "
        "drop, or given up because its pair lost every path (checked by the fabric all through each run);\n"
        "- Figure 5 (the judged fault model): throughput at each fault count at most two standard errors of the "
        "difference above the previous one, and the most faults below none by more than that; in full mode the "
        "change at 6 faults within "
     << allowed_points << " points of the paper's.\n";
  write_experiment_csvs(dir, run);
  finish_report(md, dir, failures);
  return failures;
}

}  // namespace ibsc::tb
