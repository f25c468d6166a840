#include "tb/results.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <stdexcept>

namespace ibsc::tb {
namespace {
// Fixed precision so files read well and compare byte for byte.
double r6(double v) { return std::round(v * 1e6) / 1e6; }
double r3(double v) { return std::round(v * 1e3) / 1e3; }
// gnuplot single-quoted strings take a quote as two quotes.
std::string gp_quote(const std::string& s) {
  std::string o = "'";
  for (char c : s) o += c == '\'' ? std::string("''") : std::string(1, c);
  return o + "'";
}
std::string sh_quote(const std::string& s) {
  std::string o = "'";
  for (char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return o + "'";
}
}  // namespace

nlohmann::ordered_json to_json(const LoadPointResult& r) {
  nlohmann::ordered_json j;
  j["offered_load"] = r6(r.offered_load);
  j["offered_bytes_per_ns_per_host"] = r6(r.offered_bytes_per_ns_per_host);
  j["accepted_bytes_per_ns_per_switch"] = r6(r.accepted_bytes_per_ns_per_switch);
  j["accepted_fraction"] = r6(r.accepted_fraction);
  j["accepted_prorated_bytes_per_ns_per_switch"] = r6(r.accepted_prorated_bytes_per_ns_per_switch);
  j["avg_latency_ns"] = r3(r.avg_latency_ns);
  j["p50_latency_ns"] = r3(r.p50_latency_ns);
  j["p99_latency_ns"] = r3(r.p99_latency_ns);
  j["max_latency_ns"] = r3(r.max_latency_ns);
  j["packets_generated"] = r.packets_generated;
  j["packets_injected"] = r.packets_injected;
  j["packets_delivered"] = r.packets_delivered;
  j["packets_in_flight"] = r.packets_in_flight;
  j["packets_queued_at_source"] = r.packets_queued_at_source;
  j["measured_packets"] = r.measured_packets;
  j["packet_hops"] = r.packet_hops;
  j["saturated"] = r.saturated;
  j["max_link_utilisation"] = r6(r.max_link_utilisation);
  j["avg_link_utilisation"] = r6(r.avg_link_utilisation);
  if (r.hol_samples > 0) {  // only when sampled: other results keep their bytes
    j["hol_samples"] = r.hol_samples;
    j["hol_blocked_per_switch"] = r6(r.hol_blocked_per_switch);
    j["hol_blocked_share"] = r6(r.hol_blocked_share);
  }
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
  r.avg_latency_ns = j.at("avg_latency_ns");
  r.p50_latency_ns = j.at("p50_latency_ns");
  r.p99_latency_ns = j.at("p99_latency_ns");
  r.max_latency_ns = j.at("max_latency_ns");
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
  r.hol_samples = j.value("hol_samples", uint64_t{0});
  r.hol_blocked_per_switch = j.value("hol_blocked_per_switch", 0.0);
  r.hol_blocked_share = j.value("hol_blocked_share", 0.0);
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
    s.max_accepted_bytes_per_ns_per_switch = std::max(s.max_accepted_bytes_per_ns_per_switch, p.accepted_bytes_per_ns_per_switch);
    if (!p.saturated) s.found = false;
    else if (!s.found) {
      s.found = true;
      s.load = p.offered_load;
    }
  }
  return s;
}


void write_results(const std::string& dir, const nlohmann::ordered_json& scenario, uint64_t seed,
                   const std::vector<LoadPointResult>& points, const nlohmann::ordered_json& fabric) {
  std::filesystem::create_directories(dir);
  nlohmann::ordered_json j;
  j["scenario"] = scenario;
  j["seed"] = seed;
  if (!fabric.is_null()) j["fabric"] = fabric;
  const SaturationPoint knee = find_saturation(points);
  nlohmann::ordered_json sat;
  sat["found"] = knee.found;
  sat["offered_load"] = knee.found ? r6(knee.load) : 0.0;
  sat["throughput_bytes_per_ns_per_switch"] = r6(knee.max_accepted_bytes_per_ns_per_switch);
  j["saturation"] = sat;
  nlohmann::ordered_json pts = nlohmann::ordered_json::array();
  for (const auto& p : points) pts.push_back(to_json(p));
  j["points"] = pts;
  {
    std::ofstream out(dir + "/results.json");
    out << j.dump(2) << "\n";
    if (!out) throw std::runtime_error(dir + "/results.json: cannot write");
  }

  std::ofstream csv(dir + "/results.csv");
  csv << "offered_load,offered_bytes_per_ns_per_host,accepted_bytes_per_ns_per_switch,accepted_fraction,"
         "avg_latency_ns,p50_latency_ns,p99_latency_ns,max_latency_ns,packets_generated,packets_injected,"
         "packets_delivered,packets_in_flight,packets_queued_at_source,measured_packets,max_link_utilisation,avg_link_utilisation,saturated\n";
  for (const auto& p : points) {
    auto pj = to_json(p);
    for (const char* k : {"offered_load", "offered_bytes_per_ns_per_host", "accepted_bytes_per_ns_per_switch",
                          "accepted_fraction", "avg_latency_ns", "p50_latency_ns", "p99_latency_ns", "max_latency_ns",
                          "packets_generated", "packets_injected", "packets_delivered", "packets_in_flight", "packets_queued_at_source",
                          "measured_packets", "max_link_utilisation", "avg_link_utilisation"})
      csv << pj[k].dump() << ",";
    csv << (p.saturated ? "true" : "false") << "\n";
  }
  if (!csv) throw std::runtime_error(dir + "/results.csv: cannot write");
  csv.close();
  std::string title =
      scenario.contains("name") && scenario["name"].is_string() ? scenario["name"].get<std::string>() : "ibsc";
  write_plot(dir + "/latency.svg", title, {{title, points}});
}

void print_summary(std::ostream& os, const std::vector<LoadPointResult>& points) {
  char line[256];
  std::snprintf(line, sizeof line, "%8s %12s %9s %10s %10s %10s %10s %10s %9s  %s\n", "load", "acc B/ns/sw", "acc %",
                "avg ns", "p50 ns", "p99 ns", "injected", "delivered", "in flight", "");
  os << line;
  for (const auto& p : points) {
    std::snprintf(line, sizeof line, "%8.3f %12.4f %8.1f%% %10.0f %10.0f %10.0f %10llu %10llu %9llu  %s\n",
                  p.offered_load, p.accepted_bytes_per_ns_per_switch, 100 * p.accepted_fraction, p.avg_latency_ns,
                  p.p50_latency_ns, p.p99_latency_ns, static_cast<unsigned long long>(p.packets_injected),
                  static_cast<unsigned long long>(p.packets_delivered),
                  static_cast<unsigned long long>(p.packets_in_flight), p.saturated ? "saturated" : "");
    os << line;
  }
}

void write_plot(const std::string& svg, const std::string& title,
                const std::vector<std::pair<std::string, std::vector<LoadPointResult>>>& series) {
  std::string base = svg.substr(0, svg.size() - (svg.size() > 4 && svg.substr(svg.size() - 4) == ".svg" ? 4 : 0));
  std::ofstream dat(base + ".dat");
  // Only series with measured points go in: gnuplot stops at an empty data block.
  std::vector<const std::pair<std::string, std::vector<LoadPointResult>>*> drawn;
  for (const auto& sp : series)
    for (const auto& p : sp.second)
      if (p.measured_packets > 0) {
        drawn.push_back(&sp);
        break;
      }
  for (const auto* sp : drawn) {
    dat << "# " << sp->first << "\n";
    for (const auto& p : sp->second)
      if (p.measured_packets > 0) dat << p.accepted_bytes_per_ns_per_switch << " " << p.avg_latency_ns << "\n";
    dat << "\n\n";
  }
  dat.close();
  std::ofstream gp(base + ".gp");
  // noenhanced: series names such as FX_1VL are text, not subscripts.
  gp << "set terminal svg size 800,560 dynamic font 'sans,12' noenhanced\nset output " << gp_quote(svg) << "\n"
     << "set title " << gp_quote(title) << "\nset xlabel 'accepted traffic (bytes/ns/switch)'\n"
     << "set ylabel 'average latency (ns)'\nset grid\nset key top left\nset logscale y\n"
     << "plot ";
  for (size_t i = 0; i < drawn.size(); ++i)
    gp << (i ? ", " : "") << gp_quote(base + ".dat") << " index " << i << " with linespoints title "
       << gp_quote(drawn[i]->first);
  gp << "\n";
  gp.close();
  if (drawn.empty()) return;  // no point has a measured packet: nothing to draw
  if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
    std::cerr << "ibsc: gnuplot not found (Debian package gnuplot-nox); wrote " << base << ".gp and " << base
              << ".dat instead of " << svg << "\n";
    return;
  }
  std::string cmd = "gnuplot " + sh_quote(base + ".gp") + " 2>/dev/null";
  if (std::system(cmd.c_str()) != 0) std::cerr << "ibsc: gnuplot failed on " << base << ".gp\n";
}

}  // namespace ibsc::tb
