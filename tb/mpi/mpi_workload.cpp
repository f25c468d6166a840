#include "tb/mpi/mpi_workload.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "routing/input_file.h"
#include "tb/stats/output_files.h"

namespace ibsc::tb {
namespace {

// The bytes rank `src` sends as block/halo `tag`: distinct per sender, tag and position.
std::vector<uint8_t> pattern(int src, uint64_t tag, uint32_t bytes) {
  std::vector<uint8_t> d(bytes);
  for (uint32_t k = 0; k < bytes; ++k)
    d[k] = static_cast<uint8_t>((src * 131u + tag * 31u + k * 7u + (k >> 8)) ^ 0x5au);
  return d;
}

void expect(MpiHost& h, uint64_t addr, const std::vector<uint8_t>& want, const std::string& what) {
  if (h.read(addr, static_cast<uint32_t>(want.size())) != want)
    h.errors.push_back("rank " + std::to_string(h.rank()) + ": " + what + " differs from what was sent");
}

int mod(int a, int p) { return ((a % p) + p) % p; }

void all_to_all(MpiHost& h, uint32_t b) {
  const int p = h.ranks(), me = h.rank();
  for (int s = 1; s < p; ++s) h.send(mod(me + s, p), uint64_t(me) * b, pattern(me, mod(me + s, p), b));
  for (int j = 0; j < p; ++j)
    if (j != me) h.wait_from(j, 1);
  for (int j = 0; j < p; ++j)
    if (j != me) expect(h, uint64_t(j) * b, pattern(j, me, b), "block from rank " + std::to_string(j));
}

uint64_t initial_word(int rank, size_t k) { return (rank + 1) * 0x9E3779B97F4A7C15ull + k; }

void allreduce(MpiHost& h, uint32_t b) {
  const int p = h.ranks(), me = h.rank();
  const size_t n = b / 8;
  std::vector<uint64_t> v(n);
  for (size_t k = 0; k < n; ++k) v[k] = initial_word(me, k);
  std::vector<uint8_t> bytes(b);
  for (int s = 0; (1 << s) < p; ++s) {
    const int partner = me ^ (1 << s);
    std::memcpy(bytes.data(), v.data(), b);
    h.send(partner, uint64_t(s) * b, bytes);
    h.wait_from(partner, 1);  // each partner sends to us once
    const std::vector<uint8_t> got = h.read(uint64_t(s) * b, b);
    std::vector<uint64_t> w(n);
    std::memcpy(w.data(), got.data(), b);
    for (size_t k = 0; k < n; ++k) v[k] += w[k];
  }
  for (size_t k = 0; k < n; ++k) {
    uint64_t want = 0;
    for (int r = 0; r < p; ++r) want += initial_word(r, k);
    if (v[k] != want) {
      h.errors.push_back("rank " + std::to_string(me) + ": allreduce word " + std::to_string(k) + " is wrong");
      break;
    }
  }
}

void ring(MpiHost& h, uint32_t b) {
  const int p = h.ranks(), me = h.rank();
  for (int s = 0; s < p - 1; ++s) {
    const int block = mod(me - s, p);
    // Forward what arrived in the previous step (our own block first), read back from memory.
    std::vector<uint8_t> data = s == 0 ? pattern(me, 0, b) : h.read(uint64_t(block) * b, b);
    h.send(mod(me + 1, p), uint64_t(block) * b, data);
    h.wait_from(mod(me - 1, p), s + 1);
  }
  for (int j = 0; j < p; ++j)
    if (j != me) expect(h, uint64_t(j) * b, pattern(j, 0, b), "ring block of rank " + std::to_string(j));
}

void halo(MpiHost& h, uint32_t b, int iterations) {
  const int p = h.ranks(), me = h.rank(), left = mod(me - 1, p), right = mod(me + 1, p);
  // Slot of iteration it: [2 it] from the left neighbour, [2 it + 1] from the right one.
  for (int it = 0; it < iterations; ++it) {
    h.send(left, uint64_t(2 * it + 1) * b, pattern(me, it, b));
    h.send(right, uint64_t(2 * it) * b, pattern(me, it, b));
    h.wait_from(left, it + 1);
    h.wait_from(right, it + 1);
  }
  for (int it = 0; it < iterations; ++it) {
    expect(h, uint64_t(2 * it) * b, pattern(left, it, b), "halo " + std::to_string(it) + " from the left");
    expect(h, uint64_t(2 * it + 1) * b, pattern(right, it, b), "halo " + std::to_string(it) + " from the right");
  }
}

void replay(MpiHost& h, const std::vector<TraceRecord>& trace, double compression) {
  std::vector<const TraceRecord*> mine;
  for (const auto& r : trace)
    if (r.src == h.rank()) mine.push_back(&r);
  std::stable_sort(mine.begin(), mine.end(), [](auto* a, auto* b) { return a->time_ns < b->time_ns; });
  uint64_t tag = 0;
  for (const TraceRecord* r : mine) {
    h.wait_until_ns(r->time_ns / compression);
    h.send(r->dst, 0, pattern(h.rank(), tag++, r->bytes));
  }
}

}  // namespace

const std::vector<std::string>& workload_kinds() {
  static const std::vector<std::string> k = {"all-to-all", "allreduce", "ring", "halo", "trace"};
  return k;
}

void WorkloadConfig::validate(int ranks) const {
  if (std::find(workload_kinds().begin(), workload_kinds().end(), kind) == workload_kinds().end())
    throw std::invalid_argument("workload '" + kind + "': all-to-all, allreduce, ring, halo or trace");
  if (ranks < 2) throw std::invalid_argument("workload: needs at least 2 hosts");
  if (bytes < 1) throw std::invalid_argument("workload: bytes must be >= 1");
  if (kind == "allreduce" && ((ranks & (ranks - 1)) != 0 || bytes % 8 != 0))
    throw std::invalid_argument("allreduce (recursive doubling): the host count (" + std::to_string(ranks) +
                                ") must be a power of two and bytes a multiple of 8");
  if (kind == "halo" && (ranks < 3 || iterations < 1))
    throw std::invalid_argument("halo: needs at least 3 hosts and 1 iteration");
  if (kind == "trace") {
    if (!(compression > 0)) throw std::invalid_argument("trace: the time-compression factor must be > 0");
    for (const auto& r : trace)
      if (r.src < 0 || r.src >= ranks || r.dst < 0 || r.dst >= ranks || r.src == r.dst)
        throw std::invalid_argument("trace: message " + std::to_string(r.src) + " -> " + std::to_string(r.dst) +
                                    " is not between two different hosts of 0.." + std::to_string(ranks - 1));
  }
}

uint64_t workload_memory_bytes(const WorkloadConfig& w, int ranks) {
  if (w.kind == "halo") return uint64_t(2) * w.iterations * w.bytes;
  if (w.kind == "allreduce") {
    int steps = 0;
    while ((1 << steps) < ranks) ++steps;
    return uint64_t(std::max(steps, 1)) * w.bytes;
  }
  if (w.kind == "trace") {
    uint64_t m = 1;
    for (const auto& r : w.trace) m = std::max<uint64_t>(m, r.bytes);
    return m;
  }
  return uint64_t(ranks) * w.bytes;  // all-to-all, ring: one block per rank
}

std::function<void(MpiHost&)> make_workload(const WorkloadConfig& w) {
  if (w.kind == "all-to-all") return [b = w.bytes](MpiHost& h) { all_to_all(h, b); };
  if (w.kind == "allreduce") return [b = w.bytes](MpiHost& h) { allreduce(h, b); };
  if (w.kind == "ring") return [b = w.bytes](MpiHost& h) { ring(h, b); };
  if (w.kind == "halo") return [b = w.bytes, n = w.iterations](MpiHost& h) { halo(h, b, n); };
  return [&w](MpiHost& h) { replay(h, w.trace, w.compression); };
}

std::vector<TraceRecord> read_trace(const std::string& file) {
  std::ifstream in = routing::open_input_file(file, routing::kTraceFile);
  std::vector<TraceRecord> out;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    line = line.substr(0, line.find('#'));
    std::istringstream ls(line);
    TraceRecord r;
    long long src = 0, dst = 0, bytes = 0;
    if (!(ls >> r.time_ns)) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;  // blank or comment
      throw std::invalid_argument(routing::printable(file) + ":" + std::to_string(n) +
                                  ": expected 'time_ns src dst bytes'");
    }
    std::string rest;
    if (!(ls >> src >> dst >> bytes) || (ls >> rest) || !(r.time_ns >= 0 && r.time_ns <= 1e15) || src < 0 || dst < 0 ||
        bytes < 1 || bytes > UINT32_MAX || src > INT32_MAX || dst > INT32_MAX)
      throw std::invalid_argument(
          routing::printable(file) + ":" + std::to_string(n) +
          ": expected 'time_ns src dst bytes' (0 <= time <= 1e15 ns, hosts >= 0, 1 <= bytes < 2^32)");
    r.src = static_cast<int>(src);
    r.dst = static_cast<int>(dst);
    r.bytes = static_cast<uint32_t>(bytes);
    out.push_back(r);
  }
  if (out.empty())  // else a run of no message that ends at once, "successfully"
    throw std::invalid_argument(routing::printable(file) + ": no 'time_ns src dst bytes' line: the trace is empty");
  return out;
}

void write_trace(const std::string& file, const std::vector<TraceRecord>& trace) {
  std::ostringstream o;
  o << "# ibsc message trace: time_ns src dst bytes\n";
  for (const auto& r : trace) o << r.time_ns << " " << r.src << " " << r.dst << " " << r.bytes << "\n";
  write_file_atomically(file, o.str());
}

}  // namespace ibsc::tb
