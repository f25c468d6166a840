#include "studies/study_report_cc.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ibsc::tb {
namespace {

std::string f3(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f", v);
  return b;
}

std::string signed_pct_of(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%+.1f%%", 100 * v);
  return b;
}

struct Roles {
  std::string hot, base, uni, off, on;
};

Roles roles_of(const Study& s) {
  auto opt = [&](const char* k, const char* def) {
    auto it = s.report_options.find(k);
    return it == s.report_options.end() || it->second.empty() ? std::string(def) : it->second.front();
  };
  return {opt("hot_pattern", "tree"), opt("baseline_pattern", "nohot"), opt("uniform_pattern", "uniform"),
          opt("cc_off", "cc-off"), opt("cc_on", "cc-on")};
}

// The congestion_control block of an experiment's single (first) load point; null when none.
const nlohmann::ordered_json* cc_of(const ExperimentResult* r) {
  if (!r || !r->error.empty() || r->points.empty() || r->points.front().congestion_control.is_null()) return nullptr;
  return &r->points.front().congestion_control;
}

double json_number(const nlohmann::ordered_json& j, const char* k) { return j.contains(k) ? j[k].get<double>() : 0.0; }

// The hot senders' throughput (host_sent), slowest / fastest: the parking-lot unfairness among
// the contributors. The senders are those of the base scenario's traffic.hotspot_senders, named
// in report_options hot_senders (host numbers); "-" when not given.
std::string senders_spread(const nlohmann::ordered_json& cc, const Study& s) {
  auto it = s.report_options.find("hot_senders");
  if (it == s.report_options.end() || it->second.empty()) return "-";
  double lo = 1e300, hi = 0;
  for (const auto& h : it->second) {
    const size_t k = std::stoul(h);
    if (k >= cc["host_sent"].size()) return "-";
    const double v = cc["host_sent"][k].get<double>();
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  return f3(lo) + " / " + f3(hi);
}

// Table (1) and (2) rows: one per routing (CC setting) on the hot pattern.
void tree_tables(std::ostream& md, const StudyRun& run, const Roles& ro, const std::string& net, const std::string& len,
                 std::vector<std::string>& failures) {
  const Study& s = *run.study;
  const auto* base = cc_of(find_experiment(run, net, ro.off, ro.base, len));
  const double victims0 = base ? json_number(*base, "victim_throughput_per_source") : 0;
  md << "## " << net << ": tree saturation\n\n";
  if (base) md << "Victims with no hot spot (hot senders silent, CC off): **" << f3(victims0) << "** of link rate.\n\n";
  md << "| CC setting | hot link (per hot host) | victims (per source) | victims / no hot spot | slowest victim source "
        "| hot senders, slowest / fastest | FECN | BECN |\n";
  md << "|---|---|---|---|---|---|---|---|\n";
  double off_ratio = -1, on_ratio = -1, on_hot = -1;
  for (const auto& rt : s.routings) {
    const ExperimentResult* r = find_experiment(run, net, rt.name, ro.hot, len);
    if (!r) continue;
    const auto* cc = cc_of(r);
    if (!cc) {
      md << "| " << rt.name << " | failed: " << r->error << " | | | | | | |\n";
      continue;
    }
    const double hot = json_number(*cc, "hot_throughput"), vic = json_number(*cc, "victim_throughput_per_source");
    const double ratio = victims0 > 0 ? vic / victims0 : 0;
    md << "| " << rt.name << " | " << f3(hot) << " | " << f3(vic) << " | " << (victims0 > 0 ? f3(ratio) : "-") << " | "
       << f3(json_number(*cc, "slowest_victim_source")) << " | " << senders_spread(*cc, s) << " | "
       << (*cc)["fecn_marked"].dump() << " | " << (*cc)["becn_received"].dump() << " |\n";
    if (rt.name == ro.off) {
      off_ratio = ratio;
      if (json_number(*cc, "fecn_marked") > 0)
        failures.push_back(r->exp.name + ": FECN marks with congestion control off");
    } else if (json_number(*cc, "fecn_marked") == 0) {
      failures.push_back(r->exp.name + ": no FECN mark under the hot spot with congestion control on");
    }
    if (rt.name == ro.on) {
      on_ratio = ratio;
      on_hot = hot;
    }
  }
  md << "\nAcceptance (issue 34)" << (run.quick ? ", from --quick's short windows: indicative only" : "") << ":\n";
  if (off_ratio >= 0)
    md << "- CC off, victims below 50% of their no-hot-spot throughput: " << f3(off_ratio) << " -> "
       << (off_ratio < 0.5 ? "met" : "NOT met") << "\n";
  if (on_ratio >= 0)
    md << "- CC on (" << ro.on << "), victims within 10% with the hot link above 90% busy: victims " << f3(on_ratio)
       << ", hot link " << f3(on_hot) << " -> " << (on_ratio >= 0.9 && on_hot > 0.9 ? "met" : "NOT met") << "\n";
  md << "\n";
}

void uniform_table(std::ostream& md, const StudyRun& run, const Roles& ro, const std::string& net,
                   const std::string& len) {
  const Study& s = *run.study;
  const ExperimentResult* off = find_experiment(run, net, ro.off, ro.uni, len);
  if (!off || off->points.empty()) return;
  const double t0 = saturation_throughput(off->points);
  md << "## " << net << ": cost with no hot spot (uniform traffic)\n\n";
  md << "| CC setting | saturation throughput (B/ns/switch) | against CC off | latency at the lowest load (ns) |\n";
  md << "|---|---|---|---|\n";
  double worst = 0;
  for (const auto& rt : s.routings) {
    const ExperimentResult* r = find_experiment(run, net, rt.name, ro.uni, len);
    if (!r || r->points.empty()) continue;
    const double t = saturation_throughput(r->points);
    md << "| " << rt.name << " | " << f3(t) << " | " << (rt.name == ro.off ? "" : signed_pct_of(t / t0 - 1)) << " | "
       << f3(r->points.front().avg_latency_ns) << " |\n";
    if (rt.name == ro.on) worst = t / t0 - 1;
  }
  md << "\nAcceptance: uniform traffic loses less than 5% saturation throughput with CC on (" << ro.on
     << "): " << signed_pct_of(worst) << " -> " << (worst > -0.05 ? "met" : "NOT met") << "\n\n";
}

void write_series(const std::string& dir, const StudyRun& run, const Roles& ro) {
  std::ofstream csv(dir + "/timeseries.csv");
  csv << "experiment,t_ns,hot_throughput,victim_throughput_per_source,mean_ccti,max_ccti,fecn,becn\n";
  for (const ExperimentResult& r : run.results) {
    const auto* cc = cc_of(&r);
    if (!cc || r.exp.pattern != ro.hot || !cc->contains("series")) continue;
    const auto& s = (*cc)["series"];
    for (size_t i = 0; i < s["t_ns"].size(); ++i)
      csv << r.exp.name << "," << s["t_ns"][i].dump() << "," << s["hot"][i].dump() << "," << s["victim"][i].dump()
          << "," << s["mean_ccti"][i].dump() << "," << s["max_ccti"][i].dump() << "," << s["fecn"][i].dump() << ","
          << s["becn"][i].dump() << "\n";
  }
}

}  // namespace

std::vector<std::string> write_cc_study_report(const std::string& dir, const StudyRun& run) {
  std::filesystem::create_directories(dir);
  const Study& s = *run.study;
  const Roles ro = roles_of(s);
  std::vector<std::string> failures;
  for (const ExperimentResult& r : run.results)
    if (!r.error.empty()) failures.push_back(r.exp.name + ": " + r.error);
  std::ostringstream md;
  write_report_opening(md, run, run.quick ? " (--quick: short windows, indicative only)" : "", RunTally::None);
  md << " Throughputs are fractions of link rate in the measurement window: the hot link's per hot host, "
        "the victims' per victim source (hosts neither silent nor hot senders). Per experiment: "
        "runs/NAME/results.json (block congestion_control, per-host figures) and runs/NAME/cc_timeseries.csv; "
        "all hot-spot series in timeseries.csv.\n\n";
  const std::string len = s.lengths.empty() ? "" : s.lengths.front().name;
  for (const auto& net : s.tori) {
    const bool ran = std::any_of(run.results.begin(), run.results.end(),
                                 [&](const ExperimentResult& r) { return r.exp.torus == net.name; });
    if (!ran) continue;  // --quick runs one network
    tree_tables(md, run, ro, net.name, len, failures);
    uniform_table(md, run, ro, net.name, len);
  }
  if (!s.notes.empty()) {
    md << "## Notes\n\n";
    for (const auto& n : s.notes) md << "- " << n << "\n";
    md << "\n";
  }
  if (!failures.empty()) {
    md << "## Failures\n\n";
    for (const auto& f : failures) md << "- " << f << "\n";
  }
  std::ofstream(dir + "/README.md") << md.str();
  write_series(dir, run, ro);
  write_experiment_csvs(dir, run);
  return failures;
}

}  // namespace ibsc::tb
