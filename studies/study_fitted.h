// The section "Choices fitted to the paper" of every study's report (the study file's `fitted:`,
// studies/study.h FittedChoice): each choice made where the paper leaves it open, or where it
// can be read several ways, because its figures come nearer the paper's, with the figure under
// the choice not taken beside the one picked. Measured rows (`compare`) are computed from the
// run: a routing's throughput over its baseline's, per network, at one pattern and length.
#pragma once
#include <ostream>
#include <string>

#include "studies/study_report.h"

namespace ibsc::tb {

// Throughput of one experiment under a named reading: "report" (ExperimentResult::throughput,
// what the report's tables use), "saturation" (at the saturation load), "steady" (the highest
// steady point past it) or "highest" (the sweep's best point); NaN when not run or not found.
double throughput_reading(const ExperimentResult& r, const std::string& reading);

// "8sw 1.31, 16sw 1.30, ..." : routing over base per network (study order) under `reading`;
// networks where either did not run are left out; "not run" when none ran.
std::string factors_per_network(const StudyRun& run, const std::string& base, const std::string& routing,
                                const std::string& pattern, const std::string& length, const std::string& reading);

// The section, when the study lists fitted choices (nothing otherwise), one row per choice. A
// study with measured rows gets three columns, the choice and the figure under each side: the
// factors from the run at (pattern, length) for a measured row, `before` and `after` for a text
// row (its `figure` and `why` are not shown). A study with text rows only gets five: the choice,
// the figure it moves, before, after, and how it was picked (`why`).
void write_fitted_choices(std::ostream& md, const StudyRun& run, const std::string& pattern, const std::string& length);

}  // namespace ibsc::tb
