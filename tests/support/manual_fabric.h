// Small hand-built topologies and tables for block tests: a chain of switches with hosts at
// both ends, routed by hand so the tests do not depend on the routing library's algorithms.
#pragma once
#include <vector>

#include "models/hca.h"
#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::testing {

// `n` switches in a line, each with `ports` ports; switch i port 1 -> switch i+1 port 2.
// Hosts: `left` hosts on switch 0 (ports 3..), `right` hosts on the last switch (ports 3..).
// Switch 0 with n == 1 holds all hosts. Every host has LID host+1; host h sends on SL h % num_sls; SL2VL: SL s -> VL s.
routing::Topology chain(int n, int left, int right, int ports = 8);
routing::TableSet chain_tables(const routing::Topology& t, int num_sls = 1);

// Two switches joined by two parallel cables, sw_0 p1 <-> sw_1 p2 and sw_0 p3 <-> sw_1 p4, with
// `hosts` hosts on each (ports 5..; hosts 0.. on sw_0, then sw_1's). Tables with port sets: a
// remote host's LFT entry holds both cables, the first (p1 / p2) at priority 0 and the second
// (p3 / p4) at priority 1; one SL, one VL.
routing::Topology parallel_pair(int hosts);
routing::TableSet parallel_pair_tables(const routing::Topology& t);

// Traffic scripted by the test: a list of (time ps, src, dst, length, sl) packets.
struct Scripted {
  models::Picos time;
  int src, dst;
  uint32_t length;
  int sl = 0;
};
class ScriptedTraffic : public models::HcaTraffic {
 public:
  ScriptedTraffic(int hosts, std::vector<Scripted> script);
  models::Picos next_gap(int host) override;
  bool make(int host, models::Packet& p) override;
  void generated(models::Packet& p, models::Picos t) override;
  void delivered(const models::Packet& p, models::Picos t) override;
  struct Delivery {
    uint64_t id;
    int src, dst;
    models::Picos gen, done;
    uint32_t length;
    int hops;
  };
  std::vector<Delivery> deliveries;

 private:
  std::vector<std::vector<Scripted>> per_host_;
  std::vector<size_t> next_;
  std::vector<models::Picos> last_;
};

}  // namespace ibsc::testing
