#include "studies/study_report_large.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "studies/report_text.h"
#include "studies/study_fitted.h"
#include "tb/run/saturation_search.h"
#include "tb/scenario/scenario.h"
#include "tb/stats/minimal_bound.h"

namespace ibsc::tb {
namespace {

constexpr int kGrid = 128;                     // the talk's step: 1/128 of injection bandwidth
constexpr double kLargeBoundTolerance = 0.05;  // as the torus-routing report (bytes in buffers at the window's edges)

// One cell: the talk's value, ours and the bound, all in % of injection bandwidth.
struct RowCell {
  const ExperimentResult* r = nullptr;
  double talk = NAN;
  double ours = NAN;     // step / grid
  double bound = NAN;    // deterministic rows: the routed channel-load bound
  int bound_step = -1;   // the bound rounded down to the grid
  bool within = true;    // deterministic: ours at most slack_steps below the rounded bound
  bool checked = false;  // held to the bound (permutations; see uniform_pattern)
};

// Random (uniform) traffic is reported against its bound, not held to it: random arrivals at
// the busiest channels queue up and back-pressure the fabric before those channels are full
// (the talk's own DOR rows reach 48-96% of the bounds of our tables on its networks). The
// permutations load their busiest channels with a constant rate and are held to one step.

// How many steps under its bound a permutation cell may saturate: one in a full run. --quick's
// 10 us windows carry about 80 packets over a busiest channel, so the load where a search calls
// it saturated moves from seed to seed: seeds 1-5 with mt19937_64 and PCG64 put the quick cells
// 0-4 steps under their bounds; quick runs allow 6.
int slack_steps(const StudyRun& run) { return run.quick ? 6 : 1; }

std::string slack_text(const StudyRun& run) {
  const int n = slack_steps(run);
  return n == 1 ? fmt::format("one 1/{} step", kGrid) : fmt::format("{} 1/{} steps", n, kGrid);
}

bool uniform_pattern(const Study& s, const std::string& pattern) {
  const auto& set = s.axis(s.patterns, pattern).set;
  return std::find(set.begin(), set.end(), "traffic.pattern=uniform") != set.end();
}

using report::pct;

RowCell cell_of(const StudyRun& run, const SaturationRow& row, const std::string& pattern) {
  RowCell c;
  auto t = row.talk.find(pattern);
  if (t != row.talk.end()) c.talk = t->second;
  const std::string& net = row.network_for(run.quick, run.talk_scale);
  c.r = find_experiment(run, net, row.routing, pattern, run.study->lengths.front().name);
  if (!c.r || c.r->not_built || !c.r->error.empty()) return c;
  if (c.r->saturation_step >= 0) c.ours = 100.0 * c.r->saturation_step / kGrid;
  if (row.deterministic) {
    c.bound = 100.0 * bound_fraction(c.r->bound);
    c.bound_step = step_above_bound(bound_fraction(c.r->bound), kGrid) - 1;
    c.checked = !uniform_pattern(*run.study, pattern);
    c.within =
        !c.checked || (c.r->saturation_step >= c.bound_step - slack_steps(run) && c.r->saturation_step <= c.bound_step);
  }
  return c;
}

std::string cell_text(const RowCell& c, bool deterministic) {
  if (!c.r) return pct(c.talk) + " / -";
  if (c.r->not_built) return pct(c.talk) + " / not built";
  if (!c.r->error.empty()) return pct(c.talk) + " / failed";
  std::string s = pct(c.talk) + " / **" + pct(c.ours) + "**";
  if (deterministic) s += " / " + pct(c.bound) + (c.within ? "" : " (!)") + (c.checked ? "" : " (u)");
  return s;
}

// Within each table and pattern, the talk's order of the rows against ours. A pair is inverted
// when the talk puts one row more than one step above the other and ours puts it more than one
// step below (closer than a step both ways is a tie: the grid cannot order them).
void write_rankings(std::ostream& md, const StudyRun& run) {
  const Study& s = *run.study;
  const double step = 100.0 / kGrid;
  std::string out;
  for (size_t first = 0; first < s.rows.size();) {
    size_t end = first;
    while (end < s.rows.size() && s.rows[end].table == s.rows[first].table) ++end;
    for (const auto& p : s.patterns) {
      std::vector<std::pair<const SaturationRow*, RowCell>> cells;
      for (size_t k = first; k < end; ++k) {
        const RowCell c = cell_of(run, s.rows[k], p.name);
        if (!std::isnan(c.ours) && !std::isnan(c.talk)) cells.emplace_back(&s.rows[k], c);
      }
      if (cells.size() < 2) continue;
      const auto order = [&](bool talk) {
        auto sorted = cells;
        std::stable_sort(sorted.begin(), sorted.end(), [&](const auto& a, const auto& b) {
          return talk ? a.second.talk > b.second.talk : a.second.ours > b.second.ours;
        });
        std::string t;
        for (const auto& [row, c] : sorted)
          t += fmt::format("{}{} {}", t.empty() ? "" : ", ", row->label, pct(talk ? c.talk : c.ours));
        return t;
      };
      std::string inverted;
      for (const auto& [ra, a] : cells)
        for (const auto& [rb, b] : cells)
          if (a.talk > b.talk + step && b.ours > a.ours + step)
            inverted += fmt::format("{}{} < {}", inverted.empty() ? "" : "; ", ra->label, rb->label);
      out += fmt::format("| {} | {} | {} | {} | {} |\n", s.rows[first].table, p.name, order(true), order(false),
                         inverted.empty() ? "kept" : "not kept: " + inverted);
    }
    first = end;
  }
  if (out.empty()) return;
  md << "\n## The talk's ranking of routings\n\nWithin each table and pattern, the rows ordered by the talk's "
        "saturation and by ours. Kept: no pair the talk separates by more than one 1/128 step is reversed by "
        "more than one step in ours; otherwise the reversed pairs (ours: first < second).\n\n"
     << "| table | pattern | talk | ours | ranking |\n|---|---|---|---|---|\n"
     << out;
}

// The bound any minimal routing obeys for a row's pattern on network `net` (one of the study's).
MinimalBound minimal_bound_on(const Study& s, const SaturationRow& row, const std::string& pattern,
                              const std::string& net) {
  static std::map<std::string, routing::Topology> topos;  // 16,384 hosts: built once per report
  std::vector<std::string> set;
  for (const auto* v : {&s.axis(s.tori, net), &s.axis(s.routings, row.routing), &s.axis(s.patterns, pattern),
                        &s.axis(s.lengths, s.lengths.front().name)})
    set.insert(set.end(), v->set.begin(), v->set.end());
  const Scenario sc = load_scenario(s.base, set);
  auto it = topos.find(net);
  if (it == topos.end()) it = topos.emplace(net, build_topology(sc.topology)).first;
  return minimal_unavoidable_bound(it->second, traffic_matrix(sc.point.traffic, it->second));
}

// The bound any minimal routing obeys (tb/stats/minimal_bound.h) for the rows of report_options
// minimal_rows ("TABLE / ROW"), on the network run and on the talk's own, per permutation: whether
// the talk's near-zero cells and ours are what minimal paths allow on each network.
void write_minimal_bounds(std::ostream& md, const StudyRun& run) {
  const Study& s = *run.study;
  auto it = s.report_options.find("minimal_rows");
  if (it == s.report_options.end() || run.quick) return;
  md << "\n## Minimal routing's unavoidable cables: talk / ours / bound on our network / bound on the talk's\n\n"
        "Between two switches the minimal paths form layers of cables; where a layer's cables all join the same two "
        "switches, every minimal path of the pair crosses them and they carry its whole rate, whatever the routing "
        "picks among minimal paths (`tb/stats/minimal_bound.h`). The busiest such cable group caps every host's "
        "rate: a bound no minimal routing, static or adaptive, can pass. On a dragonfly it is the one global cable "
        "between two groups that a permutation funnels a group's hosts into. Permutations only (uniform traffic "
        "spreads). In brackets: the busiest group on the talk's network; (!): ours more than one 1/128 step over "
        "its network's bound, which only a saturation test that misses a few held-back flows allows (it judges "
        "all hosts' traffic together).\n\n| row | network / talk's |";
  for (const auto& p : s.patterns)
    if (!uniform_pattern(s, p.name)) md << " " << p.name << " |";
  md << "\n|---|---|";
  for (const auto& p : s.patterns)
    if (!uniform_pattern(s, p.name)) md << "---|";
  md << "\n";
  for (const std::string& item : it->second) {
    const std::string table = item.substr(0, item.find(" / ")), label = item.substr(item.find(" / ") + 3);
    const SaturationRow* row = nullptr;
    for (const SaturationRow& r : s.rows)
      if (r.table == table && r.label == label) row = &r;
    if (!row || row->talk_network.empty())
      throw std::runtime_error("report_options.minimal_rows: '" + item + "' names no row with a talk_network");
    md << "| " << item << " | " << row->network << " / " << row->talk_network << " |";
    for (const auto& p : s.patterns) {
      if (uniform_pattern(s, p.name)) continue;
      const RowCell c = cell_of(run, *row, p.name);
      std::string cell = pct(c.talk) + " / **" + pct(c.ours) + "**";
      for (const std::string& net : {row->network, row->talk_network}) {
        const MinimalBound b = minimal_bound_on(s, *row, p.name, net);
        const bool over = net == row->network && c.ours > 100 * b.fraction + 100.0 / kGrid;
        cell += " / " + pct(100 * b.fraction) + (over ? " (!)" : "") +
                (net == row->talk_network ? " (" + (b.where.empty() ? std::string("none unavoidable") : b.where) + ")"
                                          : "");
      }
      md << " " << cell << " |";
    }
    md << "\n";
  }
}

// Where a headline on a minimal row (report_options minimal_rows) is not met: the bound minimal
// paths allow on our network and on the talk's, measured.
std::string headline_cause(const Study& s, const SaturationRow& row, const std::string& pattern, const RowCell& c) {
  auto it = s.report_options.find("minimal_rows");
  if (it == s.report_options.end() || row.talk_network.empty() || uniform_pattern(s, pattern) ||
      std::find(it->second.begin(), it->second.end(), row.table + " / " + row.label) == it->second.end())
    return "";
  const MinimalBound ours = minimal_bound_on(s, row, pattern, row.network);
  const MinimalBound talk = minimal_bound_on(s, row, pattern, row.talk_network);
  const bool over = c.ours > 100 * ours.fraction + 100.0 / kGrid;
  return fmt::format(
      "minimal paths allow at most {} on {} ({}: {:.1f} host rates through it) and {} on the talk's {} ({}: {:.1f}); "
      "ours carries {:.0f}% of its network's bound{}. ",
      pct(100 * ours.fraction), row.network, ours.where, ours.busiest, pct(100 * talk.fraction), row.talk_network,
      talk.where, talk.busiest, 100 * c.ours / (100 * ours.fraction),
      over ? ", more than a step over a bound no minimal routing passes: the saturation test, over all hosts' "
             "traffic, misses the few flows held back at that cable"
           : "");
}

// The talk's headline results (report_options headlines), each "TABLE / ROW / PATTERN OP VALUE"
// with OP ">=" (ours at least VALUE), "<=" (ours at most VALUE) or "~" (ours within explain_above
// of VALUE): met or not; a headline may end with " -- WHY", the measured cause shown beside it.
void write_headlines(std::ostream& md, const StudyRun& run) {
  const Study& s = *run.study;
  auto it = s.report_options.find("headlines");
  if (it == s.report_options.end() || run.quick) return;
  md << "\n## Headline results\n\n| headline | talk | ours | | cause (where not met) |\n|---|---|---|---|---|\n";
  for (const std::string& full : it->second) {
    const size_t dash = full.find(" -- ");
    const std::string h = full.substr(0, dash), why = dash == std::string::npos ? "" : full.substr(dash + 4);
    std::istringstream in(h);
    std::string table, label, rest, pattern, op;
    double value = NAN;
    std::getline(in, table, '/');
    std::getline(in, label, '/');
    std::getline(in, rest);
    std::istringstream tail(rest);
    tail >> pattern >> op >> value;
    const auto trim = [](std::string t) {
      t.erase(0, t.find_first_not_of(' '));
      t.erase(t.find_last_not_of(' ') + 1);
      return t;
    };
    const SaturationRow* row = nullptr;
    for (const SaturationRow& r : s.rows)
      if (r.table == trim(table) && r.label == trim(label)) row = &r;
    if (!row || (op != ">=" && op != "<=" && op != "~") || std::isnan(value))
      throw std::runtime_error(
          "report_options.headlines: '" + h +
          "' is not 'TABLE / ROW / PATTERN >= VALUE', '... <= VALUE' or '... ~ VALUE' naming a row");
    const RowCell c = cell_of(run, *row, pattern);
    const bool met = op == ">="   ? c.ours >= value
                     : op == "<=" ? c.ours <= value
                                  : std::abs(c.ours - value) <= s.explain_above * value;
    md << "| " << h << " | " << pct(c.talk) << " | " << pct(c.ours) << " | "
       << (std::isnan(c.ours) ? "not run"
           : met              ? "met"
                              : "**not met**")
       << " | " << (met ? "" : headline_cause(s, *row, pattern, c) + why) << " |\n";
  }
}

}  // namespace

std::vector<std::string> write_large_direct_report(const std::string& dir, const StudyRun& run) {
  namespace fs = std::filesystem;
  const Study& s = *run.study;
  fs::create_directories(dir);
  write_experiment_csvs(dir, run);
  std::ostringstream md;
  write_report_opening(
      md, run,
      run.quick        ? " (**quick mode**: small fabrics and short windows; checks the method, not the talk's numbers)"
      : run.talk_scale ? " (**talk scale**: each row on its `talk_network`, the talk's own network; rows without one "
                         "and cells not selected are not run)"
                       : "",
      RunTally::ExperimentsRun);
  md << " The topologies against the talk's configuration tables: [topologies.md](topologies.md).\n\n";

  md << "## How saturation is measured\n\n"
     << "- **Maximum bandwidth** is the injection bandwidth: every sending host offers traffic at link rate. A cell "
        "is the highest offered load, per sending host as a % of link rate, that the fabric carries unsaturated "
        "(hosts a permutation maps to themselves send nothing and are not counted).\n"
     << "- **Search**: loads on the talk's grid of 1/128 (0.78%) steps. Each probe is one load point (its own "
        "process); a deterministic row's bracket is capped by its channel-load bound (no offered load above it "
        "can be carried), probed from the top (the step at or just under the bound, then one lower), then "
        "bisected below; other rows bisect 0..1 (7 probes).\n"
     << "- **Saturated** (tb/run/run_point.cpp): packets generated in the window still out after the drain, or the "
        "window delivered over 5% (and over the 95% batch-means noise) less than it generated.\n"
     << "- **Bound** (deterministic rows): the routed channel-load bound of our tables: every host pair's primary "
        "path walked through the LFTs, the busiest channel's share of one host's rate s gives 1/s (at most 100%). "
        "Uniform traffic is summed per source switch and path record row (no hosts x hosts matrix). "
        "Acceptance (permutations): ours at most one step below the bound rounded down to the grid; uniform "
        "cells are reported as a share of their bound.\n"
     << "- **All2All** is uniform random traffic (each packet to any other host, equally likely); the bit "
        "patterns act on the host index, node = 8 x switch + local port (tb/traffic/traffic.h).\n";
  const auto& mode = run.quick ? s.quick_set : s.full_set;
  for (size_t k = 0; k < mode.size(); ++k) md << (k ? ", `" : "- Settings of this mode: `") << mode[k] << "`";
  md << "\n\n";

  md << "## Saturation, % of injection bandwidth: talk / **ours** / bound\n\n"
     << "Bound only for deterministic rows; (!) marks a permutation cell more than one step under its bound; "
        "(u) a uniform (random) cell, reported against its bound but not held to it (random arrivals queue at "
        "the busiest channels and back-pressure the fabric before those are full). The network column names the "
        "network run (the study's `networks`).\n";
  std::vector<std::string> failures = study_failures(run, kLargeBoundTolerance);
  std::vector<ReportOutlier> outliers;
  std::ofstream csv(dir + "/saturation.csv");
  csv << "table,row,network,routing,pattern,talk,ours,bound,bound_step,ours_step,probes,wall_seconds,status,"
         "talk_network_bound\n";
  std::string table;
  for (const SaturationRow& row : s.rows) {
    const std::string& net = row.network_for(run.quick, run.talk_scale);
    if (net.empty()) continue;
    if (row.table != table) {
      table = row.table;
      md << "\n### " << table << "\n\n| Routing | network |";
      named_columns(md, s.patterns);
    }
    md << "| " << row.label << (row.deterministic ? "" : " (adaptive)") << " | " << net << " |";
    for (const auto& p : s.patterns) {
      const RowCell c = cell_of(run, row, p.name);
      md << " " << cell_text(c, row.deterministic) << " |";
      const std::string status = !c.r                  ? "not run"
                                 : c.r->not_built      ? "not built"
                                 : !c.r->error.empty() ? "failed"
                                                       : "ok";
      csv << table << "," << row.label << "," << net << "," << row.routing << "," << p.name << "," << pct(c.talk) << ","
          << pct(c.ours) << "," << pct(c.bound) << "," << c.bound_step << "," << (c.r ? c.r->saturation_step : -1)
          << "," << (c.r ? c.r->points.size() : 0) << "," << fmt::format("{:.1f}", c.r ? c.r->wall_seconds : 0.0) << ","
          << status << "\n";
      if (!c.within)
        failures.push_back(fmt::format("{} {} {}: saturation {:.1f}% is more than {} under the bound {:.1f}%", net,
                                       row.routing, p.name, c.ours, slack_text(run), c.bound));
      if (!std::isnan(c.ours) && !std::isnan(c.talk) && std::abs(c.ours - c.talk) > s.explain_above * c.talk)
        outliers.push_back({fmt::format("{} {} {}", table, row.label, p.name),
                            fmt::format("talk {:.1f}, ours {:.1f}{}", c.talk, c.ours,
                                        std::isnan(c.bound) ? "" : fmt::format(", bound {:.1f}", c.bound))});
    }
    md << "\n";
  }

  // How close random traffic comes to its bound.
  std::string ratios;
  for (const SaturationRow& row : s.rows)
    for (const auto& p : s.patterns) {
      const RowCell c = cell_of(run, row, p.name);
      if (row.deterministic && !c.checked && !std::isnan(c.ours) && c.bound > 0)
        ratios +=
            fmt::format("{}{} {}: {:.0f}%", ratios.empty() ? "" : "; ", row.table, row.label, 100 * c.ours / c.bound);
    }
  if (!ratios.empty()) md << "\nUniform (random) traffic, ours as a share of the bound: " << ratios << ".\n";

  // Deterministic rows run on a scaled-down network: their bound on the talk's own network.
  bool any_talk = false;
  for (const SaturationRow& row : s.rows) any_talk |= row.deterministic && !row.talk_network.empty();
  if (any_talk && !run.quick && !run.talk_scale) {  // --talk-scale: the bound above is that network's
    md << "\n## The talk's networks: talk / channel-load bound of our tables\n\n"
       << "The deterministic rows routed on the talk's own 16,384-host networks (no run: the bound only), in % of "
          "injection bandwidth.\n\n| Routing | talk's network |";
    named_columns(md, s.patterns);
    for (const SaturationRow& row : s.rows) {
      if (!row.deterministic || row.talk_network.empty()) continue;
      md << "| " << row.table << " " << row.label << " | " << row.talk_network << " |";
      for (const auto& p : s.patterns) {
        const RowCell c = cell_of(run, row, p.name);
        const double b = c.r && c.r->talk_bound >= 0 ? 100 * c.r->talk_bound : NAN;
        md << " " << pct(c.talk) << " / " << (c.r && c.r->not_built ? "not built" : pct(b)) << " |";
        if (!std::isnan(b) && !std::isnan(c.talk) && std::abs(b - c.talk) > s.explain_above * c.talk)
          outliers.push_back({fmt::format("{} {} {} (bound on {})", row.table, row.label, p.name, row.talk_network),
                              fmt::format("talk {:.1f}, bound of our tables {:.1f}", c.talk, b)});
      }
      md << "\n";
    }
  }

  write_rankings(md, run);
  write_headlines(md, run);
  write_minimal_bounds(md, run);

  md << "\n## Routing tables\n\n| network / routing | SLs | VLs | tables check |\n|---|---|---|---|\n";
  for (const auto& [key, rt] : run.routed)
    md << "| " << key << " | " << rt.sls << " | " << rt.vls << " | " << (rt.check.ok() ? "pass" : "FAIL") << " |\n";

  write_run_times(md, run,
                  "Probes run and seconds per experiment, all its probes: wall (the machine is shared) and CPU (the "
                  "experiment's process and its forked workers).\n\n");

  if (!s.notes.empty()) {
    md << "\n## Notes\n\n";
    for (const auto& n : s.notes) md << "- " << n << "\n";
  }
  write_fitted_choices(md, run, s.figure_pattern, s.figure_length);
  write_differences(md, s, run.quick,
                    "Quick mode runs scaled-down fabrics: its cells are not comparable with the talk's.", outliers,
                    false);
  md << "\n## Checks (must hold whatever the tuning)\n\n"
     << "- every run deadlock-free and conserving packets (generated = injected + queued at the sources, injected = "
        "delivered + in flight, each counted where the packets are);\n"
     << "- every routing's tables pass the table checks;\n"
     << "- no accepted traffic above the topology's channel-load bound (+5% for bytes in buffers at the window's "
        "edges);\n"
     << "- every deterministic permutation cell within " << (run.quick ? slack_text(run) : "one step")
     << " of its channel-load bound" << (run.quick ? " (quick mode: its short windows' seed-to-seed spread)" : "")
     << ".\n\n";
  finish_report(md, dir, failures);
  return failures;
}

}  // namespace ibsc::tb
