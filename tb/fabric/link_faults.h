// Link faults during a run and automatic path migration (seeds/002 section 5, issue 15).
// At construction: each failed cable's two Link modules learn their failure time (models/link.h:
// from then on they drop what they carry and hand it to this object, which gives it back to
// its source HCA), and every HCA turns APM on.
// Subnet-manager oracle: at each failure time plus faults.detection_ns, every connection (host
// pair) whose path record in use crosses a cable failed by then migrates to its first record
// that avoids all of them, walking each record through the switches' LFTs (primary candidate),
// as a subnet manager that knows the failed cables would tell the HCA; a pair with none left
// is unreachable: the HCA gives up its packets, counted, and the run ends normally.
// Events: one scheduler wake-up per distinct detection time.
#pragma once
#include <cstdint>
#include <vector>

#include "models/link.h"
#include "models/scheduler.h"
#include "routing/tables.h"
#include "routing/topology.h"
#include "tb/scenario/link_fault_config.h"

namespace ibsc::tb {

class Fabric;

struct FaultCounters {
  uint64_t faults = 0;       // cables failed so far
  uint64_t migrations = 0;   // connections moved to an alternate record
  uint64_t unreachable = 0;  // host pairs left without a surviving record
};

class LinkFaults : public models::Wakeable, public models::PacketLoss {
 public:
  LinkFaults(Fabric& fabric, const routing::Topology& topo, const routing::TableSet& tables,
             std::vector<CableFault> faults, models::Picos detection, models::Scheduler& sched);
  void dropped(models::Packet* pkt, models::Picos t) override;
  void wake() override;
  const FaultCounters& counters() const { return c_; }
  const std::vector<CableFault>& faults() const { return faults_; }

 private:
  Fabric& fabric_;
  const routing::Topology& topo_;
  const routing::TableSet& tables_;
  std::vector<CableFault> faults_;
  models::Picos detection_;
  FailedPorts failed_;                // cables detected as failed so far
  std::vector<models::Picos> times_;  // detection times still to come, sorted
  size_t next_ = 0;
  models::WakeUp wake_;
  FaultCounters c_;
};

}  // namespace ibsc::tb
