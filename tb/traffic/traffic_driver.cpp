#include "tb/traffic/traffic_driver.h"

#include <algorithm>
#include <cstdint>

#include "models/param_error.h"

namespace ibsc::tb {

TrafficDriver::TrafficDriver(const routing::Topology& topo, const TrafficConfig& traffic,
                             const InjectionConfig& injection, double load_bytes_per_ns, double link_bytes_per_ns,
                             uint64_t seed)
    : pattern_(make_destination_pattern(traffic, topo)),
      limit_(traffic.packets_per_host),
      byte_ps_(1000.0 / link_bytes_per_ns) {
  if (limit_ > 0) {
    left_.assign(topo.num_hosts, limit_);
    src_free_.assign(topo.num_hosts, 0);
    dst_free_.assign(topo.num_hosts, 0);
  }
  if (traffic.workload == Workload::Disk)
    disk_ = std::make_unique<DiskWorkload>(traffic.disk_config, topo.num_hosts, seed);
  if (!traffic.silent_hosts.empty()) {
    silent_.assign(topo.num_hosts, 0);
    for (int h : traffic.silent_hosts) {
      if (h < 0 || h >= topo.num_hosts)
        throw ParamError("traffic.silent_hosts", "traffic.silent_hosts: host " + std::to_string(h) +
                                                     " out of range 0.." + std::to_string(topo.num_hosts - 1));
      silent_[h] = 1;
    }
  }
  hosts_.reserve(topo.num_hosts);
  for (int h = 0; h < topo.num_hosts; ++h) {
    // Independent, reproducible streams per host: injection and destination never share one.
    uint64_t s = seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(h) * 0xBF58476D1CE4E5B9ull;
    hosts_.emplace_back(injection, load_bytes_per_ns, link_bytes_per_ns, s);
  }
}

models::Picos TrafficDriver::next_gap(int host) {
  constexpr uint64_t kSpent = UINT64_MAX;
  if (!silent_.empty() && silent_[host]) {
    if (limit_ > 0 && left_[host] != kSpent) {
      left_[host] = kSpent;
      ++exhausted_;
    }
    return models::kNever;
  }
  if (limit_ > 0) {  // one gap per packet: the (limit + 1)-th call says no more
    uint64_t& left = left_[host];
    if (left == kSpent) return models::kNever;
    if (left == 0) {
      left = kSpent;
      ++exhausted_;
      return models::kNever;
    }
    --left;
  }
  if (disk_) return disk_->next_gap(host);
  uint64_t g = hosts_[host].inj.next_gap_ps();
  if (g == UINT64_MAX && limit_ > 0 && left_[host] != kSpent) {  // zero load: nothing will come
    left_[host] = kSpent;
    ++exhausted_;
  }
  return g == UINT64_MAX ? models::kNever : g;
}

bool TrafficDriver::make(int host, models::Packet& p) {
  if (disk_) {
    disk_->make(host, p.dst_host, p.length, p.ack_req);
    return true;
  }
  HostStreams& hs = hosts_[host];
  int dst = pattern_->destination(host, hs.dest_rng);
  if (dst < 0) return false;
  p.dst_host = static_cast<uint32_t>(dst);
  p.length = hs.inj.next_length();
  return true;
}

void TrafficDriver::generated(models::Packet& p, models::Picos t) {
  if (t >= win_start_ && t < win_end_) {
    p.measured = true;
    ++measured_generated_;
    window_generated_bytes += p.length;
  }
  if (batches_) batches_->generated(t, p.length);
  if (limit_ > 0) {
    const double now = static_cast<double>(t), wire = p.length * byte_ps_;
    double& src = src_free_[p.src_host];
    double& dst = dst_free_[p.dst_host];
    src = std::max(src, now) + wire;
    dst = std::max(dst, now) + wire;
    endpoint_end_ = std::max({endpoint_end_, src, dst});
    last_gen_ = std::max(last_gen_, t);
  }
}

void TrafficDriver::delivered(const models::Packet& p, models::Picos t) {
  if (batches_) batches_->delivered(t, p.length, p.gen_time);
  if (flows_) count_flow(p, t);
  if (p.measured) {
    ++measured_delivered_;
    latency.add((t - p.gen_time + 500) / 1000);
  }
  if (t >= win_start_ && t < win_end_) {
    window_delivered_bytes += p.length;
    ++window_delivered_packets;
  }
  // The packet's bytes arrived over [t - length x byte time, t]: count the part inside the window.
  if (win_start_ != models::kNever) {
    const double head = static_cast<double>(t) - p.length * byte_ps_;
    const double from = std::max(head, static_cast<double>(win_start_));
    const double to = std::min(static_cast<double>(t), static_cast<double>(win_end_));
    if (to > from) window_arrived_bytes += (to - from) / byte_ps_;
  }
}

void TrafficDriver::track_flows(const std::vector<int>& hot_hosts) {
  const size_t n = hosts_.size();
  flows_ = std::make_unique<FlowBytes>();
  flows_->hot.assign(n, 0);
  for (int h : hot_hosts)
    if (h >= 0 && static_cast<size_t>(h) < n) flows_->hot[h] = 1;
  flows_->sent_window.assign(n, 0);
  flows_->received_window.assign(n, 0);
  flows_->victim_source.assign(n, 0);
}

void TrafficDriver::count_flow(const models::Packet& p, models::Picos t) {
  FlowBytes& f = *flows_;
  const bool hot = f.hot[p.dst_host] != 0, in = t >= win_start_ && t < win_end_;
  (hot ? f.hot_total : f.victim_total) += p.length;
  if (!hot) f.victim_source[p.src_host] = 1;
  if (!in) return;
  (hot ? f.hot_window : f.victim_window) += p.length;
  f.sent_window[p.src_host] += p.length;
  f.received_window[p.dst_host] += p.length;
}

}  // namespace ibsc::tb
