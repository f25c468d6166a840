#include "studies/study_report_inorder.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "studies/study_fitted.h"
#include "studies/study_report_inorder_figs.h"

namespace ibsc::tb {
namespace {
using inorder::exec_time_us;
using inorder::finite_run;
using inorder::first;
using inorder::num;
using inorder::option;
using inorder::paper_value;

// Network "64sw-t3" counts towards size "64sw".
std::string size_of(const std::string& net) { return net.substr(0, net.find('-')); }

// One table of the finite workload's execution times (Table 1, Table 2), beside the paper's.
struct ExecTable {
  std::string name;                   // "Table 1"
  std::string network, length, csv;   // the runs; the CSV file written
  std::vector<std::string> patterns;  // the workloads; details from the first
  std::string routings_key, paper_prefix;
};

// Writes the table; returns each routing's mean Impr. % over the workloads.
std::map<std::string, double> write_exec_table(std::ostream& md, const std::string& dir, const StudyRun& run,
                                               const ExecTable& tb, const std::string& det,
                                               std::vector<ReportOutlier>& outliers) {
  const Study& s = *run.study;
  const std::string main_pattern = tb.patterns.empty() ? "" : tb.patterns[0];
  auto fin = [&](const std::string& rt, const std::string& pat) {
    return finite_run(run, tb.network, rt, pat, tb.length);
  };
  auto improvement = [&](const std::string& rt, const std::string& pattern) {
    const double base_time = exec_time_us(fin(det, pattern));
    return 100 * (base_time - exec_time_us(fin(rt, pattern))) / base_time;
  };
  md << "| routing | time (us) | paper time | waste % | paper | MBS | paper | MMS | paper | Impr. % per workload | "
        "Impr. % mean | paper | NACKs | out-of-order arrivals |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  std::ofstream tcsv(dir + "/" + tb.csv);
  tcsv << "routing,workload,execution_time_us,waste,max_connection_bytes,max_nic_bytes,improvement,nacks,ooo_arrivals,"
          "ooo_deliveries,paper_time,paper_waste,paper_mbs,paper_mms,paper_improvement\n";
  std::map<std::string, double> impr;  // mean over the workloads
  for (const auto& rt : option(s, tb.routings_key)) {
    const ExperimentResult* r = fin(rt, main_pattern);
    const auto paper = option(s, tb.paper_prefix + rt);
    auto pv = [&](size_t i) { return i < paper.size() ? paper[i] : std::string("~"); };
    if (!r) {
      md << "| " << rt << " | not run in this mode |||||||||||||\n";
      continue;
    }
    std::vector<std::string> each;
    double sum = 0;
    int n = 0;
    for (const auto& pat : tb.patterns) {
      const ExperimentResult* w = fin(rt, pat);
      if (!w) continue;
      const double im = improvement(rt, pat);
      each.push_back(num(im, 1));
      sum += im;
      ++n;
      const TransportResult& t = w->points[0].transport;
      tcsv << rt << "," << pat << "," << num(exec_time_us(w), 3) << "," << num(t.waste, 5) << ","
           << t.max_connection_bytes << "," << t.max_nic_bytes << "," << num(im, 3) << "," << t.nacks << ","
           << t.out_of_order_arrivals << "," << t.out_of_order_deliveries << "," << pv(0) << "," << pv(1) << ","
           << pv(2) << "," << pv(3) << "," << pv(4) << "\n";
    }
    const double mean = n ? sum / n : NAN;
    impr[rt] = mean;
    const TransportResult& t = r->points[0].transport;
    const bool reorder = t.mode == "reorder";
    md << fmt::format("| {} | {} | {} | {:.1f} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", rt,
                      num(exec_time_us(r), 1), pv(0), 100 * t.waste, pv(1),
                      reorder ? std::to_string(t.max_connection_bytes) : "-", pv(2),
                      reorder ? std::to_string(t.max_nic_bytes) : "-", pv(3),
                      rt == det ? "-" : fmt::format("{}", fmt::join(each, ", ")), rt == det ? "-" : num(mean, 1), pv(4),
                      t.nacks, t.out_of_order_arrivals);
    const double pim = paper_value(pv(4));
    if (rt != det && !std::isnan(pim) && std::abs(mean - pim) > 100 * s.explain_above)
      outliers.push_back({tb.name + " " + rt + " Impr", fmt::format("paper {:.1f}%, ours {:.1f}%", pim, mean)});
  }
  return impr;
}

// Sensitivity: the other finite workloads of a table's network (other compression factors),
// Impr. % over DET per routing of the table, a row per workload.
void write_sensitivity(std::ostream& md, const StudyRun& run, const ExecTable& tb, const std::string& det) {
  const Study& s = *run.study;
  std::vector<std::string> others;
  for (const auto& p : s.patterns)
    if (p.name != s.figure_pattern && std::find(tb.patterns.begin(), tb.patterns.end(), p.name) == tb.patterns.end() &&
        finite_run(run, tb.network, det, p.name, tb.length))
      others.push_back(p.name);
  if (others.empty()) return;
  std::vector<std::string> routings;
  for (const auto& rt : option(s, tb.routings_key))
    if (rt != det) routings.push_back(rt);
  md << "\n### Sensitivity: other workloads on " << tb.network << " (Impr. % over " << det << ", time of " << det
     << ")\n\n| workload | " << det << " time (us) | " << fmt::format("{}", fmt::join(routings, " | "))
     << " |\n|---|---";
  for (size_t i = 0; i < routings.size(); ++i) md << "|---";
  md << "|\n";
  for (const auto& pat : others) {
    const double base = exec_time_us(finite_run(run, tb.network, det, pat, tb.length));
    md << "| " << pat << " | " << num(base, 1);
    for (const auto& rt : routings) {
      const ExperimentResult* r = finite_run(run, tb.network, rt, pat, tb.length);
      md << " | " << (r ? num(100 * (base - exec_time_us(r)) / base, 1) : "-");
    }
    md << " |\n";
  }
}

// Per workload: what sets the end, and the paper's ordering on that workload alone. A finite
// run's execution time is its last delivery; the endpoint bound (TrafficDriver::endpoint_bound_ps)
// is the earliest that could be on the endpoints' links alone, whatever the routing. Where the
// adaptive runs end at that bound the workload's last messages set the end and every adaptive
// variant ties; on the workloads of `fabric_key` (compressed further, so that generation ends
// early) the fabric sets it. Returns "workload: holds/not" per workload for the acceptance table.
struct OrderOnWorkload {
  std::string workload;
  bool holds = false, fabric_set = false;
  std::string ours;
};
std::vector<OrderOnWorkload> write_workload_order(std::ostream& md, const StudyRun& run, const ExecTable& tb,
                                                  const std::string& det, const std::string& fabric_key) {
  const Study& s = *run.study;
  std::vector<std::string> pats = tb.patterns;
  for (const auto& p : option(s, fabric_key)) pats.push_back(p);
  const std::string ooo = first(s, "order.ooo"), dyn = first(s, "order.dynamic"), s32 = first(s, "order.static32"),
                    s2 = first(s, "order.static2");
  std::vector<OrderOnWorkload> out;
  std::string rows;
  for (const auto& pat : pats) {
    const ExperimentResult* d = finite_run(run, tb.network, det, pat, tb.length);
    const ExperimentResult* o = finite_run(run, tb.network, ooo, pat, tb.length);
    if (!d || !o) continue;
    auto impr = [&](const std::string& rt) {
      const ExperimentResult* r = finite_run(run, tb.network, rt, pat, tb.length);
      const double base = exec_time_us(d);
      return r ? 100 * (base - exec_time_us(r)) / base : NAN;
    };
    const double io = impr(ooo), id = impr(dyn), i32 = impr(s32), i2 = impr(s2);
    const TransportResult& t = o->points[0].transport;
    const double bound_us = t.endpoint_bound_ns / 1000, last_us = t.last_generated_ns / 1000;
    const double o_us = exec_time_us(o);
    // The end is the workload's when the fastest routing ends within 1% of what the endpoints allow.
    const bool workload_end = bound_us > 0 && o_us <= 1.01 * bound_us;
    const bool fabric = std::find(tb.patterns.begin(), tb.patterns.end(), pat) == tb.patterns.end();
    const bool holds = io >= id - 2 && i32 > 0 && i2 < 0;
    out.push_back({pat, holds, fabric, fmt::format("{:.1f}, {:.1f}, {:.1f}, {:.1f}", io, id, i32, i2)});
    rows += fmt::format(
        "| {} | {} | {:.1f} | {:.1f} | {:.1f} | {:.1f} ({:.1f}%) | {} | {:.1f} | {:.1f} | {:.1f} | "
        "{:.1f} | {} |\n",
        pat, fabric ? "fabric-set" : "paper's compression", exec_time_us(d), last_us, bound_us, o_us,
        bound_us > 0 ? 100 * (o_us / bound_us - 1) : NAN,
        workload_end ? "the workload (its endpoints' links)" : "the fabric", io, id, i32, i2, holds ? "yes" : "**no**");
  }
  if (rows.empty()) return out;
  md << "\n### " << tb.name << " per workload: what sets the end, and the ordering\n\nEndpoint bound: the earliest "
     << "the last delivery could be on the workload's own endpoint links (each host's link sends its packets at link "
        "rate from their generation on, each destination's link takes them so; no routing can end sooner). Where "
     << ooo
     << " ends within 1% of it, the last messages of the workload set the end, and every routing that keeps "
        "up ties to the nanosecond: such a workload says nothing about routing or rearrange memory. The "
        "fabric-set workloads are the same draws compressed further (generation ends within a few hundred "
        "microseconds, a small part of any run), so the fabric sets every end. Impr. % over "
     << det << "; ordering: " << ooo << " >= " << dyn << " (2 points slack), " << s32 << " > 0 > " << s2
     << ".\n\n| workload | kind | " << det << " time (us) | last generation (us) | endpoint bound (us) | " << ooo
     << " time (us, over the bound) | end set by | " << ooo << " | " << dyn << " | " << s32 << " | " << s2
     << " | ordering holds |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n"
     << rows;
  return out;
}

// The 2 KB rows' waste against the messages' length: each routing of `waste.routings` on the
// workloads of `waste_key` (the table's draws at two compressions, whole and with every message
// cut to 8 KB), with what sets each end, the NACKs per host packet and the share of data arrivals
// rejected, beside the paper's waste.
void write_waste_by_length(std::ostream& md, const StudyRun& run, const ExecTable& tb, const std::string& det,
                           const std::string& waste_key) {
  const Study& s = *run.study;
  const std::vector<std::string> pats = option(s, waste_key);
  if (pats.empty()) return;
  md << "\n### " << tb.name << ": the waste of small rearrange buffers against the messages' length\n\n"
     << "Workloads of the same draws, whole and with every message cut to 8 KB (`traffic.disk.max_message`): of "
        "the mix's bytes 59% travel in 64 KB messages, 128 packets of 512 bytes back to back to one destination, "
        "which 2 KB (4 packets) cannot hold when adaptive routing lets later ones overtake. Cut messages make more "
        "of them for the same packets per host, so at the paper's compression generation runs longer and the "
        "load falls; at the higher compression the fabric sets every end, whole or cut, and the load stays high "
        "(last generation against "
     << det
     << "'s time). Rejected: NACKs over data arrivals at the destination NICs (first sends and re-sends).\n\n"
        "| routing | workload | last generation (us) | "
     << det << " time (us) | waste % | paper | NACKs per host packet | rejected share of data arrivals |\n"
     << "|---|---|---|---|---|---|---|---|\n";
  for (const auto& rt : option(s, "waste.routings")) {
    const auto paper = option(s, tb.paper_prefix + rt);
    for (const std::string& pat : pats) {
      const ExperimentResult* r = finite_run(run, tb.network, rt, pat, tb.length);
      const ExperimentResult* d = finite_run(run, tb.network, det, pat, tb.length);
      if (!r || !d) continue;
      const TransportResult& t = r->points[0].transport;
      const double arrivals = static_cast<double>(t.host_packets_generated + t.resent_packets);
      md << fmt::format("| {} | {} | {:.1f} | {:.1f} | {:.1f} | {} | {:.2f} | {:.1f}% |\n", rt, pat,
                        t.last_generated_ns / 1000, exec_time_us(d), 100 * t.waste, paper.size() > 1 ? paper[1] : "-",
                        t.host_packets_generated ? static_cast<double>(t.nacks) / t.host_packets_generated : 0.0,
                        arrivals > 0 ? 100 * t.nacks / arrivals : 0.0);
    }
  }
}

}  // namespace

std::vector<std::string> write_inorder_report(const std::string& dir, const StudyRun& run) {
  namespace fs = std::filesystem;
  const Study& s = *run.study;
  fs::create_directories(dir);
  const std::string det = first(s, "baseline"), adap = first(s, "adaptive");
  std::ostringstream md;
  std::vector<ReportOutlier> outliers;
  std::vector<std::string> failures = study_failures(run, 0.01);

  write_report_opening(md, run, paper_quick_mode(run, "short windows, coarse sweeps, a short workload"),
                       RunTally::Experiments);
  md << " Every experiment is an ordinary scenario (`scenarios/` here, as `ibsc run` reads it); `points.csv` has "
        "every load point, `factors.csv` Figure 5's factors, `table1.csv` the finite-workload runs.\n\n"
     << "Study file: `" << s.file << "`; base model: `" << s.base << "`.\n\n## Modelling choices\n\n";
  for (const auto& n : s.notes) md << "- " << n << "\n";
  md << "- " << measurement_note(s, run.quick)
     << " Figures 5 and 6 read throughput as the saturation throughput instead: the highest accepted traffic of the "
        "load points the sweep did not flag saturated (Figure 5 shows both readings)."
     << "\n\n## Routing tables\n\n| network | routing | tables |\n|---|---|---|\n";
  for (const auto& [key, rt] : run.routed)
    md << "| " << rt.torus << " | " << rt.routing << " | "
       << (rt.check.ok() ? "connected, deadlock-free" : "**" + rt.check.text() + "**") << " |\n";

  // Figure 5: throughput factors, read as the saturation throughput (seeds/002's reading,
  // study_report.h), with the peak of the whole sweep beside it.
  md << "\n## Figure 5: throughput of adaptive routing over DET, uniform traffic\n\nThroughput: the saturation "
        "throughput, the highest accepted traffic (bytes/ns/switch) of the load points the sweep did not flag "
        "saturated (generated = accepted within the batch-means interval and 5%, every packet of the window "
        "delivered), bisected around the saturation load: the point where the paper's latency against accepted "
        "traffic curves turn up, and seeds/002's reading (reports/tftr). Peak accepted: the highest accepted traffic "
        "of the sweep's points, saturated ones included, each warmed up 20 us (the sensitivity: past saturation "
     << det
     << "'s accepted traffic keeps creeping up, see below). Out-of-order arrivals: at the destination NICs over the "
        "whole sweep, of the packets delivered (both routings deliver on arrival here, `transport.mode: ooo`). "
        "Routed bound: the busiest channel under uniform traffic at link rate when every pair takes its primary "
        "path (`tb/stats/channel_load.h`; for "
     << adap
     << " the first minimal candidate at each switch, a single-path reference that adaptive routing may "
        "exceed).\n\n| network | "
     << det << " | " << adap << " | factor | paper | difference | " << adap << " out-of-order arrivals | routed bounds "
     << det << ", " << adap << " (ratio) | peak accepted " << det << ", " << adap
     << " (factor) | steady past saturation " << det << ", " << adap
     << " (factor) |\n|---|---|---|---|---|---|---|---|---|---|\n";
  std::ofstream fcsv(dir + "/factors.csv");
  fcsv << "network,det,adaptive,factor,paper,ooo_arrivals,delivered,det_peak,adaptive_peak,peak_factor,det_steady,"
          "adaptive_steady,steady_factor\n";
  std::map<std::string, std::vector<double>> sizes, peaks, steadies;  // factors per network size
  struct SizeFactor {
    std::string size;
    double mean, paper;
  };
  std::vector<SizeFactor> crit_sizes;
  for (const auto& net : s.tori) {
    const ExperimentResult* d = find_experiment(run, net.name, det, s.figure_pattern, s.figure_length);
    const ExperimentResult* a = find_experiment(run, net.name, adap, s.figure_pattern, s.figure_length);
    if (!d || !a || !d->error.empty() || !a->error.empty() || d->points.empty() || a->points.empty()) continue;
    uint64_t ooo = 0, delivered = 0;
    for (const auto& p : a->points) {
      if (beyond_point(p)) continue;  // the sweep's own points, as the paper's curves
      ooo += p.transport.out_of_order_arrivals;
      delivered += p.transport.host_packets_delivered;
    }
    for (const auto& p : d->points)
      if (p.transport.out_of_order_arrivals > 0)
        failures.push_back(fmt::format("{}: {} packets arrived out of order under deterministic routing at load {:.3f}",
                                       d->exp.name, p.transport.out_of_order_arrivals, p.offered_load));
    const double td = saturation_throughput(d->points), ta = saturation_throughput(a->points);
    const double f = ta / td, paper = paper_value(first(s, "factor." + size_of(net.name)));
    const double dpeak = sweep_peak(d->points), apeak = sweep_peak(a->points), pf = apeak / dpeak;
    // Reading (b): the highest accepted traffic of the `sweep.beyond` points warmed up to a steady
    // rate (tb/stats/results.h); "-" when the sweep has none that settled.
    const ThroughputReadings rd = throughput_readings(d->points), ra = throughput_readings(a->points);
    const bool steady = rd.past_found && ra.past_found && rd.past > 0;
    const double sf = steady ? ra.past / rd.past : NAN;
    std::string steady_cell = steady ? fmt::format("{:.3f}, {:.3f} (x{:.2f})", rd.past, ra.past, sf) : "-";
    if (rd.unsettled + ra.unsettled > 0) steady_cell += fmt::format(" [{} not settled]", rd.unsettled + ra.unsettled);
    sizes[size_of(net.name)].push_back(f);
    peaks[size_of(net.name)].push_back(pf);
    if (steady) steadies[size_of(net.name)].push_back(sf);
    md << fmt::format(
        "| {} | {:.3f} | {:.3f} | x{:.2f} | x{} | {} | {} of {} ({:.2f}%) | {:.3f}, {:.3f} (x{:.2f}) | {:.3f}, {:.3f} "
        "(x{:.2f}) | {} |\n",
        net.name, td, ta, f, num(paper, 0),
        std::isnan(paper) ? "-" : fmt::format("{:+.0f}%", 100 * (f - paper) / paper), ooo, delivered,
        delivered ? 100.0 * ooo / delivered : 0.0, d->bound.routed, a->bound.routed, a->bound.routed / d->bound.routed,
        dpeak, apeak, pf, steady_cell);
    fcsv << net.name << "," << num(td, 4) << "," << num(ta, 4) << "," << num(f, 4) << "," << num(paper, 2) << "," << ooo
         << "," << delivered << "," << num(dpeak, 4) << "," << num(apeak, 4) << "," << num(pf, 4) << ","
         << (steady ? num(rd.past, 4) : "") << "," << (steady ? num(ra.past, 4) : "") << ","
         << (steady ? num(sf, 4) : "") << "\n";
    // Whatever the size, adaptive routing must carry more than DET.
    if (!(f > 1)) failures.push_back(fmt::format("{}: adaptive throughput not above DET's (x{:.2f})", net.name, f));
  }
  auto mean_of = [](const std::vector<double>& v) {
    return v.empty() ? NAN : std::accumulate(v.begin(), v.end(), 0.0) / v.size();
  };
  for (const auto& [size, fs] : sizes) {
    const double mean = mean_of(fs), peak_mean = mean_of(peaks[size]);
    const double paper = paper_value(first(s, "factor." + size));
    const std::vector<double>& st = steadies[size];
    md << fmt::format("| **{}, mean of {}** | | | **x{:.2f}** | x{} | {} | | | x{:.2f} (mean of {}) | {} |\n", size,
                      fs.size(), mean, num(paper, 0),
                      std::isnan(paper) ? "-" : fmt::format("{:+.0f}%", 100 * (mean - paper) / paper), peak_mean,
                      fs.size(), st.empty() ? "-" : fmt::format("x{:.2f} (mean of {})", mean_of(st), st.size()));
    if (!std::isnan(paper) && std::abs(mean - paper) / paper > s.explain_above)
      outliers.push_back({"Figure 5 " + size, fmt::format("paper x{:.0f}, ours x{:.2f} (mean of {}), {:+.0f}%", paper,
                                                          mean, fs.size(), 100 * (mean - paper) / paper)});
    if (!std::isnan(paper)) crit_sizes.push_back({size, mean, paper});
  }
  if (!sizes.empty()) {
    md << "\nThe reading chosen is the saturation throughput (bold): the paper's Figure 5 plots latency against "
          "accepted traffic and its text compares where the curves turn up. The paper's wording (\"network "
          "throughput is double ... more than four times\") also allows the highest accepted traffic in steady "
          "state past saturation: the last column, from the `sweep.beyond` points at 1.5, 2 and 3 times the "
          "saturation load, each warmed up until its accepted traffic is steady (`run.warmup: rate`, at most "
          "`run.warmup_max_ns`, 1 ms here; a point that did not settle is not taken, and counted in brackets). The "
          "peak of the sweep is neither: past "
          "saturation it is a transient of the fixed warm-up. Per size: ";
    std::vector<std::string> parts;
    for (const auto& [size, fs] : sizes)
      parts.push_back(
          fmt::format("{} x{:.2f} at saturation, x{:.2f} at the peak of the sweep ({:+.0f}%), {} steady past "
                      "saturation (paper x{})",
                      size, mean_of(fs), mean_of(peaks[size]), 100 * (mean_of(peaks[size]) / mean_of(fs) - 1),
                      steadies[size].empty() ? std::string("-") : fmt::format("x{:.2f}", mean_of(steadies[size])),
                      num(paper_value(first(s, "factor." + size)), 0)));
    md << fmt::format("{}.", fmt::join(parts, "; ")) << " " << first(s, "figure5.reading") << "\n";
  }

  const inorder::Section sec{run, dir, md, outliers, failures};
  md << "\n### Latency against accepted traffic\n\n";
  const auto fig6 = option(s, "figure6.panels");
  for (const auto& panel : s.panels)
    if (std::find(fig6.begin(), fig6.end(), panel.name) == fig6.end()) inorder::write_panel(sec, panel);
  inorder::write_figure5_buffers(sec);

  // Tables 1 and 2: the finite workload. Details from the first workload; Impr. % per workload and mean.
  const std::string exec_length = first(s, "table_length");
  const ExecTable t1{
      "Table 1", first(s, "table.network"), exec_length, "table1.csv", option(s, "table_patterns"), "table", "paper."};
  md << "## Table 1: execution time of the disk-like workload, " << t1.network
     << " (qualitative)\n\nOne run per routing and workload (the same packets for every routing), until every packet "
        "is delivered. Time, waste, MBS, MMS, NACKs and out-of-order arrivals: workload `"
     << (t1.patterns.empty() ? "" : t1.patterns[0])
     << "`. Time: last delivery to a host, ours in "
        "microseconds, the paper's in millions of its time unit (its traces are not ours: compare Impr. %, not times). "
        "Waste: ACK/NACK and re-sent bytes over all bytes the HCAs injected. MBS: largest rearrange-buffer occupancy "
        "of one connection (bytes); MMS: of one NIC. Impr.: execution time saved against "
     << det << ", per workload and their mean.\n\n";
  const std::map<std::string, double> impr = write_exec_table(md, dir, run, t1, det, outliers);
  std::vector<OrderOnWorkload> per_workload = write_workload_order(md, run, t1, det, "table.fabric_patterns");
  write_waste_by_length(md, run, t1, det, "table.waste_patterns");
  write_sensitivity(md, run, t1, det);

  const ExecTable t2{"Table 2",      first(s, "table2.network"),   exec_length,
                     "table2.csv",   option(s, "table2_patterns"), "table2",
                     "table2.paper."};
  std::map<std::string, double> impr2;
  if (!t2.network.empty()) {
    md << "\n## Table 2: execution time of the disk-like workload, " << t2.network << " (qualitative)\n\n"
       << first(s, "table2.caption") << " Columns as Table 1's; workload `"
       << (t2.patterns.empty() ? "" : t2.patterns[0]) << "` for the details.\n\n";
    impr2 = write_exec_table(md, dir, run, t2, det, outliers);
    for (auto& w : write_workload_order(md, run, t2, det, "table2.fabric_patterns")) {
      w.workload = t2.network + " " + w.workload;
      per_workload.push_back(w);
    }
    write_waste_by_length(md, run, t2, det, "table2.waste_patterns");
    write_sensitivity(md, run, t2, det);
    md << "\n";
  }

  inorder::write_figure6(sec);
  inorder::write_figure7(sec);
  inorder::write_figure8(sec);
  inorder::write_cost(sec);

  // Delivery to the host: checked by the transport's delivery checker during the run (a run that
  // breaks order, loses or duplicates fails); asserted here again from the counts.
  for (const auto& r : run.results) {
    if (!r.error.empty()) continue;
    for (const auto& p : r.points) {
      if (!p.has_transport) continue;
      const TransportResult& t = p.transport;
      if (t.duplicates > 0) failures.push_back(fmt::format("{}: {} duplicates delivered", r.exp.name, t.duplicates));
      if (t.mode == "reorder" && t.out_of_order_deliveries > 0)
        failures.push_back(
            fmt::format("{}: {} packets delivered to the host out of order", r.exp.name, t.out_of_order_deliveries));
      const bool finite = std::any_of(r.exp.set.begin(), r.exp.set.end(), [](const std::string& kv) {
        return kv.rfind("traffic.packets_per_host=", 0) == 0;
      });
      if (finite && !t.all_delivered())
        failures.push_back(fmt::format("{}: finite workload not finished: {} of {} host packets delivered", r.exp.name,
                                       t.host_packets_delivered, t.host_packets_generated));
    }
  }

  // The paper's ordering: OOO >= dynamic ~ static 32 KB > 0 > static 2 KB.
  auto get = [&](const char* k) {
    auto it = impr.find(first(s, std::string("order.") + k));
    return it == impr.end() ? NAN : it->second;
  };
  const double ooo = get("ooo"), dyn = get("dynamic"), s32 = get("static32"), s2 = get("static2");
  md << "\n## Acceptance (issue 13)\n\n| criterion | ours | holds |\n|---|---|---|\n";
  struct Criterion {
    std::string text, ours;
    bool holds;
  };
  std::vector<Criterion> crit;
  if (!std::isnan(ooo + dyn + s32 + s2)) {
    // "~": within 5 points of Impr.; ">=": OOO may trail dynamic memory by 2 points (one run each).
    crit.push_back(
        {"Impr. OOO >= dynamic (2 points slack)", fmt::format("{:.1f}% vs {:.1f}%", ooo, dyn), ooo >= dyn - 2});
    crit.push_back({"Impr. dynamic ~ static 32 KB (within 5 points)", fmt::format("{:.1f}% vs {:.1f}%", dyn, s32),
                    std::abs(dyn - s32) <= 5});
    crit.push_back({"Impr. static 32 KB > 0", fmt::format("{:.1f}%", s32), s32 > 0});
    crit.push_back({"Impr. static 2 KB < 0", fmt::format("{:.1f}%", s2), s2 < 0});
  }
  // Table 2's ordering: an acceptance line, not a check (the paper's torus gains less).
  auto get2 = [&](const char* k) {
    auto it = impr2.find(first(s, std::string("order.") + k));
    return it == impr2.end() ? NAN : it->second;
  };
  const double ooo2 = get2("ooo"), dyn2 = get2("dynamic"), s32b = get2("static32"), s2b = get2("static2");
  if (!std::isnan(ooo2 + dyn2 + s32b + s2b))
    crit.push_back({"Table 2: Impr. OOO >= dynamic (2 points slack) ~ static 32 KB (5 points) > 0 > static 2 KB",
                    fmt::format("{:.1f}%, {:.1f}%, {:.1f}%, {:.1f}%", ooo2, dyn2, s32b, s2b),
                    ooo2 >= dyn2 - 2 && std::abs(dyn2 - s32b) <= 5 && s32b > 0 && s2b < 0});
  // The ordering on each workload whose end the fabric sets (an acceptance line each).
  for (const auto& w : per_workload)
    if (w.fabric_set)
      crit.push_back({"ordering on the fabric-set workload " + w.workload + " (OOO, dynamic, static 32 KB, 2 KB)",
                      w.ours, w.holds});
  for (const auto& c : crit_sizes)
    crit.push_back(
        {fmt::format("throughput factor within 25% of x{:.0f}, {} (mean; saturation throughput)", c.paper, c.size),
         fmt::format("x{:.2f}", c.mean), std::abs(c.mean - c.paper) <= 0.25 * c.paper});
  for (const auto& c : crit) {
    md << "| " << c.text << " | " << c.ours << " | " << (c.holds ? "yes" : "**no**") << " |\n";
    if (!c.holds) outliers.push_back({"Acceptance " + c.text, c.ours});
  }
  // The ordering is a check in both modes when the study asks for it (report_options order.check).
  if (first(s, "order.check") == "yes")
    for (size_t i : {0, 2, 3})  // the "~" (1) is an acceptance line only
      if (!std::isnan(ooo + dyn + s32 + s2) && !crit[i].holds)
        failures.push_back("Impr. ordering: " + crit[i].text + ": " + crit[i].ours);

  write_fitted_choices(md, run, s.figure_pattern, s.figure_length);
  write_differences(md, s, run.quick, "Quick mode: coarse sweeps and a short workload; not a verdict on the model.",
                    outliers, true);

  write_experiment_csvs(dir, run);
  md << "\n## Checks (must hold whatever the tuning)\n\n"
     << "- every run deadlock-free (the watchdog fails a run whose packets stop moving) and conserving packets "
        "(injected = delivered + in flight, generated = injected + queued at the sources);\n"
     << "- every routing's tables pass the table checks (adaptive: Duato's condition on the escape sub-network);\n"
     << "- no accepted traffic above the topology's channel-load bound (+1%);\n"
     << "- with rearrange buffers (`transport.mode: reorder`) no packet delivered to the host out of order, none "
        "duplicated (the delivery checker fails the run otherwise; the counts are checked again here), and every "
        "packet "
        "of the finite workload delivered; no packet arrives out of order under "
     << det << ";\n"
     << "- adaptive throughput above " << det << "'s on every network;\n"
     << "- Figure 6: the runs with buffers below one packet identical point by point (neither can store a packet), "
        "and in full mode carrying more than "
     << det << " under bit-reversal"
     << (first(s, "order.check") == "yes" ? "; the Impr. ordering above.\n\n" : ".\n\n");
  finish_report(md, dir, failures);
  return failures;
}

}  // namespace ibsc::tb
