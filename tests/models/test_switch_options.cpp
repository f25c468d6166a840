// Switch options beyond the default input-buffered switch, against timings derived by hand
// (1X SDR: 4 ns a byte, 100 ns fly, 100 ns routing, 4 ns core clock; 512 bytes = 2048 ns).
//
// crossbar_inputs. One switch, hosts 0..3 on ports 3..6. Host 2 sends X (VL 0) to host 1 at
// 0 ns; host 0 sends A (VL 0) to host 1 at 40 ns, then B (VL 1) to host 3 as soon as its link is
// free (40 + 2048 = 2088 ns).
//   X: head at the switch at 100, granted at 200; output 4 busy until 2248; done at
//      200 + 100 + 2048 = 2348.
//   A: ready at 240, waits for output 4; granted at 2248 (fully buffered since 2188), drains at
//      link rate until 4296; done at 2248 + 100 + 2048 = 4396.
//   B: head at the switch at 2188, ready at 2288, tail in at 4236.
//      port: input 3 is busy with A until 4296: granted then, done at 4296 + 2148 = 6444.
//      vl:   VL 1's crossbar input is free: granted at 2288 (its tail is due at 4236 =
//            2288 + 2048 - 100, no underrun), done at 2288 + 2148 = 4436, while A still drains.
//
// output_buffer_bytes_per_vl = 1024 (16 blocks), crossbar inputs per port. The crossbar moves a
// packet into its output VL's buffer at crossbar rate, never before its bytes have arrived; the
// link side sends it from there on the same edge when the link is free (cut-through, the send
// never ending before the crossbar transfer).
//   speed-up 1 (crossbar at link rate): the same figures as without output buffers. X granted at
//      200 (zero load: 100 fly + 100 routing + 2048 + 100 fly = 2348), crossbar output 4 busy
//      until 2248, when A is granted and starts on the link (2248 + 2148 = 4396); B granted when
//      A has left input 3, at 4296: 6444.
//   speed-up 2 (crossbar 2 ns a byte): X's crossbar transfer ends at max(100 + 2048, 200 + 1024)
//      = 2148: A (8 blocks, room for them) is granted then and leaves input 3 by max(140 + 2048,
//      2148 + 1024) = 3172, but waits in output 4's buffer for the link, free at 2248: done
//      4396. B is granted at 3172, its tail in by 2188 + 2048 = 4236 = 3172 + 2048 + 1016 later
//      than the link needs it, so it starts at 3172: done 3172 + 2148 = 5320.
//      Without output buffers A holds the link (and input 3) from its grant at 2248 until it has
//      drained at max(2188, 2248 + 1024) = 3272: B done at 3272 + 2148 = 5420.
#include <boost/test/unit_test.hpp>

#include <map>

#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tb/scenario/scenario.h"
#include "tb/scenario/scenario_check.h"
#include "tests/support/manual_fabric.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using models::Picos;

namespace {
constexpr Picos kNs = 1000;
testing::ScStrict strict;

// Done time (ns) per source host of the crossbar_inputs script.
std::map<int, std::vector<Picos>> run_crossbar_inputs(models::CrossbarInputs inputs, bool every_edge,
                                                      uint32_t output_buffer = 0, int speedup = 1) {
  routing::Topology topo = testing::chain(1, 4, 0);
  routing::TableSet tables = testing::chain_tables(topo, 2);
  tables.hosts[0].paths.set_sl(1, 0, 0);
  tables.hosts[0].paths.set_sl(3, 0, 1);  // B on SL 1 -> VL 1
  tables.hosts[2].paths.set_sl(1, 0, 0);
  testing::ScriptedTraffic traffic(topo.num_hosts, {{0, 2, 1, 512}, {40 * kNs, 0, 1, 512}, {40 * kNs, 0, 3, 512}});
  tb::FabricParams p;
  p.sw.num_vls = 2;
  p.sw.crossbar_inputs = inputs;
  p.sw.every_edge = every_edge;
  p.sw.output_buffer_bytes_per_vl = output_buffer;
  p.sw.crossbar_speedup = speedup;
  tb::Fabric fabric(topo, tables, p, traffic, tb::make_arbiter_factory({}));
  sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_US));
  fabric.check_conservation();
  std::map<int, std::vector<Picos>> done;
  for (const auto& d : traffic.deliveries) done[d.dst * 10 + d.src].push_back(d.done / kNs);
  BOOST_REQUIRE_EQUAL(traffic.deliveries.size(), 3u);
  return done;
}
}  // namespace

BOOST_AUTO_TEST_CASE(crossbar_input_per_port_serialises_vls) {
  auto done = run_crossbar_inputs(models::CrossbarInputs::Port, false);
  BOOST_TEST(done[12] == std::vector<Picos>{2348});  // X: host 2 -> 1
  BOOST_TEST(done[10] == std::vector<Picos>{4396});  // A: host 0 -> 1
  BOOST_TEST(done[30] == std::vector<Picos>{6444});  // B: host 0 -> 3, after A has drained
}

BOOST_AUTO_TEST_CASE(crossbar_input_per_vl_feeds_two_outputs_at_once) {
  auto done = run_crossbar_inputs(models::CrossbarInputs::Vl, false);
  BOOST_TEST(done[12] == std::vector<Picos>{2348});
  BOOST_TEST(done[10] == std::vector<Picos>{4396});
  BOOST_TEST(done[30] == std::vector<Picos>{4436});  // B while A still drains
}

// The reference that arbitrates on every edge finds the same figures.
BOOST_AUTO_TEST_CASE(crossbar_input_per_vl_every_edge_reference) {
  auto done = run_crossbar_inputs(models::CrossbarInputs::Vl, true);
  BOOST_TEST(done[12] == std::vector<Picos>{2348});
  BOOST_TEST(done[10] == std::vector<Picos>{4396});
  BOOST_TEST(done[30] == std::vector<Picos>{4436});
}

// The scenario key: read when given (port or vl), refused otherwise with file, line and key.
BOOST_AUTO_TEST_CASE(crossbar_inputs_scenario_key) {
  const std::string q = IBSC_SOURCE_DIR "/scenarios/quickstart.yaml";
  BOOST_TEST((tb::load_scenario(q, {}).point.fabric.sw.crossbar_inputs == models::CrossbarInputs::Port));
  BOOST_TEST((tb::load_scenario(q, {"switch.crossbar_inputs=vl"}).point.fabric.sw.crossbar_inputs ==
              models::CrossbarInputs::Vl));
  std::string err;
  try {
    tb::load_scenario(q, {"switch.crossbar_inputs=voq"});
  } catch (const std::exception& e) {
    err = e.what();
  }
  BOOST_TEST(err == "--set switch.crossbar_inputs: key 'switch.crossbar_inputs': 'voq' is not one of: port, vl");
}

BOOST_AUTO_TEST_CASE(vl_buffers_scenario_key) {
  const std::string q = IBSC_SOURCE_DIR "/scenarios/quickstart.yaml";
  BOOST_TEST((tb::load_scenario(q, {}).point.fabric.sw.vl_buffers == models::VlBuffers::PerVl));
  const tb::Scenario s = tb::load_scenario(q, {"switch.vl_buffers=operational"});
  BOOST_TEST((s.point.fabric.sw.vl_buffers == models::VlBuffers::Operational));
  BOOST_TEST(s.resolved["switch"]["vl_buffers"] == "operational");  // echoed when set
  BOOST_TEST(!tb::load_scenario(q, {}).resolved["switch"].contains("vl_buffers"));
  std::string err;
  try {
    tb::load_scenario(q, {"switch.vl_buffers=shared"});
  } catch (const std::exception& e) {
    err = e.what();
  }
  BOOST_TEST(err == "--set switch.vl_buffers: key 'switch.vl_buffers': 'shared' is not one of: per_vl, operational");
}

BOOST_AUTO_TEST_CASE(output_buffers_at_link_rate_keep_the_timing) {
  auto done = run_crossbar_inputs(models::CrossbarInputs::Port, false, 1024, 1);
  BOOST_TEST(done[12] == std::vector<Picos>{2348});  // zero load: routing + link, crossbar overlapped
  BOOST_TEST(done[10] == std::vector<Picos>{4396});  // contends with X for the link
  BOOST_TEST(done[30] == std::vector<Picos>{6444});
}

BOOST_AUTO_TEST_CASE(output_buffers_with_speedup_free_the_input_early) {
  auto done = run_crossbar_inputs(models::CrossbarInputs::Port, false, 1024, 2);
  BOOST_TEST(done[12] == std::vector<Picos>{2348});
  BOOST_TEST(done[10] == std::vector<Picos>{4396});
  BOOST_TEST(done[30] == std::vector<Picos>{5320});
}

// The reference that arbitrates on every edge finds the same figures.
BOOST_AUTO_TEST_CASE(output_buffers_every_edge_reference) {
  auto done = run_crossbar_inputs(models::CrossbarInputs::Port, true, 1024, 2);
  BOOST_TEST(done[12] == std::vector<Picos>{2348});
  BOOST_TEST(done[10] == std::vector<Picos>{4396});
  BOOST_TEST(done[30] == std::vector<Picos>{5320});
}

BOOST_AUTO_TEST_CASE(input_buffered_with_speedup_reference) {
  auto done = run_crossbar_inputs(models::CrossbarInputs::Port, false, 0, 2);
  BOOST_TEST(done[10] == std::vector<Picos>{4396});
  BOOST_TEST(done[30] == std::vector<Picos>{5420});
}

// The scenario key: read when given; not a multiple of 64, or smaller than the run's packets,
// refused naming the key.
BOOST_AUTO_TEST_CASE(output_buffer_scenario_key) {
  const std::string q = IBSC_SOURCE_DIR "/scenarios/quickstart.yaml";
  BOOST_TEST(tb::load_scenario(q, {}).point.fabric.sw.output_buffer_bytes_per_vl == 0u);
  BOOST_TEST(
      tb::load_scenario(q, {"switch.output_buffer_bytes_per_vl=1024"}).point.fabric.sw.output_buffer_bytes_per_vl ==
      1024u);
  auto error_of = [&](const std::string& set) {
    try {
      tb::Scenario s = tb::load_scenario(q, {set});
      routing::Topology topo;
      routing::TableSet tables;
      tb::prepare_scenario(s, topo, tables);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  BOOST_TEST(error_of("switch.output_buffer_bytes_per_vl=100")
                 .find("switch.output_buffer_bytes_per_vl must be 0 (none) or a multiple of 64") != std::string::npos);
  BOOST_TEST(error_of("switch.output_buffer_bytes_per_vl=256")
                 .find("does not fit a 256-byte output VL buffer (switch.output_buffer_bytes_per_vl)") !=
             std::string::npos);
}
