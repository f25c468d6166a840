#include "tb/run/work_spread.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <utility>

#include "tb/run/mpi_progress.h"

namespace ibsc::tb {
namespace {
std::unique_ptr<WorkSpreader>& spreader() {
  static std::unique_ptr<WorkSpreader> s;
  return s;
}
std::string& folder() {
  static std::string f;
  return f;
}
std::string& inputs() {
  static std::string s;
  return s;
}
int env_int(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return 0;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  return *end == '\0' && n > 0 && n < 1000000 ? static_cast<int>(n) : 0;
}
}  // namespace

void install_spreader(WorkSpreader s) {
  s.owner = getpid();
  spreader() = std::make_unique<WorkSpreader>(std::move(s));
}

const WorkSpreader* active_spreader() {
  const auto& s = spreader();
  return s && s->owner == getpid() ? s.get() : nullptr;
}

bool writes_outputs() { return !spreader() || spreader()->rank == 0; }

void set_progress_folder(const std::string& f) {
  folder() = f;
  std::error_code ec;
  if (!spreader() && std::filesystem::exists(f + "/command.txt", ec))
    std::fprintf(stderr,
                 "ibsc: note: %s is the record of an unfinished run under mpirun; this run, in one process, neither "
                 "resumes nor removes it (rerun that command under mpirun to resume it, or remove the folder)\n",
                 f.c_str());
}
const std::string& progress_folder() { return folder(); }

namespace {
std::string& digest_slot() {
  static std::string d;
  return d;
}
}  // namespace

void set_record_digest(const std::string& digest) { digest_slot() = digest; }
const std::string& record_digest() { return digest_slot(); }

namespace {
std::function<std::string()>& reads_slot() {
  static std::function<std::string()> f;
  return f;
}
}  // namespace

void set_record_reads_beyond(std::function<std::string()> reads) { reads_slot() = std::move(reads); }
std::string record_reads_beyond() { return reads_slot() ? reads_slot()() : ""; }

void add_progress_input(const std::string& what, const std::string& text) {
  inputs() += "input " + what + ": " + digest_of_text(text) + "\n";
}

const std::string& progress_inputs() { return inputs(); }

int launcher_rank_count() {
  if (int n = env_int("OMPI_COMM_WORLD_SIZE")) return n;
  if (std::getenv("PMIX_RANK"))
    if (int n = env_int("SLURM_STEP_NUM_TASKS")) return n;
  return 1;
}

int launcher_rank() {
  if (std::getenv("OMPI_COMM_WORLD_RANK")) return env_int("OMPI_COMM_WORLD_RANK");
  if (std::getenv("PMIX_RANK")) return env_int("PMIX_RANK");
  return 0;
}

}  // namespace ibsc::tb
