// A study: a published set of experiments as data (scenarios/seeds000/torus-routing.yaml). It
// names a base scenario (the paper's network model) and the axes the paper varies (tori,
// routings, traffic patterns, packet lengths); each experiment is the base scenario with the
// overrides of one value per axis, so every experiment is an ordinary scenario `ibsc run`
// accepts. It also holds the paper's published numbers, which the report prints beside ours,
// and our explanations of the differences.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace ibsc::tb {

struct StudyAxisValue {
  std::string name;              // "4x4", "FX_1VL", "uniform", "512"
  std::vector<std::string> set;  // scenario overrides "key=value"
  std::string figure;            // tori: the paper's figure panel ("6a")
  std::string paper_name;        // routings: the paper's row label in Table 2 ("UD_DFS"); empty: not in it
};

struct FactorTable {
  std::string name;    // "Table 3"
  std::string length;  // packet-length axis value
  // paper[torus][pattern + "/" + routing] = factor (a null value in the file: the paper has none)
  std::map<std::string, std::map<std::string, double>> paper;
};

struct Explanation {
  std::vector<std::string>
      cells;  // shell patterns over "Table 3 6x6 bit-reversal FX_1VL", "Table 2 8x8 UD_DFS crossing_path", ...
  std::string why;
};

// A choice the paper leaves open (or a reading of it) that was picked because it brings a figure
// nearer the paper's (the study file's `fitted:`): the report lists every such choice with the
// figure before and after, so a reader can tell the matches that are independent evidence from
// those that were fitted. `before` is the figure under the choice not taken, `after` under the one
// picked. A measured row names experiments instead (`compare`: baseline and routing before,
// baseline and routing after; `readings`: which throughput reading each side uses, `report` by
// default: the reading the report's own tables use, `saturation`, `steady` past saturation, or
// `highest`), and the report writer computes its factors from the run, `before` and `after` then
// labelling them. A study without measured rows also shows `figure` and `why` (seeds 001-003).
struct FittedChoice {
  std::string choice;                 // "transport.ack_coalesce: 128 (an ACK per message)"
  std::string figure;                 // the figure it moves: "Table 2 waste of LI-dyn4M" (optional)
  std::string before, after;          // the figure with the alternative and with the choice
  std::string why;                    // how the choice was picked and measured (optional)
  std::vector<std::string> compare;   // empty, or 4 routing-axis names
  std::vector<std::string> readings;  // empty, or 2 of: report, saturation, steady, highest
};

// A cross product of axis values to run ("*": every value of that axis). Studies that list
// blocks run exactly their union instead of the figure and factor-table products.
struct ExperimentBlock {
  std::vector<std::string> tori, routings, patterns, lengths;
};

// One plot: latency vs accepted traffic, a series per routing and pattern, on one network.
struct Panel {
  std::string name;   // the paper's figure panel: "6a"
  std::string title;  // "Uniform, 8 switches"
  std::string torus, length;
  std::vector<std::string> routings, patterns;
};

// seeds/001 (report large-direct): one row of the talk's saturation tables, run on every pattern.
struct SaturationRow {
  std::string table;          // the talk's table heading: "Torus", "FlatFly"
  std::string label;          // the talk's row label: "DOR 3D"
  std::string network;        // networks axis value of the full run
  std::string quick_network;  // networks axis value of --quick; empty: left out of --quick
  // The talk's own network when `network` is scaled down: the full run computes only its
  // channel-load bound (deterministic rows); `ibsc reproduce --talk-scale` runs the row on it.
  // Empty: none.
  std::string talk_network;
  std::string routing;                 // routings axis value
  bool deterministic = false;          // one path per host pair: held to the channel-load bound
  std::map<std::string, double> talk;  // pattern -> the talk's saturation in %; missing: none

  // The networks axis value a run mode uses: --talk-scale the talk's own, --quick the small one.
  const std::string& network_for(bool quick, bool talk_scale) const {
    return talk_scale ? talk_network : quick ? quick_network : network;
  }
};

struct Experiment {
  std::string name;  // "4x4-FX_1VL-uniform-512"
  std::string torus, routing, pattern, length;
  std::vector<std::string> set;  // every override, axes first, then the mode's
};

struct Study {
  std::string file, name, title, base;  // base: the scenario file, resolved against the study's folder
  // Which report: "torus-routing" (seeds/000, the default), "voqsw" (seeds/004, study_report_voqsw.h),
  // "in-order-adaptive" (seeds/003, study_report_inorder.h), "tftr" (seeds/002, study_report_tftr.h),
  // "large-direct" (seeds/001, study_report_large.h: saturation by bisection, rows x patterns),
  // "congestion-control" (issue 34, study_report_cc.h: tree saturation with CC off and on), or
  // "fat-trees" (study_report_fattrees.h: the same rows and search, no published values; busiest
  // channels in routes and route times beside the saturations), or "design-space"
  // (study_report_design.h: switch options as variants, every variant on every pattern).
  std::string report = "torus-routing";
  std::vector<std::string> full_set, quick_set;
  // tori: the networks axis (the key `networks` in a study file is the same axis); routings: the
  // key `variants` in a study file is the same axis (a design-space study's switch options).
  std::vector<StudyAxisValue> tori, routings, patterns, lengths;
  std::vector<ExperimentBlock> blocks, quick_blocks;  // optional; quick_blocks: --quick runs these
  std::vector<Panel> panels;                          // optional: the voqsw report's figures
  // large-direct: the rows; the experiments are rows x patterns (--quick: rows with a
  // quick_network x report_options quick_patterns, all patterns when not given) at the first length.
  std::vector<SaturationRow> rows;
  // Settings of the chosen report, name -> list of names (study_report_voqsw.h lists its own).
  std::map<std::string, std::vector<std::string>> report_options;
  // Figures: every routing on every torus at one pattern and length.
  std::string figure_pattern, figure_length;
  // Throughput factor tables: routings over a baseline, per torus and pattern.
  std::string factor_baseline;
  std::vector<std::string> factor_routings;
  std::vector<FactorTable> factor_tables;
  // Table 2: paper[torus][paper routing name] = {average distance, crossing path, deviation}.
  std::map<std::string, std::map<std::string, std::vector<double>>> metrics_paper;
  std::map<std::string, double> topological_distance_paper;  // per torus
  std::vector<std::string> notes;                            // modelling choices where the paper leaves details open
  std::vector<Explanation> explanations;
  std::vector<FittedChoice> fitted;  // "Choices fitted to the paper", in the report
  double explain_above = 0.15;       // differences above this fraction must be explained

  const StudyAxisValue& axis(const std::vector<StudyAxisValue>& values, const std::string& name) const;
  // The row an experiment of a large-direct study belongs to; nullptr when none.
  const SaturationRow* row_of(const Experiment& e) const;
  // The experiments the figures and tables need, without duplicates, in a stable order.
  // talk_scale (large-direct): each row on its talk_network instead, rows without one left out.
  std::vector<Experiment> experiments(bool quick, bool talk_scale = false) const;
};

// Reads and validates a study; errors name FILE:LINE and the key (std::runtime_error).
Study load_study(const std::string& path);

}  // namespace ibsc::tb
