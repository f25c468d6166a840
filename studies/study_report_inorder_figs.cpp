#include "studies/study_report_inorder_figs.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "tb/stats/results.h"

namespace ibsc::tb::inorder {

std::string first(const Study& s, const std::string& key) {
  auto v = option(s, key);
  return v.empty() ? "" : v[0];
}
double paper_value(const std::string& text) { return text == "~" || text.empty() ? NAN : std::stod(text); }

const ExperimentResult* finite_run(const StudyRun& run, const std::string& network, const std::string& routing,
                                   const std::string& pattern, const std::string& length) {
  const ExperimentResult* r = find_experiment(run, network, routing, pattern, length);
  return r && r->error.empty() && r->points.size() == 1 && r->points[0].has_transport ? r : nullptr;
}

double exec_time_us(const ExperimentResult* r) {
  return r && r->points[0].transport.all_delivered() ? r->points[0].transport.execution_time_ns / 1000 : NAN;
}

void write_panel(const Section& sec, const Panel& panel) {
  std::vector<std::pair<std::string, std::vector<LoadPointResult>>> lines;
  for (const auto& rt : panel.routings)
    if (const ExperimentResult* r = find_experiment(sec.run, panel.torus, rt, panel.patterns[0], panel.length))
      if (r->error.empty() && !r->points.empty()) lines.push_back({rt, r->points});
  const std::string title = "Figure " + panel.name + ": " + panel.title;
  if (lines.empty()) {
    sec.md << "#### " << title << "\n\nNot run in this mode.\n\n";
    return;
  }
  const std::string file = "figure-" + panel.name + ".svg";
  write_plot(
      sec.dir + "/" + file,
      PlotLabel(title, figure_subtitle(*sec.run.study, panel.torus, panel.patterns, panel.length), sec.run.quick),
      lines);
  sec.md << "#### " << title << "\n\n![" << title << "](" << file << ")\n\n";
}

namespace {

// One of the paper's statements about a figure, and whether our runs bear it out.
struct Statement {
  std::string paper, ours;
  bool holds;
};

void write_statements(const Section& sec, const std::string& figure, const std::vector<Statement>& st) {
  if (st.empty()) return;
  sec.md << "| the paper says | ours | holds |\n|---|---|---|\n";
  for (const auto& x : st) {
    sec.md << "| " << x.paper << " | " << x.ours << " | " << (x.holds ? "yes" : "**no**") << " |\n";
    if (!x.holds) sec.outliers.push_back({figure + " " + x.paper, x.ours});
  }
  sec.md << "\n";
}

const Panel* panel_named(const Study& s, const std::string& name) {
  for (const auto& p : s.panels)
    if (p.name == name) return &p;
  return nullptr;
}

// The value the experiment's overrides give `key` (the last wins), or "".
std::string set_value(const Experiment& e, const std::string& key) {
  std::string v;
  for (const auto& kv : e.set)
    if (kv.compare(0, key.size() + 1, key + "=") == 0) v = kv.substr(key.size() + 1);
  return v;
}

// The value a routing's axis overrides give `key` (the last wins), or "?".
std::string set_value_or(const Study& s, const std::string& routing, const std::string& key) {
  std::string v = "?";
  for (const auto& kv : s.axis(s.routings, routing).set)
    if (kv.compare(0, key.size() + 1, key + "=") == 0) v = kv.substr(key.size() + 1);
  return v;
}

}  // namespace

void write_figure5_buffers(const Section& sec) {
  const Study& s = *sec.run.study;
  const std::string rt = first(s, "figure5mbs.routing");
  if (rt.empty()) return;
  sec.md << "### Figure 5b, d, f, h: largest rearrange buffer needed against traffic (" << rt << ")\n\n"
         << "The largest occupancy of any connection's rearrange buffer (MBS) at each load point of " << rt
         << " (rearrange buffers of " << set_value_or(s, rt, "transport.connection_bytes")
         << " bytes per connection: with no NACK in a sweep, no connection needed more). Below half: the largest "
            "MBS at loads up to half of the first saturated one.\n\n"
            "| network | pattern | MBS below half | MBS at the last point not saturated | MBS overall | NACKs |\n"
            "|---|---|---|---|---|---|\n";
  std::vector<PlotSeries> lines;
  std::map<std::string, uint64_t> worst;  // per pattern
  std::vector<Statement> st;
  bool fast_growth = true, near_saturation = true;
  for (const auto& pat : option(s, "figure5mbs.patterns"))
    for (const auto& net : option(s, "figure5mbs.networks")) {
      const ExperimentResult* r = find_experiment(sec.run, net, rt, pat, s.figure_length);
      if (!r || !r->error.empty() || r->points.empty() || !r->points[0].has_transport) continue;
      double first_saturated = INFINITY;
      for (const auto& p : r->points)
        if (p.saturated) first_saturated = std::min(first_saturated, p.offered_load);
      uint64_t below_half = 0, at_knee = 0, all = 0, nacks = 0;
      double knee_load = -1;
      lines.push_back({net + " " + pat, {}});
      for (const auto& p : r->points) {
        if (beyond_point(p)) continue;  // the paper's panels are its sweeps', not steady points past saturation
        const uint64_t b = p.transport.max_connection_bytes;
        all = std::max(all, b);
        nacks += p.transport.nacks;
        if (p.offered_load <= first_saturated / 2) below_half = std::max(below_half, b);
        if (!p.saturated && p.offered_load > knee_load) knee_load = p.offered_load, at_knee = b;
        lines.back().second.emplace_back(p.accepted_bytes_per_ns_per_switch, static_cast<double>(b));
      }
      worst[pat] = std::max(worst[pat], all);
      sec.md << fmt::format("| {} | {} | {} | {} | {} | {} |\n", net, pat, below_half, at_knee, all, nacks);
      if (pat != s.figure_pattern) {
        fast_growth = fast_growth && all >= 4 * std::max<uint64_t>(below_half, 256);
        near_saturation = near_saturation && below_half <= all / 4;
      }
    }
  sec.md << "\n";
  if (lines.empty()) {
    sec.md << "Not run in this mode.\n\n";
    return;
  }
  const uint64_t uni = worst.count(s.figure_pattern) ? worst[s.figure_pattern] : 0;
  st.push_back({"uniform traffic needs less than 600 bytes (2 packets) per connection in the worst case",
                fmt::format("{} bytes", uni), uni < 600});
  st.push_back({"bit-reversal needs more, growing fast as traffic increases (at least 4x from half saturation on)",
                fast_growth ? "yes" : "no", fast_growth});
  st.push_back(
      {"the largest buffers are needed only near saturation (below half of it at most a quarter of the largest)",
       near_saturation ? "yes" : "no", near_saturation});
  write_statements(sec, "Figure 5 buffers", st);
  write_xy_plot(sec.dir + "/figure-5-mbs.svg",
                PlotLabel("Figure 5b, d, f, h: largest rearrange buffer needed (" + rt + ")",
                          s.figure_length + "-byte packets; networks and patterns in the key", sec.run.quick),
                {"accepted traffic (bytes/ns/switch)", "MBS (bytes)", false, "top left"}, lines);
  sec.md << "![Figure 5b, d, f, h](figure-5-mbs.svg)\n\n";
}

void write_figure6(const Section& sec) {
  const Study& s = *sec.run.study;
  const auto panels = option(s, "figure6.panels");
  if (panels.empty()) return;
  const std::string det = first(s, "figure6.det"), adap = first(s, "figure6.adaptive"),
                    largest = first(s, "figure6.largest");
  const auto small = option(s, "figure6.small");
  sec.md << "## Figure 6: rearrange buffers under bit-reversal traffic\n\n"
         << "Each source sends to one destination only, so one connection per NIC gets all the out-of-order "
            "packets. Adap_NB: adaptive routing with a static rearrange buffer of N bytes per connection, a "
            "rejected packet NACKed and re-sent at once (no injection limitation); "
         << adap << ": adaptive routing delivering on arrival; " << det
         << ": up*/down*. Throughput: the saturation throughput, as Figure 5's (bytes/ns/switch); NACKs and "
            "waste at that load point. The paper gives this figure as curves only; its text's statements are "
            "checked below.\n\n";
  std::ofstream csv(sec.dir + "/figure6.csv");
  csv << "panel,network,routing,throughput,over_det,nacks,waste\n";
  for (const auto& name : panels) {
    const Panel* p = panel_named(s, name);
    if (!p) continue;
    sec.md << "### Figure " << name << ": " << p->title << "\n\n| routing | throughput | over " << det
           << " | NACKs | waste % |\n|---|---|---|---|---|\n";
    std::map<std::string, const ExperimentResult*> res;
    for (const auto& rt : p->routings) {
      const ExperimentResult* r = find_experiment(sec.run, p->torus, rt, p->patterns[0], p->length);
      if (r && r->error.empty() && !r->points.empty()) res[rt] = r;
    }
    if (!res.count(det)) {
      sec.md << "| not run in this mode |||||\n\n";
      continue;
    }
    const double base = saturation_throughput(res[det]->points);
    auto tp = [&](const std::string& rt) { return saturation_throughput(res[rt]->points); };
    for (const auto& rt : p->routings) {
      if (!res.count(rt)) continue;
      const ExperimentResult& r = *res[rt];
      const LoadPointResult& b = saturation_point(r.points);
      const double t = b.accepted_bytes_per_ns_per_switch;
      const bool tr = b.has_transport && b.transport.mode == "reorder";
      sec.md << fmt::format("| {} | {:.3f} | x{:.2f} | {} | {} |\n", rt, t, t / base,
                            tr ? std::to_string(b.transport.nacks) : "-", tr ? num(100 * b.transport.waste, 1) : "-");
      csv << name << "," << p->torus << "," << rt << "," << num(t, 4) << "," << num(t / base, 4) << ","
          << (tr ? b.transport.nacks : 0) << "," << (tr ? num(b.transport.waste, 5) : "0") << "\n";
    }
    sec.md << "\n";
    std::vector<Statement> st;
    for (const auto& rt : small)
      if (res.count(rt)) {
        const bool above = tp(rt) > base;
        st.push_back({"adaptive routing beats " + det + " even with buffers below a packet (" + rt + ")",
                      fmt::format("x{:.2f}", tp(rt) / base), above});
        // A check in full mode only: quick mode's short windows let DET past saturation look better.
        if (!above && !sec.run.quick)
          sec.failures.push_back(
              fmt::format("Figure {}: {} carries no more than {} ({:.3f} vs {:.3f})", name, rt, det, tp(rt), base));
      }
    // Below one packet no packet can be stored: every out-of-order arrival is rejected alike, so
    // the runs must be the same, point by point.
    if (small.size() >= 2 && res.count(small[0]) && res.count(small[1])) {
      const auto &a = res[small[0]]->points, &b = res[small[1]]->points;
      bool same = a.size() == b.size();
      for (size_t i = 0; same && i < a.size(); ++i)
        same = a[i].packets_delivered == b[i].packets_delivered && a[i].avg_latency_ns == b[i].avg_latency_ns;
      st.push_back({small[0] + " and " + small[1] + " curves superimposed",
                    same ? "identical at every load point" : "they differ", same});
      if (!same) sec.failures.push_back("Figure " + name + ": " + small[0] + " and " + small[1] + " differ");
    }
    if (res.count(largest) && res.count(adap)) {
      const double f = tp(largest) / tp(adap);
      st.push_back({"as the buffer grows, performance nears plain adaptive routing (" + largest + " vs " + adap + ")",
                    fmt::format("{:.3f} vs {:.3f} ({:+.0f}%)", tp(largest), tp(adap), 100 * (f - 1)), f >= 0.85});
    }
    write_statements(sec, "Figure " + name, st);
    write_panel(sec, *p);
  }
}

void write_figure7(const Section& sec) {
  const Study& s = *sec.run.study;
  const std::string rt = first(s, "figure7.routing");
  if (rt.empty()) return;
  sec.md << "## Figure 7: rearrange memory held at once per destination NIC (" << rt << ")\n\n"
         << "For each destination NIC the most rearrange memory its connections held at the same time (its MMS), "
            "under the disk-like workload. At the moment each NIC reached that peak: how many of its connections "
            "held data, how many of those were above half of their buffer, how many full (less than 64 bytes "
            "free). Memory per NIC: the buffer per connection times the other hosts.\n\n"
         << "| panel | network, workload | NICs | memory per NIC | largest MMS (share) | mean MMS | connections "
            "holding data at the peaks | of them above half | of them full | connections empty at the peaks |\n"
            "|---|---|---|---|---|---|---|---|---|---|\n";
  std::ofstream csv(sec.dir + "/figure7.csv");
  csv << "panel,network,pattern,host,max_bytes,peak_holding,peak_over_half,peak_full\n";
  std::vector<Statement> st;
  for (const char* panel : {"a", "b"}) {
    const auto spec = option(s, std::string("figure7.") + panel);
    if (spec.size() < 3) continue;
    const ExperimentResult* r = finite_run(sec.run, spec[0], rt, spec[1], spec[2]);
    if (!r || r->points[0].transport.nic_max_bytes.empty()) {
      sec.md << "| 7" << panel << " | " << spec[0] << ", " << spec[1] << " | not run in this mode |||||||||\n";
      continue;
    }
    const TransportResult& t = r->points[0].transport;
    const size_t nics = t.nic_max_bytes.size();
    const std::string cap_text = set_value(r->exp, "transport.connection_bytes");
    const double cap = cap_text.empty() ? NAN : std::stod(cap_text), per_nic = cap * static_cast<double>(nics - 1);
    uint64_t largest = 0, sum = 0, holding = 0, over_half = 0, full = 0;
    PlotSeries line{"MMS per NIC", {}};
    for (size_t h = 0; h < nics; ++h) {
      largest = std::max(largest, t.nic_max_bytes[h]);
      sum += t.nic_max_bytes[h];
      holding += t.nic_peak_holding[h];
      over_half += t.nic_peak_over_half[h];
      full += t.nic_peak_full[h];
      line.second.emplace_back(static_cast<double>(h), static_cast<double>(t.nic_max_bytes[h]));
      csv << panel << "," << spec[0] << "," << spec[1] << "," << h << "," << t.nic_max_bytes[h] << ","
          << t.nic_peak_holding[h] << "," << t.nic_peak_over_half[h] << "," << t.nic_peak_full[h] << "\n";
    }
    const double conns = static_cast<double>(nics * (nics - 1)), share = largest / per_nic;
    const double empty = 1 - holding / conns, above = holding ? static_cast<double>(over_half) / holding : NAN;
    sec.md << fmt::format(
        "| 7{} | {}, {} | {} | {:.0f} KB | {} ({:.1f}%) | {:.0f} | {} | {} ({:.0f}%) | {} ({:.0f}%) | {:.1f}% |\n",
        panel, spec[0], spec[1], nics, per_nic / 1024, largest, 100 * share, static_cast<double>(sum) / nics, holding,
        over_half, 100 * above, full, holding ? 100.0 * full / holding : 0.0, 100 * empty);
    const std::string title =
        fmt::format("Figure 7{}: {}, {}, {}: most rearrange memory held at once", panel, spec[0], spec[1], rt);
    write_xy_plot(sec.dir + "/figure-7" + panel + ".svg",
                  PlotLabel(title, figure_subtitle(s, spec[0], {spec[1]}, spec[2]), sec.run.quick),
                  {"destination host", "bytes held at once (MMS)", false, "top right"}, {line});
    const std::string where = std::string("7") + panel;
    st.push_back({"the memory used never exceeds 20% of the total (Tables 1, 2: MMS 52812 and 52378 of 256 KB)",
                  fmt::format("{}: {:.1f}%", where, 100 * share), share <= 0.20 * 1.15});
    st.push_back({"almost all buffers holding a packet are full or above half",
                  fmt::format("{}: {:.0f}%", where, 100 * above), above >= 0.85});
    st.push_back({"the other buffers are empty: about 80% unused (90% in the conclusions)",
                  fmt::format("{}: {:.1f}% empty", where, 100 * empty), empty >= 0.80 * 0.85});
  }
  sec.md << "\n";
  write_statements(sec, "Figure 7", st);
  for (const char* panel : {"a", "b"})
    if (std::ifstream(sec.dir + "/figure-7" + panel + ".svg"))
      sec.md << "![Figure 7" << panel << "](figure-7" << panel << ".svg)\n\n";
}

void write_figure8(const Section& sec) {
  const Study& s = *sec.run.study;
  const std::string net = first(s, "figure8.network"), pat = first(s, "figure8.pattern");
  const auto routings = option(s, "figure8.routings");
  if (net.empty() || routings.empty()) return;
  auto lengths_of = [&](const std::string& rt) {
    auto v = option(s, "figure8.lengths." + rt);
    return v.empty() ? option(s, "figure8.lengths") : v;
  };
  auto mtu_of = [](const std::string& length) {
    std::string d;
    for (char c : length)
      if (std::isdigit(static_cast<unsigned char>(c))) d += c;
    return d.empty() ? 0 : std::stoi(d);
  };
  sec.md << "## Figure 8: execution time against the MTU (" << net << ", workload " << pat << ")\n\n"
         << "One run per routing and MTU; packets per host scaled so that every MTU carries about the same bytes. "
            "Time: last delivery to a host, ms. LI-dynN: ADAP-LI with a shared pool of N per NIC (at most half of "
            "it per connection).\n\n| routing |";
  std::vector<int> mtus;
  for (const auto& l : lengths_of(routings[0])) mtus.push_back(mtu_of(l));
  for (int m : mtus) sec.md << " " << m << " B |";
  sec.md << " 4 KB over 512 B |\n|---|";
  for (size_t i = 0; i <= mtus.size(); ++i) sec.md << "---|";
  sec.md << "\n";
  std::ofstream csv(sec.dir + "/figure8.csv");
  csv << "routing,length,mtu,execution_time_us,nacks,waste,max_nic_bytes\n";
  std::map<std::string, std::map<int, double>> ms;  // routing -> MTU -> ms
  std::vector<PlotSeries> lines;
  for (const auto& rt : routings) {
    lines.push_back({rt, {}});
    sec.md << "| " << rt << " |";
    for (const auto& l : lengths_of(rt)) {
      const ExperimentResult* r = finite_run(sec.run, net, rt, pat, l);
      const double t = exec_time_us(r) / 1000;
      sec.md << " " << num(t, 2) << " |";
      if (!r) continue;
      const TransportResult& tr = r->points[0].transport;
      csv << rt << "," << l << "," << mtu_of(l) << "," << num(1000 * t, 3) << "," << tr.nacks << "," << num(tr.waste, 5)
          << "," << tr.max_nic_bytes << "\n";
      if (std::isnan(t)) continue;
      ms[rt][mtu_of(l)] = t;
      lines.back().second.emplace_back(mtu_of(l), t);
    }
    const auto& m = ms[rt];
    const bool ends = m.count(512) && m.count(4096);
    sec.md << " " << (ends ? fmt::format("{:+.1f}%", 100 * (m.at(4096) / m.at(512) - 1)) : "-") << " |\n";
  }
  sec.md << "\n";
  if (ms.empty()) {
    sec.md << "Not run in this mode.\n\n";
    return;
  }
  const std::string title = "Figure 8: " + net + ", workload " + pat + ": execution time vs MTU";
  write_xy_plot(sec.dir + "/figure-8.svg", PlotLabel(title, "routings in the key", sec.run.quick),
                {"MTU (bytes)", "execution time (ms)", false, "top right"}, lines);
  // The paper's reading of its Figure 8, checked on ours.
  auto spread = [&](const std::string& rt) -> double {  // (max - min) / min over the MTUs
    const auto& m = ms[rt];
    if (m.empty()) return NAN;
    double lo = INFINITY, hi = 0;
    for (const auto& [mtu, t] : m) lo = std::min(lo, t), hi = std::max(hi, t);
    return hi / lo - 1;
  };
  auto change = [&](const std::string& rt) -> double {
    const auto& m = ms[rt];
    return m.count(512) && m.count(4096) ? m.at(4096) / m.at(512) - 1 : NAN;
  };
  std::vector<Statement> st;
  for (const auto& rt : {first(s, "figure8.det"), first(s, "figure8.ooo")})
    st.push_back({rt + " roughly independent of the MTU, slightly faster with larger MTUs",
                  fmt::format("spread {:.1f}%, 512 B to 4 KB {:+.1f}%", 100 * spread(rt), 100 * change(rt)),
                  spread(rt) <= 0.10});
  const std::string det = first(s, "figure8.det"), ooo = first(s, "figure8.ooo"), small = first(s, "figure8.small"),
                    mid = first(s, "figure8.mid");
  if (ms[small].count(512) && ms[det].count(512))
    st.push_back({small + ": about " + det + "'s time, faster as the MTU grows",
                  fmt::format("{:+.1f}% of {} at 512 B; 512 B to 4 KB {:+.1f}%",
                              100 * (ms[small][512] / ms[det][512] - 1), det, 100 * change(small)),
                  std::abs(ms[small][512] / ms[det][512] - 1) <= 0.10 && change(small) < 0});
  st.push_back({mid + ": slightly slower as the MTU grows", fmt::format("512 B to 4 KB {:+.1f}%", 100 * change(mid)),
                change(mid) > 0});
  for (const auto& rt : option(s, "figure8.large")) {
    double worst = 0;
    for (const auto& [mtu, t] : ms[rt])
      if (ms[ooo].count(mtu)) worst = std::max(worst, std::abs(t / ms[ooo][mtu] - 1));
    // "Very close": within 10%, the tolerance of "roughly independent" above.
    st.push_back({rt + ": close to " + ooo, fmt::format("within {:.1f}% at every MTU", 100 * worst), worst <= 0.10});
  }
  write_statements(sec, "Figure 8", st);
  sec.md << "![" << title << "](figure-8.svg)\n\n";
}

void write_cost(const Section& sec) {
  const Study& s = *sec.run.study;
  const auto pairs = option(s, "cost.pairs");
  const std::string net = first(s, "cost.network"), len = first(s, "cost.length");
  if (pairs.empty()) return;
  struct Cost {
    double cpu = 0;
    uint64_t hops = 0, packets = 0;
    int runs = 0;
  };
  auto cost_of = [&](const std::string& rt) {
    Cost c;
    for (const auto& pat : option(s, "cost.patterns")) {
      const ExperimentResult* r = find_experiment(sec.run, net, rt, pat, len);
      if (!r || !r->error.empty()) continue;
      c.cpu += r->cpu_seconds;
      ++c.runs;
      for (const auto& p : r->points) {
        c.hops += p.packet_hops;
        c.packets += p.packets_delivered;
      }
    }
    return c;
  };
  sec.md << "## Simulator cost per packet-hop with the HCAs' transport\n\n"
         << "CPU seconds of each experiment's process (routing tables, elaboration and simulation) over the "
            "packet-hops its switches forwarded (every packet: data, ACK, NACK, re-sends), summed over the "
            "workloads `"
         << fmt::format("{}", fmt::join(option(s, "cost.patterns"), "`, `")) << "` on " << net
         << ". Reference: the same routing without the transport (`transport.mode` unset). The issue's budget: "
            "adaptive routing and the NIC at most 1.5x the deterministic fabric's cost per packet-hop.\n\n"
            "| routing | transport | CPU s | packet-hops | packets delivered | CPU ns per packet-hop | over its "
            "reference | over "
         << first(s, "cost.deterministic") << " |\n|---|---|---|---|---|---|---|---|\n";
  const Cost det = cost_of(first(s, "cost.deterministic"));
  std::ofstream csv(sec.dir + "/cost.csv");
  csv << "routing,reference,cpu_seconds,packet_hops,packets_delivered,ns_per_hop,over_reference,over_deterministic\n";
  auto per_hop = [](const Cost& c) { return c.hops ? 1e9 * c.cpu / c.hops : NAN; };
  std::vector<std::string> shown;
  for (const auto& pr : pairs) {
    const auto colon = pr.find(':');
    const std::string rt = pr.substr(0, colon), ref = colon == std::string::npos ? "" : pr.substr(colon + 1);
    for (const auto& name : {ref, rt}) {
      if (name.empty() || std::find(shown.begin(), shown.end(), name) != shown.end()) continue;
      shown.push_back(name);
      const Cost c = cost_of(name), r = cost_of(name == rt ? ref : name);
      if (c.runs == 0) continue;
      const ExperimentResult* any = find_experiment(sec.run, net, name, option(s, "cost.patterns")[0], len);
      const std::string mode =
          any && !any->points.empty() && any->points[0].has_transport ? any->points[0].transport.mode : "off";
      sec.md << fmt::format("| {} | {} | {:.2f} | {} | {} | {:.0f} | x{:.2f} | x{:.2f} |\n", name, mode, c.cpu, c.hops,
                            c.packets, per_hop(c), per_hop(c) / per_hop(r), per_hop(c) / per_hop(det));
      csv << name << "," << (name == rt ? ref : name) << "," << num(c.cpu, 3) << "," << c.hops << "," << c.packets
          << "," << num(per_hop(c), 1) << "," << num(per_hop(c) / per_hop(r), 3) << ","
          << num(per_hop(c) / per_hop(det), 3) << "\n";
    }
  }
  sec.md << "\nCPU time is measured on a machine other processes share; differences of 10-20% between single runs "
            "are noise (see the README's bench/ figures for a controlled measurement).\n\n";
}

}  // namespace ibsc::tb::inorder
