// reports/large-direct/talk-scale.md's two tables of adaptive cells searched at the talk's scale
// (permutation cells, All2All cells) are merged by hand from runs of many sessions. Every row must say what its probes
// in talk-scale-adaptive/points.csv say (the result: the highest offered load that carried; each probe's offered load,
// verdict and carried load; the CPU seconds), and what the stand-in table (saturation.csv) says of the same cell (the
// talk's figure, ours on the stand-in); every experiment in points.csv has exactly one row.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

const std::string kReports = std::string(IBSC_SOURCE_DIR) + "/reports/large-direct/";

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  BOOST_REQUIRE_MESSAGE(in, "cannot read " << path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == sep) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(' '), b = s.find_last_not_of(' ');
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// A CSV without quoted fields (both files here have none), rows keyed by the header; a row may
// leave out its trailing empty fields (saturation.csv's talk_network_bound, where there is none).
std::vector<std::map<std::string, std::string>> read_csv(const std::string& path) {
  std::istringstream in(slurp(path));
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = split(line, ',');
  std::vector<std::map<std::string, std::string>> rows;
  BOOST_REQUIRE_MESSAGE(line.empty() || line.back() != '\r',
                        path << ": CRLF line ends (the other CSVs end lines with LF)");
  while (std::getline(in, line)) {
    const std::vector<std::string> f = split(line, ',');
    BOOST_REQUIRE_MESSAGE(f.size() <= header.size(), path << ": '" << line << "'");
    auto& row = rows.emplace_back();
    for (size_t i = 0; i < header.size(); ++i) row[header[i]] = i < f.size() ? f[i] : "";
  }
  return rows;
}

std::string pct(const std::string& fraction) {  // "0.148438" -> "14.8", as the table prints it
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", 100 * std::strtod(fraction.c_str(), nullptr));
  return b;
}

struct Probe {
  double offered;
  std::string text;  // "14.8 ok (14.6)"
  bool ok;
};

}  // namespace

BOOST_AUTO_TEST_CASE(adaptive_table_says_what_its_probes_say) {
  // The cell's key in points.csv ("flatfly-MixedADOR-Trns-512") from the stand-in table's row
  // ("FlatFly", "Mixed ADOR", network "flatfly-512", routing "MixedADOR").
  std::map<std::string, std::map<std::string, std::string>> stand_in;  // "FlatFly Mixed ADOR|Trns" -> row
  for (auto& r : read_csv(kReports + "saturation.csv")) stand_in[r["table"] + " " + r["row"] + "|" + r["pattern"]] = r;

  std::map<std::string, std::vector<Probe>> probes;
  std::map<std::string, std::string> cpu;  // points.csv's text: empty where it was not kept
  for (auto& r : read_csv(kReports + "talk-scale-adaptive/points.csv")) {
    const bool ok = r["saturated"] == "false";
    BOOST_REQUIRE_MESSAGE(ok || r["saturated"] == "true", "points.csv: saturated '" << r["saturated"] << "'");
    const double offered = std::strtod(r["offered_load"].c_str(), nullptr);
    probes[r["experiment"]].push_back(
        {offered, pct(r["offered_load"]) + (ok ? " ok (" : " saturated (") + pct(r["accepted_fraction"]) + ")", ok});
    // Empty where the run's CPU seconds were not kept (a finished MPI run of a build before
    // 2026-12-01 kept wall seconds only, README.md's run times): the table then says "- (W s wall)".
    cpu[r["experiment"]] = r["experiment_cpu_seconds"];
  }

  const std::string md = slurp(kReports + "talk-scale.md");
  std::set<std::string> seen;
  for (const bool all2all : {false, true}) {
    const std::string title = all2all ? "All2All cells" : "permutation cells";
    const size_t from = md.find("## Adaptive rows at the talk's scale: " + title);
    BOOST_REQUIRE_MESSAGE(from != std::string::npos, "talk-scale.md has no section of " << title);
    const size_t to = md.find("\n## ", from + 1);
    std::istringstream section(md.substr(from, to - from));
    int rows = 0;
    for (std::string line; std::getline(section, line);) {
      if (line.rfind("| ", 0) != 0 || line.rfind("| row ", 0) == 0) continue;
      const std::vector<std::string> c =
          split(line, '|');  // "", row, pattern, talk, ours, bound, stand-in, probes, CPU, ""
      BOOST_REQUIRE_MESSAGE(c.size() == 10, "talk-scale.md: not 8 columns: " << line);
      const std::string row = trim(c[1]), pattern = trim(c[2]);
      BOOST_TEST_CONTEXT("talk-scale.md row '" << row << " | " << pattern << "'") {
        ++rows;
        BOOST_TEST((pattern == "All2All") == all2all, "a row in the table of " << title);
        const auto s = stand_in.find(row + "|" + pattern);
        BOOST_REQUIRE_MESSAGE(s != stand_in.end(), "no such row in saturation.csv");
        auto& r = s->second;
        const std::string net = r["network"].substr(0, r["network"].find('-'));
        const std::string key = net + "-" + r["routing"] + "-" + pattern + "-512";
        BOOST_TEST(seen.insert(key).second, key << " has two rows");
        BOOST_REQUIRE_MESSAGE(probes.count(key), key << " has no probe in points.csv");
        BOOST_TEST(trim(c[3]) == r["talk"]);
        BOOST_TEST(trim(c[6]) == r["ours"] + " (" + r["network"] + ")");

        std::vector<Probe> p = probes[key];
        std::sort(p.begin(), p.end(), [](const Probe& a, const Probe& b) { return a.offered < b.offered; });
        std::string listed, best;
        for (const Probe& q : p) {
          listed += (listed.empty() ? "" : ", ") + q.text;
          if (q.ok) best = q.text.substr(0, q.text.find(' '));
        }
        BOOST_TEST(trim(c[7]) == listed);
        // The result: the highest load that carried, or below the lowest probe when none did.
        const std::string lowest = p.front().text.substr(0, p.front().text.find(' '));
        BOOST_TEST(trim(c[4]) == "**" + (best.empty() ? "< " + lowest : best) + "**");
        // points.csv keeps CPU seconds to 0.1 s, the table whole seconds of the unrounded figure.
        const std::string cpu_cell = trim(c[8]);
        if (cpu[key].empty())
          BOOST_TEST((cpu_cell.rfind("- (", 0) == 0 && cpu_cell.find(" s wall)") != std::string::npos), cpu_cell);
        else
          BOOST_TEST(std::abs(std::strtod(cpu_cell.c_str(), nullptr) - std::strtod(cpu[key].c_str(), nullptr)) <= 0.55);
      }
    }
    BOOST_TEST(rows > 0, "no row in the table of " << title);
  }
  for (const auto& [key, list] : probes) BOOST_TEST(seen.count(key) == 1u, key << " in points.csv has no row");
}
