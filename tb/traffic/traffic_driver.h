// Traffic driver: feeds every HCA from a destination pattern and an injection process, and
// measures what the measurement window asks for: packets generated inside the window are
// "measured"; their latency (generation to delivery) goes to a histogram; bytes delivered
// inside the window give accepted traffic.
#pragma once
#include <memory>
#include <vector>

#include "models/hca.h"
#include "routing/topology.h"
#include "tb/stats/batch_means.h"
#include "tb/stats/latency_histogram.h"
#include "tb/traffic/injection.h"
#include "tb/traffic/traffic.h"

namespace ibsc::tb {

class TrafficDriver : public models::HcaTraffic {
 public:
  TrafficDriver(const routing::Topology& topo, const TrafficConfig& traffic, const InjectionConfig& injection,
                double load_bytes_per_ns, double link_bytes_per_ns, uint64_t seed);

  models::Picos next_gap(int host) override;
  bool make(int host, models::Packet& p) override;
  void generated(models::Packet& p, models::Picos t) override;
  void delivered(const models::Packet& p, models::Picos t) override;

  void set_window(models::Picos start, models::Picos end) {
    win_start_ = start;
    win_end_ = end;
  }
  uint64_t measured_outstanding() const { return measured_generated_ - measured_delivered_; }
  // Batch means fed with every generation and delivery from now on (nullptr: none).
  void set_batches(BatchMeans* b) { batches_ = b; }
  // traffic.packets_per_host: every host has generated its last packet (false without a limit).
  bool exhausted() const { return limit_ > 0 && exhausted_ == left_.size(); }

  // Bytes per host and per class of flow, for congestion control's results: off (null) until
  // track_flows(); then each delivery adds to them. Hot flows go to a hot host, victim flows
  // to any other; "window" counts deliveries inside the measurement window, "total" all.
  struct FlowBytes {
    std::vector<uint8_t> hot;               // [host]: a hot host
    std::vector<uint64_t> sent_window;      // [source host]
    std::vector<uint64_t> received_window;  // [destination host]
    std::vector<uint8_t> victim_source;     // [host]: has delivered a victim packet
    uint64_t hot_total = 0, victim_total = 0, hot_window = 0, victim_window = 0;
  };
  void track_flows(const std::vector<int>& hot_hosts);
  const FlowBytes* flows() const { return flows_.get(); }
  // A finite workload (traffic.packets_per_host): the last generation, and the earliest its last
  // delivery could be whatever the routing (ps; 0 without a limit). Each host's link sends its
  // packets at link rate from their generation on, and each destination's link takes them at
  // link rate from their generation on (generations come in time order, so these FIFO queues are
  // the fastest schedules): the latest of these ends is set by the workload and its endpoints'
  // links alone. An execution time at this bound says the workload, not the fabric, set the end.
  models::Picos last_generated_ps() const { return last_gen_; }
  double endpoint_bound_ps() const { return endpoint_end_; }

  LatencyHistogram latency;  // ns, measured packets
  uint64_t measured_generated_ = 0;
  uint64_t measured_delivered_ = 0;
  uint64_t window_delivered_bytes = 0;  // delivered inside the window (any packet)
  uint64_t window_delivered_packets = 0;
  uint64_t window_generated_bytes = 0;
  // Bytes that reached their destination host inside the window, each packet's bytes spread over
  // its last link's transmission (tail at delivery, one byte per link byte time): no whole-packet
  // rounding at the window's edges, so no host link ever shows more than link rate.
  double window_arrived_bytes = 0;

 private:
  // A host's two random streams (32 bytes each): a packet reads the destination stream, the
  // injection parameters and the injection stream, the first two cache lines of the record.
  // Two streams, so a pattern's destination draws never shift the injection times.
  struct alignas(64) HostStreams {
    HostStreams(const InjectionConfig& injection, double load, double link, uint64_t seed)
        : dest_rng(models::make_random_stream(seed ^ 0x94D049BB133111EBull)), inj(injection, load, link, seed) {}
    models::RandomStream dest_rng;  // destination pattern
    InjectionProcess inj;           // gaps and lengths
  };
  std::unique_ptr<DestinationPattern> pattern_;
  std::unique_ptr<DiskWorkload> disk_;  // traffic.workload: disk
  std::vector<uint8_t> silent_;         // [host]: generates nothing; empty: none is
  std::unique_ptr<FlowBytes> flows_;
  void count_flow(const models::Packet& p, models::Picos t);
  std::vector<HostStreams> hosts_;
  uint64_t limit_ = 0;          // traffic.packets_per_host
  std::vector<uint64_t> left_;  // packets each host may still generate; kSpent once it was told no more
  size_t exhausted_ = 0;        // hosts told no more
  models::Picos win_start_ = models::kNever, win_end_ = models::kNever;
  double byte_ps_ = 0;                       // link byte time
  std::vector<double> src_free_, dst_free_;  // finite workloads: each endpoint link's ideal end (ps)
  models::Picos last_gen_ = 0;
  double endpoint_end_ = 0;
  BatchMeans* batches_ = nullptr;
};

}  // namespace ibsc::tb
