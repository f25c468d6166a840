#include "studies/study_fitted.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

namespace ibsc::tb {

double throughput_reading(const ExperimentResult& r, const std::string& reading) {
  if (!r.error.empty() || r.points.empty()) return NAN;
  if (reading == "report") return r.throughput;
  if (reading == "highest") {
    double best = 0;
    for (const auto& p : r.points) best = std::max(best, p.accepted_bytes_per_ns_per_switch);
    return best;
  }
  const ThroughputReadings t = throughput_readings(r.points);
  if (reading == "saturation") return t.found ? t.at_saturation : NAN;
  if (reading == "steady") return t.past_found ? t.past : NAN;
  return NAN;
}

namespace {

// A reading as the report's CSVs keep it (experiments.csv's throughput to 4 decimals, points.csv's
// accepted traffic to 6), so that the factors computed again from the CSVs
// (tests/study/test_report_fitted.cpp) come out the same where a factor sits on a rounding edge.
double as_kept(double x, const std::string& reading) {
  if (std::isnan(x)) return x;
  return std::stod(fmt::format(reading == "report" ? "{:.4f}" : "{:.6f}", x));
}

}  // namespace

std::string factors_per_network(const StudyRun& run, const std::string& base, const std::string& routing,
                                const std::string& pattern, const std::string& length, const std::string& reading) {
  std::string out;
  for (const auto& net : run.study->tori) {
    const ExperimentResult* b = find_experiment(run, net.name, base, pattern, length);
    const ExperimentResult* r = find_experiment(run, net.name, routing, pattern, length);
    if (!b || !r) continue;
    const double f =
        as_kept(throughput_reading(*r, reading), reading) / as_kept(throughput_reading(*b, reading), reading);
    if (std::isnan(f)) continue;
    out += (out.empty() ? "" : ", ") + fmt::format("{} {:.2f}", net.name, f);
  }
  return out.empty() ? "not run" : out;
}

namespace {

// A table cell: a '|' in the study file's text would end the cell.
std::string cell(std::string t) {
  for (size_t i = 0; (i = t.find('|', i)) != std::string::npos; i += 2) t.replace(i, 1, "\\|");
  return t;
}

// A measured side: "LABEL: ROUTING over BASE (reading R): 8sw 1.31, ...".
std::string measured(const StudyRun& run, const FittedChoice& f, int side, const std::string& pattern,
                     const std::string& length) {
  const std::string& base = f.compare[2 * side];
  const std::string& routing = f.compare[2 * side + 1];
  const std::string reading = f.readings.empty() ? "report" : f.readings[side];
  const std::string label = side == 0 ? f.before : f.after;
  return (label.empty() ? "" : label + ": ") + routing + " over " + base +
         (reading == "report" ? "" : " (" + reading + ")") + ", " +
         factors_per_network(run, base, routing, pattern, length, reading);
}

}  // namespace

void write_fitted_choices(std::ostream& md, const StudyRun& run, const std::string& pattern,
                          const std::string& length) {
  const Study& s = *run.study;
  if (s.fitted.empty()) return;
  const bool any_measured =
      std::any_of(s.fitted.begin(), s.fitted.end(), [](const FittedChoice& f) { return !f.compare.empty(); });
  md << "\n## Choices fitted to the paper\n\n";
  if (any_measured)
    md << "Where the paper leaves a choice open or can be read several ways, the one picked because its figures come "
          "nearer the paper's: matches that rest on such a choice are fitted, not independent evidence. Measured rows "
          "are computed from this run (factors over the baseline, per network, "
       << pattern << " traffic, " << length
       << "-byte packets; reading: the report's own unless named); the others cite the figure and its "
          "source.\n\n| choice | figure under the choice not taken | figure under the choice picked |\n|---|---|---|\n";
  else
    md << "Where the paper leaves a detail open and ours was picked because it brings a figure nearer the paper's, "
          "the match is not independent evidence: each such choice, the figure it moves, and that figure with the "
          "alternative (before) and with the choice (after), as measured (`fitted` in the study file).\n\n| choice "
          "| figure | before | after | how it was picked and measured |\n|---|---|---|---|---|\n";
  for (const FittedChoice& f : s.fitted) {
    const bool m = !f.compare.empty();
    md << "| " << cell(f.choice) << " | ";
    if (any_measured)
      md << (m ? measured(run, f, 0, pattern, length) : cell(f.before)) << " | "
         << (m ? measured(run, f, 1, pattern, length) : cell(f.after)) << " |\n";
    else md << cell(f.figure) << " | " << cell(f.before) << " | " << cell(f.after) << " | " << cell(f.why) << " |\n";
  }
}

}  // namespace ibsc::tb
