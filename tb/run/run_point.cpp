#include "tb/run/run_point.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

#include "models/param_error.h"
#include "tb/fabric/link_faults.h"
#include "tb/stats/cc_result.h"
#include "tb/stats/port_counters_report.h"
#include "tb/stats/steady_warmup.h"
#include "tb/traffic/traffic_driver.h"

namespace ibsc::tb {

using models::Picos;

void RunParams::validate() const {
  if (!(warmup_ns >= 0)) throw ParamError("run.warmup_ns", "run.warmup_ns must be >= 0");
  if (!(window_ns > 0)) throw ParamError("run.window_ns", "run.window_ns must be > 0");
  if (!(drain_ns >= 0)) throw ParamError("run.drain_ns", "run.drain_ns must be >= 0");
  if (!(watchdog_ns > 0)) throw ParamError("run.watchdog_ns", "run.watchdog_ns must be > 0");
  if (!(check_ns > 0)) throw ParamError("run.check_ns", "run.check_ns must be > 0");
  if (!(hol_sample_ns >= 0)) throw ParamError("run.hol_sample_ns", "run.hol_sample_ns must be >= 0");
  if (!(ci_relative_width > 0 && ci_relative_width < 1))
    throw ParamError("run.ci_relative_width", "run.ci_relative_width must be in (0, 1)");
  if (!(ci_max_window_ns == 0 || ci_max_window_ns >= window_ns))
    throw ParamError("run.ci_max_window_ns", "run.ci_max_window_ns must be 0 (10 x run.window_ns) or >= run.window_ns");
  if (warmup != Warmup::Fixed && !(warmup_ns > 0))
    throw ParamError("run.warmup_ns", "run.warmup_ns must be > 0 with run.warmup: " + std::string(enum_name(warmup)) +
                                          " (its half is the step)");
  if (!(warmup_max_ns == 0 || warmup_max_ns >= warmup_ns))
    throw ParamError("run.warmup_max_ns", "run.warmup_max_ns must be 0 (10 x run.warmup_ns) or >= run.warmup_ns");
}

namespace {
constexpr double kConfidence = 0.95;  // of every batch-means interval
Picos ps(double ns) { return static_cast<Picos>(ns * 1000.0 + 0.5); }

// Head-of-line blocking now, summed over the fabric: (packets blocked, packets queued).
std::pair<uint64_t, uint64_t> hol_now(Fabric& f, int num_vls) {
  const Picos now = models::now_ps();
  uint64_t blocked = 0, queued = 0;
  for (int s = 0; s < f.topology().num_switches; ++s) {
    const models::Switch& sw = f.sw(s);
    for (int port = 1; port <= sw.num_ports(); ++port)
      for (int v = 0; v < num_vls; ++v) {
        const size_t q = sw.queued(port, v);
        queued += q;
        if (q >= 2) blocked += static_cast<uint64_t>(sw.hol_blocked(port, v, now));
      }
  }
  return {blocked, queued};
}

std::vector<uint64_t> link_bytes(const Fabric& f) {
  std::vector<uint64_t> b;
  for (const auto& l : f.links())
    for (uint64_t v : l.link->bytes_per_vl()) b.push_back(v);
  return b;
}
// The transport's counters and occupancy over the fabric's HCAs.
TransportResult collect_transport(Fabric& fabric, const models::TransportParams& params) {
  TransportResult t;
  t.mode = enum_name(params.mode);
  const models::TransportCounters c = fabric.transport_counters();
  t.host_packets_generated = c.app_generated;
  t.host_packets_delivered = c.app_delivered;
  t.out_of_order_arrivals = c.out_of_order_arrivals;
  t.out_of_order_deliveries = c.out_of_order_deliveries;
  t.duplicates = c.duplicates;
  t.acks = c.acks;
  t.nacks = c.nacks;
  t.resent_packets = c.resent_packets;
  t.first_bytes = c.first_bytes;
  t.resent_bytes = c.resent_bytes;
  t.control_bytes = c.control_bytes;
  const double injected = static_cast<double>(c.first_bytes + c.resent_bytes + c.control_bytes);
  t.waste = injected > 0 ? (c.resent_bytes + c.control_bytes) / injected : 0;
  t.transitions_to_li = c.transitions_to_li;
  const auto& bounds = occupancy_bucket_bytes();
  t.connections_per_bucket.assign(bounds.size() + 1, 0);
  for (int h = 0; h < fabric.topology().num_hosts; ++h) {
    const models::ReliableTransport* rt = fabric.hca(h).transport();
    t.max_nic_bytes = std::max(t.max_nic_bytes, rt->nic_max_bytes());
    if (params.mode == models::TransportMode::Reorder) {
      t.nic_max_bytes.push_back(rt->nic_max_bytes());
      t.nic_peak_holding.push_back(rt->peak().holding);
      t.nic_peak_over_half.push_back(rt->peak().over_half);
      t.nic_peak_full.push_back(rt->peak().full);
    }
    for (uint64_t b : rt->connection_max_bytes()) {
      t.max_connection_bytes = std::max(t.max_connection_bytes, b);
      ++t.connections_per_bucket[std::lower_bound(bounds.begin(), bounds.end(), b) - bounds.begin()];
    }
  }
  t.execution_time_ns = c.last_delivery / 1000.0;
  return t;
}

}  // namespace

LoadPointResult run_load_point(const PointSetup& s, double load, const std::string& label) {
  s.run.validate();
  const double link_rate = s.fabric.link.bytes_per_ns();
  TrafficDriver driver(*s.topo, s.traffic, s.injection, load * link_rate, link_rate, s.seed);
  FabricParams fp = s.fabric;
  fp.path_seed = s.seed;
  // The drain ends as soon as the window's packets are in, so only warm-up and window are sure.
  fp.planned_ns = s.run.warmup_ns + s.run.window_ns;
  Fabric fabric(*s.topo, *s.tables, fp, driver, make_arbiter_factory(s.arbiter));
  // Waves are set up here, during elaboration: SystemC traces only what exists before time 0.
  std::unique_ptr<WaveProbe> probe;
  if (s.run.waves.enabled())
    probe = std::make_unique<WaveProbe>("wave_probe", fabric, s.run.waves, fabric.switch_params());
  models::FabricMonitor& mon = fabric.monitor();
  if (s.run.port_counters) enable_port_counters(fabric);
  std::unique_ptr<CcProbe> cc;
  // Also with congestion control off under the tree-saturation pattern or with silent hosts, so
  // that hot and victim flows are measured alike with and without it.
  if (s.fabric.cc.enabled || s.traffic.pattern == TrafficPattern::HotSenders || !s.traffic.silent_hosts.empty())
    cc = std::make_unique<CcProbe>(fabric, driver, s.traffic, link_rate, ps(s.fabric.cc.sample_ns));

  // A steady warm-up (run.warmup) moves the window's start; measuring to a confidence interval
  // its end.
  const bool steady = s.run.warmup != Warmup::Fixed;
  const bool rate = s.run.warmup == Warmup::Rate;
  Picos warm = ps(s.run.warmup_ns);
  Picos win_end = warm + ps(s.run.window_ns);
  Picos drain_end = win_end + ps(s.run.drain_ns);
  const Picos dog = ps(s.run.watchdog_ns);
  const Picos hol_step = ps(s.run.hol_sample_ns);
  // With head-of-line sampling on, the loop (and its checks) also stops at each sample time; the
  // model's results do not depend on where sc_start pauses.
  const Picos check = hol_step > 0 ? std::min(ps(s.run.check_ns), hol_step) : ps(s.run.check_ns);
  uint64_t hol_samples = 0, hol_blocked = 0, hol_queued = 0;
  // With a steady warm-up no packet is measured until the window's start is known.
  if (steady) driver.set_window(models::kNever, models::kNever);
  else driver.set_window(warm, win_end);
  const auto wall0 = std::chrono::steady_clock::now();
  auto last_report = wall0;

  bool warming = steady;  // a steady warm-up has not yet fixed the window
  const Picos warm_cap = ps(s.run.max_warmup_ns());
  // The scheduler runs ahead of SystemC's kernel within each step (models/scheduler.h), except
  // with waves: their traces sample signals at the kernel's own steps.
  const bool run_ahead = !s.run.waves.enabled();
  auto advance_to = [&](Picos until) {
    while (models::now_ps() < until) {
      Picos step = std::min(check, until - models::now_ps());
      if (cc) step = std::min(step, cc->next() - models::now_ps());
      if (run_ahead) fabric.scheduler().run_ahead_until(models::now_ps() + step);
      sc_core::sc_start(models::to_sc(step));
      const Picos now = models::now_ps();
      if (cc && now >= cc->next()) cc->sample(now);
      if (hol_step > 0 && !warming && now > warm && now <= win_end) {
        auto [b, q] = hol_now(fabric, fabric.switch_params().num_vls);
        ++hol_samples;
        hol_blocked += b;
        hol_queued += q;
      }
      fabric.check_conservation();
      if (mon.in_flight() > 0 && now - mon.last_progress >= dog && now >= dog) {
        std::string cyc = fabric.deadlock_cycle();
        // In flight: in buffers and on wires, as results.json counts them (mon.in_flight() also
        // holds the packets still queued at their sources).
        throw DeadlockError("deadlock watchdog: " + std::to_string(fabric.count_in_fabric()) + " packets in flight (" +
                            std::to_string(fabric.count_at_sources()) +
                            " more queued at sources) and no progress for " +
                            std::to_string(static_cast<uint64_t>(s.run.watchdog_ns)) +
                            " ns at t = " + std::to_string(now / 1000) + " ns; " +
                            (cyc.empty() ? std::string("no cycle of waiting channels found (starvation?)")
                                         : "cycle of waiting channels: " + cyc));
      }
      auto wall = std::chrono::steady_clock::now();
      if (s.run.progress && wall - last_report > std::chrono::seconds(2)) {
        double secs = std::chrono::duration<double>(wall - wall0).count();
        // While a steady warm-up runs, the run's end is not known yet: its cap is what can be said.
        char span[96];
        if (warming)
          std::snprintf(span, sizeof span, "simulated, warming up until steady (at most %.1f us)", warm_cap / 1e6);
        else std::snprintf(span, sizeof span, "of %.1f us simulated", drain_end / 1e6);
        std::fprintf(stderr, "  %s: t = %.1f us %s, %.0f ns/s, %.2f M packet-hops/s\n", label.c_str(), now / 1e6, span,
                     now / 1000.0 / secs, mon.hops / secs / 1e6);
        last_report = wall;
      }
    }
  };

  bool settled_now = false;
  RateCheck rate_check;
  if (!steady) {
    advance_to(warm);
  } else {
    // Samples every half warm-up; each test spans the last two (tb/stats/steady_warmup.h). With
    // rate, each step is also cut into kRateBatches batches of accepted bytes per ns.
    const Picos step = std::max<Picos>(1, warm / 2), cap = warm_cap;
    auto sample = [&] { return FabricSample{mon.injected - mon.delivered - mon.dropped, mon.delivered}; };
    auto run_step = [&](std::vector<double>& rates) {
      const Picos end = std::min(models::now_ps() + step, cap);
      rates.clear();
      const int n = rate ? kRateBatches : 1;
      for (int b = 1; b <= n; ++b) {
        const Picos t0 = models::now_ps(), t1 = end - (end - t0) * (n - b) / (n - b + 1);
        const uint64_t bytes0 = mon.delivered_bytes;
        advance_to(t1);
        if (t1 > t0) rates.push_back(static_cast<double>(mon.delivered_bytes - bytes0) / ((t1 - t0) / 1000.0));
      }
    };
    std::vector<double> before, last;
    FabricSample older = sample();
    advance_to(warm - step);
    FabricSample old = sample();
    for (;;) {
      std::swap(before, last);
      run_step(last);
      const FabricSample now = sample();
      bool ok = models::now_ps() >= warm && settled(older, now);
      if (rate) {
        rate_check = rate_steady(before, last);
        ok = ok && rate_check.steady;
      }
      if (ok) {
        settled_now = true;
        break;
      }
      if (models::now_ps() >= cap) break;
      older = old;
      old = now;
    }
    warm = models::now_ps();
    win_end = warm + ps(s.run.window_ns);
    drain_end = win_end + ps(s.run.drain_ns);
    driver.set_window(warm, win_end);
    warming = false;
  }
  const auto bytes0 = link_bytes(fabric);
  if (s.run.port_counters) reset_port_counters(fabric);
  // Batches: 20 over a fixed window; 16 over window_ns to start with when measuring to a
  // confidence interval, merged and doubled as the run goes on (tb/stats/batch_means.h).
  const bool ci = s.run.measure == Measure::Ci;
  BatchMeans batches(warm, std::max<Picos>(1, ps(s.run.window_ns) / (ci ? 16 : 20)), 16);
  driver.set_batches(&batches);
  bool converged = false;
  if (!ci) {
    advance_to(win_end);
  } else {
    const Picos min_end = win_end, max_end = warm + ps(s.run.max_window_ns());
    // While measuring, the window is open-ended (a delivery's bytes count up to its own time);
    // once the run stops, it ends there, before the drain. Head-of-line samples run to the end.
    driver.set_window(warm, models::kNever);
    win_end = max_end;
    drain_end = max_end + ps(s.run.drain_ns);  // for progress lines
    for (;;) {
      const Picos target = std::min(batches.open_batch_end(), max_end);
      advance_to(target);
      batches.close_until(target);
      if (target >= min_end && batches.latency_ns(kConfidence).within(s.run.ci_relative_width) &&
          batches.delivered_bytes_per_ns(kConfidence).within(s.run.ci_relative_width)) {
        converged = true;
        break;
      }
      if (target >= max_end) break;
    }
    win_end = models::now_ps();
    driver.set_window(warm, win_end);
  }
  batches.close_until(win_end);
  driver.set_batches(nullptr);
  const auto bytes1 = link_bytes(fabric);
  nlohmann::ordered_json counters;
  if (s.run.port_counters) counters = collect_port_counters(fabric, (win_end - warm) / 1000.0);
  drain_end = win_end + ps(s.run.drain_ns);
  // Saturated by the window alone: the generated rate exceeds the accepted traffic by more than
  // the 95% batch-means half-width of the accepted traffic and by more than 5%. (Generated, not
  // offered: under permutations the fixed points send nothing.) The batches measure the noise of
  // delivery directly; an estimate from the packets in flight (Little) counted the growing source
  // queues of a saturated point as noise and hid saturation on small fabrics (a ring permutation
  // of capacity 0.5 was flagged only from 0.675 on). The batches are closed: the drain cannot
  // change this.
  const ConfidenceInterval acc = batches.delivered_bytes_per_ns(kConfidence);
  const double gen_rate = batches.generated_bytes_per_ns();
  const bool window_saturated = gen_rate - acc.mean > acc.half_width && gen_rate - acc.mean > 0.05 * gen_rate;
  // A finite workload (traffic.packets_per_host) runs until its last packet is delivered.
  const bool finite = s.traffic.packets_per_host > 0;
  const bool skip_drain = s.run.drain == Drain::Unsaturated && window_saturated && !finite;
  while (!skip_drain &&
         (driver.measured_outstanding() > 0 || (finite && (!driver.exhausted() || mon.in_flight() > 0))) &&
         models::now_ps() < drain_end)
    advance_to(std::min(drain_end, models::now_ps() + check));

  LoadPointResult r;
  const double window_ns = (win_end - warm) / 1000.0;
  const int switches = s.topo->num_switches, hosts = s.topo->num_hosts;
  r.offered_load = load;
  r.offered_bytes_per_ns_per_host = load * link_rate;
  r.accepted_bytes_per_ns_per_switch = driver.window_delivered_bytes / window_ns / switches;
  r.accepted_fraction = driver.window_delivered_bytes / window_ns / hosts / link_rate;
  r.accepted_prorated_bytes_per_ns_per_switch = driver.window_arrived_bytes / window_ns / switches;
  r.avg_latency_ns = driver.latency.count() ? driver.latency.mean() : 0;
  r.p50_latency_ns = driver.latency.count() ? static_cast<double>(driver.latency.percentile(0.5)) : 0;
  r.p99_latency_ns = driver.latency.count() ? static_cast<double>(driver.latency.percentile(0.99)) : 0;
  r.max_latency_ns = driver.latency.count() ? static_cast<double>(driver.latency.max()) : 0;
  r.packets_generated = mon.generated;
  r.packets_injected = mon.injected;
  r.packets_delivered = mon.delivered;
  r.packets_in_flight = fabric.count_in_fabric();  // counted in buffers and on wires, not derived
  r.packets_queued_at_source = fabric.count_at_sources();
  r.measured_packets = driver.latency.count();
  r.packet_hops = mon.hops;
  // Per-link utilisation over the window: bytes x byte time / window.
  const double byte_ns = s.fabric.link.byte_ps() / 1000.0;
  size_t k = 0;
  double sum = 0;
  for (const auto& l : fabric.links()) {
    LinkUtil u;
    u.name = l.name;
    uint64_t total = 0;
    for (size_t v = 0; v < l.link->bytes_per_vl().size(); ++v, ++k) {
      uint64_t b = bytes1[k] - bytes0[k];
      total += b;
      if (v + 1 < l.link->bytes_per_vl().size()) u.per_vl.push_back(b * byte_ns / window_ns);
    }
    u.utilisation = total * byte_ns / window_ns;
    sum += u.utilisation;
    r.max_link_utilisation = std::max(r.max_link_utilisation, u.utilisation);
    r.links.push_back(std::move(u));
  }
  r.avg_link_utilisation = fabric.links().empty() ? 0 : sum / fabric.links().size();
  // Saturated: the window delivered clearly less than it generated (above), or measured packets
  // are still out after the drain.
  r.saturated = window_saturated || driver.measured_outstanding() > 0;
  r.drain_skipped = skip_drain;
  if (steady) {
    r.warmup.on = true;
    r.warmup.settled = settled_now;
    r.warmup.ns = warm / 1000.0;
    if (rate) {
      const double sw = switches;
      r.warmup.rate = true;
      r.warmup.accepted = {rate_check.last.mean / sw, rate_check.last.half_width / sw, rate_check.last.batches};
      r.warmup.previous_accepted = rate_check.previous / sw;
    }
  }
  if (ci) {
    r.ci.on = true;
    r.ci.converged = converged;
    r.ci.window_ns = window_ns;
    r.ci.batches = batches.batches();
    r.ci.batch_ns = batches.batch_ps() / 1000.0;
    r.ci.latency_ns = batches.latency_ns(kConfidence);
    r.ci.accepted_bytes_per_ns_per_switch = {acc.mean / switches, acc.half_width / switches, acc.batches};
  }
  if (hol_samples > 0) {
    r.hol_samples = hol_samples;
    r.hol_blocked_per_switch = static_cast<double>(hol_blocked) / hol_samples / switches;
    r.hol_blocked_share = hol_queued ? static_cast<double>(hol_blocked) / hol_queued : 0;
  }
  r.switch_counters = std::move(counters);
  if (cc) r.congestion_control = cc->result(window_ns);
  if (s.fabric.transport.enabled()) {
    r.has_transport = true;
    r.transport = collect_transport(fabric, s.fabric.transport);
    r.transport.last_generated_ns = driver.last_generated_ps() / 1000.0;
    r.transport.endpoint_bound_ns = driver.endpoint_bound_ps() / 1000.0;
  }
  if (const LinkFaults* lf = fabric.link_faults()) {
    r.has_faults = true;
    for (const CableFault& f : lf->faults()) r.faults.cables.push_back(f.name);
    r.faults.applied = lf->counters().faults;
    r.faults.packets_dropped = mon.dropped;
    r.faults.packets_abandoned = mon.abandoned;
    r.faults.migrations = lf->counters().migrations;
    r.faults.unreachable_pairs = lf->counters().unreachable;
    r.faults.retransmitted = s.fabric.transport.enabled() ? fabric.transport_counters().resent_packets : 0;
  }
  r.sim_time_ns = models::now_ps() / 1000.0;
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return r;
}

}  // namespace ibsc::tb
