// seeds/002 Tables 1-2 and Figure 4 for the study report, from the routing library alone: the
// same computations as `ibsc route --paths --check` and `--fault-analysis` (tb/cli/cmd_route.cpp).
#include <chrono>
#include <cmath>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "routing/checks.h"
#include "routing/fault_analysis.h"
#include "routing/graph.h"
#include "routing/routing.h"
#include "routing/tftr.h"
#include "routing/topo_spec.h"
#include "studies/report_text.h"
#include "studies/study_report_tftr.h"

namespace ibsc::tb {
namespace {

constexpr double kPoints = 5.0;  // up*/down* and Table 2's n=4 column: within this many points

using report::option;
// The quick list when in quick mode and the study gives one.
std::vector<std::string> mode_option(const Study& s, const std::string& key, bool quick) {
  auto q = option(s, key + "_quick");
  return quick && !q.empty() ? q : option(s, key);
}
std::vector<double> numbers(const Study& s, const std::string& key) {
  std::vector<double> v;
  for (const auto& t : option(s, key)) v.push_back(t == "~" ? NAN : std::stod(t));
  return v;
}

struct Routed {
  routing::Topology topo;
  routing::TableSet tables;
  routing::PathSets paths;
  routing::PathCensus census;
  routing::CheckReport check;
  double seconds = 0;
};

// torus:NAME with one host per switch (the paper's pairs are switch pairs).
Routed route(const std::string& torus, routing::Algorithm algorithm, int max_sls) {
  const auto t0 = std::chrono::steady_clock::now();
  Routed r;
  r.topo = routing::build_topology_spec("torus:" + torus + ":hosts=1");
  routing::RoutingOptions ro;
  ro.algorithm = algorithm;
  ro.max_sls = max_sls;
  r.tables = routing::compute_routing(r.topo, ro);
  r.paths = routing::record_paths(r.topo, r.tables);
  r.census = routing::path_census(r.paths);
  routing::CheckLimits limits;
  limits.max_sls = max_sls;
  r.check = routing::check_tables(r.topo, r.tables, limits);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

// % of pairs with n disjoint paths, n = 1..max.
std::vector<double> percent(const routing::PathCensus& c, size_t max) {
  std::vector<double> v;
  for (size_t n = 1; n <= max; ++n)
    v.push_back(c.pairs ? 100.0 * (n < c.with_n.size() ? c.with_n[n] : 0) / c.pairs : 0);
  return v;
}

std::string paper_vs_ours(double paper, double ours) { return fmt::format("{:.2f} / {:.2f}", paper, ours); }

// A cell over the study's threshold (relative to the paper's value; a paper 0 against ours of a
// point or more counts too).
void note(const Study& s, std::vector<ReportOutlier>& out, const std::string& name, double paper, double ours) {
  if (std::isnan(paper)) return;
  const bool over = paper != 0 ? std::abs(ours - paper) / paper > s.explain_above : std::abs(ours) >= 1.0;
  if (over)
    out.push_back({name, paper != 0 ? fmt::format("paper {:.2f}, ours {:.2f}, {:+.0f}%", paper, ours,
                                                  100 * (ours - paper) / paper)
                                    : fmt::format("paper {:.2f}, ours {:.2f}", paper, ours)});
}

// Table 2's n=2 column measured to its cause: for each bounded row, TFTR's stage 4 as ours runs
// it (every remedy) and with only the paper's remedies in its order (routing/tftr.h), each with
// its dropped paths, the pairs left with 2 paths, and the singular cases of 1 and 2 faults on the
// tables it makes (so whether the network is 1- or 2-fault tolerant).
void write_table2_cause(std::ostream& md, const Study& s, bool quick) {
  const auto items = mode_option(s, "table2", quick);
  if (items.empty() || quick) return;
  md << "\n### Table 2's n=2 column and the fault tolerance it implies, measured\n\nStage 4 (SLs) placed with "
        "every remedy of ours (routing/tftr_sls.cpp: an alternative for the path, alternatives for the other paths of "
        "the conflict, another SL it fits, an alternative fitting another SL, a new SL, dropping it) and with only "
        "the remedies the paper names, in its order (an alternative for one of the conflicting paths, a new SL, "
        "dropping the path). Dropped: paths stage 4 gave up (a pair keeps the rest). Pairs with 2: % of pairs left "
        "with two disjoint paths (Table 2's n=2). Singular 1 / 2: % of the combinations of 1 and 2 failed cables "
        "that leave a pair of connected switches without a path (all combinations): 0 at 2 faults means 2-fault "
        "tolerant.\n\n| torus | SLs | paper n=2 | ours: conflicts | dropped | pairs with 2 | singular 1 / 2 | "
        "paper's remedies: dropped | pairs with 2 | n=3 | n=4 | singular 1 / 2 |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  routing::FaultOptions fo;
  fo.max_faults = 2;
  fo.max_examples = 0;
  for (const auto& item : items) {
    const std::string torus = item.substr(0, item.find('/'));
    const int bound = std::stoi(item.substr(item.find('/') + 1));
    const std::vector<double> paper = numbers(s, "table2." + item);
    const routing::Topology topo = routing::build_topology_spec("torus:" + torus + ":hosts=1");
    const routing::SwitchGraph g(topo);
    routing::RoutingOptions ro;
    ro.algorithm = routing::Algorithm::Tftr;
    ro.max_sls = bound;
    std::string cells;
    for (const bool paper_only : {false, true}) {
      const routing::TftrResult r = routing::tftr_paths(topo, g, ro, routing::TreeKind::Dfs, paper_only);
      const routing::TableSet tables = routing::tftr_tables(topo, g, r, ro);
      const routing::PathSets paths = routing::record_paths(topo, tables);
      const std::vector<double> pc = percent(routing::path_census(paths), 4);
      const auto levels = routing::analyse_faults(topo, paths, fo);
      const std::string singular =
          levels.size() >= 2 ? fmt::format("{:.2f} / {:.2f}", levels[0].percent, levels[1].percent) : std::string("-");
      cells +=
          paper_only
              ? fmt::format(" {} | {:.2f} | {:.2f} | {:.2f} | {} |", r.stats.dropped, pc[1], pc[2], pc[3], singular)
              : fmt::format(" {} | {} | {:.2f} | {} |", r.stats.conflicts, r.stats.dropped, pc[1], singular);
    }
    md << "| " << torus << " | " << bound << " | " << (paper.size() > 1 ? fmt::format("{:.2f}", paper[1]) : "-") << " |"
       << cells << "\n";
  }
  // What our extra remedies buy: the SLs needed without a bound (Table 1's tori).
  md << "\nSLs needed without a bound (Table 1), ours / the paper's remedies only / the paper (in brackets the "
        "share of pairs that keep all their disjoint paths, ours / the paper's remedies):";
  const auto tori = mode_option(s, "tables_tori", quick);
  for (size_t i = 0; i < tori.size(); ++i) {
    const routing::Topology topo = routing::build_topology_spec("torus:" + tori[i] + ":hosts=1");
    const routing::SwitchGraph g(topo);
    routing::RoutingOptions ro;
    ro.algorithm = routing::Algorithm::Tftr;
    struct Need {
      size_t sls;
      double full;  // % of pairs with all k paths
    };
    auto need = [&](bool paper_only) {
      const routing::TftrResult r = routing::tftr_paths(topo, g, ro, routing::TreeKind::Dfs, paper_only);
      long pairs = 0, full = 0;
      for (const auto& ps : r.pairs) {
        if (ps.empty()) continue;
        ++pairs;
        full += static_cast<int>(ps.size()) >= r.k;
      }
      return Need{r.sl_transitions.size(), pairs ? 100.0 * full / pairs : 0.0};
    };
    const Need ours = need(false), theirs = need(true);
    const std::vector<double> paper = numbers(s, "table1." + tori[i]);
    md << fmt::format("{} {} {} / {} / {} ({:.2f} / {:.2f} %)", i ? "," : "", tori[i], ours.sls, theirs.sls,
                      paper.empty() || std::isnan(paper[0]) ? std::string("-") : fmt::format("{:.0f}", paper[0]),
                      ours.full, theirs.full);
  }
  md << ".\n";
}

}  // namespace

void write_tftr_tables(std::ostream& md, const std::string& dir, const Study& s, bool quick,
                       std::vector<std::string>& failures, std::vector<ReportOutlier>& outliers) {
  std::ofstream csv(dir + "/tables.csv");
  csv << "table,torus,routing,sls_bound,sls,n1,n2,n3,n4,paper_sls,paper_n1,paper_n2,paper_n3,paper_n4,deadlock_free,"
         "seconds\n";
  auto row = [&](const std::string& table, const std::string& torus, const std::string& rt, int bound, const Routed& r,
                 const std::vector<double>& ours, const std::vector<double>& paper) {
    csv << table << "," << torus << "," << rt << "," << bound << "," << r.tables.sls_used;
    for (double v : ours) csv << "," << fmt::format("{:.2f}", v);
    for (size_t i = 0; i < 5; ++i)
      csv << "," << (i < paper.size() && !std::isnan(paper[i]) ? fmt::format("{}", paper[i]) : "");
    csv << "," << (r.check.deadlock_free ? "true" : "false") << "," << fmt::format("{:.2f}", r.seconds) << "\n";
  };
  const std::vector<std::string> tori = mode_option(s, "tables_tori", quick);
  std::map<std::string, Routed> tftr;  // reused by Figure 4

  md << "## Table 1: pairs with n disjoint paths, unbounded SLs\n\n"
        "One host per switch (the paper's pairs are switch pairs: 4x4 has 240), as `ibsc route --topology "
        "torus:4x4:hosts=1 --routing tftr --paths --check` prints it. TFTR, 2 VLs (paper / ours); the tables pass "
        "the table checks (connected, within budget, channel dependency graph over (link, VL) of every record, "
        "primaries and APM alternates together, acyclic):\n\n"
        "| torus | SLs paper | SLs ours | n=1 | n=2 | n=3 (n=5 on 3D) | n=4 (n=6 on 3D) | tables |\n"
        "|---|---|---|---|---|---|---|---|\n";
  for (const auto& torus : tori) {
    Routed& r = tftr[torus] = route(torus, routing::Algorithm::Tftr, 16);
    const bool three_d = torus.find('x') != torus.rfind('x');
    const size_t full = three_d ? 6 : 4;
    std::vector<double> all = percent(r.census, full), ours = {all[0], all[1], all[full - 2], all[full - 1]};
    const std::vector<double> paper = numbers(s, "table1." + torus);
    md << "| " << torus << " | " << (paper.empty() ? "-" : fmt::format("{:.0f}", paper[0])) << " | "
       << r.tables.sls_used << " |";
    for (size_t n = 0; n < 4; ++n)
      md << " " << (paper.size() > n + 1 ? paper_vs_ours(paper[n + 1], ours[n]) : fmt::format("{:.2f}", ours[n]))
         << " |";
    md << " " << (r.check.ok() ? "deadlock-free" : "**" + r.check.text() + "**") << " |\n";
    row("table1", torus, "tftr", 16, r, ours, paper);
    if (!r.check.ok()) failures.push_back("Table 1 " + torus + " TFTR: " + r.check.text());
    if (r.census.pairs == 0 || r.census.with_n.size() <= full || r.census.with_n[full] != r.census.pairs)
      failures.push_back(fmt::format("Table 1 {} TFTR: {:.2f}% of pairs with {} disjoint paths, not 100%", torus,
                                     all[full - 1], full));
    if (!paper.empty()) {
      note(s, outliers, "Table 1 TFTR " + torus + " SLs", paper[0], r.tables.sls_used);
      if (std::abs(r.tables.sls_used - paper[0]) > 1)
        failures.push_back(fmt::format("Table 1 {} TFTR: {} SLs, the paper {:.0f} (more than 1 apart)", torus,
                                       r.tables.sls_used, paper[0]));
    }
  }

  md << "\nup*/down*, 1 VL, 1 SL (`updown-disjoint`: each pair's disjoint legal paths on the Autonet BFS "
        "orientation), paper / ours:\n\n| torus | n=1 | n=2 | n=3 | n=4 |\n|---|---|---|---|---|\n";
  double worst_ud = 0;
  for (const auto& torus : tori) {
    const std::vector<double> paper = numbers(s, "updown." + torus);
    if (paper.size() != 4) continue;
    const Routed r = route(torus, routing::Algorithm::UpdownDisjoint, 16);
    const std::vector<double> ours = percent(r.census, 4);
    md << "| " << torus << " |";
    for (size_t n = 0; n < 4; ++n) {
      md << " " << paper_vs_ours(paper[n], ours[n]) << " |";
      note(s, outliers, fmt::format("Table 1 up*/down* {} n={}", torus, n + 1), paper[n], ours[n]);
      worst_ud = std::max(worst_ud, std::abs(ours[n] - paper[n]));
      if (std::abs(ours[n] - paper[n]) > kPoints + 0.005)  // the paper prints 2 decimals
        failures.push_back(
            fmt::format("Table 1 {} up*/down* n={}: {:.2f}% against the paper's {:.2f}% (over {:.0f} points)", torus,
                        n + 1, ours[n], paper[n], kPoints));
    }
    md << "\n";
    row("table1", torus, "updown-disjoint", 16, r, ours, paper);
  }
  md << fmt::format("\nLargest up*/down* difference: {:.2f} points (criterion: {:.0f}).\n", worst_ud, kPoints);

  md << "\n## Table 2: TFTR with a bounded number of SLs (2 VLs), paper / ours\n\n"
        "| torus | SLs | n=1 | n=2 | n=3 | n=4 |\n|---|---|---|---|---|---|\n";
  double worst_t2 = 0;
  for (const auto& item : mode_option(s, "table2", quick)) {
    const std::string torus = item.substr(0, item.find('/'));
    const int bound = std::stoi(item.substr(item.find('/') + 1));
    const std::vector<double> paper = numbers(s, "table2." + item);
    const Routed r = route(torus, routing::Algorithm::Tftr, bound);
    const std::vector<double> ours = percent(r.census, 4);
    md << "| " << torus << " | " << bound << " |";
    for (size_t n = 0; n < 4; ++n) {
      md << " " << (n < paper.size() ? paper_vs_ours(paper[n], ours[n]) : fmt::format("{:.2f}", ours[n])) << " |";
      if (n < paper.size()) note(s, outliers, fmt::format("Table 2 {} n={}", item, n + 1), paper[n], ours[n]);
    }
    md << "\n";
    row("table2", torus, "tftr", bound, r, ours, paper);
    if (!r.check.ok()) failures.push_back("Table 2 " + item + ": " + r.check.text());
    if (paper.size() == 4) {
      worst_t2 = std::max(worst_t2, std::abs(ours[3] - paper[3]));
      if (std::abs(ours[3] - paper[3]) > kPoints + 0.005)
        failures.push_back(fmt::format("Table 2 {} n=4: {:.2f}% against the paper's {:.2f}% (over {:.0f} points)", item,
                                       ours[3], paper[3], kPoints));
    }
  }
  md << fmt::format("\nLargest n=4 difference: {:.2f} points (criterion: {:.0f}).\n", worst_t2, kPoints);
  write_table2_cause(md, s, quick);

  if (!quick && !option(s, "paper_sl_bounds").empty()) {
    md << "\nWith the paper's own SL counts as the bound (where ours needs one more), the share of pairs that keep "
          "all their disjoint paths:";
    const auto bounds = option(s, "paper_sl_bounds");
    for (size_t i = 0; i < bounds.size(); ++i) {
      const std::string torus = bounds[i].substr(0, bounds[i].find('/'));
      const int bound = std::stoi(bounds[i].substr(bounds[i].find('/') + 1));
      const Routed r = route(torus, routing::Algorithm::Tftr, bound);
      const size_t full = torus.find('x') != torus.rfind('x') ? 6 : 4;
      const std::vector<double> all = percent(r.census, full);
      md << fmt::format("{} {:.2f} % ({}, {} SLs)", i ? "," : "", all[full - 1], torus, bound);
      row("paper_sl_bound", torus, "tftr", bound, r, {all[0], all[1], all[full - 2], all[full - 1]}, {});
      if (!r.check.ok()) failures.push_back("SL bound " + bounds[i] + ": " + r.check.text());
    }
    md << ".\n";
  }

  // Figure 4.
  const auto samples_opt = mode_option(s, "figure4_samples", quick);
  routing::FaultOptions fo;
  fo.max_faults = 6;
  fo.samples = samples_opt.empty() ? 100000 : std::stol(samples_opt[0]);
  md << fmt::format(
      "\n## Figure 4 data: % of fault combinations that are singular cases\n\n"
      "A singular case: some pair has no surviving path while the network stays connected (combinations that "
      "separate switches are excluded and counted apart). 1-4 faults: every combination; 5-6: {} random "
      "combinations (seed 1), ± the 95 % interval. Faults are switch-to-switch cables (host links do not fail, as "
      "in the paper).\n\n| torus | routing | 1 | 2 | 3 | 4 | 5 | 6 |\n|---|---|---|---|---|---|---|---|\n",
      fo.samples);
  std::ofstream f4(dir + "/figure4.csv");
  f4 << "torus,routing,faults,combinations,examined,singular,disconnecting,percent,ci95\n";
  auto analyse = [&](const std::string& torus, const std::string& name, const Routed& r) {
    const auto levels = routing::analyse_faults(r.topo, r.paths, fo);
    md << "| " << torus << " | " << name << " |";
    const bool three_d = torus.find('x') != torus.rfind('x');
    for (const auto& lv : levels) {
      md << " "
         << (lv.sampled ? fmt::format("{:.2f} ± {:.2f}", lv.percent, lv.ci95) : fmt::format("{:.2f}", lv.percent))
         << " |";
      f4 << torus << "," << name << "," << lv.faults << "," << lv.combinations << "," << lv.examined << ","
         << lv.singular << "," << lv.disconnecting << "," << fmt::format("{:.4f},{:.4f}", lv.percent, lv.ci95) << "\n";
      // TFTR tolerates up to (disjoint paths - 1) faults: 3 on 2D tori, 5 on 3D.
      if (name == "TFTR" && lv.faults <= (three_d ? 5 : 3) && lv.singular > 0)
        failures.push_back(
            fmt::format("Figure 4 {} TFTR: {} singular cases with {} faults", torus, lv.singular, lv.faults));
    }
    md << "\n";
  };
  const auto f4_tftr = quick ? option(s, "figure4_quick") : option(s, "figure4_tftr");
  for (const auto& torus : f4_tftr) {
    if (!tftr.count(torus)) tftr[torus] = route(torus, routing::Algorithm::Tftr, 16);
    analyse(torus, "TFTR", tftr[torus]);
  }
  for (const auto& torus : quick ? option(s, "figure4_quick") : option(s, "figure4_updown"))
    analyse(torus, "up*/down*", route(torus, routing::Algorithm::UpdownDisjoint, 16));
}

}  // namespace ibsc::tb
