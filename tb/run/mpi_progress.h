// Rank 0's record of a run spread over MPI ranks, in OUT/mpi-progress/: the command's key
// (command.txt, progress_key below), which rank holds which item (held.json, rewritten as items are handed out and
// come back) and the text of every finished item (finished.jsonl, one line each, appended as
// it comes back). A rank that dies takes the job down with it (mpirun stops the others), and
// the record stays: a rerun of the same command reports the items the ranks held and runs only
// what had not finished. A record of another key is moved aside, never deleted: it may hold
// hours of finished work. The record goes once the command's outputs are written.
#pragma once
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ibsc::tb {

// The record's key: what a rerun must share with the run that stopped for its finished items
// to stand. ARGS (argv[1..]) without --jobs and --quiet, which change how the work runs, not
// what it computes; a digest of the content of each argument that names a file (the scenario
// or study; the files those name in turn join through inputs_read_key); and a digest of EXE, the ibsc
// binary, since another build may compute otherwise. argv[0] is left out: the same binary
// started by another path is the same build. Files are named by their absolute paths, and
// "--opt=value" read as "--opt value", so that two spellings of one command are one key.
std::string progress_key(const std::vector<std::string>& args, const std::string& exe);
std::string digest_of_text(const std::string& bytes);  // 16 hex digits
std::string digest_of(const std::string& path);        // of the file's bytes; "unreadable" if so
// The lines the key gains from the input files read so far (routing::input_files_read: a
// scenario's base model, a topology, table or permutation file), "read PATH: DIGEST" each.
// Files in the folders ibsc writes under OUT (mpi-progress, scenarios, runs) are its own
// outputs read back, not inputs.
std::string inputs_read_key(const std::string& out);
// What an item read beyond the key: the lines of inputs_read_key(OUT) for the files whose paths
// KEY_READS does not name, each digested here (one changed since it was read gets a digest that
// no file has, so that a rerun runs the item again). A forked child that reads a file its parent never
// read (a permutation file a point builds its traffic from) records it with its result, so that
// a rerun after an edit runs that item again instead of keeping a result of the old file.
std::string reads_beyond(const std::string& out, const std::string& key_reads);
// Of READS ("read PATH: DIGEST" lines), the first file that is not as it was read: "PATH has
// changed", "PATH is gone" or "PATH changed while the item ran" (its path in *CHANGED_PATH);
// empty when every one is as it was.
std::string changed_input(const std::string& reads, std::string* changed_path = nullptr);
// An item's result TEXT with the READS its process made on the way back to rank 0
// ("LENGTH\nREADS" + TEXT), and the two split again (throws std::runtime_error if PACKED is not
// of that form).
std::string pack_reads(const std::string& reads, const std::string& text);
std::pair<std::string, std::string> unpack_reads(const std::string& packed);  // {reads, text}
// The first line of A and of B that differ ("" past a text's end); both empty if none does.
std::pair<std::string, std::string> first_different_lines(const std::string& a, const std::string& b);

class MpiProgress {
 public:
  // Opens FOLDER for the command of key KEY on ranks at PLACES ("HOST pid PID" each); an
  // earlier unfinished record of the same key is resumed (and reported on stderr), another
  // key's is moved aside to FOLDER.replaced[-N] (and that reported, with what differs).
  void open(const std::string& folder, const std::string& key, const std::vector<std::string>& places);
  bool is_open() const { return !folder_.empty(); }
  // The text of an item finished by an earlier run; null when there is none.
  const std::string* finished(const std::string& key) const;
  // Why that text no longer stands: a file its item read beyond the key changed (changed_input),
  // or empty.
  std::string stale_input(const std::string& key) const;
  void hand_out(int rank, const std::string& key);
  // The item came back from `rank`: with its text when it succeeded (ok = false: failed, TEXT is
  // the message), and READS, the files it read beyond the key (reads_beyond).
  void give_back(int rank, const std::string& key, bool ok, const std::string& text, const std::string& reads = "");
  // An item the earlier run finished that no longer stands (its files are gone, or a file it
  // read has changed): it runs again.
  void forget(const std::string& key) { done_.erase(key); }
  void remove();  // the outputs are written: nothing left to resume

 private:
  void write_held() const;
  std::string folder_;
  std::vector<std::string> places_;
  int done_count_ = 0;  // items finished, this run and the earlier
  struct Done {
    std::string text, reads;
  };
  std::map<std::string, Done> done_;           // key -> text and reads, from the earlier run
  std::map<int, std::set<std::string>> held_;  // rank -> keys
};

}  // namespace ibsc::tb
