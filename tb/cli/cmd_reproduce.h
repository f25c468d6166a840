#pragma once
#include <CLI/CLI.hpp>

namespace ibsc::tb {
// `ibsc reproduce STUDY.yaml [--quick] [--out DIR] [--jobs N] [--only TEXT]`: runs every
// experiment of a study (studies/study.h) and writes its report (studies/study_report.h).
void add_reproduce_command(CLI::App& app);
}  // namespace ibsc::tb
