// Link faults during a run with automatic path migration (seeds/002 section 5, issue 15), on
// scenarios/faults-quick.yaml: 4x4 torus, TFTR (four disjoint paths per switch pair, alternates
// as APM path records), reliable transport, 200 packets of 256 bytes per host at 20% load.
//   Mid-run fault: cable S(1,1):1 fails at 20 us, detected 2 us later. Conservation: every one
//   of the 64 x 200 host packets reaches its host exactly once and in order (the fabric checks
//   that throughout, and the counts say so at the end); the cable dropped some (it carried
//   traffic) and they went again. Migrations: exactly the host pairs whose primary
//   record crosses the cable, counted independently by routing's record walk (fault_analysis.h).
//   Disconnecting faults: all four switch cables of S(1,1) fail; its 4 hosts lose every other
//   host: 4 x 60 pairs each way = 480 unreachable pairs, reported; the run still ends.
//   Without the transport: the drops are lost and counted (delivered + dropped = injected).
//   Bad keys: file, line (or --set) and key for each.
//   Below the first four: faults.routable draws, a drop entering ADAP-LI, and vn's per-packet
//   record draw under a fault (each with its own comment).
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <fstream>
#include <set>

#include "routing/fault_analysis.h"
#include "tb/run/run_point.h"
#include "tb/scenario/link_fault_config.h"
#include "tb/scenario/scenario.h"
#include "tb/scenario/scenario_check.h"
#include "tb/stats/results.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;

namespace {
testing::ScStrict strict;
const std::string kScenario = IBSC_SOURCE_DIR "/scenarios/faults-quick.yaml";

tb::LoadPointResult run(const std::vector<std::string>& sets, routing::Topology& topo, routing::TableSet& tables) {
  tb::Scenario s = tb::load_scenario(kScenario, sets);
  tb::prepare_scenario(s, topo, tables);
  s.point.topo = &topo;
  s.point.tables = &tables;
  s.point.run.progress = false;
  return tb::run_load_point(s.point, s.sweep.loads.at(0), "test");
}

std::string error_of(const std::string& file, const std::vector<std::string>& sets) {
  try {
    tb::Scenario s = tb::load_scenario(file, sets);
    routing::Topology topo;
    routing::TableSet tables;
    tb::prepare_scenario(s, topo, tables);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}
}  // namespace

BOOST_AUTO_TEST_CASE(fault_mid_run_loses_no_packet_and_migrates_the_affected_pairs) {
  routing::Topology topo;
  routing::TableSet tables;
  const tb::LoadPointResult r = run({}, topo, tables);
  const uint64_t n = 200u * static_cast<uint64_t>(topo.num_hosts);
  BOOST_REQUIRE(r.has_transport);
  BOOST_REQUIRE(r.has_faults);
  BOOST_TEST(r.transport.host_packets_generated == n);
  BOOST_TEST(r.transport.host_packets_delivered == n);
  BOOST_TEST(r.transport.duplicates == 0u);
  BOOST_TEST(r.transport.out_of_order_deliveries == 0u);
  BOOST_TEST(r.packets_in_flight == 0u);
  BOOST_TEST(r.packets_queued_at_source == 0u);
  BOOST_TEST(r.faults.applied == 1u);
  BOOST_TEST(r.faults.packets_dropped > 0u);
  BOOST_TEST(r.faults.packets_abandoned == 0u);
  BOOST_TEST(r.faults.unreachable_pairs == 0u);
  BOOST_TEST(r.faults.retransmitted > 0u);
  // Every packet the monitor injected was delivered or dropped (the drops went again).
  BOOST_TEST(r.packets_injected == r.packets_delivered + r.faults.packets_dropped);
  // Independently: host pairs whose primary record crosses the cable.
  const routing::PathSets ps = routing::record_paths(topo, tables);
  const int cable = routing::find_cable(topo, ps, "S(1,1):1");
  BOOST_REQUIRE(cable >= 0);
  long affected = 0;
  for (const auto& p : ps.pairs) {
    BOOST_REQUIRE(p.cables.size() >= 2u);  // TFTR gives every pair an alternate
    for (int c : p.cables[0])
      if (c == cable) affected += p.host_pairs;
  }
  BOOST_TEST(affected > 0);
  BOOST_TEST(r.faults.migrations == static_cast<uint64_t>(affected));
  const nlohmann::ordered_json j = tb::to_json(r);
  BOOST_TEST(tb::to_json(tb::point_from_json(nlohmann::json::parse(j.dump()))).dump() == j.dump());
}

// Without the transport nothing goes again: the drops are lost, but counted, never silently.
BOOST_AUTO_TEST_CASE(without_transport_drops_are_counted) {
  routing::Topology topo;
  routing::TableSet tables;
  const tb::LoadPointResult r = run({"transport.mode=off"}, topo, tables);
  BOOST_REQUIRE(r.has_faults);
  BOOST_TEST(!r.has_transport);
  BOOST_TEST(r.faults.packets_dropped > 0u);
  BOOST_TEST(r.faults.retransmitted == 0u);
  BOOST_TEST(r.packets_generated == 200u * static_cast<uint64_t>(topo.num_hosts));
  BOOST_TEST(r.packets_injected == r.packets_generated);
  BOOST_TEST(r.packets_delivered + r.faults.packets_dropped == r.packets_injected);
  BOOST_TEST(r.packets_in_flight == 0u);
}

BOOST_AUTO_TEST_CASE(disconnecting_faults_are_reported_not_hung) {
  routing::Topology topo;
  routing::TableSet tables;
  const tb::LoadPointResult r = run({R"(faults.links=["S(1,1):1", "S(1,1):2", "S(1,1):3", "S(1,1):4"])"}, topo, tables);
  BOOST_REQUIRE(r.has_faults);
  BOOST_TEST(r.faults.applied == 4u);
  BOOST_TEST(r.faults.unreachable_pairs == 4u * 60u * 2u);
  BOOST_TEST(r.faults.packets_abandoned > 0u);
  // The rest arrived: generated = delivered + given up (the fabric checks the finer terms).
  BOOST_TEST(r.transport.host_packets_delivered + r.faults.packets_abandoned >=
             r.transport.host_packets_generated - 200u * 4u);
  BOOST_TEST(r.transport.duplicates == 0u);
  BOOST_TEST(r.transport.out_of_order_deliveries == 0u);
}

BOOST_AUTO_TEST_CASE(bad_fault_keys_name_file_line_and_key) {
  const std::string nosw = error_of(kScenario, {R"(faults.links=["X(9,9):1"])"});
  BOOST_TEST(nosw.find("--set faults.links") != std::string::npos, nosw);
  BOOST_TEST(nosw.find("no switch") != std::string::npos, nosw);
  const std::string port = error_of(kScenario, {R"(faults.links=["S(1,1):12"])"});
  BOOST_TEST(port.find("has ports 1..8") != std::string::npos, port);
  const std::string host = error_of(kScenario, {R"(faults.links=["S(1,1):7"])"});
  BOOST_TEST(host.find("a host link") != std::string::npos, host);
  const std::string none = error_of(kScenario, {"topology.switch_ports=10", R"(faults.links=["S(1,1):10"])"});
  BOOST_TEST(none.find("no cable on that port") != std::string::npos, none);
  const std::string twice = error_of(kScenario, {R"(faults.links=["S(1,1):1", "S(1,1):1"])"});
  BOOST_TEST(twice.find("given twice") != std::string::npos, twice);
  const std::string times = error_of(kScenario, {"faults.at_ns=[1, 2]"});
  BOOST_TEST(times.find("faults.at_ns") != std::string::npos, times);
  const std::string many = error_of(kScenario, {"faults.random=1000"});
  BOOST_TEST(many.find("faults.random") != std::string::npos, many);
  const std::string typo = error_of(kScenario, {"faults.detect_ns=5"});
  BOOST_TEST(typo.find("faults.detect_ns") != std::string::npos, typo);
  // From a file: its name and the key's line.
  const std::string path = "bad_faults.yaml";
  {
    std::ifstream in(kScenario);
    std::ofstream out(path);
    std::string line;
    while (std::getline(in, line))
      out << (line.find("links:") != std::string::npos ? "  links: [\"S(1,1):7\"]" : line) << "\n";
  }
  const std::string file = error_of(path, {});
  std::remove(path.c_str());
  BOOST_TEST(file.find("bad_faults.yaml:23") != std::string::npos, file);
  BOOST_TEST(file.find("a host link") != std::string::npos, file);
}

// faults.routable (seeds/002 Figure 5, tb/scenario/link_fault_config.h): 6 random cables on the 4x4
// torus cut some pair in 96 % of draws (Figure 4). For seeds 1-5, routing's own record walk
// (fault_analysis.h, independent of the tb walk) says: the plain draw cuts pairs exactly as
// tables_after_faults counts them; the routable draw cuts none and keeps every pair on its
// first surviving record; the routable draw of a seed whose first draw cuts nothing is that
// draw. Listed faults that cut a pair are refused with faults.routable.
BOOST_AUTO_TEST_CASE(routable_draws_leave_every_pair_a_path) {
  tb::Scenario s = tb::load_scenario(kScenario, {"faults.random=6", "faults.links=[]", "faults.at_ns=[0]"});
  routing::Topology topo;
  routing::TableSet tables;
  tb::prepare_scenario(s, topo, tables);
  const routing::PathSets ps = routing::record_paths(topo, tables);
  auto cut_pairs = [&](const std::vector<tb::CableFault>& faults) {
    std::vector<int> cables;
    for (const auto& f : faults) cables.push_back(ps.cable_by_port[f.sw_a][f.port_a]);
    long n = 0;
    for (const auto* p : routing::pairs_cut(topo, ps, cables).cut) n += p->host_pairs;
    return n;
  };
  int cut_draws = 0;
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    tb::LinkFaultConfig c = s.point.fabric.faults;
    c.seed = seed;
    const auto plain = tb::resolve_link_faults(topo, c, &tables);
    long unreachable = -1;
    tb::tables_after_faults(topo, tables, plain, &unreachable);
    BOOST_TEST(unreachable == cut_pairs(plain));
    c.routable = true;
    const auto kept = tb::resolve_link_faults(topo, c, &tables);
    BOOST_TEST(kept.size() == 6u);
    BOOST_TEST(cut_pairs(kept) == 0);
    tables_after_faults(topo, tables, kept, &unreachable);
    BOOST_TEST(unreachable == 0);
    if (cut_pairs(plain) > 0) ++cut_draws;
    else
      for (size_t i = 0; i < kept.size(); ++i) BOOST_TEST(kept[i].name == plain[i].name);
  }
  BOOST_TEST(cut_draws >= 3);  // 96 % of 6-fault draws cut a pair: the redraw was exercised
  const std::string refused =
      error_of(kScenario, {R"(faults.links=["S(1,1):1", "S(1,1):2", "S(1,1):3", "S(1,1):4"])", "faults.routable=true"});
  BOOST_TEST(refused.find("faults.routable") != std::string::npos, refused);
}

// ADAP-LI (transport.injection: li) with a rearrange pool large enough that no packet is ever
// rejected (dynamic, 4 MB per NIC): the only way into limited injection is a drop, which must
// count as a NACK does (models/injection_control.h). The mid-run fault drops packets, so some
// connections enter LI; every packet still arrives once and in order (liveness of LI: the
// oldest unACKed packet may always go).
BOOST_AUTO_TEST_CASE(a_dropped_packet_limits_injection_as_a_nack_does) {
  routing::Topology topo;
  routing::TableSet tables;
  const tb::LoadPointResult r = run({"transport.injection=li", "transport.memory=dynamic",
                                     "transport.pool_bytes=4194304", "transport.connection_bytes=1048576"},
                                    topo, tables);
  BOOST_REQUIRE(r.has_transport);
  BOOST_TEST(r.transport.nacks == 0u);
  BOOST_TEST(r.faults.packets_dropped > 0u);
  BOOST_TEST(r.transport.transitions_to_li > 0u);
  BOOST_TEST(r.transport.transitions_to_li <= r.faults.packets_dropped);
  BOOST_TEST(r.transport.host_packets_delivered == 200u * static_cast<uint64_t>(topo.num_hosts));
  BOOST_TEST(r.transport.duplicates == 0u);
  BOOST_TEST(r.transport.out_of_order_deliveries == 0u);
}

// Virtual networks (routing.algorithm: vn, 2 VLs), whose HCAs draw one of a pair's records per
// packet: every record of a pair has the same DLID (they differ in SL only), so APM has nothing
// to migrate to, and the fault at 20 us leaves exactly the pairs whose path crosses the cable
// without a path; routing's own record walk (fault_analysis.h) counts them. The per-packet
// draw still runs (packets of a pair arrive out of order on different VLs) and the rearrange
// buffer still delivers in order; every packet is generated for the transport or given up at
// the source, none twice, and the run ends.
BOOST_AUTO_TEST_CASE(vn_random_records_share_one_path_so_a_fault_cuts_pairs) {
  routing::Topology topo;
  routing::TableSet tables;
  const tb::LoadPointResult r = run({"routing.algorithm=vn", "routing.vls=2"}, topo, tables);
  for (int h = 0; h < topo.num_hosts; ++h)
    for (int q = 0; q < topo.num_hosts; ++q) {
      const auto recs = tables.hosts[h].paths[q];
      for (size_t i = 1; i < recs.size(); ++i) BOOST_TEST(recs[i].dlid == recs[0].dlid);
    }
  const routing::PathSets ps = routing::record_paths(topo, tables);
  const int cable = routing::find_cable(topo, ps, "S(1,1):1");
  BOOST_REQUIRE(cable >= 0);
  long cut = 0;
  for (const auto* p : routing::pairs_cut(topo, ps, {cable}).cut) cut += p->host_pairs;
  BOOST_REQUIRE(r.has_faults);
  BOOST_TEST(r.faults.applied == 1u);
  BOOST_TEST(r.faults.migrations == 0u);
  BOOST_TEST(cut > 0);
  BOOST_TEST(r.faults.unreachable_pairs == static_cast<uint64_t>(cut));
  BOOST_TEST(r.faults.packets_abandoned > 0u);
  BOOST_TEST(r.transport.out_of_order_arrivals > 0u);
  BOOST_TEST(r.transport.out_of_order_deliveries == 0u);
  BOOST_TEST(r.transport.duplicates == 0u);
  BOOST_TEST(r.transport.host_packets_generated + r.faults.packets_abandoned ==
             200u * static_cast<uint64_t>(topo.num_hosts));
  BOOST_TEST(r.transport.host_packets_delivered <= r.transport.host_packets_generated);
}
