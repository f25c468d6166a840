#pragma once
#include <CLI/CLI.hpp>

namespace ibsc::tb {
// `ibsc route --topology SPEC [--routing NAME] [--hosts N] [--ports N] [--check] [--metrics] [--json]
//             [--export-opensm DIR] [--vls N] [--dot FILE] [--seed N] [--max-sls N] [--max-vls N]`
// Computes routing tables without simulating: checks, seeds/000 Table 2 style metrics, exports.
void add_route_command(CLI::App& app);
}  // namespace ibsc::tb
