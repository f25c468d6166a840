#include "studies/study_conclusions.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace ibsc::tb {

namespace {
Conclusion trimmed(Conclusion c) {  // lists are built as "a; b; "
  while (!c.ours.empty() && (c.ours.back() == ' ' || c.ours.back() == ';')) c.ours.pop_back();
  return c;
}
}  // namespace

std::vector<Conclusion> study_conclusions(const StudyRun& run) {
  const Study& s = *run.study;
  std::vector<Conclusion> out;
  const std::string P = s.figure_pattern, L = s.figure_length;
  auto thr_at = [&](const std::string& t, const std::string& r, const std::string& len) {
    const ExperimentResult* e = find_experiment(run, t, r, P, len);
    return e && e->error.empty() ? e->throughput : NAN;
  };
  auto thr = [&](const std::string& t, const std::string& r) { return thr_at(t, r, L); };
  auto best_of = [&](const std::string& t, const std::vector<std::string>& rs) {
    double b = 0;
    for (const auto& r : rs)
      if (!std::isnan(thr(t, r))) b = std::max(b, thr(t, r));
    return b;
  };
  auto has_torus = [&](const std::string& t) {
    return std::any_of(s.tori.begin(), s.tori.end(), [&](auto& x) { return x.name == t; });
  };
  const std::string within =
      fmt::format("same sign, and within {:.0f}% of the paper's value or explained below", 100 * s.explain_above);

  // Which routing is best: qualitative.
  const std::vector<std::string> fx = {"FX_1VL", "FX_2VL"}, others = {"e-cube", "DFS_1VL", "DFS_2VL"};
  auto best_line = [&](const std::string& cell, const std::string& claim, const std::vector<std::string>& tori,
                       bool flexible_wins) {
    Conclusion c{cell, claim, flexible_wins ? "FX best" : "e-cube best", "", "", true};
    c.criterion =
        flexible_wins ? "best FX >= best other routing, on each torus" : "e-cube >= every other routing, on each torus";
    bool any = false;
    for (const auto& t : tori) {
      double f = best_of(t, fx), o = best_of(t, others), e = thr(t, "e-cube");
      if (!has_torus(t) || std::isnan(e)) continue;  // not run (--only)
      any = true;
      c.ours += fmt::format("{}: best FX {:.3f}, best other {:.3f}, e-cube {:.3f}; ", t, f, o, e);
      c.holds = c.holds && (flexible_wins ? f >= o : e >= std::max(f, o));
    }
    if (any) out.push_back(trimmed(c));
  };
  best_line("Conclusion Flexible best on 3D tori", "Flexible achieves the best performance on 3D tori",
            {"3x3x3", "4x4x4"}, true);
  best_line("Conclusion Flexible best on small 2D tori", "Flexible achieves the best performance on small 2D tori",
            {"4x4"}, true);
  best_line("Conclusion e-cube best on large 2D tori", "e-cube achieves the best performance on large 2D tori",
            {"6x6", "8x8"}, false);

  // Percentages: compared like the tables' cells.
  auto pct = [&](const std::string& cell, const std::string& claim, double paper, double ours,
                 const std::string& detail) {
    if (std::isnan(ours)) return;
    Conclusion c{cell, claim, fmt::format("{:+.1f}%", paper), fmt::format("{:+.1f}%", ours) + detail, within};
    c.holds = paper * ours > 0;
    c.quantitative = true;
    c.paper_value = paper;
    c.ours_value = ours;
    out.push_back(c);
  };
  auto over = [&](const std::string& t, const std::string& a, const std::string& b) {
    return 100 * (thr(t, a) / thr(t, b) - 1);
  };
  auto pair_detail = [&](const std::string& t, const std::string& a, const std::string& b) {
    return fmt::format(" ({} {:.3f}, {} {:.3f})", a, thr(t, a), b, thr(t, b));
  };
  if (has_torus("8x8")) {
    pct("Conclusion 8x8 FX_2VL below e-cube",
        "On 8x8 (the worst case) FX_2VL/2SL throughput is only 8.33% lower than e-cube's (section 7)", -8.33,
        -100 * (1 - thr("8x8", "FX_2VL") / thr("8x8", "e-cube")), pair_detail("8x8", "FX_2VL", "e-cube"));
    pct("Conclusion 8x8 e-cube over FX_1VL", "On 8x8 e-cube throughput is 25% above FX_1VL's (section 6.2)", 25,
        over("8x8", "e-cube", "FX_1VL"), pair_detail("8x8", "e-cube", "FX_1VL"));
    pct("Conclusion 8x8 e-cube over FX_2VL", "On 8x8 e-cube throughput is 10% above FX_2VL's (section 6.2)", 10,
        over("8x8", "e-cube", "FX_2VL"), pair_detail("8x8", "e-cube", "FX_2VL"));
  }
  if (has_torus("4x4")) {
    pct("Conclusion 4x4 FX_1VL over e-cube", "On 4x4 FX_1VL throughput is 11% above e-cube's", 11,
        over("4x4", "FX_1VL", "e-cube"), pair_detail("4x4", "FX_1VL", "e-cube"));
    pct("Conclusion 4x4 FX_1VL over DFS_2VL", "On 4x4 FX_1VL throughput is 20% above DFS_2VL's", 20,
        over("4x4", "FX_1VL", "DFS_2VL"), pair_detail("4x4", "FX_1VL", "DFS_2VL"));
    pct("Conclusion 4x4 FX_2VL over FX_1VL", "On 4x4 FX_2VL throughput is 16% above FX_1VL's", 16,
        over("4x4", "FX_2VL", "FX_1VL"), pair_detail("4x4", "FX_2VL", "FX_1VL"));
  }
  for (const auto& [t, paper] : std::vector<std::pair<std::string, double>>{{"6x6", 5.0}, {"8x8", 9.8}}) {
    if (!has_torus(t)) continue;
    const ExperimentResult* e = find_experiment(run, t, "e-cube", P, L);
    const ExperimentResult* f = find_experiment(run, t, "FX_2VL", P, L);
    if (!e || !f || !e->error.empty() || !f->error.empty()) continue;
    pct("Conclusion " + t + " low-load latency e-cube below FX_2VL",
        "At low load e-cube latency is " + fmt::format("{:.1f}", paper) + "% below FX_2VL's on " + t +
            " (minimal paths)",
        paper, 100 * (1 - e->low_load_latency / f->low_load_latency),
        fmt::format(" ({:.0f} vs {:.0f} ns)", e->low_load_latency, f->low_load_latency));
  }
  if (s.factor_tables.size() >= 2) {
    const std::string SL = s.factor_tables[1].length;
    Conclusion c{"Conclusion short packets favour e-cube on large 2D tori",
                 "Short packets favour e-cube more on 6x6 and 8x8 (Table 4 vs Table 3, " + P + ")",
                 "FX_2VL factor lower with " + SL + "-byte packets",
                 "",
                 "FX_2VL factor over e-cube lower with short packets, on each torus",
                 true};
    bool any = false;
    for (const std::string t : {"6x6", "8x8"}) {
      if (!has_torus(t)) continue;
      double longf = thr(t, "FX_2VL") / thr(t, "e-cube"), shortf = thr_at(t, "FX_2VL", SL) / thr_at(t, "e-cube", SL);
      if (std::isnan(longf) || std::isnan(shortf)) continue;  // not run (--only)
      any = true;
      c.ours += fmt::format("{}: {:.2f} ({} B) vs {:.2f} ({} B); ", t, longf, L, shortf, SL);
      c.holds = c.holds && shortf < longf;
    }
    if (any) out.push_back(trimmed(c));
  }
  {
    Conclusion c{"Conclusion SL and VL budgets",
                 "Flexible needs one SL and one VL; e-cube needs 2 VLs and 4 (2D) or 8 (3D) SLs",
                 "FX 1 SL/1 VL; e-cube 2 VLs, 4 or 8 SLs",
                 "",
                 "FX_1VL tables use 1 SL and 1 VL",
                 true};
    for (const auto& [key, rt] : run.routed) {
      if (rt.routing != "e-cube" && rt.routing != "FX_1VL") continue;
      c.ours += fmt::format("{} {} SLs/{} VLs; ", key, rt.sls, rt.vls);
      if (rt.routing == "FX_1VL") c.holds = c.holds && rt.sls == 1 && rt.vls == 1;
    }
    out.push_back(trimmed(c));
  }
  return out;
}

}  // namespace ibsc::tb
