// Real MPI (Open MPI), for spreading `ibsc run` load points and `ibsc reproduce` experiments
// over the ranks of `mpirun -n N` (not tb/mpi/, the MPI-like workload simulated over TLM).
// Rank 0 hands out the items of each batch one at a time; a rank with a free process slot asks
// for the next, so a rank that finishes early takes more. Each rank runs its items in forked
// children (`--jobs` of them at once) as a single process would, and every rank gets every
// result, so all ranks take the same decisions (the sweep's next batch) in step. Only ibsc
// links this (when CMake finds MPI: IBSC_HAVE_MPI).
#pragma once
#include <string>

namespace ibsc::tb {

// MPI_Init and the spreader (tb/run/work_spread.h) for this rank. argv: the command, kept as
// the key of the progress record (tb/run/mpi_progress.h). Returns what keeps the ranks from
// working together, the same text on every rank (then the caller finishes MPI and stops), or
// empty: ranks running different ibsc builds (another build may compute other results).
std::string start_mpi_ranks(int& argc, char**& argv);
void finish_mpi_ranks();
[[noreturn]] void abort_mpi_ranks(int code);

}  // namespace ibsc::tb
