// Fabric-wide counters the modules update and the testbench reads: conservation
// (generated = delivered + dropped + abandoned + in flight), progress for the deadlock watchdog. Plain counters only;
// modules never print.
#pragma once
#include <cstdint>
#include <stdexcept>

#include "models/packet.h"
#include "models/sim_time.h"

namespace ibsc::models {

// A violated invariant of the model (credits, buffer overflow, a packet without a route):
// the run stops and the testbench reports it.
class FabricError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct FabricMonitor {
  uint64_t generated = 0;  // packets created at sources
  uint64_t injected = 0;   // packets whose head left a source HCA
  uint64_t delivered = 0;  // packets whose tail reached the destination HCA
  uint64_t delivered_bytes = 0;
  uint64_t dropped = 0;       // injected packets a link fault dropped (link_faults.h); 0 without faults
  uint64_t abandoned = 0;     // generated packets discarded at their source: no path survives
  uint64_t hops = 0;          // switch crossings (packet-hops)
  uint64_t switch_wakes = 0;  // process activations, for the cost per packet-hop
  uint64_t hca_wakes = 0;
  Picos last_progress = 0;  // last injection, grant or delivery anywhere
  PacketPool pool;

  uint64_t in_flight() const { return generated - delivered - dropped - abandoned; }
};

}  // namespace ibsc::models
