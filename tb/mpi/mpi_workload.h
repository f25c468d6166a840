// MPI-like workloads for tb/mpi/mpi_host.h, each a body every rank runs, with its data checked at
// the end (a problem goes to MpiHost::errors):
//   all-to-all  rank i writes a block of `bytes` to every other rank j (at i x bytes in j's
//               memory), starting with j = i+1 so that no rank is everybody's first target;
//               then waits for the P-1 blocks and checks each against its sender's pattern;
//   allreduce   recursive doubling (P a power of two, bytes a multiple of 8): a vector of
//               bytes/8 64-bit words; in step s rank i sends its vector to i xor 2^s (slot s),
//               waits for the partner's, reads it through its socket and adds it; after log2 P
//               steps every rank checks that it holds the sum of all initial vectors;
//   ring        ring all-gather: in step s (P-1 steps) rank i passes block (i - s) mod P to
//               i+1 and waits for block (i - 1 - s) mod P from i-1; then checks all P-1 blocks;
//   halo        nearest-neighbour exchange on a periodic line of ranks (P >= 3): `iterations`
//               times, send a halo of `bytes` to i-1 and i+1 and wait for both of theirs;
//               checks every halo received;
//   trace       messages from a trace file, each posted by its source at time / compression
//               (non-blocking, into address 0 of the destination); nothing to combine, so the
//               check is the per-packet checksum of the message layer.
// Trace format (tb/mpi/mpi_workload.h, README): one message per line, `time_ns src dst bytes`,
// whitespace-separated, `#` starts a comment; times need not be sorted.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tb/mpi/mpi_host.h"

namespace ibsc::tb {

struct WorkloadConfig {
  std::string kind = "allreduce";  // all-to-all | allreduce | ring | halo | trace
  uint32_t bytes = 4096;           // per message (block, vector, halo)
  int iterations = 4;              // halo
  std::vector<TraceRecord> trace;  // trace: the messages
  double compression = 1;          // trace: time-compression factor (post at time / compression)
  void validate(int ranks) const;  // throws std::invalid_argument naming the problem
};

const std::vector<std::string>& workload_kinds();
// Memory per host the workload writes into.
uint64_t workload_memory_bytes(const WorkloadConfig& w, int ranks);
std::function<void(MpiHost&)> make_workload(const WorkloadConfig& w);

// Reads a trace; errors name FILE:LINE. Writes one (with a header comment).
std::vector<TraceRecord> read_trace(const std::string& file);
void write_trace(const std::string& file, const std::vector<TraceRecord>& trace);

}  // namespace ibsc::tb
