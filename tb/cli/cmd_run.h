#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace ibsc::tb {
// `ibsc run SCENARIO.yaml [--set key=value ...] [--out DIR] [--seed N] [--jobs N] [--quiet]`
void add_run_command(CLI::App& app);
// The --set KEY=VALUE option of the commands that read a scenario (run, mpi).
void add_set_option(CLI::App& c, std::vector<std::string>& sets);
}  // namespace ibsc::tb
