#include "tb/run/work_spread.h"

#include <unistd.h>

#include <cstdlib>
#include <memory>

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

void set_progress_folder(const std::string& f) { folder() = f; }
const std::string& progress_folder() { return folder(); }

int launcher_rank_count() {
  if (int n = env_int("OMPI_COMM_WORLD_SIZE")) return n;
  if (std::getenv("PMIX_RANK"))
    if (int n = env_int("SLURM_STEP_NUM_TASKS")) return n;
  return 1;
}

}  // namespace ibsc::tb
