#pragma once
#include <CLI/CLI.hpp>

namespace ibsc::tb {
// `ibsc cosim [--ports N] [--vls V] [--levels L] [--cycles C] [--seed S] [--broken]
//             [--no-directed] [--vcd FILE [--trace-from K] [--trace-to K]]`
// Lockstep RTL-versus-model run of the switch arbiter. Exit 0: no mismatch and full coverage;
// 1: mismatch; 2: no mismatch but coverage incomplete.
void add_cosim_command(CLI::App& app);
}  // namespace ibsc::tb
