// seeds/004 Table 1 beside ours: SLs needed for full VOQ and % VOQ with 8 and 4 SLs (8 VLs) on
// random irregular networks of 8-port switches, 4 hosts and 4 switch links each
// (irregular:N:seed=S:regular=1), averaged over seeds 1..K. Prints Markdown.
//   voqsw_table1 [seeds=20] > reports/voqsw/table1.md
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "routing/generators.h"
#include "routing/voqsw.h"

namespace {

using namespace ibsc::routing;

struct Stat {  // mean, min, max
  double sum = 0, lo = 1e300, hi = -1e300;
  int n = 0;
  void add(double v) { sum += v, lo = std::min(lo, v), hi = std::max(hi, v), ++n; }
  double mean() const { return n ? sum / n : 0; }
};

struct PaperRow {
  int switches, sls;
  double percent, factor;
};
// seeds/004 Table 1 (SLs, VLs = 8, % VOQ, throughput factor over 8 VNs).
const std::vector<PaperRow> kPaper{{8, 12, 100, 1.82}, {8, 8, 58, 1.87},     {8, 4, 12, 1.75},     {16, 40, 100, 1.86},
                                   {16, 8, 15, 1.61},  {16, 4, 8, 1.58},     {32, 108, 100, 1.74}, {32, 8, 16, 1.47},
                                   {32, 4, 10, 1.46},  {64, 257, 100, 3.35}, {64, 8, 16, 3.29},    {64, 4, 9, 3.14}};

}  // namespace

int main(int argc, char** argv) {
  const int seeds = argc > 1 ? std::atoi(argv[1]) : 20;
  if (seeds < 1 || seeds > 1000) {
    std::cerr << "voqsw_table1: seeds must be 1..1000\n";
    return 1;
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::cout << fmt::format(
      "| Size | SLs | VLs | % VOQ paper | % VOQ ours: hops, weighted by paths (min-max) | switch visits (min-max) | "
      "x / x_max (min-max) | SLs used | factor paper |\n|---|---|---|---|---|---|---|---|---|\n");
  std::vector<std::string> full_rows, same_rows;
  for (int n : {8, 16, 32, 64}) {
    Stat full, tuples;
    Stat w[2], x[2], used[2], same[2], trav[2];  // same: seeds needing the paper's SLs for full VOQ
    int paper_full = 0;
    for (const PaperRow& r : kPaper)
      if (r.switches == n && r.percent == 100) paper_full = r.sls;
    const int budgets[2] = {8, 4};
    for (int seed = 1; seed <= seeds; ++seed) {
      const Topology t = make_irregular(n, 8, 4, static_cast<uint64_t>(seed), true);
      RoutingOptions o;
      o.algorithm = kVoqBaseRouting;
      const VoqProblem p = voq_problem(t, compute_routing(t, o), 8);
      const int f = sls_for_full_voq(p);
      full.add(f);
      tuples.add(p.x_max());
      for (int b = 0; b < 2; ++b) {
        const VoqPlan plan = plan_voq(p, budgets[b]);
        w[b].add(plan.weighted_percent());
        trav[b].add(plan.traversal_percent());
        if (f == paper_full) same[b].add(plan.weighted_percent());
        x[b].add(plan.percent());
        used[b].add(plan.sls_used);
      }
    }
    same_rows.push_back(
        same[0].n ? fmt::format("| {} | {} | {} of {} | {:.1f} (paper {:.0f}) | {:.1f} (paper {:.0f}) |", n, paper_full,
                                same[0].n, seeds, same[0].mean(), kPaper[(same_rows.size()) * 3 + 1].percent,
                                same[1].mean(), kPaper[(same_rows.size()) * 3 + 2].percent)
                  : fmt::format("| {} | {} | 0 of {} | - | - |", n, paper_full, seeds));
    for (const PaperRow& r : kPaper) {
      if (r.switches != n) continue;
      if (r.percent == 100) {
        std::cout << fmt::format(
            "| {} sw | {} (ours {:.1f}, {:.0f}-{:.0f}) | 8 | 100% | 100 | 100 | 100 | {:.1f} | {} |\n", n, r.sls,
            full.mean(), full.lo, full.hi, full.mean(), r.factor);
        full_rows.push_back(fmt::format("| {} | {} | {:.1f} | {:.0f}-{:.0f} | {:+.0f}% | {:.0f} |", n, r.sls,
                                        full.mean(), full.lo, full.hi, 100 * (full.mean() - r.sls) / r.sls,
                                        tuples.mean()));
        continue;
      }
      const int b = r.sls == 8 ? 0 : 1;
      std::cout << fmt::format(
          "| {} sw | {} | 8 | {:.0f}% | {:.1f} ({:.1f}-{:.1f}) | {:.1f} ({:.1f}-{:.1f}) | {:.1f} ({:.1f}-{:.1f}) | "
          "{:.1f} | {} "
          "|\n",
          n, r.sls, r.percent, w[b].mean(), w[b].lo, w[b].hi, trav[b].mean(), trav[b].lo, trav[b].hi, x[b].mean(),
          x[b].lo, x[b].hi, used[b].mean(), r.factor);
    }
  }
  std::cout << "\nSLs for full VOQ (8 VLs):\n\n| switches | paper | ours (mean) | ours (min-max) | difference | tuples "
               "(x_max, mean) |\n|---|---|---|---|---|---|\n";
  for (const auto& row : full_rows) std::cout << row << "\n";
  std::cout << "\nSeeds whose network needs exactly the paper's SLs for full VOQ, % VOQ weighted by paths:\n\n"
               "| switches | SLs for full VOQ | seeds | 8 SLs | 4 SLs |\n|---|---|---|---|---|\n";
  for (const auto& row : same_rows) std::cout << row << "\n";
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << fmt::format("\n{} seeds per size (irregular:N:seed=1..{}:regular=1, base routing {}), {:.1f} s.\n",
                           seeds, seeds, ibsc::enum_name(kVoqBaseRouting), s);
  return 0;
}
