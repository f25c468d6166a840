// What results.json reports of the HCAs' reliable transport (seeds/003), written only when
// transport.mode is set: host packets, ordering, ACK/NACK traffic and waste, rearrange-buffer
// occupancy per connection (largest, and a histogram of each connection's largest) and per
// NIC, and the execution time of a finite workload. Plain data; run_point fills it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ibsc::tb {

struct TransportResult {
  std::string mode;  // reorder | ooo
  uint64_t host_packets_generated = 0, host_packets_delivered = 0;
  uint64_t out_of_order_arrivals = 0;    // at the destination NIC
  uint64_t out_of_order_deliveries = 0;  // to the host (0 unless ooo)
  uint64_t duplicates = 0;               // to the host (always 0)
  uint64_t acks = 0, nacks = 0, resent_packets = 0;
  uint64_t first_bytes = 0, resent_bytes = 0, control_bytes = 0;
  double waste = 0;  // (control + re-sent bytes) / all bytes the HCAs injected
  uint64_t transitions_to_li = 0;
  uint64_t max_connection_bytes = 0;  // largest rearrange-buffer occupancy of any connection (MBS)
  uint64_t max_nic_bytes = 0;         // largest total occupancy of any destination NIC (MMS)
  // Connections (that received data) by their largest occupancy: count i holds those above
  // bucket i-1's bound and at most bucket i's; the last count holds those above every bound.
  std::vector<uint64_t> connections_per_bucket;
  // Per destination NIC (by host; mode reorder only, else empty): its MMS, and at that worst
  // moment how many of its connections held data, were above half their cap, were full
  // (seeds/003 Figure 7).
  std::vector<uint64_t> nic_max_bytes, nic_peak_holding, nic_peak_over_half, nic_peak_full;
  double execution_time_ns = 0;  // last delivery to a host
  // A finite workload only (else 0, not written): its last generation, and the earliest its last
  // delivery could be on its endpoints' links alone (TrafficDriver::endpoint_bound_ps).
  double last_generated_ns = 0, endpoint_bound_ns = 0;
  // Every host packet generated was delivered by the end of the point: execution_time_ns is then
  // the finite workload's execution time; otherwise the drain ended first.
  bool all_delivered() const { return host_packets_delivered == host_packets_generated; }
};

// The bounds of the occupancy histogram: 0, 256, 512, ... 1 MiB.
const std::vector<uint64_t>& occupancy_bucket_bytes();

nlohmann::ordered_json to_json(const TransportResult& t);
TransportResult transport_from_json(const nlohmann::json& j);

}  // namespace ibsc::tb
