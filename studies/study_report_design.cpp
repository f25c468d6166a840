#include "studies/study_report_design.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include "studies/report_text.h"

#include <fmt/format.h>

namespace ibsc::tb {
namespace {

bool ran(const ExperimentResult* r) { return r && r->error.empty() && !r->points.empty(); }

std::string pct_of(double fraction) { return std::isnan(fraction) ? "-" : fmt::format("{:.1f}", 100 * fraction); }

std::string signed_pct(double ratio) { return std::isnan(ratio) ? "-" : fmt::format("{:+.0f}%", 100 * (ratio - 1)); }

using report::at_load;

// The offered load the counters of one network, pattern and length are read at (see the header):
// report_options counters_at, or the lowest load at which the baseline is saturated that every
// variant whose sweep went that far also ran (the grid the sweeps share, not a bisection point of
// one of them). NAN: the baseline did not run or never saturated.
double counter_load(const StudyRun& run, const std::string& net, const std::string& pattern, const std::string& len) {
  const Study& s = *run.study;
  if (auto it = s.report_options.find("counters_at"); it != s.report_options.end() && !it->second.empty())
    return std::stod(it->second.front());
  const ExperimentResult* base = find_experiment(run, net, s.routings.front().name, pattern, len);
  if (!ran(base)) return NAN;
  for (const auto& p : base->points) {  // by offered load
    if (!p.saturated) continue;
    bool everywhere = true;
    for (const auto& v : s.routings) {
      const ExperimentResult* r = find_experiment(run, net, v.name, pattern, len);
      if (ran(r) && r->points.back().offered_load > p.offered_load && !at_load(*r, p.offered_load)) everywhere = false;
    }
    if (everywhere) return p.offered_load;
  }
  return NAN;
}

// A variant's point at `load`, or when its sweep stopped below it (it saturated earlier), its
// highest; nullptr when it has neither.
const LoadPointResult* point_for(const ExperimentResult& r, double load) {
  if (const LoadPointResult* p = at_load(r, load)) return p;
  const LoadPointResult* best = nullptr;
  for (const auto& p : r.points)
    if (p.offered_load < load) best = &p;
  return best;
}

std::string overrides(const StudyAxisValue& v) {
  std::string t;
  for (const auto& kv : v.set) t += (t.empty() ? "`" : ", `") + kv + "`";
  return t.empty() ? "(the base scenario)" : t;
}

std::string file_part(const Study& s, const std::string& net, const std::string& pattern, const std::string& len) {
  std::string f = pattern;
  if (s.tori.size() > 1) f = net + "-" + f;
  if (s.lengths.size() > 1) f += "-" + len;
  return f;
}

struct VariantCell {
  const ExperimentResult* r = nullptr;
  double saturation = NAN;  // fraction of link capacity per host
  const LoadPointResult* at = nullptr;
  CounterMeans c;
};

// The switches' counters of every variant at `load` (the header says which load).
void write_counter_table(std::ostream& md, const Study& s, const std::vector<VariantCell>& cells, double load) {
  md << fmt::format(
      "\nWhere the heads waited at offered load {:.1f}% ({}; a variant whose sweep stopped below it, having "
      "saturated earlier, at its highest load): means per switch over the window; a stall column is the mean number "
      "of packet heads held back for that reason (models/port_counters.h): **credit** the output was free but the "
      "next switch's buffer lacked room for the packet, **output busy** credits were there but the output was still "
      "sending, **HOL** a packet behind the waiting head was bound for another output; head wait is all of the wait, "
      "arbitration lost included; buffered: bytes held in input buffers.\n\n",
      100 * load,
      s.report_options.count("counters_at") ? "report_options counters_at"
                                            : "the lowest load at which the baseline is saturated");
  md << "| variant | load | accepted | saturated | latency (ns) | credit | output busy | HOL | head wait "
        "| buffered (B) |\n|---|---|---|---|---|---|---|---|---|---|\n";
  for (size_t i = 0; i < cells.size(); ++i) {
    const VariantCell& c = cells[i];
    if (!c.at) continue;
    if (!c.c.present) {
      md << "| " << s.routings[i].name << " | no counters (run.port_counters off) | | | | | | | | |\n";
      continue;
    }
    md << fmt::format("| {} | {}% | {}% | {} | {:.0f} | {:.3f} | {:.3f} | {:.3f} | {:.3f} | {:.0f} |\n",
                      s.routings[i].name, pct_of(c.at->offered_load), pct_of(c.at->accepted_fraction),
                      c.at->saturated ? "yes" : "no", c.at->avg_latency_ns, c.c.credit_stall, c.c.output_busy_stall,
                      c.c.hol_blocked, c.c.head_wait, c.c.occupancy_bytes);
  }
}

// One line per variant: the stall it removed or added most against the baseline at the same load.
void write_against_baseline(std::ostream& md, const Study& s, const std::vector<VariantCell>& cells) {
  const VariantCell& b = cells.front();
  if (!ran(b.r)) return;
  const double base_sat = b.saturation;
  md << "\nAgainst " << s.routings.front().name << " at the same offered load:\n\n";
  for (size_t i = 1; i < cells.size(); ++i) {
    const VariantCell& c = cells[i];
    const LoadPointResult* bp = c.at ? at_load(*b.r, c.at->offered_load) : nullptr;
    if (!c.at || !c.c.present || !bp || !counter_means(*bp).present) continue;
    const CounterMeans bc = counter_means(*bp);
    const std::pair<const char*, double> d[] = {{"credit stalls", c.c.credit_stall - bc.credit_stall},
                                                {"output-busy stalls", c.c.output_busy_stall - bc.output_busy_stall},
                                                {"HOL-blocked heads", c.c.hol_blocked - bc.hol_blocked}};
    // A variant that saturates higher is explained by the stall it removed most, a lower one by
    // the stall it added most (the other stalls may grow as it carries more at the same load).
    const bool better = c.saturation >= base_sat;
    const auto* most = std::min_element(std::begin(d), std::end(d), [better](const auto& x, const auto& y) {
      return better ? x.second < y.second : x.second > y.second;
    });
    md << fmt::format("- {}: saturation {} ({}% against {}%); at {:.1f}% load, ", s.routings[i].name,
                      signed_pct(c.saturation / base_sat), pct_of(c.saturation), pct_of(base_sat),
                      100 * c.at->offered_load);
    const std::string all = fmt::format(
        "(credit {:.3f}, output busy {:.3f}, HOL {:.3f}; baseline {:.3f}, {:.3f}, {:.3f})", c.c.credit_stall,
        c.c.output_busy_stall, c.c.hol_blocked, bc.credit_stall, bc.output_busy_stall, bc.hol_blocked);
    if (std::abs(most->second) < 0.005 || (better ? most->second > 0 : most->second < 0))
      md << "no stall " << (better ? "fell" : "rose") << " by 0.005 heads per switch or more " << all << "\n";
    else
      md << fmt::format("{} {} most: {:+.3f} heads per switch {}\n", most->first, better ? "fell" : "rose",
                        most->second, all);
  }
}

// One network, pattern and length: its plot, saturation table, counter table and what changed.
void write_section(std::ostream& md, std::ostream& sat_csv, const std::string& dir, const StudyRun& run,
                   const std::string& net, const std::string& pattern, const std::string& len) {
  const Study& s = *run.study;
  const std::string sub = figure_subtitle(s, net, {pattern}, len);
  const double load = counter_load(run, net, pattern, len);
  std::vector<VariantCell> cells;
  std::vector<std::pair<std::string, std::vector<LoadPointResult>>> series;
  for (const auto& v : s.routings) {
    VariantCell c;
    c.r = find_experiment(run, net, v.name, pattern, len);
    if (ran(c.r)) {
      c.saturation = saturation_point(c.r->points).accepted_fraction;
      c.at = std::isnan(load) ? nullptr : point_for(*c.r, load);
      if (c.at) c.c = counter_means(*c.at);
      series.push_back({v.name, c.r->points});
    }
    cells.push_back(c);
  }
  if (series.empty()) return;
  md << "## " << sub << "\n\n";
  const std::string file = "latency-" + file_part(s, net, pattern, len) + ".svg";
  write_plot(dir + "/" + file, PlotLabel("Latency vs accepted traffic, every variant", sub, run.quick), series);
  md << "![latency vs accepted traffic, " << sub << "](" << file << ")\n\n";

  md << "Saturation throughput, % of link capacity per host (the highest accepted traffic of the unsaturated points); "
        "bound: the routed channel-load bound of the tables (no switch carries more); against "
     << s.routings.front().name
     << ", the baseline. Latency at the lowest load in ns. The plot's axis is bytes/ns per switch; saturation.csv "
        "has both.\n\n"
     << "| variant | saturation | of the bound | against baseline | bound | latency, lowest load |\n"
     << "|---|---|---|---|---|---|\n";
  const double base_sat = cells.front().saturation;
  for (size_t i = 0; i < cells.size(); ++i) {
    const VariantCell& c = cells[i];
    const std::string& name = s.routings[i].name;
    if (!c.r) continue;
    if (!ran(c.r)) {
      md << "| " << name << " | failed: " << c.r->error.substr(0, 120) << " | | | | |\n";
      continue;
    }
    const double bound = bound_fraction(c.r->bound);
    md << fmt::format("| {} | **{}** | {}% | {} | {} | {:.0f} |\n", name, pct_of(c.saturation),
                      pct_of(c.saturation / bound), i == 0 ? "-" : signed_pct(c.saturation / base_sat), pct_of(bound),
                      c.r->points.front().avg_latency_ns);
    sat_csv << net << "," << pattern << "," << len << "," << name << "," << fmt::format("{:.6f}", c.saturation) << ","
            << fmt::format("{:.6f}", bound) << ","
            << fmt::format("{:.6f}", saturation_point(c.r->points).accepted_bytes_per_ns_per_switch) << "\n";
  }
  if (std::isnan(load)) {
    md << "\nThe baseline did not saturate on a load every variant ran: no counter table.\n\n";
    return;
  }
  write_counter_table(md, s, cells, load);
  write_against_baseline(md, s, cells);
  md << "\n";
}
void write_counters_csv(const std::string& dir, const StudyRun& run) {
  std::ofstream csv(dir + "/counters.csv");
  csv << "network,variant,pattern,length,offered_load,accepted_fraction,saturated,avg_latency_ns,credit_stall,"
         "output_busy_stall,hol_blocked,head_wait,buffered_bytes\n";
  for (const auto& r : run.results)
    for (const auto& p : r.points) {
      const CounterMeans c = counter_means(p);
      if (!c.present) continue;
      csv << fmt::format("{},{},{},{},{:.6f},{:.6f},{},{:.1f},{:.6f},{:.6f},{:.6f},{:.6f},{:.1f}\n", r.exp.torus,
                         r.exp.routing, r.exp.pattern, r.exp.length, p.offered_load, p.accepted_fraction,
                         p.saturated ? "true" : "false", p.avg_latency_ns, c.credit_stall, c.output_busy_stall,
                         c.hol_blocked, c.head_wait, c.occupancy_bytes);
    }
}

}  // namespace

CounterMeans counter_means(const LoadPointResult& p) {
  CounterMeans m;
  if (p.switch_counters.is_null()) return m;
  const double window = p.switch_counters.at("window_ns").get<double>();
  const auto& switches = p.switch_counters.at("switches");
  if (window <= 0 || switches.empty()) return m;
  m.present = true;
  for (const auto& sw : switches)
    for (const auto& c : sw.at("ports")) {
      m.credit_stall += c.at("credit_stall_ns").get<double>();
      m.output_busy_stall += c.at("output_busy_stall_ns").get<double>();
      m.hol_blocked += c.at("hol_blocked_ns").get<double>();
      m.head_wait += c.at("head_wait_ns").get<double>();
      m.occupancy_bytes += c.at("occupancy_mean_bytes").get<double>();
    }
  const double n = static_cast<double>(switches.size());
  for (double* v : {&m.credit_stall, &m.output_busy_stall, &m.hol_blocked, &m.head_wait}) *v /= window * n;
  m.occupancy_bytes /= n;
  return m;
}

std::vector<std::string> write_design_space_report(const std::string& dir, const StudyRun& run) {
  std::filesystem::create_directories(dir);
  const Study& s = *run.study;
  std::vector<std::string> failures = study_failures(run, 0.01);
  for (const auto& r : run.results)
    for (const auto& p : r.points)
      if (r.error.empty() && p.switch_counters.is_null()) {
        failures.push_back(r.exp.name + ": no switch counters; the base scenario must set run.port_counters: true");
        break;
      }
  std::ostringstream md;
  write_report_opening(md, run,
                       run.quick ? " (**quick mode**: short windows and a coarse sweep; it checks the invariants, its "
                                   "figures are indicative only)"
                                 : "",
                       RunTally::Experiments);
  md << "\n\nStudy file: `" << s.file << "`; base scenario: `" << s.base
     << "`. Each experiment is the base scenario with one variant's overrides and one traffic pattern "
        "(`scenarios/` here holds each as `ibsc run` reads it). `saturation.csv` has the saturation table, "
        "`counters.csv` the counters of every load point, `points.csv` every load point.\n\n";
  md << "## Variants\n\nThe first is the baseline the others are compared with.\n\n| variant | overrides "
        "|\n|---|---|\n";
  for (const auto& v : s.routings) md << "| " << v.name << " | " << overrides(v) << " |\n";
  md << "\n";
  for (const auto& n : s.notes) md << n << "\n\n";
  md << "Measurement (" << (run.quick ? "quick" : "full") << " mode), on top of the base scenario:";
  for (const auto& kv : run.quick ? s.quick_set : s.full_set) md << " `" << kv << "`";
  md << ". Latency: from generation at the source to delivery, averaged over the packets generated in the window; "
        "a point is saturated when the fabric did not keep up with the offered load (the sweep's test).\n\n";

  std::ofstream sat(dir + "/saturation.csv");
  sat << "network,pattern,length,variant,saturation_fraction,routed_bound_fraction,saturation_bytes_per_ns_per_"
         "switch\n";
  for (const auto& net : s.tori)
    for (const auto& pat : s.patterns)
      for (const auto& len : s.lengths) write_section(md, sat, dir, run, net.name, pat.name, len.name);
  write_counters_csv(dir, run);
  write_experiment_csvs(dir, run);
  md << "## Checks\n\nRouting tables connected and deadlock-free, every packet accounted for (generated = injected + "
        "queued at the source, injected = delivered + in flight), accepted traffic under the channel-load bound, "
        "counters at every load point:\n\n";
  finish_report(md, dir, failures);
  return failures;
}

}  // namespace ibsc::tb
