// run.warmup: steady (tb/stats/steady_warmup.h). The rule itself at its edges, and the case it is for:
// seeds/001's model (4 KB input and output buffers per VL, `switch.ar_fallback: credits`) on a
// 3-D flattened butterfly, Mixed ADOR, bit complement at 43.75% of link rate. A head detours only
// once its minimal output's buffer for its VL is full, so the fabric fills for some 10 us before
// the detours take their share: after the study's fixed 5 us the window still sees the buffers
// fill, delivers clearly less than it generates and reads saturated; the steady warm-up waits
// for the fill and the same load is carried (the complement's bound with detours is 50%,
// reports/large-direct/warmup-sensitivity.md). An overloaded point still reads saturated.
// Points run in forked workers (one elaboration per process).
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <vector>

#include <nlohmann/json.hpp>

#include "routing/routing.h"
#include "tb/run/run_point.h"
#include "tb/run/sweep.h"
#include "tb/scenario/scenario.h"
#include "tb/scenario/scenario_check.h"
#include "tb/stats/results.h"
#include "tb/stats/steady_warmup.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;

namespace {
testing::ScStrict strict;
}  // namespace

// Growth g allowed while d packets are delivered: 2% of d plus 3 x sqrt(g + 2 d).
BOOST_AUTO_TEST_CASE(settled_rule_at_its_edges) {
  // d = 100,000: 2,000 plus 3 x sqrt(202,900) = 1,351.3 for g = 2,900: settled; 3,400 is not
  // (2,000 + 3 x sqrt(203,400) = 3,353).
  BOOST_TEST(tb::settled({10000, 0}, {12900, 100000}));
  BOOST_TEST(!tb::settled({10000, 0}, {13400, 100000}));
  BOOST_TEST(tb::settled({12000, 0}, {10000, 5000}));  // shrinking
  BOOST_TEST(tb::settled({0, 0}, {0, 0}));             // idle
  BOOST_TEST(!tb::settled({0, 0}, {100, 0}));          // filling from empty: 100 > 3 x 10
  BOOST_TEST(tb::settled({0, 0}, {9, 0}));             // 9 = 3 x 3
  BOOST_TEST(!tb::settled({0, 0}, {10, 0}));           // 10 > 3 x sqrt(10)
}

BOOST_AUTO_TEST_CASE(adaptive_fill_needs_steady_warmup) {
  tb::Scenario sc =
      tb::load_scenario(IBSC_SOURCE_DIR "/scenarios/seeds001/model.yaml",
                        {"topology.spec=flatfly:4x4x4:hosts=4:ports=36", "routing.algorithm=mixed-ador",
                         "switch.vl2vl=true", "switch.ar_fallback=credits", "traffic.pattern=bit-complement",
                         "run.warmup_ns=5000", "run.window_ns=10000", "run.drain_ns=60000"});
  sc.point.run.progress = false;
  routing::Topology topo;
  routing::TableSet tables;
  tb::prepare_scenario(sc, topo, tables);
  sc.point.topo = &topo;
  sc.point.tables = &tables;
  tb::RunParams fixed = sc.point.run, steady = sc.point.run;
  steady.warmup = tb::Warmup::Steady;
  steady.warmup_max_ns = 60000;
  const std::vector<std::pair<tb::RunParams, double>> pts = {{fixed, 0.4375}, {steady, 0.4375}, {steady, 0.75}};
  auto texts = tb::run_forked(static_cast<int>(pts.size()), 2, [&](int i) {
    tb::PointSetup p = sc.point;
    p.run = pts[i].first;
    return tb::to_json(tb::run_load_point(p, pts[i].second, "test")).dump();
  });
  std::vector<tb::LoadPointResult> r;
  for (const auto& t : texts) r.push_back(tb::point_from_json(nlohmann::json::parse(t)));
  const tb::LoadPointResult &f = r[0], &s = r[1], &over = r[2];
  BOOST_TEST_MESSAGE("fixed 5 us: accepted "
                     << f.accepted_fraction << ", saturated " << f.saturated << "; steady: warm-up " << s.warmup.ns
                     << " ns, accepted " << s.accepted_fraction << ", saturated " << s.saturated
                     << "; at 0.75: warm-up " << over.warmup.ns << " ns, accepted " << over.accepted_fraction);
  BOOST_TEST(!f.warmup.on);  // a fixed warm-up writes nothing new: results keep their bytes
  BOOST_TEST(f.saturated);
  BOOST_TEST(f.accepted_fraction < 0.95 * 0.4375);
  BOOST_TEST(s.warmup.on);
  BOOST_TEST(s.warmup.settled);
  BOOST_TEST(s.warmup.ns > 5000);  // the fill outlasts the fixed warm-up
  BOOST_TEST(s.warmup.ns < 60000);
  BOOST_TEST(std::fmod(s.warmup.ns, 2500) == 0);  // whole steps of warmup_ns / 2
  BOOST_TEST(!s.saturated);
  BOOST_TEST(s.accepted_fraction == 0.4375, boost::test_tools::tolerance(0.05));
  // Past the complement's 50% the point is saturated however long it warms up.
  BOOST_TEST(over.warmup.on);
  BOOST_TEST(over.saturated);
  BOOST_TEST(over.accepted_fraction < 0.6);
}

// run.warmup: rate. Eight batch rates alternating 0.9 and 1.1: mean 1, standard deviation
// 0.1 x sqrt(8/7), so a half-width of t(7, 0.975) = 2.364624 x 0.106904 / sqrt(8) = 0.0893744 per
// step, and a band of 0.0893744 x sqrt(2) = 0.126394 between two such steps.
BOOST_AUTO_TEST_CASE(rate_rule_at_its_edges) {
  const std::vector<double> before = {0.9, 1.1, 0.9, 1.1, 0.9, 1.1, 0.9, 1.1};
  auto shifted = [&](double d) {
    std::vector<double> v = before;
    for (double& x : v) x += d;
    return v;
  };
  const tb::RateCheck near = tb::rate_steady(before, shifted(0.126));
  BOOST_TEST(near.steady);
  BOOST_TEST(near.previous == 1.0, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(near.last.mean == 1.126, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(near.last.half_width == 0.0893744, boost::test_tools::tolerance(1e-5));
  BOOST_TEST(near.last.batches == 8);
  BOOST_TEST(!tb::rate_steady(before, shifted(0.127)).steady);
  BOOST_TEST(!tb::rate_steady(before, shifted(-0.127)).steady);
  BOOST_TEST(!tb::rate_steady({1.0}, {1.0, 1.0}).steady);  // one batch: no interval yet
  BOOST_TEST(tb::rate_steady({1.0, 1.0}, {1.0, 1.0}).steady);
  BOOST_TEST(!tb::rate_steady({1.0, 1.0}, {1.001, 1.001}).steady);  // no noise, so any change counts
}

// A saturated point past its knee: the quick-start 4x4 torus (e-cube, uniform, 64 hosts) at 90%
// of link rate with 64-byte packets. Warmed up with `rate` from 100 us, and for a fixed 1 ms, the
// two windows' accepted traffic agrees within their 95% batch-means intervals (16 batches each).
BOOST_AUTO_TEST_CASE(saturated_torus_same_after_100us_and_1ms) {
  tb::Scenario sc = tb::load_scenario(IBSC_SOURCE_DIR "/scenarios/quickstart.yaml",
                                      {"traffic.length=64", "run.window_ns=100000", "run.drain_ns=0"});
  sc.point.run.progress = false;
  routing::Topology topo;
  routing::TableSet tables;
  tb::prepare_scenario(sc, topo, tables);
  sc.point.topo = &topo;
  sc.point.tables = &tables;
  tb::RunParams rate = sc.point.run;
  rate.measure = tb::Measure::Ci;
  rate.ci_max_window_ns = rate.window_ns;  // exactly one window, cut into 16 batches
  tb::RunParams fixed = rate;
  rate.warmup = tb::Warmup::Rate;
  rate.warmup_ns = 100000;
  rate.warmup_max_ns = 1000000;
  fixed.warmup_ns = 1000000;
  const std::vector<tb::RunParams> runs = {rate, fixed};
  auto texts = tb::run_forked(2, 2, [&](int i) {
    tb::PointSetup p = sc.point;
    p.run = runs[i];
    return tb::to_json(tb::run_load_point(p, 0.9, "test")).dump();
  });
  const tb::LoadPointResult a = tb::point_from_json(nlohmann::json::parse(texts[0]));
  const tb::LoadPointResult b = tb::point_from_json(nlohmann::json::parse(texts[1]));
  const auto &ia = a.ci.accepted_bytes_per_ns_per_switch, &ib = b.ci.accepted_bytes_per_ns_per_switch;
  BOOST_TEST_MESSAGE("rate warm-up " << a.warmup.ns << " ns (last step " << a.warmup.accepted.mean << " +- "
                                     << a.warmup.accepted.half_width << ", before " << a.warmup.previous_accepted
                                     << "): accepted " << ia.mean << " +- " << ia.half_width << "; 1 ms: " << ib.mean
                                     << " +- " << ib.half_width << " B/ns/switch");
  BOOST_TEST(a.saturated);
  BOOST_TEST(b.saturated);
  BOOST_TEST(a.warmup.rate);
  BOOST_TEST(a.warmup.settled);
  BOOST_TEST(a.warmup.ns >= 100000);
  BOOST_TEST(std::fmod(a.warmup.ns, 50000) == 0);  // whole steps of warmup_ns / 2
  BOOST_TEST(a.warmup.accepted.batches == tb::kRateBatches);
  BOOST_TEST(std::isfinite(ia.half_width));
  BOOST_TEST(std::isfinite(ib.half_width));
  BOOST_TEST(std::fabs(ia.mean - ib.mean) <= std::hypot(ia.half_width, ib.half_width));
  BOOST_TEST(!b.warmup.on);  // a fixed warm-up writes nothing new
}
