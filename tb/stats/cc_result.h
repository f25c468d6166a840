// Congestion control's results of one load point (cc.enable; models/congestion_control.h), as
// results.json's "congestion_control" block:
//   counts      FECN marks, grants over threshold as root and as victim (all switches, ports and
//               VLs), CNPs sent, BECNs received, Trigger_Threshold events, over the whole run;
//   throughput  in the window, as fractions of link rate: the hot flows' (to traffic.hotspot_hosts,
//               per hot host: the hot link's payload busy share) and the victim flows' (to any
//               other host, per victim source: hosts that are neither silent nor hot senders),
//               the slowest victim source's, and each host's bytes sent (delivered) and received;
//   series      every cc.sample_ns from time 0 (warm-up included: the congestion tree grows
//               there): the same two throughputs over the last period, the mean and largest CCTI
//               over the flows that ever had a BECN, and the running FECN and BECN counts.
// The CCTIs are read lazily (CcSource::ccti), so sampling changes nothing in the model.
#pragma once
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/fabric/fabric.h"
#include "tb/traffic/traffic_driver.h"

namespace ibsc::tb {

class CcProbe {
 public:
  CcProbe(Fabric& fabric, TrafficDriver& driver, const TrafficConfig& traffic, double link_bytes_per_ns,
          models::Picos period);
  models::Picos next() const { return next_; }  // the next sample time (kNever: no series)
  void sample(models::Picos now);
  nlohmann::ordered_json result(double window_ns) const;

 private:
  struct Totals {
    uint64_t fecn = 0, root = 0, victim = 0, cnp = 0, becn = 0, trigger = 0;
  };
  Totals totals() const;
  Fabric& fabric_;
  TrafficDriver& driver_;
  double link_;  // bytes per ns
  int hot_hosts_, victim_sources_;
  std::vector<uint8_t> quiet_;  // [host]: silent or a hot sender, not a victim source
  std::vector<int> hot_;
  models::Picos period_, next_;
  uint64_t last_hot_ = 0, last_victim_ = 0;
  struct Row {
    double t_ns, hot, victim, mean_ccti;
    int max_ccti;
    uint64_t fecn, becn;
  };
  std::vector<Row> rows_;
};

}  // namespace ibsc::tb
