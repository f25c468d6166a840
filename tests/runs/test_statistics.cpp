// Statistics of a load point: the run mode that measures until the batch-means interval is
// narrow (run.measure: ci) stops, and its interval covers the long-run mean; the saturation
// decision finds a ring permutation's analytic capacity. Points run in forked workers (one
// elaboration per process), as a sweep runs them.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "routing/routing.h"
#include "routing/topo_spec.h"
#include "tb/run/run_point.h"
#include "tb/run/sweep.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;

namespace {
testing::ScStrict strict;

struct Setup {
  routing::Topology topo;
  routing::TableSet tables;
  tb::PointSetup ps;
  explicit Setup(const std::string& spec) {
    topo = routing::build_topology_spec(spec);
    routing::RoutingOptions ro;
    ro.algorithm = routing::Algorithm::Ecube;
    tables = routing::compute_routing(topo, ro);
    ps.topo = &topo;
    ps.tables = &tables;
    ps.fabric.sw.num_vls = 2;
    ps.injection.length_mix = {{512, 1.0}};
    ps.run.progress = false;
    ps.seed = 7;
  }
};

// Runs each (run parameters, load) in its own worker process.
std::vector<tb::LoadPointResult> run_points(const Setup& s, const std::vector<std::pair<tb::RunParams, double>>& pts) {
  auto texts = tb::run_forked(static_cast<int>(pts.size()), 2, [&](int i) {
    tb::PointSetup p = s.ps;
    p.run = pts[i].first;
    return tb::to_json(tb::run_load_point(p, pts[i].second, "test")).dump();
  });
  std::vector<tb::LoadPointResult> out;
  for (const auto& t : texts) out.push_back(tb::point_from_json(nlohmann::json::parse(t)));
  return out;
}
}  // namespace

// 4x4 torus, 4 hosts per switch, uniform traffic at 0.2 of link capacity (saturation is near
// 0.3): measuring to a 3% interval stops, converged, before its 5 ms limit, and its 95%
// intervals of latency and accepted traffic cover the means of a 10 ms fixed window (whose own
// error is several times smaller). Accepted traffic is the offered 0.2 x 0.25 B/ns x 4 hosts =
// 0.2 B/ns/switch. At 0.8 the interval cannot converge: the run stops at the limit, says so,
// and the point is saturated.
BOOST_AUTO_TEST_CASE(ci_stop_terminates_and_covers_long_run_mean) {
  Setup s("torus:4x4:hosts=4:ports=8");
  tb::RunParams ci = s.ps.run, fixed = s.ps.run, capped = s.ps.run;
  ci.measure = tb::Measure::Ci;
  // 3%, not 2%: the latency's heavy tail makes the time to a 2% interval vary 2-3x with the seed
  // (seeds 1-10 of a like 4x4 model: 2.2 ms to past 5 ms, half of them past, with mt19937_64 and
  // PCG64 alike); 3% needs (2/3)^2 of it: 0.9-4.3 ms.
  ci.ci_relative_width = 0.03;
  ci.ci_max_window_ns = 5e6;
  fixed.window_ns = 1e7;
  capped.measure = tb::Measure::Ci;
  capped.ci_max_window_ns = 3e5;
  capped.drain_ns = 0;
  const auto r = run_points(s, {{ci, 0.2}, {fixed, 0.2}, {capped, 0.8}});
  const tb::LoadPointResult &c = r[0], &f = r[1], &sat = r[2];
  BOOST_TEST_MESSAGE("ci: window " << c.ci.window_ns << " ns, " << c.ci.batches << " batches; latency "
                                   << c.ci.latency_ns.mean << " +- " << c.ci.latency_ns.half_width << " vs long run "
                                   << f.avg_latency_ns << "; accepted " << c.ci.accepted_bytes_per_ns_per_switch.mean
                                   << " +- " << c.ci.accepted_bytes_per_ns_per_switch.half_width << " vs "
                                   << f.accepted_bytes_per_ns_per_switch);
  BOOST_TEST(c.ci.on);
  BOOST_TEST(c.ci.converged);
  BOOST_TEST(c.ci.window_ns >= s.ps.run.window_ns);
  BOOST_TEST(c.ci.window_ns < 5e6);
  BOOST_TEST(c.ci.latency_ns.half_width <= 0.03 * c.ci.latency_ns.mean);
  BOOST_TEST(c.ci.accepted_bytes_per_ns_per_switch.half_width <= 0.03 * c.ci.accepted_bytes_per_ns_per_switch.mean);
  BOOST_TEST(std::abs(c.ci.latency_ns.mean - f.avg_latency_ns) <= c.ci.latency_ns.half_width);
  BOOST_TEST(std::abs(c.ci.accepted_bytes_per_ns_per_switch.mean - f.accepted_bytes_per_ns_per_switch) <=
             c.ci.accepted_bytes_per_ns_per_switch.half_width);
  BOOST_TEST(f.accepted_bytes_per_ns_per_switch == 0.2, boost::test_tools::tolerance(0.01));
  BOOST_TEST(!c.saturated);
  BOOST_TEST(!f.ci.on);  // fixed windows write no interval
  BOOST_TEST(!sat.ci.converged);
  BOOST_TEST(sat.ci.window_ns == 3e5);
  BOOST_TEST(sat.saturated);
}

// Ring of 8 switches, one host each, every host sending to the host two switches on (e-cube
// takes the short way, all in one direction): each ring channel carries two flows, so the
// analytic capacity is 0.5 of link capacity per host. The automatic sweep (steps of 0.1, two
// bisections) must find saturation within a step of it; a 100 us window holds only ~300
// packets, where the old estimate of the window-edge noise hid saturation up to 0.675.
// Head-of-line blocking at the ring inputs (transit and ejecting packets share a VL queue)
// makes the real knee a little lower, which measuring to an interval shows.
BOOST_AUTO_TEST_CASE(ring_permutation_saturates_at_capacity) {
  Setup s("ring:8:hosts=1");
  const std::string perm = (std::filesystem::temp_directory_path() / "ibsc_ring8_plus2.txt").string();
  {
    std::ofstream out(perm);
    for (int h = 0; h < 8; ++h) out << h << " " << (h + 2) % 8 << "\n";
  }
  s.ps.traffic.pattern = tb::TrafficPattern::Permutation;
  s.ps.traffic.permutation_file = perm;
  s.ps.seed = 1;
  tb::SweepConfig sweep;  // start 0.1, step 0.1, refine 2
  sweep.jobs = 2;
  for (const std::string measure : {"window", "ci"}) {
    s.ps.run.measure = enum_value<tb::Measure>(measure);
    const auto pts = tb::run_sweep(s.ps, sweep);
    const tb::SaturationPoint knee = tb::find_saturation(pts);
    BOOST_TEST_MESSAGE(measure << ": saturation at " << knee.load);
    BOOST_TEST(knee.found);
    BOOST_TEST(std::abs(knee.load - 0.5) <= 0.1 + 1e-9, measure << ": saturation at " << knee.load);
    for (const auto& p : pts)
      if (p.offered_load <= 0.3) BOOST_TEST(!p.saturated, measure << " at " << p.offered_load);
  }
  std::remove(perm.c_str());
}
