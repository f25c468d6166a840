// Input files are checked before a reader touches them: a regular file (a named pipe would
// block the reader for ever, /dev/zero would feed it gigabytes, a directory reads as empty)
// and no larger than its kind's limit. The limits are not capacity limits: each is tens of
// times the largest real input of its kind, so that a wrong path (a disk image, a log, a
// device) is refused at once with the reason instead of being read for minutes.
// Also: text from an input echoed in an error message, made printable.
#pragma once
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace ibsc::routing {

constexpr uint64_t kMiB = uint64_t{1} << 20;

struct InputKind {
  const char* what;    // "scenario file", in the messages
  uint64_t max_bytes;  // refused above this
  const char* why;     // the limit's reason, in the message
};

// Scenarios are read whole and expanded by yaml-cpp into a node tree many times the text; the
// largest shipped scenario is 31 KB.
constexpr InputKind kScenarioFile{"scenario file", 16 * kMiB, "the largest shipped scenario is 31 KB"};
// ibnetdiscover writes ~100 bytes per cabled port: 48K end ports on 3K 40-port switches (the
// unicast LID range's worth) is about 20 MB.
constexpr InputKind kTopologyFile{"topology file", 1024 * kMiB,
                                  "a fabric filling the 48K unicast LIDs is about 20 MB of ibnetdiscover text"};
// OpenSM writes ~60 bytes per (switch, LID) in opensm-lfts.dump: 1,500 switches x 48K LIDs.
constexpr InputKind kLftDump{"LFT dump", 4096 * kMiB, "an LFT dump of 1,500 switches x 48K LIDs is about 4 GB"};
// SL2VL and path-record text beside a dump (our export): one line per port pair or host pair.
constexpr InputKind kTableFile{"table file", 4096 * kMiB, "as large as an LFT dump"};
// One 'src dst' line per host: 48K hosts is under 1 MB.
constexpr InputKind kPermutationFile{"permutation file", 64 * kMiB, "one line per host: 48K hosts is under 1 MB"};
// Held in memory, one record per line (~25 bytes): 1 GB is 40 million messages.
constexpr InputKind kTraceFile{"trace file", 1024 * kMiB, "1 GB holds about 40 million messages"};

// Throws std::invalid_argument "PATH: ..." unless `path` names a readable regular file within
// the kind's size limit (a FIFO is refused without opening it for reading, so never a hang).
void check_input_file(const std::string& path, const InputKind& kind);

// check_input_file, then the stream (for the line-by-line readers), past a UTF-8 byte-order
// mark if the file starts with one (Windows editors write it), so every reader treats such a
// file alike.
std::ifstream open_input_file(const std::string& path, const InputKind& kind);

// check_input_file, then the whole text without a leading UTF-8 byte-order mark (stops at the
// limit even if the file grows meanwhile).
std::string read_input_file(const std::string& path, const InputKind& kind);

// Every input file this process has opened through the functions above, by absolute path,
// sorted: what its results rest on besides the command line (the resume key of a run spread
// over MPI ranks follows them: a scenario's base model, a topology or table file).
std::vector<std::string> input_files_read();
// Whether PATH (as input_files_read names it) is no longer the file this process first read
// there: edited, replaced or gone since (by size, modification time and inode). False for a
// path never read.
bool input_file_changed_since_read(const std::string& path);
// The files read since BEFORE (an input_files_read() list) as text a parent process takes in
// with adopt_input_files_read: a forked child's reads would otherwise die with it, and a result
// built from a file its parent never read would not name it.
std::string input_files_read_since(const std::vector<std::string>& before);
// Adds those files to this process's record as the child first read them (so that
// input_file_changed_since_read compares with what the child read); a path already there keeps
// its own. Throws std::runtime_error if LINES is not of input_files_read_since's form.
void adopt_input_files_read(const std::string& lines);

// `text` as it can be printed on one line: a newline, a NUL or another control byte becomes an
// escape (\n, \0, \x1b); a backslash is doubled. For names and tokens echoed in errors.
std::string printable(std::string_view text);

// True when `text` holds a byte printable() would escape other than a backslash: a control
// character, which no name, spec or path given to ibsc needs.
bool has_control_char(std::string_view text);

}  // namespace ibsc::routing
