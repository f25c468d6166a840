#include "tb/stats/results.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "tb/stats/output_files.h"

namespace ibsc::tb {
namespace {
// Fixed precision so files read well and compare byte for byte.
double r6(double v) { return std::round(v * 1e6) / 1e6; }
double r3(double v) { return std::round(v * 1e3) / 1e3; }
// Offered loads: 6 decimals, or 6 significant digits below 0.001, so a load of 1e-9 is not
// written as 0 (every load a sweep makes has at most 6 decimals and is written as before).
double load6(double v) {
  if (v == 0 || std::abs(v) >= 1e-3 || !std::isfinite(v)) return r6(v);
  char text[32];
  std::snprintf(text, sizeof text, "%.5e", v);
  return std::strtod(text, nullptr);
}
// Latency figures exist only when the window measured a packet: null, not 0, otherwise.
nlohmann::ordered_json latency(const LoadPointResult& r, double v) {
  return r.measured_packets > 0 ? nlohmann::ordered_json(r3(v)) : nlohmann::ordered_json(nullptr);
}
double latency_of(const nlohmann::json& v) { return v.is_null() ? 0.0 : v.get<double>(); }
// An interval as {mean, half_width, batches}; a half-width not known (fewer than two batches) is null.
nlohmann::ordered_json interval(const ConfidenceInterval& ci, double (*round)(double)) {
  nlohmann::ordered_json j;
  j["mean"] = round(ci.mean);
  j["half_width"] =
      std::isfinite(ci.half_width) ? nlohmann::ordered_json(round(ci.half_width)) : nlohmann::ordered_json(nullptr);
  j["batches"] = ci.batches;
  return j;
}
ConfidenceInterval interval_of(const nlohmann::json& j) {
  const auto& hw = j.at("half_width");
  return {j.at("mean"), hw.is_null() ? std::numeric_limits<double>::infinity() : hw.get<double>(), j.at("batches")};
}
}  // namespace

nlohmann::ordered_json to_json(const LoadPointResult& r) {
  nlohmann::ordered_json j;
  j["offered_load"] = load6(r.offered_load);
  j["offered_bytes_per_ns_per_host"] = load6(r.offered_bytes_per_ns_per_host);
  j["accepted_bytes_per_ns_per_switch"] = r6(r.accepted_bytes_per_ns_per_switch);
  j["accepted_fraction"] = r6(r.accepted_fraction);
  j["accepted_prorated_bytes_per_ns_per_switch"] = r6(r.accepted_prorated_bytes_per_ns_per_switch);
  j["avg_latency_ns"] = latency(r, r.avg_latency_ns);
  j["p50_latency_ns"] = latency(r, r.p50_latency_ns);
  j["p99_latency_ns"] = latency(r, r.p99_latency_ns);
  j["max_latency_ns"] = latency(r, r.max_latency_ns);
  j["packets_generated"] = r.packets_generated;
  j["packets_injected"] = r.packets_injected;
  j["packets_delivered"] = r.packets_delivered;
  j["packets_in_flight"] = r.packets_in_flight;
  j["packets_queued_at_source"] = r.packets_queued_at_source;
  j["measured_packets"] = r.measured_packets;
  j["packet_hops"] = r.packet_hops;
  j["saturated"] = r.saturated;
  if (r.drain_skipped) j["drain"] = "skipped";  // run.drain: unsaturated only: other results keep their bytes
  j["max_link_utilisation"] = r6(r.max_link_utilisation);
  j["avg_link_utilisation"] = r6(r.avg_link_utilisation);
  if (r.hol_samples > 0) {  // only when sampled: other results keep their bytes
    j["hol_samples"] = r.hol_samples;
    j["hol_blocked_per_switch"] = r6(r.hol_blocked_per_switch);
    j["hol_blocked_share"] = r6(r.hol_blocked_share);
  }
  if (r.warmup.on) {  // run.warmup: steady only: other results keep their bytes
    nlohmann::ordered_json w;
    w["ns"] = r3(r.warmup.ns);
    w["settled"] = r.warmup.settled;
    if (r.warmup.rate) {
      w["accepted_bytes_per_ns_per_switch"] = interval(r.warmup.accepted, r6);
      w["previous_accepted_bytes_per_ns_per_switch"] = r6(r.warmup.previous_accepted);
    }
    j["warmup"] = w;
  }
  if (r.ci.on) {  // run.measure: ci only: other results keep their bytes
    nlohmann::ordered_json c;
    c["converged"] = r.ci.converged;
    c["window_ns"] = r3(r.ci.window_ns);
    c["batches"] = r.ci.batches;
    c["batch_ns"] = r3(r.ci.batch_ns);
    c["avg_latency_ns"] = interval(r.ci.latency_ns, r3);
    c["accepted_bytes_per_ns_per_switch"] = interval(r.ci.accepted_bytes_per_ns_per_switch, r6);
    j["confidence_interval"] = c;
  }
  if (r.has_transport) j["transport"] = to_json(r.transport);  // only with transport.mode set
  if (r.has_faults) {                                          // only with faults.* set
    const auto& f = r.faults;
    j["faults"] = {{"cables", f.cables},
                   {"applied", f.applied},
                   {"packets_dropped", f.packets_dropped},
                   {"packets_abandoned", f.packets_abandoned},
                   {"migrations", f.migrations},
                   {"unreachable_pairs", f.unreachable_pairs},
                   {"retransmitted", f.retransmitted}};
  }
  if (!r.switch_counters.is_null()) j["switch_counters"] = r.switch_counters;           // run.port_counters only
  if (!r.congestion_control.is_null()) j["congestion_control"] = r.congestion_control;  // cc.enable only
  j["sim_time_ns"] = r3(r.sim_time_ns);
  nlohmann::ordered_json links = nlohmann::ordered_json::array();
  for (const auto& l : r.links) {
    nlohmann::ordered_json lj;
    lj["link"] = l.name;
    lj["utilisation"] = r6(l.utilisation);
    nlohmann::ordered_json vls = nlohmann::ordered_json::array();
    for (double v : l.per_vl) vls.push_back(r6(v));
    lj["per_vl"] = vls;
    links.push_back(lj);
  }
  j["links"] = links;
  return j;
}

LoadPointResult point_from_json(const nlohmann::json& j) {
  LoadPointResult r;
  r.offered_load = j.at("offered_load");
  r.offered_bytes_per_ns_per_host = j.at("offered_bytes_per_ns_per_host");
  r.accepted_bytes_per_ns_per_switch = j.at("accepted_bytes_per_ns_per_switch");
  r.accepted_fraction = j.at("accepted_fraction");
  r.accepted_prorated_bytes_per_ns_per_switch =
      j.value("accepted_prorated_bytes_per_ns_per_switch", r.accepted_bytes_per_ns_per_switch);
  r.avg_latency_ns = latency_of(j.at("avg_latency_ns"));
  r.p50_latency_ns = latency_of(j.at("p50_latency_ns"));
  r.p99_latency_ns = latency_of(j.at("p99_latency_ns"));
  r.max_latency_ns = latency_of(j.at("max_latency_ns"));
  r.packets_generated = j.at("packets_generated");
  r.packets_injected = j.at("packets_injected");
  r.packets_delivered = j.at("packets_delivered");
  r.packets_in_flight = j.at("packets_in_flight");
  r.packets_queued_at_source = j.at("packets_queued_at_source");
  r.measured_packets = j.at("measured_packets");
  r.packet_hops = j.at("packet_hops");
  r.saturated = j.at("saturated");
  r.max_link_utilisation = j.at("max_link_utilisation");
  r.avg_link_utilisation = j.at("avg_link_utilisation");
  if (j.contains("switch_counters")) r.switch_counters = nlohmann::ordered_json(j.at("switch_counters"));
  if (j.contains("congestion_control")) r.congestion_control = nlohmann::ordered_json(j.at("congestion_control"));
  r.hol_samples = j.value("hol_samples", uint64_t{0});
  r.hol_blocked_per_switch = j.value("hol_blocked_per_switch", 0.0);
  r.hol_blocked_share = j.value("hol_blocked_share", 0.0);
  r.drain_skipped = j.value("drain", "") == "skipped";
  if (j.contains("warmup")) {
    r.warmup.on = true;
    r.warmup.ns = j["warmup"].at("ns");
    r.warmup.settled = j["warmup"].at("settled");
    if (j["warmup"].contains("accepted_bytes_per_ns_per_switch")) {
      r.warmup.rate = true;
      r.warmup.accepted = interval_of(j["warmup"].at("accepted_bytes_per_ns_per_switch"));
      r.warmup.previous_accepted = j["warmup"].at("previous_accepted_bytes_per_ns_per_switch");
    }
  }
  if (j.contains("confidence_interval")) {
    const auto& c = j["confidence_interval"];
    r.ci.on = true;
    r.ci.converged = c.at("converged");
    r.ci.window_ns = c.at("window_ns");
    r.ci.batches = c.at("batches");
    r.ci.batch_ns = c.at("batch_ns");
    r.ci.latency_ns = interval_of(c.at("avg_latency_ns"));
    r.ci.accepted_bytes_per_ns_per_switch = interval_of(c.at("accepted_bytes_per_ns_per_switch"));
  }
  if (j.contains("transport")) {
    r.has_transport = true;
    r.transport = transport_from_json(j.at("transport"));
  }
  if (j.contains("faults")) {
    const auto& f = j.at("faults");
    r.has_faults = true;
    r.faults.cables = f.at("cables").get<std::vector<std::string>>();
    r.faults.applied = f.at("applied");
    r.faults.packets_dropped = f.at("packets_dropped");
    r.faults.packets_abandoned = f.at("packets_abandoned");
    r.faults.migrations = f.at("migrations");
    r.faults.unreachable_pairs = f.at("unreachable_pairs");
    r.faults.retransmitted = f.at("retransmitted");
  }
  r.sim_time_ns = j.at("sim_time_ns");
  for (const auto& lj : j.at("links")) {
    LinkUtil l;
    l.name = lj.at("link");
    l.utilisation = lj.at("utilisation");
    for (const auto& v : lj.at("per_vl")) l.per_vl.push_back(v);
    r.links.push_back(std::move(l));
  }
  return r;
}

SaturationPoint find_saturation(const std::vector<LoadPointResult>& points) {
  // The saturation load is where saturation starts for good: the lowest saturated load with no
  // unsaturated load above it (points come in load order), so a lone flagged point below the
  // knee does not count.
  SaturationPoint s;
  for (const auto& p : points) {
    s.max_accepted_bytes_per_ns_per_switch =
        std::max(s.max_accepted_bytes_per_ns_per_switch, p.accepted_bytes_per_ns_per_switch);
    if (!p.saturated) s.found = false;
    else if (!s.found) {
      s.found = true;
      s.load = p.offered_load;
    }
  }
  return s;
}

ThroughputReadings throughput_readings(const std::vector<LoadPointResult>& points) {
  ThroughputReadings t;
  const SaturationPoint knee = find_saturation(points);
  if (!knee.found) return t;
  t.found = true;
  for (const auto& p : points) {
    if (p.offered_load == knee.load) t.at_saturation = p.accepted_bytes_per_ns_per_switch;
    if (p.offered_load <= knee.load || !p.warmup.rate) continue;
    if (!p.warmup.settled) {
      ++t.unsettled;
      continue;
    }
    t.past = t.past_found ? std::max(t.past, p.accepted_bytes_per_ns_per_switch) : p.accepted_bytes_per_ns_per_switch;
    t.past_found = true;
  }
  return t;
}

// cc_timeseries.csv beside results.json: one row per sample of every point that has a series
// (congestion control, tb/stats/cc_result.h).
namespace {
std::string cc_series_csv(const std::vector<nlohmann::ordered_json>& points) {
  std::ostringstream os;
  os << "offered_load,t_ns,hot_throughput,victim_throughput_per_source,mean_ccti,max_ccti,fecn,becn\n";
  for (const auto& p : points) {
    if (!p.contains("congestion_control") || !p["congestion_control"].contains("series")) continue;
    const auto& s = p["congestion_control"]["series"];
    for (size_t i = 0; i < s["t_ns"].size(); ++i)
      os << p["offered_load"].dump() << "," << s["t_ns"][i].dump() << "," << s["hot"][i].dump() << ","
         << s["victim"][i].dump() << "," << s["mean_ccti"][i].dump() << "," << s["max_ccti"][i].dump() << ","
         << s["fecn"][i].dump() << "," << s["becn"][i].dump() << "\n";
  }
  return os.str();
}

}  // namespace

void write_results(const std::string& dir, const nlohmann::ordered_json& scenario, uint64_t seed,
                   const std::vector<LoadPointResult>& points, const nlohmann::ordered_json& fabric, bool quick) {
  check_output_folder(dir, "results folder");
  nlohmann::ordered_json j;
  j["scenario"] = scenario;
  j["seed"] = seed;
  if (!fabric.is_null()) j["fabric"] = fabric;
  const SaturationPoint knee = find_saturation(points);
  nlohmann::ordered_json sat;
  sat["found"] = knee.found;
  sat["offered_load"] = knee.found ? load6(knee.load) : 0.0;
  sat["throughput_bytes_per_ns_per_switch"] = r6(knee.max_accepted_bytes_per_ns_per_switch);
  // Only where points warmed up to a steady rate (sweep.beyond): other results keep their bytes.
  const bool rated = std::any_of(points.begin(), points.end(), [](auto& p) { return p.warmup.rate; });
  if (rated) {
    const ThroughputReadings t = throughput_readings(points);
    sat["at_saturation_bytes_per_ns_per_switch"] = r6(t.at_saturation);
    sat["steady_past_bytes_per_ns_per_switch"] = t.past_found ? nlohmann::ordered_json(r6(t.past)) : nullptr;
    sat["unsettled_points"] = t.unsettled;
  }
  j["saturation"] = sat;
  nlohmann::ordered_json pts = nlohmann::ordered_json::array();
  for (const auto& p : points) pts.push_back(to_json(p));
  j["points"] = pts;
  write_file_atomically(dir + "/results.json", j.dump(2) + "\n");

  std::ostringstream csv;
  csv << "offered_load,offered_bytes_per_ns_per_host,accepted_bytes_per_ns_per_switch,accepted_fraction,"
         "avg_latency_ns,p50_latency_ns,p99_latency_ns,max_latency_ns,packets_generated,packets_injected,"
         "packets_delivered,packets_in_flight,packets_queued_at_source,measured_packets,max_link_utilisation,avg_link_"
         "utilisation,saturated"
      << (rated ? ",warmup_settled" : "") << "\n";
  for (const auto& p : points) {
    auto pj = to_json(p);
    for (const char* k :
         {"offered_load", "offered_bytes_per_ns_per_host", "accepted_bytes_per_ns_per_switch", "accepted_fraction",
          "avg_latency_ns", "p50_latency_ns", "p99_latency_ns", "max_latency_ns", "packets_generated",
          "packets_injected", "packets_delivered", "packets_in_flight", "packets_queued_at_source", "measured_packets",
          "max_link_utilisation", "avg_link_utilisation"})
      csv << (pj[k].is_null() ? "" : pj[k].dump()) << ",";  // no latency measured: an empty cell
    csv << (p.saturated ? "true" : "false");
    if (rated) csv << "," << (p.warmup.on ? (p.warmup.settled ? "true" : "false") : "");
    csv << "\n";
  }
  write_file_atomically(dir + "/results.csv", csv.str());
  std::vector<nlohmann::ordered_json> with_cc;
  for (const auto& p : points)
    if (!p.congestion_control.is_null()) with_cc.push_back(to_json(p));
  if (!with_cc.empty()) write_file_atomically(dir + "/cc_timeseries.csv", cc_series_csv(with_cc));
  // One line, named by its routing (the title names the scenario).
  PlotLabel label = scenario_plot_label(scenario);
  label.quick = quick;
  const bool has_routing = scenario.contains("routing") && scenario["routing"].is_object() &&
                           scenario["routing"].contains("algorithm") && scenario["routing"]["algorithm"].is_string();
  write_plot(dir + "/latency.svg", label,
             {{has_routing ? scenario["routing"]["algorithm"].get<std::string>() : label.title, points}});
}

void print_summary(std::ostream& os, const std::vector<LoadPointResult>& points) {
  char line[256];
  std::snprintf(line, sizeof line, "%8s %12s %9s %10s %10s %10s %10s %10s %9s  %s\n", "load", "acc B/ns/sw", "acc %",
                "avg ns", "p50 ns", "p99 ns", "injected", "delivered", "in flight", "");
  os << line;
  for (const auto& p : points) {
    char load[16], lat[3][16];
    std::snprintf(load, sizeof load, p.offered_load == 0 || p.offered_load >= 1e-3 ? "%8.3f" : "%8.1e", p.offered_load);
    const double l[3] = {p.avg_latency_ns, p.p50_latency_ns, p.p99_latency_ns};
    for (int i = 0; i < 3; ++i)
      if (p.measured_packets > 0) std::snprintf(lat[i], sizeof lat[i], "%10.0f", l[i]);
      else std::snprintf(lat[i], sizeof lat[i], "%10s", "-");  // nothing measured: no latency
    std::snprintf(line, sizeof line, "%s %12.4f %8.1f%% %s %s %s %10llu %10llu %9llu  %s\n", load,
                  p.accepted_bytes_per_ns_per_switch, 100 * p.accepted_fraction, lat[0], lat[1], lat[2],
                  static_cast<unsigned long long>(p.packets_injected),
                  static_cast<unsigned long long>(p.packets_delivered),
                  static_cast<unsigned long long>(p.packets_in_flight),
                  p.saturated ? (p.warmup.rate && !p.warmup.settled ? "saturated, not settled" : "saturated")
                  : p.warmup.rate && !p.warmup.settled ? "not settled"
                                                       : "");
    os << line;
  }
}

void write_plot(const std::string& svg, const PlotLabel& label,
                const std::vector<std::pair<std::string, std::vector<LoadPointResult>>>& series) {
  std::vector<MarkedSeries> marked;
  for (const auto& [name, points] : series) {
    marked.push_back({name, {}});
    for (const auto& p : points)
      if (p.measured_packets > 0)
        marked.back().second.push_back({p.accepted_bytes_per_ns_per_switch, p.avg_latency_ns, p.saturated});
  }
  write_marked_plot(svg, label, {"accepted traffic (bytes/ns/switch)", "average latency (ns)", true}, marked);
}

PlotLabel scenario_plot_label(const nlohmann::ordered_json& s) {
  auto text = [&](const char* section, const char* key) -> std::string {
    if (!s.contains(section) || !s[section].is_object() || !s[section].contains(key)) return {};
    const auto& v = s[section][key];
    return v.is_string() ? v.get<std::string>() : v.dump();
  };
  std::vector<std::string> parts;
  if (std::string t = text("topology", "spec"); !t.empty()) parts.push_back(t);
  if (std::string r = text("routing", "algorithm"); !r.empty()) parts.push_back(r + " routing");
  if (text("traffic", "workload") == "disk") parts.push_back("disk workload");
  else if (std::string p = text("traffic", "pattern"); !p.empty()) parts.push_back(p + " traffic");
  if (std::string mix = text("traffic", "lengths"); !mix.empty()) parts.push_back("packet lengths " + mix);
  else if (std::string l = text("traffic", "length"); !l.empty()) parts.push_back(l + "-byte packets");
  std::string sub;
  for (const auto& p : parts) sub += (sub.empty() ? "" : ", ") + p;
  std::string name = s.contains("name") && s["name"].is_string() ? s["name"].get<std::string>() : "ibsc";
  return PlotLabel(name, sub);
}

}  // namespace ibsc::tb
