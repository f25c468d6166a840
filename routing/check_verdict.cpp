// The check's verdict from what its walks saw (checks.cpp, ranked_walk.h): the SL and VL
// budgets, the declared counts, and the channel dependency graph's cycle search.
#include <string>

#include "routing/switch_deps.h"

namespace ibsc::routing {

void check_verdict(const Topology& t, const TableSet& ts, const CheckLimits& limits, const bool* sl_seen,
                   const bool* vl_seen, bool vl15, bool bad_sl, const std::vector<SwitchDeps>& deps, CheckReport& rep) {
  auto problem = [&](const std::string& p) {
    if (static_cast<int>(rep.problems.size()) < limits.max_problems) rep.problems.push_back(p);
  };
  for (int i = 0; i < kNumSls; ++i) rep.sls_used += sl_seen[i];
  for (int i = 0; i < kMaxDataVls; ++i) rep.vls_used += vl_seen[i];
  rep.connected = rep.unrouted_pairs == 0 && rep.looping_pairs == 0;
  rep.paths_end = rep.looping_pairs == 0;
  rep.within_budget = !vl15 && !bad_sl && rep.sls_used <= limits.max_sls && rep.vls_used <= limits.max_vls;
  if (vl15) problem("a data path uses VL15 (management only)");
  if (bad_sl) problem("a path record has an SL above 15");
  if (rep.sls_used > limits.max_sls)
    problem(std::to_string(rep.sls_used) + " SLs used; the budget is " + std::to_string(limits.max_sls));
  if (rep.vls_used > limits.max_vls)
    problem(std::to_string(rep.vls_used) + " data VLs used; the budget is " + std::to_string(limits.max_vls));
  // The fabric is configured from the declared counts (VLs 0..vls_used-1 get buffers and
  // arbitration entries), so a walk on a higher VL or SL than declared would meet a lane the
  // switches were never set up for.
  int top_sl = -1, top_vl = -1;
  for (int i = 0; i < kNumSls; ++i)
    if (sl_seen[i]) top_sl = i;
  for (int i = 0; i < kMaxDataVls; ++i)
    if (vl_seen[i]) top_vl = i;
  if (top_sl >= ts.sls_used) {
    rep.within_budget = false;
    problem("a path record uses SL " + std::to_string(top_sl) + " but the tables declare " +
            std::to_string(ts.sls_used) + " SLs");
  }
  if (top_vl >= ts.vls_used) {
    rep.within_budget = false;
    problem("a walk uses VL " + std::to_string(top_vl) + " but the tables declare " + std::to_string(ts.vls_used) +
            " VLs");
  }

  dependency_graph(t, deps, rep);
}

}  // namespace ibsc::routing
