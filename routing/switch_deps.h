// The deadlock check's channel dependencies (checks.cpp): what the walks saw at each switch,
// and the channel dependency graph over (channel, VL) built from it, searched for a cycle.
#pragma once
#include <cstdint>
#include <vector>

#include "routing/checks.h"
#include "routing/topology.h"

namespace ibsc::routing {

constexpr int kDepVls = 16;  // VL field values, VL15 included so a misuse is still recorded

// Dependencies seen at one switch, as bits over (in port, in VL, out port, out VL).
struct SwitchDeps {
  int ports = 0;
  std::vector<uint64_t> bits;
  void init(int num_ports) {
    ports = num_ports + 1;
    bits.assign((static_cast<size_t>(ports) * ports * kDepVls * kDepVls + 63) / 64, 0);
  }
  size_t index(int ip, int iv, int op, int ov) const {
    return ((static_cast<size_t>(ip) * kDepVls + iv) * ports + op) * kDepVls + ov;
  }
  void set(int ip, int iv, int op, int ov) {
    size_t i = index(ip, iv, op, ov);
    bits[i >> 6] |= 1ULL << (i & 63);
  }
};

// Fills rep's cdg_nodes, cdg_edges, deadlock_free and cycle.
void dependency_graph(const Topology& t, const std::vector<SwitchDeps>& deps, CheckReport& rep);

// The rest of the report from what the walks saw (sl_seen, vl_seen: kDepVls flags each): the
// SL/VL budgets and the declared counts, then dependency_graph() (check_verdict.cpp).
void check_verdict(const Topology& t, const TableSet& ts, const CheckLimits& limits, const bool* sl_seen,
                   const bool* vl_seen, bool vl15, bool bad_sl, const std::vector<SwitchDeps>& deps, CheckReport& rep);

}  // namespace ibsc::routing
