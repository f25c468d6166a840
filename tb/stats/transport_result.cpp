#include "tb/stats/transport_result.h"

#include <cmath>

namespace ibsc::tb {

const std::vector<uint64_t>& occupancy_bucket_bytes() {
  static const std::vector<uint64_t> b = [] {
    std::vector<uint64_t> v{0};
    for (uint64_t x = 256; x <= (1u << 20); x *= 2) v.push_back(x);
    return v;
  }();
  return b;
}

nlohmann::ordered_json to_json(const TransportResult& t) {
  nlohmann::ordered_json j;
  j["mode"] = t.mode;
  j["host_packets_generated"] = t.host_packets_generated;
  j["host_packets_delivered"] = t.host_packets_delivered;
  j["out_of_order_arrivals"] = t.out_of_order_arrivals;
  j["out_of_order_deliveries"] = t.out_of_order_deliveries;
  j["duplicates"] = t.duplicates;
  j["acks"] = t.acks;
  j["nacks"] = t.nacks;
  j["resent_packets"] = t.resent_packets;
  j["first_bytes"] = t.first_bytes;
  j["resent_bytes"] = t.resent_bytes;
  j["control_bytes"] = t.control_bytes;
  j["waste"] = std::round(t.waste * 1e6) / 1e6;
  j["transitions_to_li"] = t.transitions_to_li;
  j["max_connection_bytes"] = t.max_connection_bytes;
  j["max_nic_bytes"] = t.max_nic_bytes;
  j["occupancy_bucket_bytes"] = occupancy_bucket_bytes();
  j["connections_per_bucket"] = t.connections_per_bucket;
  if (!t.nic_max_bytes.empty()) {
    j["nic_max_bytes"] = t.nic_max_bytes;
    j["nic_peak_holding"] = t.nic_peak_holding;
    j["nic_peak_over_half"] = t.nic_peak_over_half;
    j["nic_peak_full"] = t.nic_peak_full;
  }
  j["execution_time_ns"] = std::round(t.execution_time_ns * 1e3) / 1e3;
  if (t.endpoint_bound_ns > 0) {
    j["last_generated_ns"] = std::round(t.last_generated_ns * 1e3) / 1e3;
    j["endpoint_bound_ns"] = std::round(t.endpoint_bound_ns * 1e3) / 1e3;
  }
  j["all_delivered"] = t.all_delivered();
  return j;
}

TransportResult transport_from_json(const nlohmann::json& j) {
  TransportResult t;
  t.mode = j.at("mode");
  t.host_packets_generated = j.at("host_packets_generated");
  t.host_packets_delivered = j.at("host_packets_delivered");
  t.out_of_order_arrivals = j.at("out_of_order_arrivals");
  t.out_of_order_deliveries = j.at("out_of_order_deliveries");
  t.duplicates = j.at("duplicates");
  t.acks = j.at("acks");
  t.nacks = j.at("nacks");
  t.resent_packets = j.at("resent_packets");
  t.first_bytes = j.at("first_bytes");
  t.resent_bytes = j.at("resent_bytes");
  t.control_bytes = j.at("control_bytes");
  t.waste = j.at("waste");
  t.transitions_to_li = j.at("transitions_to_li");
  t.max_connection_bytes = j.at("max_connection_bytes");
  t.max_nic_bytes = j.at("max_nic_bytes");
  t.connections_per_bucket = j.at("connections_per_bucket").get<std::vector<uint64_t>>();
  if (j.contains("nic_max_bytes")) {
    t.nic_max_bytes = j.at("nic_max_bytes").get<std::vector<uint64_t>>();
    t.nic_peak_holding = j.at("nic_peak_holding").get<std::vector<uint64_t>>();
    t.nic_peak_over_half = j.at("nic_peak_over_half").get<std::vector<uint64_t>>();
    t.nic_peak_full = j.at("nic_peak_full").get<std::vector<uint64_t>>();
  }
  t.execution_time_ns = j.at("execution_time_ns");
  if (j.contains("endpoint_bound_ns")) {
    t.last_generated_ns = j.at("last_generated_ns");
    t.endpoint_bound_ns = j.at("endpoint_bound_ns");
  }
  return t;
}

}  // namespace ibsc::tb
