#include "tb/run/mpi_ranks.h"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "tb/run/forked_workers.h"
#include "tb/run/mpi_progress.h"
#include "tb/run/work_spread.h"
#include "tb/stats/output_files.h"

namespace ibsc::tb {
namespace {

// Worker -> 0: "a slot is free" (no data) and "an item finished" (index, ok, text);
// 0 -> worker: the next index, -1 when the batch has no more.
enum Tag : int { kAsk = 1, kItem = 2, kResult = 3 };

struct RankState {
  int rank = 0, size = 1;
  std::string key;                  // the progress record's (progress_key), on every rank
  std::vector<std::string> places;  // each rank's "HOST pid PID"
  std::string reads;                // this rank's input files read before the first batch (inputs_read_key)
  long batch = 0;                   // batches so far: the same count on every rank
  MpiProgress progress;
};
RankState& state() {
  static RankState s;
  return s;
}

void send_result(const FinishedItem& f) {
  std::vector<char> buf(8 + f.text.size());
  const int32_t head[2] = {f.index, f.ok ? 1 : 0};
  std::memcpy(buf.data(), head, 8);
  std::memcpy(buf.data() + 8, f.text.data(), f.text.size());
  MPI_Send(buf.data(), static_cast<int>(buf.size()), MPI_CHAR, 0, kResult, MPI_COMM_WORLD);
}

FinishedItem receive_result(int source) {
  MPI_Status st;
  MPI_Probe(source, kResult, MPI_COMM_WORLD, &st);
  int count = 0;
  MPI_Get_count(&st, MPI_CHAR, &count);
  std::vector<char> buf(static_cast<size_t>(count));
  MPI_Recv(buf.data(), count, MPI_CHAR, source, kResult, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  int32_t head[2];
  std::memcpy(head, buf.data(), 8);
  return {head[0], head[1] != 0, std::string(buf.begin() + 8, buf.end())};
}

// Rank 0's N bytes of S to every rank's S.
void broadcast_bytes(std::string& s, uint64_t n) {
  s.resize(n);
  for (uint64_t at = 0; at < n;) {  // in pieces an int counts
    const int piece = static_cast<int>(std::min<uint64_t>(n - at, 1u << 30));
    MPI_Bcast(s.data() + at, piece, MPI_CHAR, 0, MPI_COMM_WORLD);
    at += static_cast<uint64_t>(piece);
  }
}

std::string from_rank0(const std::string& text);

// Every rank's TEXT (up to 4 KB) to every rank, in rank order.
std::vector<std::string> gather_all(const std::string& text) {
  constexpr size_t kMax = 4096;
  char mine[kMax] = {};
  std::memcpy(mine, text.data(), std::min(text.size(), kMax - 1));
  std::vector<char> all(kMax * static_cast<size_t>(state().size));
  MPI_Allgather(mine, kMax, MPI_CHAR, all.data(), kMax, MPI_CHAR, MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (int r = 0; r < state().size; ++r) out.emplace_back(all.data() + r * kMax);
  return out;
}

// Every rank reads the scenario and the files it names from its own disk: a node with an older
// copy would run other experiments than rank 0 reports. Compared once, before the first batch
// (every rank reaches it at the same point): each rank's first line of MINE (inputs_read_key)
// that differs from rank 0's (a file's path and digest), the same text on every rank, or empty.
std::string inputs_differ(const std::string& mine) {
  const std::string rank0 = from_rank0(mine);
  std::string line;
  if (mine != rank0) {
    const auto [x, y] = first_different_lines(rank0, mine);
    line = "has '" + y + "' where rank 0 has '" + x + "'";
  }
  std::string problem;
  const std::vector<std::string> lines = gather_all(line);
  for (int r = 1; r < state().size; ++r)
    if (!lines[r].empty())
      problem += std::string(problem.empty() ? "" : "; ") + "rank " + std::to_string(r) + " (" + state().places[r] +
                 ") " + lines[r];
  return problem.empty() ? ""
                         : "the ranks read different input files: " + problem +
                               ". Every rank must read the same scenario and files, at the same paths";
}

// Returns once every rank has called it, without spinning. Open MPI's blocking calls poll at full
// speed, so a rank out of items would burn a core for as long as rank 0 runs its last ones (an
// hour in a talk-scale study), a core its children need when ranks share a machine.
void wait_for_every_rank() {
  MPI_Request request;
  MPI_Ibarrier(MPI_COMM_WORLD, &request);
  for (int idle_us = 100, done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    usleep(static_cast<useconds_t>(idle_us));
    idle_us = std::min(idle_us * 2, 5000);  // 5 ms: late by that much at most, once per batch
  }
}

// Rank 0 to all: the failure message (ok = false) or every item's text.
void broadcast(bool& ok, std::string& failure, std::vector<std::string>& out) {
  int flag = ok ? 1 : 0;
  MPI_Bcast(&flag, 1, MPI_INT, 0, MPI_COMM_WORLD);
  ok = flag != 0;
  std::vector<uint64_t> sizes(out.size() + 1, 0);  // the failure's, then each text's
  if (!ok) sizes[0] = failure.size();
  for (size_t i = 0; ok && i < out.size(); ++i) sizes[i + 1] = out[i].size();
  MPI_Bcast(sizes.data(), static_cast<int>(sizes.size()), MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (!ok) return broadcast_bytes(failure, sizes[0]);
  for (size_t i = 0; i < out.size(); ++i) broadcast_bytes(out[i], sizes[i + 1]);
}

// A rank other than 0: ask for items while a slot is free, run them, send each back.
void work(int jobs, const WorkItem& fn) {
  ForkedWorkers local(/*adopt_reads=*/false);  // each item records its own reads (spread)
  bool more = true;
  for (;;) {
    while (more && local.running() < jobs) {
      MPI_Send(nullptr, 0, MPI_CHAR, 0, kAsk, MPI_COMM_WORLD);
      int index = -1;
      MPI_Recv(&index, 1, MPI_INT, 0, kItem, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (index < 0) more = false;
      else local.start(index, fn);
    }
    if (local.running() == 0) return;
    FinishedItem f = local.wait(true);
    if (f.index >= 0) send_result(f);
  }
}

// Rank 0: hand out items, run its own share, collect results; until every item is back and
// every other rank has been told the batch has no more.
// PACKED: each successful item's text comes back behind the files it read (pack_reads).
std::vector<std::string> lead(int n, int jobs, const WorkItem& fn, const WorkDone& on_done, const WorkName& name,
                              bool packed, std::string& failure) {
  RankState& st = state();
  // Names are unique over the command's batches (the sweep numbers its points over all of them).
  auto key = [&](int i) {
    return name ? name(i) : "batch " + std::to_string(st.batch) + " item " + std::to_string(i + 1);
  };
  std::vector<std::string> out(n);
  ForkedWorkers local(/*adopt_reads=*/false);  // each item records its own reads (spread)
  int next = 0;
  std::set<int> told;   // ranks told "no more"
  int outstanding = 0;  // items out on other ranks
  int idle_us = 1000;
  auto come_back = [&](int rank, FinishedItem f, bool fresh) {
    // mpirun stops rank 0 with SIGTERM when another rank dies: not halfway through writing an
    // item's files (on_done writes runs/NAME) or its record.
    const InterruptsHeld held;
    std::string reads;
    if (f.ok && fresh && packed) std::tie(reads, f.text) = unpack_reads(f.text);
    // A file read on another rank beyond the key was not compared with rank 0's copy before the
    // batch (inputs_differ): it is now, as one process would have read rank 0's.
    if (std::string path, why; rank != 0 && !reads.empty() && !(why = changed_input(reads, &path)).empty()) {
      f.ok = false;
      f.text = "read " + path + ", which rank 0 cannot match (on rank 0: " + why +
               "). Every rank must read the same files, at the same paths, unchanged while the command runs";
    }
    if (f.ok) {
      // Its files first, then its record: a record on file means its files are whole. on_done
      // may leave a shorter text (what the files hold need not be kept twice, nor sent round).
      out[f.index] = std::move(f.text);
      if (on_done) on_done(f.index, out[f.index]);
      st.progress.give_back(rank, key(f.index), true, out[f.index], reads);
    } else {
      std::string where;
      if (rank != 0)
        where = "rank " + std::to_string(rank) +
                (rank < static_cast<int>(st.places.size()) ? " (" + st.places[rank] + ")" : "") + ", ";
      if (f.died || rank != 0) where += key(f.index) + ": ";
      st.progress.give_back(rank, key(f.index), false, f.text);
      if (failure.empty()) failure = where + f.text;
    }
  };
  // An item an earlier run finished comes back at once, unless a file it read has changed since
  // or on_done finds it stale.
  auto kept = [&](int i, const std::string& text) {
    std::string why = st.progress.stale_input(key(i));
    if (why.empty()) try {
        come_back(0, {i, true, text}, false);
        return true;
      } catch (const StaleItem& e) {
        why = e.what();
      }
    std::fprintf(stderr, "ibsc: %s: finished by the earlier run, but %s: it runs again\n", key(i).c_str(), why.c_str());
    st.progress.forget(key(i));
    return false;
  };
  auto take = [&](int rank) {  // the next item to run
    while (next < n && failure.empty()) {
      const int i = next++;
      if (const std::string* text = st.progress.finished(key(i)); text && kept(i, *text)) continue;
      st.progress.hand_out(rank, key(i));
      return i;
    }
    return -1;
  };
  for (;;) {
    while (local.running() < jobs) {
      const int i = take(0);
      if (i < 0) break;
      local.start(i, fn);
    }
    bool busy = false;
    int flag = 0;
    MPI_Status ms;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &ms);
    if (flag && ms.MPI_TAG == kAsk) {
      MPI_Recv(nullptr, 0, MPI_CHAR, ms.MPI_SOURCE, kAsk, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      const int i = take(ms.MPI_SOURCE);
      MPI_Send(&i, 1, MPI_INT, ms.MPI_SOURCE, kItem, MPI_COMM_WORLD);
      if (i < 0) told.insert(ms.MPI_SOURCE);
      else ++outstanding;
      busy = true;
    } else if (flag && ms.MPI_TAG == kResult) {
      FinishedItem f = receive_result(ms.MPI_SOURCE);
      --outstanding;
      come_back(ms.MPI_SOURCE, std::move(f), true);
      busy = true;
    }
    if (local.running() > 0) {
      FinishedItem f = local.wait(false);
      if (f.index >= 0) {
        come_back(0, std::move(f), true);
        busy = true;
      }
    }
    if (local.running() == 0 && outstanding == 0 && static_cast<int>(told.size()) == st.size - 1 &&
        (next >= n || !failure.empty()))
      return out;
    // Nothing came: look again after 1 ms, backing off to 20 ms while all is quiet (an item
    // runs far longer than that; hours-long runs should not spin).
    idle_us = busy ? 1000 : std::min(idle_us * 2, 20000);
    if (!busy) usleep(static_cast<useconds_t>(idle_us));
  }
}

std::vector<std::string> spread(int n, int jobs, const WorkItem& fn, const WorkDone& on_done, const WorkName& name) {
  RankState& st = state();
  ++st.batch;
  const bool packed = !progress_folder().empty();  // a record is kept
  const std::string out_folder = packed ? std::filesystem::path(progress_folder()).parent_path().string() : "";
  if (st.batch == 1 && packed) {
    st.reads = inputs_read_key(out_folder);
    if (const std::string problem = inputs_differ(st.reads); !problem.empty()) throw SpreadFailure(problem);
    set_record_digest(digest_of_text(st.key + progress_inputs() + st.reads));  // the key rank 0 opens
    set_record_reads_beyond([out_folder, key_reads = st.reads] { return reads_beyond(out_folder, key_reads); });
  }
  jobs = local_jobs(jobs);
  // With a record, each item sends back the files it read beyond the key's (a forked child may
  // read one its parent never did), so that a rerun can tell whether its result still stands.
  const WorkItem item = !packed ? fn : [&fn, &st, &out_folder](int i) {
    std::string text = fn(i);
    return pack_reads(reads_beyond(out_folder, st.reads), text);
  };
  std::vector<std::string> out(n);
  std::string failure;
  if (st.rank == 0) {
    if (!st.progress.is_open() && packed)
      st.progress.open(progress_folder(), st.key + progress_inputs() + st.reads, st.places);
    out = lead(n, jobs, item, on_done, name, packed, failure);
  } else {
    work(jobs, item);
  }
  wait_for_every_rank();
  bool ok = failure.empty();
  broadcast(ok, failure, out);
  if (!ok) throw SpreadFailure(failure);
  return out;
}

std::string from_rank0(const std::string& text) {
  std::string t = text;
  uint64_t n = t.size();
  MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  broadcast_bytes(t, n);
  return t;
}

int width(int jobs) {
  int mine = local_jobs(jobs), all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return all;
}

}  // namespace

std::string start_mpi_ranks(int& argc, char**& argv) {
  MPI_Init(&argc, &argv);
  RankState& st = state();
  MPI_Comm_rank(MPI_COMM_WORLD, &st.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &st.size);
  // On every rank: each marks what it keeps for a rerun with the record's key (record_digest).
  st.key = progress_key(std::vector<std::string>(argv + 1, argv + argc), "/proc/self/exe");
  // Each rank's host and process id, for the record of who held what (and whom to look for).
  char host[64] = {};
  gethostname(host, sizeof host - 1);
  st.places = gather_all(std::string(host) + " pid " + std::to_string(getpid()));
  // Every rank's build: a node left with another ibsc would compute other results, unseen.
  const std::vector<std::string> builds = gather_all(digest_of("/proc/self/exe"));
  std::string unreadable, differ;
  for (int r = 0; r < st.size; ++r) {
    const std::string who = "rank " + std::to_string(r) + " (" + st.places[r] + ")";
    if (builds[r] == "unreadable") unreadable += (unreadable.empty() ? "" : ", ") + who;
    else if (builds[r] != builds[0]) differ += (differ.empty() ? "" : ", ") + who + " " + builds[r];
  }
  WorkSpreader s;
  s.run = spread;
  s.width = width;
  s.from_rank0 = from_rank0;
  s.finished = [] { state().progress.remove(); };
  s.rank = st.rank;
  s.size = st.size;
  install_spreader(std::move(s));
  if (!unreadable.empty())
    return "cannot compare the ranks' ibsc builds: /proc/self/exe is unreadable on " + unreadable;
  if (differ.empty()) return "";
  return "the ranks run different ibsc builds (digests of their binaries: rank 0 (" + st.places[0] + ") " + builds[0] +
         ", " + differ +
         "): every rank must run the same build for the results to be those of one process; install the same ibsc on "
         "every node";
}

void finish_mpi_ranks() {
  wait_for_every_rank();  // while rank 0 writes the outputs: MPI_Finalize's own wait spins
  MPI_Finalize();
}

void abort_mpi_ranks(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  _exit(code);
}

}  // namespace ibsc::tb
