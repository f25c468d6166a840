// Rank 0's record of a run spread over MPI ranks, in OUT/mpi-progress/: the command line
// (command.txt), which rank holds which item (held.json, rewritten as items are handed out and
// come back) and the text of every finished item (finished.jsonl, one line each, appended as
// it comes back). A rank that dies takes the job down with it (mpirun stops the others), and
// the record stays: a rerun of the same command reports the items the ranks held and runs only
// what had not finished. The record goes once the command's outputs are written.
#pragma once
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ibsc::tb {

class MpiProgress {
 public:
  // Opens FOLDER for COMMAND on ranks at PLACES ("HOST pid PID" each); an earlier unfinished record of the same command
  // is resumed (and reported on stderr), another command's is replaced.
  void open(const std::string& folder, const std::string& command, const std::vector<std::string>& places);
  bool is_open() const { return !folder_.empty(); }
  // The text of an item finished by an earlier run; null when there is none.
  const std::string* finished(const std::string& key) const;
  void hand_out(int rank, const std::string& key);
  // The item came back from `rank`: with its text when it succeeded (empty ok = false: failed).
  void give_back(int rank, const std::string& key, bool ok, const std::string& text);
  void remove();  // the outputs are written: nothing left to resume

 private:
  void write_held() const;
  std::string folder_;
  std::vector<std::string> places_;
  int done_count_ = 0;                         // items finished, this run and the earlier
  std::map<std::string, std::string> done_;    // key -> text, from the earlier run
  std::map<int, std::set<std::string>> held_;  // rank -> keys
};

}  // namespace ibsc::tb
