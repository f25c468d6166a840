#include "tb/stats/port_counters_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>

namespace ibsc::tb {
namespace {
double ns3(double ps) { return std::round(ps) / 1000.0; }  // ps -> ns, three decimals
}  // namespace

void enable_port_counters(Fabric& f) {
  for (int s = 0; s < f.topology().num_switches; ++s) f.sw(s).enable_counters();
}

void reset_port_counters(Fabric& f) {
  for (int s = 0; s < f.topology().num_switches; ++s) f.sw(s).reset_counters(models::now_ps());
}

nlohmann::ordered_json collect_port_counters(Fabric& f, double window_ns) {
  nlohmann::ordered_json sc;
  sc["window_ns"] = std::round(window_ns * 1000.0) / 1000.0;
  nlohmann::ordered_json switches = nlohmann::ordered_json::array();
  for (int s = 0; s < f.topology().num_switches; ++s) {
    models::Switch& sw = f.sw(s);
    sw.account_waits(models::now_ps());
    const models::PortCounters& pc = *sw.counters();
    nlohmann::ordered_json ports = nlohmann::ordered_json::array();
    for (int port = 1; port <= sw.num_ports(); ++port)
      for (int v = 0; v < pc.num_vls(); ++v) {
        const models::PortVlCounters& c = pc.at(port, v);
        if (c.grant_packets == 0 && c.head_wait_ps == 0 && c.credit_stall_ps == 0 && c.output_busy_stall_ps == 0 &&
            c.max_occupancy_bytes == 0)
          continue;
        nlohmann::ordered_json j;
        j["port"] = port;
        j["vl"] = v;
        j["grant_packets"] = c.grant_packets;
        j["grant_bytes"] = c.grant_bytes;
        j["credit_stall_ns"] = ns3(static_cast<double>(c.credit_stall_ps));
        j["output_busy_stall_ns"] = ns3(static_cast<double>(c.output_busy_stall_ps));
        j["head_wait_ns"] = ns3(static_cast<double>(c.head_wait_ps));
        j["hol_blocked_ns"] = ns3(static_cast<double>(c.hol_blocked_ps));
        j["occupancy_mean_bytes"] = std::round(c.occupancy_byte_ps / (window_ns * 1000.0) * 1000.0) / 1000.0;
        j["occupancy_max_bytes"] = c.max_occupancy_bytes;
        ports.push_back(j);
      }
    nlohmann::ordered_json sj;
    sj["switch"] = sw.name();
    sj["ports"] = ports;
    switches.push_back(sj);
  }
  sc["switches"] = switches;
  return sc;
}

void print_most_stalled(std::ostream& os, const std::vector<LoadPointResult>& points, size_t n) {
  const LoadPointResult* p = nullptr;
  for (const auto& r : points)
    if (!r.switch_counters.is_null() && (!p || r.offered_load > p->offered_load)) p = &r;
  if (!p) return;
  const double window = p->switch_counters.at("window_ns").get<double>();
  // (stall ns, credit ns, busy ns, switch, port, VL)
  std::vector<std::tuple<double, double, double, std::string, int, int>> rows;
  for (const auto& sw : p->switch_counters.at("switches"))
    for (const auto& c : sw.at("ports")) {
      const double credit = c.at("credit_stall_ns"), busy = c.at("output_busy_stall_ns");
      if (credit + busy > 0)
        rows.emplace_back(credit + busy, credit, busy, sw.at("switch").get<std::string>(), c.at("port").get<int>(),
                          c.at("vl").get<int>());
    }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return std::get<0>(a) > std::get<0>(b); });
  char line[200];
  std::snprintf(line, sizeof line,
                "most stalled output VLs at offered load %.3f (heads waiting on them, mean over the %.0f ns window):\n",
                p->offered_load, window);
  os << line;
  if (rows.empty()) os << "  none stalled\n";
  for (size_t k = 0; k < rows.size() && k < n; ++k) {
    const auto& [stall, credit, busy, name, port, vl] = rows[k];
    std::snprintf(line, sizeof line, "  %-12s port %3d VL %2d  for credits %6.3f  for the busy output %6.3f\n",
                  name.c_str(), port, vl, credit / window, busy / window);
    os << line;
  }
}

}  // namespace ibsc::tb
