#include "studies/study_report_fattrees.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "studies/report_text.h"
#include "tb/run/saturation_search.h"

namespace ibsc::tb {
namespace {

constexpr double kFatTreeBoundTolerance = 0.05;  // as the other reports (bytes in buffers at the window's edges)

int grid_of(const Study& s) {
  auto g = s.report_options.find("grid");
  return g != s.report_options.end() && !g->second.empty() ? std::stoi(g->second.front()) : 128;
}

bool uniform_or_all_to_all(const Study& s, const std::string& pattern) {
  const auto& set = s.axis(s.patterns, pattern).set;
  // all-to-all: its bound is the uniform matrix's (tb/cli/cmd_reproduce.cpp), reported, not held to
  return std::find(set.begin(), set.end(), "traffic.pattern=uniform") != set.end() ||
         std::find(set.begin(), set.end(), "traffic.pattern=all-to-all") != set.end();
}

// A CSV field without commas (table headings have them: "2-level, radix 36, 648 hosts").
std::string field(std::string v) {
  std::replace(v.begin(), v.end(), ',', ';');
  return v;
}

using report::pct;

// Out-of-order arrivals at the destination NICs over the probes, and packets delivered.
std::string reorder_text(const ExperimentResult& r) {
  uint64_t ooo = 0, probes = 0;
  for (const auto& p : r.points)
    if (p.has_transport) ooo += p.transport.out_of_order_arrivals, ++probes;
  return probes ? fmt::format("{}", ooo) : "";
}

}  // namespace

std::vector<std::string> write_fat_trees_report(const std::string& dir, const StudyRun& run) {
  namespace fs = std::filesystem;
  const Study& s = *run.study;
  const int grid = grid_of(s);
  fs::create_directories(dir);
  write_experiment_csvs(dir, run);
  std::ostringstream md;
  write_report_opening(md, run, run.quick ? " (**quick mode**: a small tree, short windows)" : "",
                       RunTally::ExperimentsRun);
  md << "\n\n## What the columns are\n\n"
     << "- **route s**: wall seconds to compute the tables (OpenSM rows: the whole OpenSM run on ibsim, "
        "start-up included; the machine is shared, so compare orders of magnitude).\n"
     << "- **busiest uniform / shift**: routes (host pairs) on the busiest switch-to-switch channel, every pair's "
        "primary path walked through the LFTs (routing/pair_loads.h); shift: the worst of the N-1 shift "
        "permutations i -> i + j of the host index. A permutation saturates at 1 / (its busiest count) of link rate "
        "at best.\n"
     << fmt::format(
            "- **saturation** per pattern, % of injection bandwidth: the highest load on a grid of 1/{} "
            "({:.1f}%) steps the fabric carries unsaturated (tb/run/saturation_search.h, tb/run/run_point.cpp); "
            "deterministic rows: / the channel-load bound of their tables, probed from the bound down; a bound "
            "under the first step is searched on 1/128 steps (marked), and \"<\" a step says it is under even that "
            "grid's first step (nothing to probe).\n",
            grid, 100.0 / grid)
     << "- **ooo**: out-of-order arrivals at the destination NICs over all probes of the row's first pattern "
        "(rows with a transport.mode only).\n";
  const auto& mode = run.quick ? s.quick_set : s.full_set;
  for (size_t k = 0; k < mode.size(); ++k) md << (k ? ", `" : "- Settings of this mode: `") << mode[k] << "`";
  md << "\n";

  std::vector<std::string> failures = study_failures(run, kFatTreeBoundTolerance);
  std::ofstream csv(dir + "/fat-trees.csv");
  csv << "table,row,network,routing,route_seconds,busiest_uniform,busiest_shift,pattern,saturation,bound,status,"
         "grid\n";
  std::string table;
  for (const SaturationRow& row : s.rows) {
    const std::string& net = run.quick ? row.quick_network : row.network;
    if (net.empty()) continue;
    if (row.table != table) {
      table = row.table;
      md << "\n## " << (run.quick ? "quick: " + net : table) << " (`" << s.axis(s.tori, net).set.front() << "`)\n\n"
         << "| Routing | route s | busiest uniform | busiest shift |";
      for (const auto& p : s.patterns) md << " " << p.name << " |";
      md << " ooo |\n|---|---|---|---|";
      for (size_t i = 0; i <= s.patterns.size(); ++i) md << "---|";
      md << "\n";
    }
    auto rt = run.routed.find(net + "/" + row.routing);
    const RoutedTorus* routed = rt == run.routed.end() ? nullptr : &rt->second;
    md << "| " << row.label << " |";
    if (routed)
      md << fmt::format(" {:.2f} | {} | {} |", routed->route_seconds, routed->busiest_uniform, routed->busiest_shift);
    else md << " - | - | - |";
    std::string ooo;
    for (const auto& p : s.patterns) {
      const ExperimentResult* r = find_experiment(run, net, row.routing, p.name, s.lengths.front().name);
      std::string cell = "-", status = "not run", sat = "-";
      double ours = NAN, bound = NAN;
      int g = 0;  // the grid this cell was searched on (0: none)
      if (r && r->not_built) cell = status = "not built";
      else if (r && !r->error.empty()) cell = "failed: " + r->error.substr(0, 160), status = "failed";
      else if (r) {
        status = "ok";
        g = r->saturation_grid > 0 ? r->saturation_grid : grid;
        if (r->below_first_step) sat = "<" + pct(100.0 / g);
        else if (r->saturation_step >= 0) ours = 100.0 * r->saturation_step / g, sat = pct(ours);
        cell = "**" + sat + "**";
        if (row.deterministic) {
          bound = 100.0 * bound_fraction(r->bound);
          cell += " / " + pct(bound);
          const int bound_step = step_above_bound(bound_fraction(r->bound), g) - 1;
          // One step of the report's grid, also where the search ran on a finer one.
          const int slack = std::max(1, g / grid);
          if (!uniform_or_all_to_all(s, p.name) && !r->below_first_step && r->saturation_step < bound_step - slack)
            failures.push_back(
                fmt::format("{} {} {}: saturation {:.1f}% is more than one 1/{} step under the bound "
                            "{:.1f}%",
                            net, row.routing, p.name, ours, grid, bound));
        }
        if (g != grid) cell += fmt::format(" (1/{} steps)", g);
        if (p.name == s.patterns.front().name) ooo = reorder_text(*r);  // the first pattern's (uniform)
      }
      md << " " << cell << " |";
      csv << field(run.quick ? "quick: " + net : table) << "," << field(row.label) << "," << net << "," << row.routing
          << "," << fmt::format("{:.2f}", routed ? routed->route_seconds : 0.0) << ","
          << (routed ? routed->busiest_uniform : -1) << "," << (routed ? routed->busiest_shift : -1) << "," << p.name
          << "," << sat << "," << pct(bound) << "," << status << "," << g << "\n";
    }
    md << " " << ooo << " |\n";
  }

  md << "\n## Routing tables\n\n| network / routing | SLs | VLs | LMC | tables check |\n|---|---|---|---|---|\n";
  for (const auto& [key, r] : run.routed)
    md << "| " << key << " | " << r.sls << " | " << r.vls << " | " << r.lmc << " | " << (r.check.ok() ? "pass" : "FAIL")
       << " |\n";
  write_run_times(md, run, "");
  if (!s.notes.empty()) {
    md << "\n## Notes\n\n";
    for (const auto& n : s.notes) md << "- " << n << "\n";
  }
  md << "\n## Checks (must hold whatever the tuning)\n\n"
     << "- every run deadlock-free and conserving packets; every routing's tables pass the table checks;\n"
     << "- no accepted traffic above the topology's channel-load bound (+5%);\n"
     << "- every deterministic permutation cell within one step of its channel-load bound.\n\n";
  finish_report(md, dir, failures);
  return failures;
}

}  // namespace ibsc::tb
