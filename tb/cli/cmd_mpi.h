#pragma once
#include <CLI/CLI.hpp>

namespace ibsc::tb {
// `ibsc mpi SCENARIO.yaml --workload KIND [--bytes N] [--style lt|at] [--trace FILE
// --compression X] [--write-trace FILE] [--json FILE]`: an MPI-like workload through the HCAs'
// TLM-2.0 sockets on the scenario's fabric (topology, routing, switch, link keys; traffic,
// run and sweep keys are not used); prints completion time and the data check.
void add_mpi_command(CLI::App& app);
}  // namespace ibsc::tb
