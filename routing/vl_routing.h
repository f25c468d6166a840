// Tables of the hardware seeds/001 assumes for non-minimal adaptive routing: one LFT per input
// VL, (switch, input VL, DLID) -> output ports with priorities, and a VL2VL table, (switch,
// input VL, input port, output port) -> output VL; the HCA picks the first VL (as the SL of
// the path record, its SL2VL the identity). The routings of seeds/001 (distance.cpp,
// ador.cpp, dragonfly_routing.cpp) describe themselves to build_vl_tables() as three rules and
// leave the tables to it: LIDs (LMC 0), the per-VL LFT copies (switch LIDs routed in each as
// in the plain LFT), VL2VL tables and one path record row per source switch.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::routing {

struct VlRules {
  std::string name;  // the algorithm, for ts.algorithm and messages
  int vls = 1;       // LFT copies and data VLs: input VLs 0 .. vls-1
  // The candidates of (switch s, input VL v, destination switch t != s), best first; leave
  // `out` empty where no packet can be (a state the rules never lead to).
  std::function<void(int s, int v, int t, std::vector<PortCandidate>& out)> candidates;
  // The output VL toward another switch of a packet entering switch s on in_port with VL v
  // (in_port 0: none; towards a host the VL is kept).
  std::function<Vl(int s, int in_port, int out_port, int v)> next_vl;
  // The VL the source HCA sends on (path record SL = VL); src and dst are switches.
  std::function<Vl(int src, int dst)> first_vl;
  // Optional: bytes that decide the candidates of (switch s, destination t) on every VL
  // (pairs with equal keys get equal lists VL by VL); candidates() is then asked once per key.
  // t is as candidates() receives it (with classes > 1, switch and class).
  std::function<void(int s, int t, std::string& key)> column_key;
  // Optional, after column_key: a number in 0 .. local_keys - 1 such that the pairs of one
  // switch s with equal numbers get equal lists VL by VL (a cheaper key that holds within a
  // switch only); column_key and candidates() are then asked once per number and switch.
  std::function<int(int s, int t)> local_key;
  int local_keys = 0;
  // Destination classes. seeds/001 picks Mixed DOR's order "based on destination, encoded in
  // SL", so by destination host: with classes > 1 the i-th host of a switch is in class
  // i % classes, each class gets lists of its own, and candidates() and first_vl() receive the
  // destination as t + switches x class (DestinationClass takes it apart).
  int classes = 1;
};

// The destination switch and class that build_vl_tables passes as one int when classes > 1.
struct DestinationClass {
  int sw, cls;
  DestinationClass(const Topology& t, int dst)  // class 0 without a division (asked once per pair)
      : sw(dst < t.num_switches ? dst : dst % t.num_switches), cls(dst < t.num_switches ? 0 : dst / t.num_switches) {}
};

// Builds the table set; RoutingError when the rules ask for VLs beyond kMaxDataVls.
TableSet build_vl_tables(const Topology& t, const VlRules& rules);

// The VL budget of the seeds/001 routings: opt.vls when given, else the talk's 8, within
// opt.max_vls; `need` above it is refused with a message naming `why`.
int seeds001_vl_budget(const std::string& name, int vls, int max_vls, int need, const std::string& why);

}  // namespace ibsc::routing
