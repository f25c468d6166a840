#pragma once
#include <CLI/CLI.hpp>

namespace ibsc::tb {
// `ibsc run SCENARIO.yaml [--set key=value ...] [--out DIR] [--seed N] [--jobs N] [--quiet]`
void add_run_command(CLI::App& app);
}  // namespace ibsc::tb
