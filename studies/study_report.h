// The report of a study run (reports/torus-routing/): the paper's figures as plots, its tables
// beside ours with the difference, saturation throughput against the channel-load bounds, the
// invariants every run must meet, the differences that need an explanation, and whether the
// paper's conclusions hold in our runs. Markdown for readers, CSV for tools.
#pragma once
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "routing/checks.h"
#include "routing/metrics.h"
#include "routing/voq_fanout.h"
#include "studies/study.h"
#include "tb/stats/channel_load.h"
#include "tb/stats/fair_share.h"
#include "tb/stats/results.h"

namespace ibsc::tb {

// One torus with one routing: what the tables are, independent of traffic.
struct RoutedTorus {
  std::string torus, routing;
  int sls = 0, vls = 0, lmc = 0;
  routing::Metrics metrics;
  routing::CheckReport check;
  routing::LaneFanout lanes;  // seeds/004 (report voqsw) only; its per-lane list left empty
  FairShareCeiling ceiling;   // seeds/004 (report voqsw) only: uniform traffic on these paths
  double route_seconds = 0;   // wall time of compute_routing (OpenSM engines: its whole run)
  // report fat-trees only: routes on the busiest channel for all pairs and for the worst shift
  // (routing/pair_loads.h, hosts in index order); -1: not computed
  long busiest_uniform = -1, busiest_shift = -1;
};

struct ExperimentResult {
  Experiment exp;
  std::vector<LoadPointResult> points;  // by offered load
  std::string error;                    // the run failed (deadlock, invariant): why
  ChannelLoadBound bound;
  double throughput = 0;        // best accepted traffic, bytes/ns/switch
  double low_load_latency = 0;  // average latency at the lowest load, ns
  double wall_seconds = 0;
  double cpu_seconds = 0;  // of the experiment's process: simulation, routing and elaboration
  // large-direct only: the routing is not built (an algorithm this build does not have): not run.
  bool not_built = false;
  int saturation_step = -1;       // large-direct: highest unsaturated load, in grid steps (-1: none)
  int saturation_grid = 0;        // the grid of saturation_step (steps per injection bandwidth; 0: none)
  bool below_first_step = false;  // the search had nothing to probe: the bound is under its first step
  double talk_bound = -1;         // large-direct: bound_fraction on the row's talk_network (-1: none)
};

struct StudyRun {
  const Study* study = nullptr;
  bool quick = false;
  bool talk_scale = false;  // large-direct --talk-scale: the rows ran on their talk_network
  std::string command;      // how the report was made
  double wall_seconds = 0;
  int jobs = 1;
  std::map<std::string, RoutedTorus> routed;  // key: torus + "/" + routing
  std::vector<ExperimentResult> results;
};

// The experiment of that torus, routing, pattern and length; nullptr when the run has none.
const ExperimentResult* find_experiment(const StudyRun& run, const std::string& torus, const std::string& routing,
                                        const std::string& pattern, const std::string& length);

// The saturation throughput of a load sweep (seeds/002 and seeds/003 read throughput so): the
// highest accepted traffic (bytes/ns/switch) of the points the sweep did not flag saturated
// (bisected near the saturation load: sweep.refine); the lowest point's when all are. Past
// saturation the accepted traffic of a lossless network may still creep up (sources whose
// paths avoid the saturated channels keep speeding up) or fall (tree saturation), so the peak
// of the whole sweep depends on how far past saturation the sweep goes.
double saturation_throughput(const std::vector<LoadPointResult>& points);
// The peak of the sweep itself: the highest accepted traffic of its points warmed up as the
// scenario says, leaving out the steady points past saturation that sweep.beyond adds (they are
// the second reading, throughput_readings), so the peak reads the same with or without them.
double sweep_peak(const std::vector<LoadPointResult>& points);
// Whether a point is one of sweep.beyond's, warmed up to a steady rate (run.warmup: rate).
inline bool beyond_point(const LoadPointResult& p) { return p.warmup.rate; }
// The load point saturation_throughput reads (the lowest when all are saturated); points not empty.
const LoadPointResult& saturation_point(const std::vector<LoadPointResult>& points);

// What must hold whatever the tuning: each failure as one line. Empty: all good.
// tolerance: accepted traffic (pro-rated at the window's edges) may exceed the topology bound by
// this fraction (bytes stored in switch buffers when the window opens, net of those stored when
// it closes, can be delivered inside it).
std::vector<std::string> study_failures(const StudyRun& run, double tolerance);

// dir/experiments.csv (one line per experiment), dir/points.csv (every load point) and
// dir/.gitignore (runs/, the per-experiment results, stays out of git).
void write_experiment_csvs(const std::string& dir, const StudyRun& run);

// "## Run times": each built experiment's probes, wall and CPU seconds (CPU of its process and
// the workers it forked, probes taken back from a resumed run included). The CPU figure is the
// one a shared machine does not blur; a finished MPI run keeps no other record of it.
void write_run_times(std::ostream& md, const StudyRun& run, const std::string& intro);

// A figure's second title line: the network's topology, the pattern(s) and the packet size, taken
// from the study's axis values ("irregular:8:seed=1:regular=1, uniform, 32-byte packets").
std::string figure_subtitle(const Study& s, const std::string& network, const std::vector<std::string>& patterns,
                            const std::string& length);

// How the runs of this mode measure (windows, sweep), one sentence from the mode's overrides.
std::string measurement_note(const Study& s, bool quick);

// A table cell or conclusion that differs from the paper by more than the study's threshold.
struct ReportOutlier {
  std::string cell;
  std::string shown;  // "paper 43, ours 35, -19%" or a conclusion's values
};
// Lists the outliers grouped by the study's explanation (cell patterns), then those without one.
void write_explained_outliers(std::ostream& md, const Study& s, const std::vector<ReportOutlier>& outliers);

// The section "Differences above X%[, criteria not met,] and why": in quick mode `quick_caveat`
// first, then the outliers grouped by explanation ("None." when there are none).
void write_differences(std::ostream& md, const Study& s, bool quick, const std::string& quick_caveat,
                       const std::vector<ReportOutlier>& outliers, bool with_criteria);
// What a report's opening says of the run after "Made by `COMMAND`MODE".
enum class RunTally {
  Experiments,     // " in N s on P processes; E experiments, L load points."
  ExperimentsRun,  // " in N s (M min) on P processes; E experiments run, L load points." (not built: left out)
  Simulations,     // " in N s on P processes (the simulations); E simulations."
  None,            // "."
};
// Every report's opening: "# TITLE" (the study's name when it has no title), a blank line, then
// "Made by `COMMAND`MODE" and the tally, ending in a full stop; the caller goes on from there.
// MODE says how this run differs from a full one (" (**quick mode**: ...)"), empty for a full run.
void write_report_opening(std::ostream& md, const StudyRun& run, const std::string& mode, RunTally tally);
// The MODE of a paper's report: " (**quick mode**: QUICK_SWEEPS; checks only, not for comparison
// with the paper)" in quick mode, else empty.
std::string paper_quick_mode(const StudyRun& run, const std::string& quick_sweeps);

// The rest of a Markdown table's header after its two leading columns: one column per item
// (patterns, routings), named by its `name`, and the separator row.
template <class Named>
void named_columns(std::ostream& md, const std::vector<Named>& items) {
  for (const auto& it : items) md << " " << it.name << " |";
  md << "\n|---|---|";
  for (size_t i = 0; i < items.size(); ++i) md << "---|";
  md << "\n";
}
// The checks' verdict ("All hold." or one line per failure), then md as dir/README.md.
void finish_report(std::ostringstream& md, const std::string& dir, const std::vector<std::string>& failures);

// Writes dir/README.md, CSVs and plots; returns the failures it lists. A study whose report is
// "voqsw" gets write_voqsw_report's instead.
std::vector<std::string> write_study_report(const std::string& dir, const StudyRun& run);

}  // namespace ibsc::tb
