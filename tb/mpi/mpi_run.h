// Runs an MPI-like workload on a fabric through the HCAs' TLM-2.0 target sockets: elaborates
// the fabric with the message layer as its traffic, one HcaTlmTarget and one MpiHost per host,
// runs until every host's workload has ended, and checks that every message arrived intact.
// SystemC elaborates once per process: call once per process.
#pragma once
#include <string>
#include <vector>

#include "models/hca_messages.h"
#include "routing/tables.h"
#include "routing/topology.h"
#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tb/mpi/mpi_host.h"
#include "tb/mpi/mpi_workload.h"

namespace ibsc::tb {

struct MpiRunResult {
  double completion_ns = 0;             // the last host's end (all its messages complete)
  std::vector<double> host_end_ns;      // per host
  uint64_t messages = 0, bytes = 0;     // posted (all delivered when the run returns)
  uint64_t packets_checked = 0;         // payload checksums verified at the destinations
  std::vector<std::string> errors;      // data integrity problems found by the workload's checks
  bool ack_completion = false;          // sends completed at ACK (transport.mode: reorder)
  models::TransportCounters transport;  // summed over the HCAs; zero with the transport off
  std::vector<int> rtl_switches;        // switches whose arbiter is the Verilated RTL
  uint64_t rtl_cycles = 0;              // arbitration cycles the RTL ran, over those switches
};

// Throws std::runtime_error when a host does not finish (the fabric went idle with work left)
// or the fabric's conservation checks fail. `trace_out`, if given, receives every message posted.
// `arbiter`: the scenario's switch.arbiter and switch.rtl_switches (default: the model).
MpiRunResult run_mpi(const routing::Topology& topo, const routing::TableSet& tables, const FabricParams& fabric,
                     models::MessageParams msg, const WorkloadConfig& work, MpiHost::Style style,
                     std::vector<TraceRecord>* trace_out = nullptr, const ArbiterChoice& arbiter = {});

}  // namespace ibsc::tb
