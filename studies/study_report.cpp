#include "studies/study_report.h"

#include "studies/report_text.h"
#include "studies/study_conclusions.h"
#include "studies/study_fitted.h"
#include "studies/study_report_cc.h"
#include "studies/study_report_design.h"
#include "studies/study_report_fattrees.h"
#include "studies/study_report_inorder.h"
#include "studies/study_report_large.h"
#include "studies/study_report_tftr.h"
#include "studies/study_report_voqsw.h"

#include <fnmatch.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <numeric>
#include <sstream>

#include <fmt/format.h>

namespace ibsc::tb {
namespace {

// Accepted traffic for the bound check is pro-rated at the window's edges (bytes counted as they
// cross the destination host link), so a host link never shows more than link rate and bounds set
// by host links (permutations with fixed points) are checked exactly. A bound set by switch-to-switch
// channels can still be exceeded by the bytes stored in switch buffers when the window opens, net
// of those stored when it closes: zero on average in a stationary run, and in the quick mode's
// 40 us window a few 2 KB buffers against the 0.3 to 1 MB a saturated torus delivers in it,
// under 1%. Whole-packet counting at delivery would need one 512-byte packet per host link per
// window on top (5% in 40 us), which is why the bound check does not use it.
constexpr double kBoundTolerance = 0.01;

double throughput(const StudyRun& run, const std::string& torus, const std::string& routing, const std::string& pattern,
                  const std::string& length) {
  const ExperimentResult* r = find_experiment(run, torus, routing, pattern, length);
  return r && r->error.empty() ? r->throughput : NAN;
}

// Relative difference against the paper; against zero, the absolute difference.
double difference(double ours, double paper) { return paper != 0 ? (ours - paper) / paper : ours - paper; }

std::string diff_text(double ours, double paper) {
  if (std::isnan(ours)) return "n/a";
  double d = difference(ours, paper);
  return paper != 0 ? fmt::format("{:+.0f}%", 100 * d) : fmt::format("{:+.2f}", d);
}

// Explanation cells are shell-style patterns: "Table 2 * UD_DFS *".
bool matches(const std::string& pattern, const std::string& cell) {
  return fnmatch(pattern.c_str(), cell.c_str(), 0) == 0;
}

using Outlier = ReportOutlier;

std::string explanation_for(const Study& s, const std::string& cell) {
  for (const auto& e : s.explanations)
    for (const auto& c : e.cells)
      if (matches(c, cell)) return e.why;
  return "";
}

using report::num;

// How the runs of this mode measure, from the mode's overrides ("run.window_ns=500000").
std::string measurement_note_text(const Study& s, bool quick) {
  const auto& set = quick ? s.quick_set : s.full_set;
  auto get = [&](const std::string& key) {
    for (const auto& kv : set)
      if (kv.compare(0, key.size() + 1, key + "=") == 0) return std::strtod(kv.c_str() + key.size() + 1, nullptr);
    return double(NAN);
  };
  auto us = [](double ns) {
    return std::isnan(ns) ? std::string("the base scenario's") : fmt::format("{:g} us", ns / 1000);
  };
  auto pc = [](double f) { return std::isnan(f) ? std::string("the base scenario's") : fmt::format("{:g}%", 100 * f); };
  double refine = get("sweep.refine");
  std::string beyond;
  for (const auto& kv : set)
    if (kv.rfind("sweep.beyond=", 0) == 0) beyond = ", then loads at " + kv.substr(13) + " times the saturation load";
  return fmt::format(
      "Measurement ({} mode): throughput is the highest accepted traffic (bytes delivered in the window, whole packets "
      "at delivery, per ns and switch) of a load sweep from {} of link capacity in steps of {}{}; each load point "
      "warms up for {}, measures over a {} window and waits up to {} for the window's packets. Latency: from "
      "generation at the source to delivery, averaged over the packets generated in the window.",
      quick ? "quick" : "full", pc(get("sweep.start")), pc(get("sweep.step")),
      (std::isnan(refine) ? ""
       : refine > 0       ? fmt::format(", then {:g} bisections around saturation", refine)
                          : ", no bisection") +
          beyond,
      us(get("run.warmup_ns")), us(get("run.window_ns")), us(get("run.drain_ns")));
}

}  // namespace

std::string measurement_note(const Study& s, bool quick) { return measurement_note_text(s, quick); }

std::string figure_subtitle(const Study& s, const std::string& network, const std::vector<std::string>& patterns,
                            const std::string& length) {
  // The value an axis value sets for `key`, else its name (a value the study does not define: its name).
  auto set_or_name = [](const std::vector<StudyAxisValue>& axis, const std::string& name, const std::string& key) {
    for (const auto& v : axis)
      if (v.name == name)
        for (const auto& kv : v.set)
          if (kv.rfind(key + "=", 0) == 0) return kv.substr(key.size() + 1);
    return name;
  };
  std::string sub = set_or_name(s.tori, network, "topology.spec");
  for (size_t i = 0; i < patterns.size(); ++i) sub += (i ? "/" : ", ") + patterns[i];
  auto number = [](const std::string& t) {
    return !t.empty() && t.find_first_not_of("0123456789") == std::string::npos;
  };
  const std::string bytes = set_or_name(s.lengths, length, "traffic.length");
  if (number(bytes)) return sub + ", " + bytes + "-byte packets";
  const std::string mtu = set_or_name(s.lengths, length, "traffic.disk.mtu");  // the disk workload's packets
  return sub + ", " + (number(mtu) ? "MTU " + mtu + " bytes" : "packets " + length);
}

void write_explained_outliers(std::ostream& md, const Study& s, const std::vector<ReportOutlier>& outliers) {
  std::map<std::string, std::vector<const ReportOutlier*>> by_reason;
  std::vector<const ReportOutlier*> unexplained;
  for (const auto& o : outliers) {
    std::string why = explanation_for(s, o.cell);
    if (why.empty()) unexplained.push_back(&o);
    else by_reason[why].push_back(&o);
  }
  for (const auto& [why, list] : by_reason) {
    for (size_t i = 0; i < list.size(); ++i) md << (i ? "; " : "- ") << list[i]->cell << " (" << list[i]->shown << ")";
    md << ":\n  " << why << "\n";
  }
  if (!unexplained.empty()) {
    md << "- Not explained yet:";
    for (const auto* o : unexplained) md << " " << o->cell << " (" << o->shown << ");";
    md << "\n";
  }
}

const LoadPointResult& saturation_point(const std::vector<LoadPointResult>& points) {
  const LoadPointResult* best = nullptr;
  for (const auto& p : points)
    if (!p.saturated && (!best || p.accepted_bytes_per_ns_per_switch > best->accepted_bytes_per_ns_per_switch))
      best = &p;
  return best ? *best : points.front();
}

double saturation_throughput(const std::vector<LoadPointResult>& points) {
  return saturation_point(points).accepted_bytes_per_ns_per_switch;
}

double sweep_peak(const std::vector<LoadPointResult>& points) {
  double best = 0;
  for (const auto& p : points)
    if (!beyond_point(p)) best = std::max(best, p.accepted_bytes_per_ns_per_switch);
  return best;
}

const ExperimentResult* find_experiment(const StudyRun& run, const std::string& torus, const std::string& routing,
                                        const std::string& pattern, const std::string& length) {
  for (const auto& r : run.results)
    if (r.exp.torus == torus && r.exp.routing == routing && r.exp.pattern == pattern && r.exp.length == length)
      return &r;
  return nullptr;
}

std::vector<std::string> study_failures(const StudyRun& run, double tolerance) {
  std::vector<std::string> f;
  for (const auto& [key, rt] : run.routed) {
    if (!rt.check.ok()) f.push_back(key + ": routing tables fail their checks: " + rt.check.text());
    const bool ecube_baseline = run.study->report == "torus-routing";  // seeds/000: the baseline is e-cube
    if (ecube_baseline && rt.routing == run.study->factor_baseline &&
        std::abs(rt.metrics.average_distance - rt.metrics.average_topological_distance) > 1e-9)
      f.push_back(key + ": e-cube average distance " + num(rt.metrics.average_distance, 4) +
                  " is not the topological distance " + num(rt.metrics.average_topological_distance, 4));
  }
  for (const auto& r : run.results) {
    const std::string& n = r.exp.name;
    if (r.not_built) continue;  // large-direct: listed as such, not run
    if (!r.error.empty()) {
      f.push_back(n + ": run failed: " + r.error);
      continue;
    }
    if (r.points.empty() && !r.below_first_step) f.push_back(n + ": no load point");
    for (const auto& p : r.points) {
      // In flight is counted in the fabric (source queues, buffers, wires), not derived.
      // With link faults (README): dropped packets leave the fabric, abandoned ones never enter it.
      if (p.packets_injected != p.packets_delivered + p.packets_in_flight + p.faults.packets_dropped ||
          p.packets_generated != p.packets_injected + p.packets_queued_at_source + p.faults.packets_abandoned)
        f.push_back(fmt::format("{} at load {:.3f}: generated {} != delivered {} + in flight {}", n, p.offered_load,
                                p.packets_generated, p.packets_delivered, p.packets_in_flight));
      if (p.accepted_prorated_bytes_per_ns_per_switch > r.bound.topology * (1 + tolerance))
        f.push_back(
            fmt::format("{} at load {:.3f}: accepted {:.4f} bytes/ns/switch (pro-rated) above the channel-load "
                        "bound {:.4f}",
                        n, p.offered_load, p.accepted_prorated_bytes_per_ns_per_switch, r.bound.topology));
    }
    if (run.study->report == "torus-routing" && r.exp.routing == run.study->factor_baseline &&
        r.bound.non_minimal_paths > 0)
      f.push_back(
          fmt::format("{}: {} of {} e-cube paths are not minimal", n, r.bound.non_minimal_paths, r.bound.paths));
  }
  return f;
}

void write_experiment_csvs(const std::string& dir, const StudyRun& run) {
  std::ofstream all(dir + "/experiments.csv");
  all << "experiment,torus,routing,pattern,length,throughput,routed_bound,topology_bound,low_load_latency_ns,points,"
         "non_minimal_paths,error\n";
  for (const auto& r : run.results)
    all << r.exp.name << "," << r.exp.torus << "," << r.exp.routing << "," << r.exp.pattern << "," << r.exp.length
        << "," << num(r.throughput, 4) << "," << num(r.bound.routed, 4) << "," << num(r.bound.topology, 4) << ","
        << num(r.low_load_latency, 1) << "," << r.points.size() << "," << r.bound.non_minimal_paths << ",\"" << r.error
        << "\"\n";

  std::ofstream pts(dir + "/points.csv");
  pts << "experiment,offered_load,accepted_bytes_per_ns_per_switch,accepted_prorated_bytes_per_ns_per_switch,avg_"
         "latency_ns,p99_latency_ns,packets_generated,"
         "packets_delivered,packets_in_flight,saturated\n";
  for (const auto& r : run.results)
    for (const auto& p : r.points)
      pts << r.exp.name << "," << num(p.offered_load, 6) << "," << num(p.accepted_bytes_per_ns_per_switch, 6) << ","
          << num(p.accepted_prorated_bytes_per_ns_per_switch, 6) << "," << num(p.avg_latency_ns, 1) << ","
          << num(p.p99_latency_ns, 1) << "," << p.packets_generated << "," << p.packets_delivered << ","
          << p.packets_in_flight << "," << (p.saturated ? "true" : "false") << "\n";
  // runs/ holds every point's full results.json (per-link utilisation): tens of MB, not kept in git.
  std::ofstream(dir + "/.gitignore") << "runs/\n";
}

void write_run_times(std::ostream& md, const StudyRun& run, const std::string& intro) {
  md << "\n## Run times\n\n" << intro << "| experiment | probes | wall s | CPU s |\n|---|---|---|---|\n";
  for (const auto& r : run.results)
    if (!r.not_built)
      md << "| " << r.exp.name << " | " << r.points.size() << " | " << fmt::format("{:.1f}", r.wall_seconds) << " | "
         << fmt::format("{:.1f}", r.cpu_seconds) << " |\n";
}

std::vector<std::string> write_study_report(const std::string& dir, const StudyRun& run) {
  if (run.study->report == "voqsw") return write_voqsw_report(dir, run);
  if (run.study->report == "in-order-adaptive") return write_inorder_report(dir, run);
  if (run.study->report == "tftr") return write_tftr_report(dir, run);
  if (run.study->report == "large-direct") return write_large_direct_report(dir, run);
  if (run.study->report == "congestion-control") return write_cc_study_report(dir, run);
  if (run.study->report == "fat-trees") return write_fat_trees_report(dir, run);
  if (run.study->report == "design-space") return write_design_space_report(dir, run);
  namespace fs = std::filesystem;
  const Study& s = *run.study;
  fs::create_directories(dir);
  std::ostringstream md;
  std::vector<Outlier> outliers;
  auto note = [&](const std::string& cell, double ours, double paper) {
    if (std::isnan(ours)) return;
    double d = difference(ours, paper);
    if (std::abs(d) > s.explain_above)
      outliers.push_back({cell, "paper " + num(paper, 2) + ", ours " + num(ours, 2) + ", " + diff_text(ours, paper)});
  };

  write_report_opening(md, run, paper_quick_mode(run, "short windows, coarse sweeps"), RunTally::Experiments);
  md << " Every experiment is an ordinary scenario: `scenarios/` here holds each one as `ibsc run` reads it; "
        "`points.csv` has every load point of every experiment, and a local run also leaves each experiment's full "
        "`runs/NAME/results.json` (not kept in git).\n\n";
  md << "Study file: `" << s.file << "`; base model: `" << s.base
     << "`. Throughput is the highest accepted traffic "
        "of the load sweep, in bytes/ns/switch; a factor is a routing's throughput over "
     << s.factor_baseline
     << "'s on the same torus, traffic and packet length. Differences are ours minus the paper's, relative "
        "(absolute where the paper's value is 0); the CSVs' `difference` column is the same, as a fraction.\n\n";

  md << "## Modelling choices\n\n";
  for (const auto& n : s.notes) md << "- " << n << "\n";
  md << "- " << measurement_note_text(s, run.quick) << "\n\n";

  // Table 2.
  md << "## Table 2: routing metrics\n\nAverage distance / crossing path / deviation crossing, computed from the "
        "tables the runs use (one path per ordered switch pair, 4 hosts per switch).\n\n";
  md << "| torus | routing | avg distance (paper, ours, diff) | crossing path (paper, ours, diff) | deviation "
        "crossing (paper, ours, diff) | SLs | VLs | LMC |\n|---|---|---|---|---|---|---|---|\n";
  std::ofstream t2(dir + "/table2.csv");
  t2 << "torus,routing,metric,paper,ours,difference\n";
  for (const auto& torus : s.tori) {
    auto pit = s.metrics_paper.find(torus.name);
    for (const auto& rt : s.routings) {
      if (rt.paper_name.empty()) continue;
      auto it = run.routed.find(torus.name + "/" + rt.name);
      if (it == run.routed.end()) continue;
      const routing::Metrics& m = it->second.metrics;
      double ours[3] = {m.average_distance, double(m.crossing_path), m.deviation_crossing};
      const char* names[3] = {"average_distance", "crossing_path", "deviation_crossing"};
      md << "| " << torus.name << " | " << rt.paper_name;
      for (int k = 0; k < 3; ++k) {
        bool has_paper = pit != s.metrics_paper.end() && pit->second.count(rt.paper_name);
        double paper = has_paper ? pit->second.at(rt.paper_name)[k] : NAN;
        md << " | " << (has_paper ? num(paper, k == 1 ? 0 : 2) : "-") << ", " << num(ours[k], k == 1 ? 0 : 2) << ", "
           << (has_paper ? diff_text(ours[k], paper) : "-");
        t2 << torus.name << "," << rt.paper_name << "," << names[k] << "," << (has_paper ? num(paper, 2) : "") << ","
           << num(ours[k], 4) << "," << (has_paper ? num(difference(ours[k], paper), 4) : "") << "\n";
        if (has_paper) note("Table 2 " + torus.name + " " + rt.paper_name + " " + names[k], ours[k], paper);
      }
      md << " | " << it->second.sls << " | " << it->second.vls << " | " << it->second.lmc << " |\n";
    }
    auto any = run.routed.find(torus.name + "/" + s.factor_baseline);
    if (any != run.routed.end() && s.topological_distance_paper.count(torus.name))
      md << "| " << torus.name << " | *topological* | " << num(s.topological_distance_paper.at(torus.name), 2) << ", "
         << num(any->second.metrics.average_topological_distance, 3) << " | | | | | |\n";
  }

  // Figures.
  md << "\n## Figures 6 and 7: average latency vs accepted traffic (" << s.figure_pattern << ", " << s.figure_length
     << "-byte packets)\n\n";
  for (const auto& torus : s.tori) {
    std::vector<std::pair<std::string, std::vector<LoadPointResult>>> series;
    for (const auto& rt : s.routings)
      if (const ExperimentResult* r = find_experiment(run, torus.name, rt.name, s.figure_pattern, s.figure_length))
        if (r->error.empty()) series.push_back({rt.name, r->points});
    std::string file = "figure-" + (torus.figure.empty() ? torus.name : torus.figure) + "-" + torus.name + ".svg";
    std::string title = (torus.figure.empty() ? "" : "Figure " + torus.figure + ": ") + torus.name + " torus, " +
                        s.figure_length + "-byte packets, " + s.figure_pattern;
    write_plot(dir + "/" + file, PlotLabel(title, "", run.quick), series);  // the title says it all
    md << "### " << title << "\n\n![" << title << "](" << file << ")\n\n";
  }

  // Throughput at the figure configuration, with bounds.
  md << "## Saturation throughput (" << s.figure_pattern << ", " << s.figure_length << " bytes)\n\n"
     << "Throughput in bytes/ns/switch; in brackets the share of the routed channel-load bound (the busiest "
        "channel of these tables at the offered mix). Topology bound: what any routing could carry.\n\n| torus | "
        "topology bound |";
  named_columns(md, s.routings);
  for (const auto& torus : s.tori) {
    const ExperimentResult* any =
        find_experiment(run, torus.name, s.factor_baseline, s.figure_pattern, s.figure_length);
    md << "| " << torus.name << " | " << (any ? num(any->bound.topology, 3) : "-") << " |";
    for (const auto& rt : s.routings) {
      const ExperimentResult* r = find_experiment(run, torus.name, rt.name, s.figure_pattern, s.figure_length);
      if (!r || !r->error.empty()) md << " failed |";
      else md << fmt::format(" {:.3f} ({:.0f}%) |", r->throughput, 100 * r->throughput / r->bound.routed);
    }
    md << "\n";
  }

  // Tables 3 and 4.
  for (const auto& table : s.factor_tables) {
    md << "\n## " << table.name << ": throughput factor over " << s.factor_baseline << ", " << table.length
       << "-byte packets\n\nEach cell: paper, ours, difference.\n\n| torus |";
    for (const auto& p : s.patterns)
      for (const auto& rt : s.factor_routings) md << " " << p.name << " " << rt << " |";
    md << "\n|---|";
    for (size_t i = 0; i < s.patterns.size() * s.factor_routings.size(); ++i) md << "---|";
    md << "\n";
    std::string csv_name = table.name;
    std::replace(csv_name.begin(), csv_name.end(), ' ', '-');
    std::transform(csv_name.begin(), csv_name.end(), csv_name.begin(), ::tolower);
    std::ofstream csv(dir + "/" + csv_name + ".csv");
    csv << "torus,pattern,routing,paper,ours,difference,baseline_throughput,throughput\n";
    for (const auto& torus : s.tori) {
      md << "| " << torus.name << " |";
      for (const auto& p : s.patterns) {
        double base = throughput(run, torus.name, s.factor_baseline, p.name, table.length);
        for (const auto& rt : s.factor_routings) {
          double ours = throughput(run, torus.name, rt, p.name, table.length) / base;
          auto pt = table.paper.find(torus.name);
          bool has_paper = pt != table.paper.end() && pt->second.count(p.name + "/" + rt);
          double paper = has_paper ? pt->second.at(p.name + "/" + rt) : NAN;
          md << " " << (has_paper ? num(paper, 2) : "-") << ", " << num(ours, 2) << ", "
             << (has_paper ? diff_text(ours, paper) : "-") << " |";
          csv << torus.name << "," << p.name << "," << rt << "," << (has_paper ? num(paper, 2) : "") << ","
              << num(ours, 4) << "," << (has_paper ? num(difference(ours, paper), 4) : "") << "," << num(base, 4) << ","
              << num(throughput(run, torus.name, rt, p.name, table.length), 4) << "\n";
          if (has_paper) note(table.name + " " + torus.name + " " + p.name + " " + rt, ours, paper);
        }
      }
      md << "\n";
    }
    // The same ratio predicted from the tables alone: routed channel-load bounds.
    md << "\nThe ratio of the routed channel-load bounds (busiest channel of each routing's tables under the "
          "pattern, tables only, no simulation), for comparison with our factors:\n\n| torus |";
    for (const auto& p : s.patterns)
      for (const auto& rt : s.factor_routings) md << " " << p.name << " " << rt << " |";
    md << "\n|---|";
    for (size_t i = 0; i < s.patterns.size() * s.factor_routings.size(); ++i) md << "---|";
    md << "\n";
    for (const auto& torus : s.tori) {
      md << "| " << torus.name << " |";
      for (const auto& p : s.patterns) {
        const ExperimentResult* b = find_experiment(run, torus.name, s.factor_baseline, p.name, table.length);
        for (const auto& rt : s.factor_routings) {
          const ExperimentResult* r = find_experiment(run, torus.name, rt, p.name, table.length);
          md << " " << (b && r ? num(r->bound.routed / b->bound.routed, 2) : "-") << " |";
        }
      }
      md << "\n";
    }
  }

  write_experiment_csvs(dir, run);

  // Conclusions: each with the paper's value, ours, the criterion and the verdict; a line that
  // disagrees, or whose value differs by more than explain_above, needs an explanation like a cell.
  md << "\n## The paper's conclusions, checked\n\nPercentages are compared like the tables' cells (relative "
        "difference of ours against the paper's value).\n\n| conclusion (seeds/000) | paper | ours | agreement "
        "criterion | agree |\n|---|---|---|---|---|\n";
  for (const Conclusion& c : study_conclusions(run)) {
    std::string verdict = c.holds ? "yes" : "**no**";
    bool far = c.quantitative && std::abs(difference(c.ours_value, c.paper_value)) > s.explain_above;
    if (far) verdict += c.holds ? " in sign; value differs by " + diff_text(c.ours_value, c.paper_value) : "";
    if (!c.holds || far) {
      verdict += " (see differences below)";
      outliers.push_back({c.cell, "paper " + c.paper + ", ours " + c.ours +
                                      (c.holds ? ", " + diff_text(c.ours_value, c.paper_value) : ", disagrees")});
    }
    md << "| " << c.claim << " | " << c.paper << " | " << c.ours << " | " << c.criterion << " | " << verdict << " |\n";
  }

  // Differences.
  write_differences(md, s, run.quick,
                    "Quick mode: coarse load steps without bisection find a throughput only to within a step, which "
                    "moves factors by tens of percent, so this list is longer than a full run's and is not a verdict "
                    "on the model.",
                    outliers, false);
  write_fitted_choices(md, run, s.figure_pattern, s.figure_length);

  // Checks.
  std::vector<std::string> failures = study_failures(run, kBoundTolerance);
  md << "\n## Checks (must hold whatever the tuning)\n\n"
     << "- every run deadlock-free and conserving packets (injected = delivered + in flight and generated = injected + "
        "queued at the sources at the end of every load point, each counted in the buffers, wires and source queues "
        "themselves; "
        "the runs also check credits and buffers continuously);\n"
     << "- every routing's tables pass the table checks (connected, loop-free, within SL/VL budgets, acyclic "
        "channel dependency graph);\n"
     << "- e-cube on minimal paths for every host pair;\n"
     << fmt::format(
            "- no accepted traffic above the topology's channel-load bound. For this check accepted traffic "
            "counts each packet's bytes as they cross the destination host link (pro-rated at the window's "
            "edges; the tables count whole packets at delivery, the paper's definition), so no host link "
            "shows more than link rate; +{:.0f}% allows for bytes stored in switch buffers when the window "
            "opens, net of those stored when it closes (zero on average).\n\n",
            100 * kBoundTolerance);
  finish_report(md, dir, failures);
  return failures;
}

void write_differences(std::ostream& md, const Study& s, bool quick, const std::string& quick_caveat,
                       const std::vector<ReportOutlier>& outliers, bool with_criteria) {
  md << "\n## Differences above " << fmt::format("{:.0f}%", 100 * s.explain_above)
     << (with_criteria ? ", criteria not met," : "") << " and why\n\n";
  if (quick) md << quick_caveat << "\n\n";
  if (outliers.empty()) md << "None.\n";
  write_explained_outliers(md, s, outliers);
}

void write_report_opening(std::ostream& md, const StudyRun& run, const std::string& mode, RunTally tally) {
  const Study& s = *run.study;
  const size_t points = std::accumulate(run.results.begin(), run.results.end(), size_t{0},
                                        [](size_t a, const ExperimentResult& r) { return a + r.points.size(); });
  const auto ran =
      std::count_if(run.results.begin(), run.results.end(), [](const ExperimentResult& r) { return !r.not_built; });
  md << "# " << (s.title.empty() ? s.name : s.title) << "\n\nMade by `" << run.command << "`" << mode;
  switch (tally) {
    case RunTally::Experiments:
      md << fmt::format(" in {:.0f} s on {} processes; {} experiments, {} load points.", run.wall_seconds, run.jobs,
                        run.results.size(), points);
      break;
    case RunTally::ExperimentsRun:
      md << fmt::format(" in {:.0f} s ({:.1f} min) on {} processes; {} experiments run, {} load points.",
                        run.wall_seconds, run.wall_seconds / 60, run.jobs, ran, points);
      break;
    case RunTally::Simulations:
      md << fmt::format(" in {:.0f} s on {} processes (the simulations); {} simulations.", run.wall_seconds, run.jobs,
                        run.results.size());
      break;
    case RunTally::None:
      md << ".";
      break;
  }
}

std::string paper_quick_mode(const StudyRun& run, const std::string& quick_sweeps) {
  return run.quick ? " (**quick mode**: " + quick_sweeps + "; checks only, not for comparison with the paper)" : "";
}

void finish_report(std::ostringstream& md, const std::string& dir, const std::vector<std::string>& failures) {
  if (failures.empty()) md << "All hold.\n";
  else
    for (const auto& f : failures) md << "- **FAILED**: " << f << "\n";
  std::ofstream(dir + "/README.md") << md.str();
}

}  // namespace ibsc::tb
