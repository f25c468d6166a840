// run.drain: unsaturated. A point whose window already delivered clearly less than it generated
// stops at the window's end: same verdict, same window figures, no drain simulated, and
// "drain": "skipped" in its result. A point below saturation drains as always and its result keeps
// every byte. The quick-start 4x4 torus (e-cube, uniform, 64 hosts), which saturates at 0.325 of
// link rate (`ibsc run scenarios/quickstart.yaml`): 0.9 is far past it, 0.1 well below.
// Points run in forked workers (one elaboration per process).
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/run/run_point.h"
#include "tb/run/sweep.h"
#include "tb/scenario/scenario.h"
#include "tb/scenario/scenario_check.h"
#include "tb/stats/results.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;

namespace {
testing::ScStrict strict;
}  // namespace

BOOST_AUTO_TEST_CASE(saturated_window_skips_the_drain_with_the_same_verdict) {
  tb::Scenario sc = tb::load_scenario(IBSC_SOURCE_DIR "/scenarios/quickstart.yaml",
                                      {"run.warmup_ns=5000", "run.window_ns=10000", "run.drain_ns=40000"});
  sc.point.run.progress = false;
  routing::Topology topo;
  routing::TableSet tables;
  tb::prepare_scenario(sc, topo, tables);
  sc.point.topo = &topo;
  sc.point.tables = &tables;
  tb::RunParams always = sc.point.run, unsaturated = sc.point.run;
  BOOST_TEST((always.drain == tb::Drain::Always));  // the default: results keep their bytes
  unsaturated.drain = tb::Drain::Unsaturated;
  struct Point {
    tb::RunParams run;
    double load;
  };
  const std::vector<Point> pts = {{always, 0.9}, {unsaturated, 0.9}, {always, 0.1}, {unsaturated, 0.1}};
  const auto texts = tb::run_forked(static_cast<int>(pts.size()), 2, [&](int i) {
    tb::PointSetup p = sc.point;
    p.run = pts[i].run;
    return tb::to_json(tb::run_load_point(p, pts[i].load, "test")).dump();
  });
  std::vector<tb::LoadPointResult> r;
  for (const auto& t : texts) r.push_back(tb::point_from_json(nlohmann::json::parse(t)));
  const tb::LoadPointResult &over = r[0], &over_skip = r[1], &light = r[2], &light_skip = r[3];
  BOOST_TEST_MESSAGE("at 0.9: generated " << over.packets_generated << " with the drain, "
                                          << over_skip.packets_generated << " without; accepted "
                                          << over.accepted_fraction);
  // Past saturation: the same verdict and the same window, and 40 us of drain not simulated.
  BOOST_TEST(over.saturated);
  BOOST_TEST(over_skip.saturated);
  BOOST_TEST(!over.drain_skipped);
  BOOST_TEST(over_skip.drain_skipped);
  BOOST_TEST(over_skip.accepted_fraction == over.accepted_fraction);
  BOOST_TEST(over_skip.accepted_bytes_per_ns_per_switch == over.accepted_bytes_per_ns_per_switch);
  BOOST_TEST(over_skip.max_link_utilisation == over.max_link_utilisation);
  // The in-window bytes of packets delivered after the window count only when the drain runs.
  BOOST_TEST(over_skip.accepted_prorated_bytes_per_ns_per_switch <= over.accepted_prorated_bytes_per_ns_per_switch);
  // The drain ran: a measured packet was still out when it began, so the skipped point
  // simulated 15 us against at least 15 and some, and generated fewer packets.
  BOOST_TEST(over_skip.packets_generated < over.packets_generated);
  BOOST_TEST(nlohmann::json::parse(texts[1]).at("drain") == "skipped");
  BOOST_TEST(!nlohmann::json::parse(texts[0]).contains("drain"));
  // Below saturation the point drains whatever run.drain says: every byte the same.
  BOOST_TEST(!light.saturated);
  BOOST_TEST(!light_skip.drain_skipped);
  BOOST_TEST(texts[3] == texts[2]);
}
