// What several report writers (studies/*.cpp) need alike, defined once: so the report writers
// compile in batches (the unity build) without two files defining the same helper.
#pragma once
#include <string>
#include <vector>

#include "studies/study_report.h"  // Study, ExperimentResult, LoadPointResult

namespace ibsc::tb::report {

// `v` with `decimals` decimals; "n/a" for NaN.
std::string num(double v, int decimals);
// A percentage (already x100) with one decimal; "-" for NaN.
std::string pct(double v);
// The study's report_options entry `key`; empty when absent.
std::vector<std::string> option(const Study& s, const std::string& key);
// The load point of `r` at offered load `load`, or nullptr.
const LoadPointResult* at_load(const ExperimentResult& r, double load);

}  // namespace ibsc::tb::report
