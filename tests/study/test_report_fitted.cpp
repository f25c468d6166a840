// The section "Choices fitted to the paper" of each committed report, written again from the
// study file and the report's own experiments.csv and points.csv: it must come out byte for byte
// as committed. The text rows (figure, before, after, why as the study file gives them) and the
// measured rows (factors computed from the run, at the reading each side names) go through the
// one writer, studies/study_fitted.h. A study file whose `fitted` list changes needs its report's
// section changed with it; this case prints both.
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "studies/study.h"
#include "studies/study_fitted.h"
#include "studies/study_report.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;

namespace {

const std::string kSource = IBSC_SOURCE_DIR;

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  BOOST_REQUIRE_MESSAGE(in, "cannot read " << path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// One CSV line's fields; a field in double quotes may hold commas (experiments.csv's error).
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

// The CSV's rows keyed by its header.
std::vector<std::map<std::string, std::string>> read_csv(const std::string& path) {
  std::istringstream in(slurp(path));
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = fields(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    const std::vector<std::string> f = fields(line);
    BOOST_REQUIRE_EQUAL(f.size(), header.size());
    std::map<std::string, std::string>& row = rows.emplace_back();
    for (size_t i = 0; i < f.size(); ++i) row[header[i]] = f[i];
  }
  return rows;
}

// The run as far as the report's CSVs keep it: each experiment's axis values, throughput and
// error, and its load points' offered load, accepted traffic and saturation flag (what the
// `report`, `saturation` and `highest` readings read; `steady` needs the warm-up, not kept).
tb::StudyRun run_from_report(const tb::Study& s, const std::string& report) {
  tb::StudyRun run;
  run.study = &s;
  std::map<std::string, size_t> index;
  for (auto& row : read_csv(report + "/experiments.csv")) {
    tb::ExperimentResult& r = run.results.emplace_back();
    r.exp.name = row["experiment"];
    r.exp.torus = row["torus"];
    r.exp.routing = row["routing"];
    r.exp.pattern = row["pattern"];
    r.exp.length = row["length"];
    r.throughput = std::stod(row["throughput"]);
    r.error = row["error"];
    index[r.exp.name] = run.results.size() - 1;
  }
  for (auto& row : read_csv(report + "/points.csv")) {
    tb::LoadPointResult& p = run.results.at(index.at(row["experiment"])).points.emplace_back();
    p.offered_load = std::stod(row["offered_load"]);
    p.accepted_bytes_per_ns_per_switch = std::stod(row["accepted_bytes_per_ns_per_switch"]);
    p.saturated = row["saturated"] == "true";
  }
  return run;
}

// From "\n## Choices fitted to the paper" to the next section's heading (or the end).
std::string committed_section(const std::string& readme) {
  const size_t from = readme.find("\n## Choices fitted to the paper\n");
  BOOST_REQUIRE(from != std::string::npos);
  const size_t to = readme.find("\n## ", from + 1);
  return readme.substr(from, to == std::string::npos ? std::string::npos : to - from);
}

// The section as the report writer writes it, measured rows at (pattern, length), and as committed.
void check_report(const std::string& study_file, const std::string& report, const std::string& pattern,
                  const std::string& length, bool measured) {
  const tb::Study s = tb::load_study(kSource + "/" + study_file);
  const tb::StudyRun run = run_from_report(s, kSource + "/" + report);
  size_t rows = 0;
  for (const auto& f : s.fitted) rows += !f.compare.empty();
  BOOST_TEST((rows > 0) == measured);  // the case covers the row kind it says
  std::ostringstream md;
  tb::write_fitted_choices(md, run, pattern, length);
  BOOST_TEST(md.str() == committed_section(slurp(kSource + "/" + report + "/README.md")));
}

}  // namespace

// seeds/000: measured rows only, Table 3's uniform 512-byte column, saturation against report reading.
BOOST_AUTO_TEST_CASE(seeds000_measured_rows) {
  const tb::Study s = tb::load_study(kSource + "/scenarios/seeds000/torus-routing.yaml");
  check_report("scenarios/seeds000/torus-routing.yaml", "reports/torus-routing", s.figure_pattern, s.figure_length,
               true);
}

// seeds/004: text rows and measured rows in one table, uniform traffic at the factor tables' length.
BOOST_AUTO_TEST_CASE(seeds004_text_and_measured_rows) {
  const tb::Study s = tb::load_study(kSource + "/scenarios/seeds004/voqsw.yaml");
  check_report("scenarios/seeds004/voqsw.yaml", "reports/voqsw", s.patterns.front().name,
               s.factor_tables.empty() ? s.figure_length : s.factor_tables[0].length, true);
}

// seeds/001-003: text rows only, with the figure they move and how they were picked (no factors:
// pattern and length are not read).
BOOST_AUTO_TEST_CASE(seeds001_to_003_text_rows) {
  check_report("scenarios/seeds001/large-direct.yaml", "reports/large-direct", "", "", false);
  check_report("scenarios/seeds002/tftr.yaml", "reports/tftr", "", "", false);
  check_report("scenarios/seeds003/in-order-adaptive.yaml", "reports/in-order-adaptive", "", "", false);
}

namespace {

tb::ExperimentResult result(const std::string& net, const std::string& routing, double throughput,
                            std::vector<std::pair<double, bool>> points) {
  tb::ExperimentResult r;
  r.exp = {net + "-" + routing, net, routing, "uniform", "512", {}};
  r.throughput = throughput;
  for (auto [accepted, saturated] : points) {
    tb::LoadPointResult& p = r.points.emplace_back();
    p.offered_load = 0.1 * static_cast<double>(r.points.size());
    p.accepted_bytes_per_ns_per_switch = accepted;
    p.saturated = saturated;
  }
  return r;
}

}  // namespace

// Both row kinds in one table, by hand. The measured row's `saturation` side reads the point at
// the saturation load (the lowest saturated load with none unsaturated above it: base's 0.2,
// fast's 0.3): n1 fast 0.45 over base 0.30 = 1.50; its `report` side reads the throughput,
// 0.60 / 0.50 = 1.20. n2 has no run of `fast`, so it is left out. A '|' in the study file's text
// is escaped.
BOOST_AUTO_TEST_CASE(text_and_measured_rows_by_hand) {
  tb::Study s;
  s.tori = {{"n1", {}, "", ""}, {"n2", {}, "", ""}};
  s.fitted.push_back({"pick x | y", "", "before | text", "after", "", {}, {}});
  s.fitted.push_back(
      {"reading", "", "at saturation", "highest", "", {"base", "fast", "base", "fast"}, {"saturation", "report"}});
  tb::StudyRun run;
  run.study = &s;
  run.results = {result("n1", "base", 0.50, {{0.10, false}, {0.30, true}, {0.50, true}}),
                 result("n1", "fast", 0.60, {{0.10, false}, {0.20, false}, {0.45, true}}),
                 result("n2", "base", 0.40, {{0.10, false}})};
  std::ostringstream md;
  tb::write_fitted_choices(md, run, "uniform", "512");
  const std::string rows = md.str().substr(md.str().find("|---|---|---|\n") + 14);
  BOOST_TEST(rows ==
             "| pick x \\| y | before \\| text | after |\n"
             "| reading | at saturation: fast over base (saturation), n1 1.50 | highest: fast over base, n1 1.20 |\n");
  // Text rows only: five columns, the figure and the why shown.
  s.fitted = {{"c", "Table 1", "b", "a", "w | v", {}, {}}};
  std::ostringstream text;
  tb::write_fitted_choices(text, run, "uniform", "512");
  BOOST_TEST(
      text.str().find("| choice | figure | before | after | how it was picked and measured |\n|---|---|---|---|---|\n"
                      "| c | Table 1 | b | a | w \\| v |\n") != std::string::npos);
}
