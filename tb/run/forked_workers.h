// Worker processes forked from this one, each running one item and passing its text back
// through an unlinked temporary file, behind the input files it read that this process had not
// (routing::input_files_read_since). run_forked (tb/run/sweep.h) and the MPI ranks
// (tb/run/mpi_ranks.h) keep their items running with it.
#pragma once
#include <sys/types.h>

#include <map>
#include <string>
#include <utility>

#include "tb/run/work_spread.h"

namespace ibsc::tb {

struct FinishedItem {
  int index = -1;  // -1: nothing finished (a non-blocking poll)
  bool ok = false;
  std::string text;   // the item's text, or its error message
  bool died = false;  // failed without a message of its own: text says how the process ended
};

class ForkedWorkers {
 public:
  // ADOPT_READS: a worker's reads join this process's record (routing::adopt_input_files_read),
  // so that what this process reports it read names them (an experiment's probes). Not for a
  // long-lived process running unrelated items one after another (an MPI rank): each item's
  // record would name what its siblings read.
  explicit ForkedWorkers(bool adopt_reads = true) : adopt_reads_(adopt_reads) {}
  // Forks a worker running fn(index). Workers die with this process (PR_SET_PDEATHSIG on
  // Linux, a parent-id check elsewhere) and leave no files behind.
  void start(int index, const WorkItem& fn);
  // The next worker to finish; block = false: index -1 when none has.
  FinishedItem wait(bool block);
  int running() const { return static_cast<int>(running_.size()); }

 private:
  bool adopt_reads_;
  std::map<pid_t, std::pair<int, int>> running_;  // pid -> (index, result file descriptor)
};

// Local processes to use for `jobs` (0: one per core).
int local_jobs(int jobs);

// CPU seconds (user + system) this process has used, and those of the children it has waited
// for (a forked item's or load point's, once reaped).
double own_cpu_seconds();
double children_cpu_seconds();

}  // namespace ibsc::tb
