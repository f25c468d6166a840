// Work spread beyond this process. run_forked (tb/run/sweep.h) runs a batch of independent
// items in forked children of this process; under mpirun, ibsc's main installs a spreader
// (tb/run/mpi_ranks.h, the only code that links MPI) and the batches of the process that
// installed it are handed out over every MPI rank instead. Every rank runs the same command
// (same scenario, same decisions) and gets every result back; rank 0 alone writes outputs.
// Nothing here needs MPI, so the test programs link none.
#pragma once
#include <sys/types.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ibsc::tb {

using WorkItem = std::function<std::string(int)>;
using WorkDone = std::function<void(int, std::string&)>;  // may shorten the text it is given
using WorkName = std::function<std::string(int)>;

struct WorkSpreader {
  // Runs items [0, n), each rank `jobs` at a time in its own forked children; every rank
  // returns every text (as on_done left it); on_done runs on rank 0 as each item finishes.
  // Throws SpreadFailure on every rank when an item failed.
  std::function<std::vector<std::string>(int n, int jobs, const WorkItem&, const WorkDone&, const WorkName&)> run;
  std::function<int(int jobs)> width;  // items running at once over all ranks, each rank with `jobs`
  // Rank 0's TEXT on every rank: an input every rank must read alike (all ranks call it at the
  // same point, as they run the same command).
  std::function<std::string(const std::string& text)> from_rank0;
  std::function<void()> finished;  // the command's outputs are written: progress records go
  int rank = 0;
  int size = 1;
  pid_t owner = 0;  // the process that installed it; its forked children run their batches locally
};

// An item failed under the spreader. Rank 0 throws it with the item's message, the others with
// the same text, which main prints on rank 0 only.
class SpreadFailure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// on_done's verdict on a text kept from a run that stopped (tb/run/mpi_progress.h): it no
// longer stands (say, the files it was written to are gone), so the item runs again.
class StaleItem : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void install_spreader(WorkSpreader s);
// The spreader when one is installed and this is the process that installed it; else null.
const WorkSpreader* active_spreader();
// This process writes the command's outputs: no spreader, or rank 0 (forked children of rank 0
// included, as in a single-process run).
bool writes_outputs();
// Where rank 0 keeps the run's progress (who holds what, each finished item's text) so that a
// rerun after a rank died resumes: PROGRESS_FOLDER, set by the command before its batches.
void set_progress_folder(const std::string& folder);
const std::string& progress_folder();
// The digest of the record's key (tb/run/mpi_progress.h: command, build, inputs), on every rank,
// set by the spreader before its first batch's items run; empty without a record. What a rank
// keeps beside the record for a rerun (tb/run/probe_journal.h) is marked with it.
void set_record_digest(const std::string& digest);
const std::string& record_digest();
// The files this process has read beyond the record's key so far, "read PATH: DIGEST" lines
// (tb/run/mpi_progress.h's reads_beyond): what a result kept beside the record rests on
// besides the key. Set by the spreader with the digest; empty without a record.
void set_record_reads_beyond(std::function<std::string()> reads);
std::string record_reads_beyond();
// An input the command read besides the files on its command line (WHAT names it), which a
// rerun must share for the record to be resumed: its digest joins the record's key.
void add_progress_input(const std::string& what, const std::string& text);
const std::string& progress_inputs();  // "input WHAT: DIGEST" lines
// Ranks the launcher started this process among: OMPI_COMM_WORLD_SIZE (mpirun), or under
// Slurm's srun with PMIx SLURM_STEP_NUM_TASKS; 1 when started alone.
int launcher_rank_count();
// This process's rank among them, from the same variables (OMPI_COMM_WORLD_RANK, PMIX_RANK),
// before MPI is started: 0 when started alone.
int launcher_rank();

}  // namespace ibsc::tb
