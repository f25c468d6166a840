// Results of a load sweep: one LoadPointResult per offered load, written as results.json
// (byte-identical for identical inputs: ordered keys, fixed float format, no wall times),
// results.csv, and a latency-vs-accepted-traffic plot (SVG through gnuplot).
#pragma once
#include <cstdint>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/stats/batch_means.h"
#include "tb/stats/plot.h"
#include "tb/stats/transport_result.h"

namespace ibsc::tb {

struct LinkUtil {
  std::string name;
  double utilisation = 0;
  std::vector<double> per_vl;
};

struct LoadPointResult {
  double offered_load = 0;  // fraction of link capacity per host
  double offered_bytes_per_ns_per_host = 0;
  double accepted_bytes_per_ns_per_switch = 0;
  double accepted_fraction = 0;  // of link capacity per host
  // Accepted traffic with each packet's bytes counted as they cross the destination host link
  // (pro-rated at the window's edges) instead of whole at delivery: what the bound check uses.
  double accepted_prorated_bytes_per_ns_per_switch = 0;
  double avg_latency_ns = 0, p50_latency_ns = 0, p99_latency_ns = 0, max_latency_ns = 0;  // measured_packets > 0
  uint64_t packets_generated = 0, packets_injected = 0, packets_delivered = 0, packets_in_flight = 0;
  uint64_t packets_queued_at_source = 0;  // generated, not yet injected (in_flight: injected, not delivered)
  uint64_t measured_packets = 0;
  uint64_t packet_hops = 0;
  double max_link_utilisation = 0, avg_link_utilisation = 0;
  std::vector<LinkUtil> links;
  bool saturated = false;
  // run.drain: unsaturated, and the window showed the point saturated: no drain ran (then written).
  bool drain_skipped = false;
  // Head-of-line blocking over the window, sampled every run.hol_sample_ns (only then written):
  // time-averaged per switch, packets in input VL queues behind a routed head that still waits
  // and bound for another output (Switch::hol_blocked), and that count over all packets queued
  // in switch input buffers. hol_samples 0: not sampled.
  uint64_t hol_samples = 0;
  double hol_blocked_per_switch = 0, hol_blocked_share = 0;
  // run.warmup: steady only (then written): how long the point warmed up, and whether the fabric
  // settled (false: run.warmup_max_ns ended it).
  // run.warmup: rate (sweep.beyond points) also writes the accepted traffic of the last warm-up
  // step as a 95% batch-means interval and the mean of the step before (bytes/ns/switch).
  struct Warm {
    bool on = false;
    bool settled = false;
    double ns = 0;
    bool rate = false;
    ConfidenceInterval accepted;
    double previous_accepted = 0;
  } warmup;
  // run.measure: ci only (then written): how long the point measured, whether the 95%
  // batch-means intervals reached run.ci_relative_width, and the intervals.
  struct Ci {
    bool on = false;
    bool converged = false;
    double window_ns = 0;
    int batches = 0;
    double batch_ns = 0;
    ConfidenceInterval latency_ns, accepted_bytes_per_ns_per_switch;
  } ci;
  // Named counters per switch, port and VL over the window (tb/stats/port_counters_report.h); null
  // (not written) unless run.port_counters.
  nlohmann::ordered_json switch_counters;
  nlohmann::ordered_json congestion_control;  // cc.enable only (tb/stats/cc_result.h)
  // The HCAs' reliable transport; written only when transport.mode is set.
  bool has_transport = false;
  TransportResult transport;
  // Link faults (faults.* keys); written only when the scenario sets some.
  struct Faults {
    std::vector<std::string> cables;  // the failed cables, in the order given
    uint64_t applied = 0;             // failed and detected by the end of the run
    uint64_t packets_dropped = 0;     // injected packets the dead cables dropped
    uint64_t packets_abandoned = 0;   // generated packets given up: no path to their destination left
    uint64_t migrations = 0;          // connections moved to an alternate path record (APM)
    uint64_t unreachable_pairs = 0;   // host pairs left without a surviving path record
    uint64_t retransmitted = 0;       // transport re-sends (dropped and NACKed packets)
  };
  bool has_faults = false;
  Faults faults;
  double sim_time_ns = 0;
  double wall_seconds = 0;  // never written to results.json or results.csv
};

// Ordered keys and rounded floats (6 decimals for rates, 3 for nanoseconds) so equal inputs
// give equal bytes. (ordered_json rather than json: the key order is part of the format.)
nlohmann::ordered_json to_json(const LoadPointResult& r);
// Inverse of to_json up to that rounding (sweep workers send points back as JSON).
LoadPointResult point_from_json(const nlohmann::json& j);

struct SaturationPoint {
  bool found = false;
  double load = 0;                                  // lowest offered load that saturates
  double max_accepted_bytes_per_ns_per_switch = 0;  // throughput: best accepted traffic seen
};

// The saturation load is where saturation starts for good: the lowest saturated load with no
// unsaturated load above it (points in load order). The sweep and results.json both use it.
SaturationPoint find_saturation(const std::vector<LoadPointResult>& points);

// The two readings of a sweep's throughput that papers' wording allows, computed the same way
// for every routing: at_saturation, the accepted traffic of the point at the saturation load
// (find_saturation); past, the highest accepted traffic among the points above that load whose
// warm-up found a steady accepted rate (run.warmup: rate, as `sweep.beyond` points use).
// Points above it that did not settle count in `unsettled` and are not taken.
struct ThroughputReadings {
  bool found = false;  // a saturation load
  double at_saturation = 0;
  bool past_found = false;  // some point past it settled
  double past = 0;
  int unsettled = 0;
};
ThroughputReadings throughput_readings(const std::vector<LoadPointResult>& points);

// dir/results.json {"scenario", "seed", "saturation", "points"}, dir/results.csv and
// dir/latency.svg (+ .gp, .dat), each through a temporary file renamed over the old one (an
// interrupt leaves the old file or the new, never a truncated one). A point that measured no
// packet has null latencies (an empty CSV cell) and stays out of the plot. Throws
// std::runtime_error when a file cannot be written.
// `fabric`: what the scenario resolved to once built (switches, hosts, SLs and VLs the routing
// uses), written beside the scenario when given. `quick`: made by `ibsc reproduce --quick`, said
// in the plot.
void write_results(const std::string& dir, const nlohmann::ordered_json& scenario_resolved, uint64_t seed,
                   const std::vector<LoadPointResult>& points, const nlohmann::ordered_json& fabric = nullptr,
                   bool quick = false);
void print_summary(std::ostream& os, const std::vector<LoadPointResult>& points);
// Latency vs accepted traffic, one line per series, saturated points with open markers
// (tb/stats/plot.h); points that measured no packet stay out.
void write_plot(const std::string& svg_path, const PlotLabel& label,
                const std::vector<std::pair<std::string, std::vector<LoadPointResult>>>& series);
// The plot's title for one scenario: its name, then topology, routing, pattern and packet size
// (those the resolved scenario has).
PlotLabel scenario_plot_label(const nlohmann::ordered_json& scenario_resolved);

}  // namespace ibsc::tb
