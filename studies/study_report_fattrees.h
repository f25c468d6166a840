// The report "fat-trees" (scenarios/fattrees/fat-trees.yaml, reports/fat-trees/README.md): on
// each fat tree, routing engines side by side (OpenSM's, run on ibsim, and IBSC's own), with per
// row the route time, the routes on the busiest channel for all pairs and for the worst shift
// (routing/pair_loads.h), saturation per traffic pattern (the large-direct search,
// tb/run/saturation_search.h, on the grid report_options `grid`), and out-of-order arrivals
// where the row's NIC counts them (transport.mode). Any study with rows and no published values
// can use it: nothing in it is specific to fat trees but the title of its tables.
#pragma once
#include <string>
#include <vector>

#include "studies/study_report.h"

namespace ibsc::tb {

// Writes dir/README.md, dir/fat-trees.csv, experiments.csv and points.csv; returns the failed
// checks (study_failures, and deterministic permutation cells more than one step under their bound).
std::vector<std::string> write_fat_trees_report(const std::string& dir, const StudyRun& run);

}  // namespace ibsc::tb
