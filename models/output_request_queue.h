// Output request queues of a switch (switch.output_request_queue, seeds/004 section 4.1: "a
// simple crossbar arbiter based on FIFO request queues per output crossbar port, that will
// select the first request that has enough space in the corresponding output crossbar port").
// Off (the default) the switch arbiter (switch_arbiter.h) matches inputs to outputs instead and
// this part does not exist.
//
// A request is the head of one input queue (input port, VL; with escape queues the queue index)
// asking for one output port. It joins the queue of each of its candidate outputs when it is a
// head and routed: at max(routing done, became head, its crossbar input free). Each queue keeps
// its requests in that order (the older packet first at a tie: packet ids grow with generation
// time), so the order does not depend on when the switch happens to run.
//
// Service, on a core-clock edge, per output crossbar port whose crossbar output is free:
//   fifo:      the first request in queue order that can be served now (its crossbar input free,
//              the space its output VL needs free: the output buffer's with output buffers, else
//              the link credits); a request that cannot be served lets the ones behind it pass.
//              This is our reading of the paper: "select the first request that has enough
//              space", a search along the queue.
//   fifo_head: only the request at the head of the queue; while it cannot be served it blocks
//              every request behind it, whatever their VL (the stricter reading, kept to measure
//              how much the reading matters).
// The switch serves its outputs in the order of their chosen requests (oldest first), so that
// two outputs choosing requests of one crossbar input (inputs per port, or a head with several
// candidates) give it to the older.
//
// Inputs:     add (a head becomes a request), remove (a head is granted: its requests leave
//             every queue), pick (an output's choice at time t, given which requests can go).
// Outputs:    the chosen request per output; the queue front, for the wake-up of fifo_head.
// Parameters: ports; the mode (fifo, fifo_head).
// Events:     none; the switch calls it. Each queue holds at most one request per input queue
//             (a few dozen), kept sorted in a vector.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "models/sim_time.h"
#include "models/switch_params.h"

namespace ibsc::models {

struct OutputRequest {
  Picos at = 0;     // when it joined the queue (see above)
  uint64_t id = 0;  // the packet's id: ties go to the older packet
  uint8_t in = 0;   // input port
  uint8_t q = 0;    // input queue (the VL, or with escape queues the queue index)
  bool before(const OutputRequest& o) const { return at != o.at ? at < o.at : id < o.id; }
};

class OutputRequestQueues {
 public:
  // Ports are numbered 1..num_ports (0 unused).
  void configure(int num_ports, OutputRequestQueue mode) {
    queues_.assign(static_cast<size_t>(num_ports) + 1, {});
    head_only_ = mode == OutputRequestQueue::FifoHead;
  }

  void add(int out, const OutputRequest& r) {
    auto& v = queues_[out];
    v.insert(std::upper_bound(v.begin(), v.end(), r, [](const auto& a, const auto& b) { return a.before(b); }), r);
  }
  // Removes the request of input queue (in, q) from output out's queue, if it is there.
  void remove(int out, int in, int q) {
    auto& v = queues_[out];
    auto it = std::find_if(v.begin(), v.end(), [&](const OutputRequest& r) { return r.in == in && r.q == q; });
    if (it != v.end()) v.erase(it);
  }
  const std::vector<OutputRequest>& queue(int out) const { return queues_[out]; }

  // The request output `out` serves at t (an index into queue(out)), or -1. can_go(r) says
  // whether request r can be served now; requests that join after t are not in the queue yet.
  template <class CanGo>
  int pick(int out, Picos t, CanGo&& can_go) const {
    const auto& v = queues_[out];
    for (size_t k = 0; k < v.size() && v[k].at <= t; ++k) {
      if (can_go(v[k])) return static_cast<int>(k);
      if (head_only_) return -1;
    }
    return -1;
  }

 private:
  std::vector<std::vector<OutputRequest>> queues_;  // [output port], in service order
  bool head_only_ = false;
};

}  // namespace ibsc::models
