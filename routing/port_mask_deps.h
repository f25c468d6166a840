// The deadlock check's adaptive walks without the input port (checks.cpp): where every
// switch's SL2VL/VL2VL gives the same output VL from each of its input ports, a packet's
// future at a switch depends only on (switch, input VL), not on the port it came in by (the
// LFT is keyed by DLID and input VL). The walk then keeps one state per (switch, input VL)
// instead of one per (switch, input port, input VL), and notes the input ports that reached
// each state as a bit mask; when the destination's walk is done, each state's candidates
// give their dependencies for all those ports at once (one OR per candidate). The
// dependencies, the outcomes and the loops are those of the walk by port: a state's
// candidates and output VLs are the same from every port, so both walks reach the same
// (switch, input VL) pairs from the same ports, and a cycle in one is a cycle in the other.
#pragma once
#include <cstdint>
#include <vector>

#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::routing {

class PortMaskDeps {
 public:
  static constexpr int kV = 16;  // VL field values, as checks.cpp
  // Every switch has at most 63 ports and each SL2VL/VL2VL entry (keyed by input VL) is the
  // same from every cabled input port; tables keyed by SL are left to the walk by port.
  static bool applies(const Topology& t, const TableSet& ts);
  void init(const Topology& t, size_t memo_slots);
  // A packet reaches the state in memo slot `id` through `in_port` (fresh: the slot's first
  // arrival for this destination).
  void arrive(long id, int in_port, bool fresh) {
    const uint64_t bit = 1ULL << in_port;
    arrived_[id] = fresh ? bit : arrived_[id] | bit;
  }
  // The state (node, vl) in slot id was walked toward `dlid`.
  void walked(int node, int vl, Lid dlid, long id) { walked_.push_back({node, vl, dlid, id}); }
  // The walked states' dependencies, for every port that reached them; call before the memo
  // slots are used for another destination.
  void flush(const Topology& t, const TableSet& ts);
  // f(switch, input port, input VL, output port, output VL) for every dependency gathered.
  template <class F>
  void for_each(const TableSet& ts, F f) const {
    for (size_t s = 0; s < masks_.size(); ++s) {
      const int ports = ports_[s];
      for (size_t i = 0; i < masks_[s].size(); ++i) {
        const uint64_t m0 = masks_[s][i];
        if (!m0) continue;
        const int iv = static_cast<int>(i / ports), op = static_cast<int>(i % ports);
        const int ov = out_vl(ts, static_cast<int>(s), __builtin_ctzll(m0), iv, op);
        for (uint64_t m = m0; m; m &= m - 1) f(static_cast<int>(s), __builtin_ctzll(m), iv, op, ov);
      }
    }
  }

 private:
  struct Walked {
    int node, vl;
    Lid dlid;
    long id;
  };
  std::vector<uint64_t> arrived_;  // [memo slot]: input ports, bit per port
  std::vector<Walked> walked_;
  // The output VL, the same from every input port.
  static int out_vl(const TableSet& ts, int s, int in, int iv, int op) {
    return ts.switches[s].sl2vl.get(in, op, iv) & 15;
  }
  std::vector<int> ports_;                    // [switch]: ports + 1
  std::vector<std::vector<uint64_t>> masks_;  // [switch][input VL * ports + output port]: input ports
};

}  // namespace ibsc::routing
