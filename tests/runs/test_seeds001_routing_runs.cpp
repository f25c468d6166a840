// seeds/001's routings in the simulated fabric (switches reading one LFT per input VL and
// VL2VL tables): the smoke scenarios of scenarios/seeds001-routings/ with a finite workload
// (20 packets per host at half load), prepared and checked as `ibsc run` does (CDG check
// included), deliver every packet: generated = injected = delivered = hosts x 20, none left in
// the fabric. Each case is its own process (one elaboration).
#include <boost/test/unit_test.hpp>

#include "routing/routing.h"
#include "tb/run/run_point.h"
#include "tb/scenario/scenario.h"
#include "tb/scenario/scenario_check.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;

namespace {
testing::ScStrict strict;

void delivers_everything(const std::string& file, const std::vector<std::string>& set) {
  std::vector<std::string> o = set;
  for (const char* s : {"traffic.packets_per_host=20", "run.drain_ns=1000000", "sweep.loads=[0.5]"}) o.push_back(s);
  tb::Scenario sc = tb::load_scenario(IBSC_SOURCE_DIR "/scenarios/seeds001-routings/" + file, o);
  sc.point.run.progress = false;
  routing::Topology topo;
  routing::TableSet tables;
  tb::prepare_scenario(sc, topo, tables);  // routing, CDG check, tables against the switch
  BOOST_TEST(tables.switches[0].per_vl());
  sc.point.topo = &topo;
  sc.point.tables = &tables;
  const tb::LoadPointResult r = tb::run_load_point(sc.point, 0.5, "test");
  const uint64_t all = 20ull * topo.num_hosts;
  BOOST_TEST(r.packets_generated == all);
  BOOST_TEST(r.packets_injected == all);
  BOOST_TEST(r.packets_delivered == all);
  BOOST_TEST(r.packets_in_flight == 0u);
  BOOST_TEST(r.packet_hops >= 2 * all);  // at least host -> switch -> host
}
}  // namespace

BOOST_AUTO_TEST_CASE(distance_on_flatfly) { delivers_everything("flatfly-distance.yaml", {}); }
BOOST_AUTO_TEST_CASE(deflection_on_flatfly) {
  delivers_everything("flatfly-distance.yaml", {"routing.algorithm=deflection", "routing.k=5"});
}
BOOST_AUTO_TEST_CASE(ador_on_flatfly) { delivers_everything("flatfly-ador.yaml", {}); }
BOOST_AUTO_TEST_CASE(mixed_ador_on_flatfly) {
  delivers_everything("flatfly-ador.yaml", {"routing.algorithm=mixed-ador"});
}
BOOST_AUTO_TEST_CASE(twisted_ador_on_flatfly) {
  delivers_everything("flatfly-ador.yaml", {"routing.algorithm=twisted-ador"});
}
BOOST_AUTO_TEST_CASE(twisted_mixed_on_flatfly) {
  delivers_everything("flatfly-ador.yaml", {"routing.algorithm=twisted-mixed"});
}
BOOST_AUTO_TEST_CASE(gsid_on_dragonfly) { delivers_everything("dragonfly-gsid.yaml", {}); }
BOOST_AUTO_TEST_CASE(static_on_dragonfly) { delivers_everything("dragonfly-gsid.yaml", {"routing.algorithm=static"}); }
