// The report of seeds/001 (Daryin, direct large-scale InfiniBand networks; report
// "large-direct", reports/large-direct/README.md): the talk's saturation tables with, in each
// cell, the talk's value, ours (a search on loads in 1/128 steps of injection bandwidth,
// tb/run/saturation_search.h) and, for deterministic rows, the channel-load bound of our tables.
// Rows whose routing is not built are listed as such. saturation.csv holds the same cells.
#pragma once
#include <string>
#include <vector>

#include "studies/study_report.h"

namespace ibsc::tb {

// Writes dir/README.md, dir/saturation.csv, experiments.csv and points.csv; returns the failed
// checks (study_failures, and deterministic cells more than one step below their bound).
std::vector<std::string> write_large_direct_report(const std::string& dir, const StudyRun& run);

}  // namespace ibsc::tb
