// Fabric: elaborates switches, HCAs and links from a topology and its table set, and offers
// the run-time checks every run makes (conservation, credits, deadlock cycle).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/fabric_monitor.h"
#include "models/hca.h"
#include "models/link.h"
#include "models/reliable_transport.h"
#include "models/switch.h"
#include "routing/tables.h"
#include "routing/topology.h"
#include "tb/scenario/link_fault_config.h"

namespace ibsc::tb {

struct FabricParams {
  models::SwitchParams sw;
  models::LinkParams link;
  // Seeds the HCAs' per-packet path choice (tables with PathChoice::RandomPerPacket only); the
  // run's seed, set by run_load_point. Each HCA gets a stream of its own.
  uint64_t path_seed = 1;
  // The HCAs' send side (hca.injection_queues): one injection queue per VL by default.
  models::HcaParams hca;
  // The HCAs' reliable transport (seeds/003); off by default.
  models::TransportParams transport;
  // Congestion control (IBA A10): FECN marking in the switches, CNPs and per-flow delays in the
  // HCAs (models/congestion_control.h); off by default, and then nothing is built for it.
  models::CcParams cc;
  // Link faults during the run and APM at the sources (tb/fabric/link_faults.h); none by default.
  LinkFaultConfig faults;
  // Once built, collapse the process's memory into 2 MB pages where the kernel allows
  // (tb/fabric/huge_pages.h) if the run is planned long enough to earn the collapse back
  // (huge_pages_pay_off of the hosts and planned_ns): a large fabric simulates faster; results
  // do not change. (What a run allocates after back_heap_growth_with_huge_pages, before routing,
  // needs no collapse.) Not scenario keys: how the simulator uses the machine, not what it models
  // (benchmarks switch it off, or force it with an infinite planned_ns, to compare).
  bool huge_pages = true;
  // The simulated time the run surely covers (run_load_point: warm-up + window), in ns; 0:
  // unknown (e.g. an MPI workload that runs to its end), then no collapse.
  double planned_ns = 0;
};

// Makes the switch arbiter of switch `index` (C++ model or Verilated RTL).
using ArbiterFactory = std::function<std::unique_ptr<models::SwitchArbiter>(int index, int num_ports, int num_vls)>;

struct LinkInfo {
  std::string name;  // "sw_3.p2->sw_7.p1"
  models::Link* link;
  int from_node, from_port, to_node, to_port;
};

class LinkFaults;

class Fabric {
 public:
  Fabric(const routing::Topology& topo, const routing::TableSet& tables, const FabricParams& params,
         models::HcaTraffic& traffic, const ArbiterFactory& arbiters);
  ~Fabric();

  models::FabricMonitor& monitor() { return mon_; }
  models::Scheduler& scheduler() { return *sched_; }
  const routing::Topology& topology() const { return topo_; }
  // The switch parameters the fabric runs with: the scenario's, with its VL buffers split among
  // the operational VLs under switch.vl_buffers: operational.
  const models::SwitchParams& switch_params() const { return p_.sw; }
  models::Switch& sw(int i) { return *switches_[i]; }
  models::Hca& hca(int h) { return *hcas_[h]; }
  // The arbiter of switch i (C++ model or Verilated RTL), e.g. to open the RTL's waves.
  models::SwitchArbiter& arbiter(int switch_index) { return *arbiters_[switch_index]; }
  const std::vector<LinkInfo>& links() const { return links_; }
  void set_generating(bool on);

  // Packets found in queues and buffers, counted independently of the monitor's counters:
  // in the fabric (injected, not yet delivered) and waiting in the HCAs' source queues.
  uint64_t count_in_fabric() const;
  uint64_t count_at_sources() const;
  // Throws models::FabricError unless injected = delivered + in flight and
  // generated = injected + queued at sources; with the transport on, also unless every host
  // packet is delivered, stored, on the wire or waiting to go again, and none reached its host
  // twice or (mode reorder) out of order.
  void check_conservation() const;
  // The transport's counters summed over the HCAs (all zero when it is off).
  models::TransportCounters transport_counters() const;
  // A cycle of (switch, input port, VL) channels each waiting for the next, as text; empty
  // when the waiting heads form no cycle.
  std::string deadlock_cycle() const;
  std::string node_name(int node) const { return topo_.nodes[node].name; }
  // The link faults and their counters; nullptr when the scenario sets none.
  const LinkFaults* link_faults() const { return link_faults_.get(); }

 private:
  const routing::Topology& topo_;
  FabricParams p_;
  models::FabricMonitor mon_;
  std::unique_ptr<models::Scheduler> sched_;
  std::vector<std::unique_ptr<sc_core::sc_module>> teardown_anchors_;  // see ~Fabric
  std::vector<std::unique_ptr<models::SwitchArbiter>> arbiters_;
  std::vector<std::unique_ptr<models::Switch>> switches_;
  std::vector<std::unique_ptr<models::Hca>> hcas_;
  std::vector<std::unique_ptr<models::Link>> link_modules_;
  std::vector<LinkInfo> links_;
  std::unique_ptr<LinkFaults> link_faults_;
};

}  // namespace ibsc::tb
