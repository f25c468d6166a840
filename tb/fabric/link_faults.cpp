#include "tb/fabric/link_faults.h"

#include <algorithm>

#include "tb/fabric/fabric.h"

namespace ibsc::tb {

LinkFaults::LinkFaults(Fabric& fabric, const routing::Topology& topo, const routing::TableSet& tables,
                       std::vector<CableFault> faults, models::Picos detection, models::Scheduler& sched)
    : fabric_(fabric),
      topo_(topo),
      tables_(tables),
      faults_(std::move(faults)),
      detection_(detection),
      wake_(sched, *this) {
  failed_ = failed_ports(topo, {});
  for (const CableFault& f : faults_) {
    for (const LinkInfo& l : fabric.links()) {
      const bool ab = l.from_node == f.sw_a && l.from_port == f.port_a;
      const bool ba = l.from_node == f.sw_b && l.from_port == f.port_b;
      // The sender of each direction takes back the credits of what the dead cable drops.
      if (ab || ba) l.link->fail_at(f.at, &fabric.sw(l.from_node), l.from_port, this);
    }
    times_.push_back(f.at + detection_);
  }
  std::sort(times_.begin(), times_.end());
  times_.erase(std::unique(times_.begin(), times_.end()), times_.end());
  for (int h = 0; h < topo.num_hosts; ++h) fabric.hca(h).enable_apm();
  if (!times_.empty()) wake_.at(times_.front());
}

void LinkFaults::dropped(models::Packet* pkt, models::Picos) {
  fabric_.hca(static_cast<int>(pkt->src_host)).packet_lost(pkt);
}

void LinkFaults::wake() {
  const models::Picos now = models::now_ps();
  // Cables failed and detected by now.
  for (const CableFault& f : faults_)
    if (f.at + detection_ <= now && !failed_[f.sw_a][f.port_a]) {
      failed_[f.sw_a][f.port_a] = failed_[f.sw_b][f.port_b] = 1;
      ++c_.faults;
    }
  for (int h = 0; h < topo_.num_hosts; ++h) {
    models::Hca& hca = fabric_.hca(h);
    const routing::PathRow& row = tables_.hosts[h].paths;
    for (int q = 0; q < topo_.num_hosts; ++q) {
      const int in_use = hca.path_in_use(q);
      if (q == h || in_use < 0 || q >= static_cast<int>(row.size())) continue;
      const auto recs = row[q];
      if (recs.empty() || !record_crosses_failed(topo_, tables_, failed_, recs[in_use], h, q)) continue;
      const int alt = surviving_record(topo_, tables_, failed_, h, q);
      hca.migrate(q, alt);
      if (alt < 0) ++c_.unreachable;
      else ++c_.migrations;
    }
  }
  while (next_ < times_.size() && times_[next_] <= now) ++next_;
  if (next_ < times_.size()) wake_.at(times_[next_]);
}

}  // namespace ibsc::tb
