// Output files that survive interrupts: results are written to a temporary file in the same
// folder and renamed over the old one, so a reader, a Ctrl-C or a full disk leaves either the
// previous file or the new one, never a truncated mix (rename is atomic within a file system).
// SIGINT and SIGTERM wait while a file is written and renamed (a few milliseconds), so an
// interrupt leaves no temporary file behind either.
#pragma once
#include <csignal>
#include <string>

namespace ibsc::tb {

// Blocks SIGINT and SIGTERM for its lifetime; one that arrives meanwhile is delivered on exit.
// Around every write here, and around whatever must not be cut in the middle (an item's files
// and its progress record under mpirun).
class InterruptsHeld {
 public:
  InterruptsHeld();
  ~InterruptsHeld();
  InterruptsHeld(const InterruptsHeld&) = delete;
  InterruptsHeld& operator=(const InterruptsHeld&) = delete;

 private:
  sigset_t old_;
};

// Throws std::runtime_error naming `path` when the folder is not writable or the disk is full.
void write_file_atomically(const std::string& path, const std::string& text);

// Creates `dir` (and its parents) and proves it writable by creating and removing a file in
// it: run before hours of simulation, not after. `what` names the setting in the message
// ("--out").
void check_output_folder(const std::string& dir, const std::string& what);

// An output folder held by one run: check_output_folder, then an exclusive flock on
// DIR/.ibsc.lock (holding the holder's pid) for the object's lifetime. A second run into the
// same folder is refused at once, naming the holder, instead of both writing and one's results
// being lost. The kernel drops the lock when the process dies (even by SIGKILL), so a stale
// lock file never blocks; forked workers share the parent's lock; exec'd programs (gnuplot) do
// not get it. The holder removes the file when done (after a kill it stays, harmless). An
// empty `dir` is refused (a typo'd variable, not the current folder).
class OutputFolderLock {
 public:
  OutputFolderLock(const std::string& dir, const std::string& what);
  ~OutputFolderLock();
  OutputFolderLock(const OutputFolderLock&) = delete;
  OutputFolderLock& operator=(const OutputFolderLock&) = delete;

 private:
  int fd_ = -1;
  int owner_ = 0;  // the pid that took the lock: a forked worker never removes the file
  std::string path_;
};

}  // namespace ibsc::tb
