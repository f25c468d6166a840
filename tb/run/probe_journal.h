// The probes of one experiment's saturation search, kept as each finishes, so that a rerun of
// a stopped run under mpirun takes them back instead of simulating them again. At the talk's
// 16,384 hosts a search runs 2-13 probes of up to an hour each; without the journal a rank
// that died (or a run stopped) lost every probe of the experiments it held.
//
// One file per experiment, OUT/mpi-progress/probes/NAME.jsonl (it goes with the record when the
// command's outputs are written), one line per probe: the record's key digest
// (record_digest(), tb/run/work_spread.h), the grid step, the probe's CPU seconds and its
// point as the probe's process returned it. A probe is taken back only from a line of the same
// record: the same command, build and inputs, so the same probe would compute the same point.
// Lines of another record (a folder that is not shared and was left by another command) and a
// line cut short by a crash are passed over. So is a line whose probe rests on a file that has
// changed since: each line names the files read beyond the record's key by the time its probe
// ended (its process's reads reach this one, tb/run/forked_workers.h), as a finished item's
// record does (tb/run/mpi_progress.h).
#pragma once
#include <functional>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace ibsc::tb {

class ProbeJournal {
 public:
  ProbeJournal() = default;  // off: nothing kept, nothing found
  // PATH's lines of RECORD are read; new probes are appended to it (its folder is created),
  // each with READS_NOW(): the files read beyond the record's key, "read PATH: DIGEST" lines.
  ProbeJournal(std::string path, std::string record, std::function<std::string()> reads_now = {});
  bool on() const { return !path_.empty(); }
  struct Probe {
    nlohmann::json point;  // the point as its process returned it
    double cpu_seconds = 0;
  };
  // The probe at grid step STEP finished by an earlier run; null when there is none.
  const Probe* find(int step) const;
  // Appends a finished probe, in one write, so that a crash leaves at most a partial last line.
  // A journal that cannot be written is turned off (with a note), not fatal: it only saves time.
  void add(int step, nlohmann::json point, double cpu_seconds);
  // Why the probe at grid step STEP, which an earlier run finished, must run again (a file it
  // rests on has changed: changed_input's words); null when there is no such probe.
  const std::string* stale(int step) const;

 private:
  std::string path_, record_;
  std::function<std::string()> reads_now_;
  std::map<int, std::string> stale_;  // step -> why its last line no longer stands
  bool open_line_ = false;            // the file ends inside a line (cut short): the next starts afresh
  std::map<int, Probe> probes_;
};

}  // namespace ibsc::tb
