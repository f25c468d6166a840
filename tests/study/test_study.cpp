// Studies: the study file, its experiments and checks, scenario round trips, report pieces.
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <fstream>
#include <iterator>

#include "routing/generators.h"
#include "routing/graph.h"
#include "routing/routing.h"
#include "routing/topo_spec.h"
#include "studies/study.h"
#include "studies/study_report.h"
#include "tb/scenario/scenario.h"
#include "tb/scenario/scenario_yaml.h"
#include "tb/stats/channel_load.h"
#include "tb/stats/fair_share.h"
#include "tb/stats/minimal_bound.h"
#include "tb/traffic/traffic_driver.h"
#include "tests/study/routed_torus.h"
#include "tests/support/error_of.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;
using ibsc::testing::error_of;

using ibsc::testing::Routed;

namespace {

const std::string kStudy = std::string(IBSC_SOURCE_DIR) + "/scenarios/seeds000/torus-routing.yaml";

}  // namespace

BOOST_AUTO_TEST_CASE(seeds000_study_expands_to_its_experiments) {
  tb::Study s = tb::load_study(kStudy);
  auto exps = s.experiments(false);
  // Figures: 5 tori x 5 routings (uniform, 512 B); Tables 3-4: 5 tori x 3 patterns x 2 lengths
  // x (e-cube, FX_1VL, FX_2VL), of which the uniform 512-byte ones are already there: 25 + 75.
  BOOST_TEST(exps.size() == 100u);
  BOOST_TEST(s.factor_tables.size() == 2u);
  BOOST_TEST(s.factor_tables[0].paper.at("8x8").at("uniform/FX_2VL") == 0.92);
  BOOST_TEST(s.metrics_paper.at("8x8").at("UD_DFS")[1] == 209);
  // Each experiment is a scenario: the base with the axis values.
  for (const auto& e : exps)
    if (e.name == "4x4x4-FX_2VL-transpose-32") {
      tb::Scenario sc = tb::load_scenario(s.base, e.set);
      BOOST_TEST(sc.topology.spec == "torus:4x4x4");
      BOOST_TEST(sc.topology.switch_ports == 10);
      BOOST_TEST((sc.routing.algorithm == routing::Algorithm::Flexible));
      BOOST_TEST(sc.routing.vls == 2);
      BOOST_TEST(sc.point.fabric.sw.num_vls == 2);
      BOOST_TEST((sc.point.traffic.pattern == tb::TrafficPattern::Transpose));
      BOOST_TEST(sc.point.injection.length_mix[0].first == 32u);
    }
}

// seeds/004: the experiment blocks, not the figure/table products. Full: 4 networks x 3 routings
// x 7 patterns (84) + VOQ-4SL uniform on 4 networks (4) + 8sw 4 routings x 2 patterns (8; its
// VOQ-4SL uniform already counted: 7 new) + 1VN uniform on 3 networks (3) + 6 variant routings
// (FIFO request queues, first paths) uniform on 4 networks (24) = 122. Quick: 1 x 5 x 2.
BOOST_AUTO_TEST_CASE(seeds004_study_expands_to_its_blocks) {
  tb::Study s = tb::load_study(IBSC_SOURCE_DIR "/scenarios/seeds004/voqsw.yaml");
  BOOST_TEST(s.report == "voqsw");
  BOOST_TEST(s.experiments(false).size() == 150u);
  BOOST_TEST(s.experiments(true).size() == 10u);
  BOOST_TEST(s.factor_tables[0].paper.at("64sw").at("uniform/VOQ-8SL") == 3.29);
  BOOST_TEST(s.factor_tables[0].paper.at("64sw").at("uniform/VOQ-8SL-ext") == 3.29);
  BOOST_TEST(s.factor_tables[0].paper.at("8sw").count("hs1-10/VOQ-8SL") == 0u);  // ~: no paper value
  for (const auto& e : s.experiments(false))
    if (e.name == "64sw-8VN-hs4-40-32") {
      tb::Scenario sc = tb::load_scenario(s.base, e.set);
      BOOST_TEST(sc.topology.spec == "irregular:64:seed=1:regular=1");
      BOOST_TEST((sc.routing.algorithm == routing::Algorithm::Vn));
      BOOST_TEST(sc.point.fabric.sw.num_vls == 8);
      BOOST_TEST(sc.point.fabric.sw.buffer_bytes_per_vl == 1024u);
      BOOST_TEST((sc.point.fabric.sw.crossbar_inputs == models::CrossbarInputs::Vl));
      BOOST_TEST(sc.point.traffic.hotspot_hosts.size() == 4u);
      BOOST_TEST(sc.point.traffic.hotspot_fraction == 0.4);
      BOOST_TEST(sc.point.run.hol_sample_ns == 1000);
      BOOST_TEST(!sc.routing.voq_hca);
    } else if (e.name == "32sw-8VN-fifo-head-uniform-32") {
      tb::Scenario sc = tb::load_scenario(s.base, e.set);
      BOOST_TEST((sc.point.fabric.sw.output_request_queue == models::OutputRequestQueue::FifoHead));
      BOOST_TEST((sc.routing.updown_paths == routing::ShortestPathChoice::Balanced));
    } else if (e.name == "8sw-VOQ-8SL-ext-first-uniform-32") {
      tb::Scenario sc = tb::load_scenario(s.base, e.set);
      BOOST_TEST((sc.routing.updown_paths == routing::ShortestPathChoice::First));
      BOOST_TEST((sc.point.fabric.sw.output_request_queue == models::OutputRequestQueue::Off));
    } else if (e.name == "8sw-VOQ-8SL-ext-paper-uniform-32") {  // the paper's details together
      tb::Scenario sc = tb::load_scenario(s.base, e.set);
      BOOST_TEST((sc.point.fabric.hca.injection_queues == models::InjectionQueues::Single));
      BOOST_TEST(sc.point.fabric.sw.buffer_bytes_per_vl == 128u);
      BOOST_TEST(sc.point.fabric.sw.output_buffer_bytes_per_vl == 128u);
      BOOST_TEST((sc.point.fabric.sw.crossbar_inputs == models::CrossbarInputs::Port));
      BOOST_TEST((sc.point.fabric.sw.output_request_queue == models::OutputRequestQueue::Fifo));
      BOOST_TEST((sc.routing.updown_paths == routing::ShortestPathChoice::First));
      BOOST_TEST(sc.routing.root == 0);
    } else if (e.name == "64sw-8VN-tree-uniform-32") {
      tb::Scenario sc = tb::load_scenario(s.base, e.set);
      BOOST_TEST((sc.routing.updown_paths == routing::ShortestPathChoice::Tree));
      BOOST_TEST((sc.point.fabric.hca.injection_queues == models::InjectionQueues::PerVl));
    } else if (e.name == "16sw-VOQ-8SL-ext-uniform-32") {
      tb::Scenario sc = tb::load_scenario(s.base, e.set);
      BOOST_TEST((sc.routing.algorithm == routing::Algorithm::Voqsw));
      BOOST_TEST(sc.routing.voq_hca);
      BOOST_TEST(sc.routing.voq_spread);
    }
}

// The study file's `fitted:` list: figures as text, or experiments the report measures; a
// compare list must name four routings of the study, and readings only go with compare.
BOOST_AUTO_TEST_CASE(fitted_choices_read_and_checked) {
  const tb::Study v = tb::load_study(IBSC_SOURCE_DIR "/scenarios/seeds004/voqsw.yaml");
  BOOST_REQUIRE(v.fitted.size() >= 3u);
  BOOST_TEST(v.fitted[0].compare.empty());
  BOOST_TEST(!v.fitted[0].before.empty());
  BOOST_TEST((v.fitted[2].compare == std::vector<std::string>{"8VN", "VOQ-8SL-ext", "8VN", "VOQ-8SL-ext"}));
  BOOST_TEST((v.fitted[2].readings == std::vector<std::string>{"saturation", "report"}));
  std::ifstream in(IBSC_SOURCE_DIR "/scenarios/seeds004/voqsw.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text = text.substr(0, text.find("\nfitted:"));
  const std::string base = "base: model.yaml";
  text.replace(text.find(base), base.size(),
               std::string("base: ") + IBSC_SOURCE_DIR + "/scenarios/seeds004/model.yaml");
  const std::string file = "fitted_study.yaml";
  auto with = [&](const std::string& fitted) {
    std::ofstream(file) << text << "\nfitted:\n" << fitted;
    return error_of([&] { tb::load_study(file); });
  };
  BOOST_TEST(with("  - {choice: a, before: b, after: c}\n").empty());
  BOOST_TEST(with("  - {choice: a, compare: [8VN, nope, 8VN, VOQ-8SL]}\n").find("'nope' is not a value of routings") !=
             std::string::npos);
  BOOST_TEST(with("  - {choice: a, compare: [8VN, VOQ-8SL]}\n").find("list baseline, routing (before)") !=
             std::string::npos);
  BOOST_TEST(with("  - {choice: a, before: b, after: c, readings: [report, steady]}\n").find("only with compare") !=
             std::string::npos);
  BOOST_TEST(with("  - {choice: a, compare: [8VN, VOQ-8SL, 8VN, VOQ-8SL], readings: [report, best]}\n")
                 .find("two of report, saturation, steady, highest") != std::string::npos);
  BOOST_TEST(with("  - {choice: a, before: b}\n").find("key 'fitted[0].after': missing") != std::string::npos);
  std::remove(file.c_str());
}

// A figure's second title line names the network's topology, the patterns and the packet size
// from the study's axis values; a disk workload's length axis sets its MTU.
BOOST_AUTO_TEST_CASE(figure_subtitle_from_the_axes) {
  const tb::Study v = tb::load_study(IBSC_SOURCE_DIR "/scenarios/seeds004/voqsw.yaml");
  BOOST_TEST(tb::figure_subtitle(v, "8sw", {"uniform"}, "32") ==
             "irregular:8:seed=1:regular=1, uniform, 32-byte packets");
  BOOST_TEST(tb::figure_subtitle(v, "8sw", {"hs1-10", "hs1-20"}, "32") ==
             "irregular:8:seed=1:regular=1, hs1-10/hs1-20, 32-byte packets");
  const tb::Study d = tb::load_study(IBSC_SOURCE_DIR "/scenarios/seeds003/in-order-adaptive.yaml");
  BOOST_TEST(tb::figure_subtitle(d, "32sw", {"disk"}, "mtu512") ==
             "irregular:32:seed=1:hosts=4:ports=8, disk, MTU 512 bytes");
}

// seeds/003: Figure 5 on 5 topologies of 16 and 64 switches x DET, ADAP (20), Table 1's 8
// routings x 3 workloads (24), 5 routings x 2 compression factors (10), the cost runs on a longer
// workload (7: with and without the transport), Figure 6's 7 routings on 2 networks (14), Table
// 2's 8 routings x 3 workloads (24), Figure 8's 3 more pools at 512 bytes (3) and 6 routings x 3
// more MTUs (18), Figure 5's buffer panels under uniform traffic (2), Table 2's compression sensitivity (8 routings x
// 6 workloads: 48), Table 1's 8 routings on the 2 more workloads compressed 20x and Table 2's on 3 compressed 25x
// whose ends the fabric sets (Table 1's 20x workload had 5: +19, +24), and the waste runs with messages cut to 8 KB
// (5 routings x 2 workloads on each network: 20) = 233. Quick: 2 + 5 x 3 (Table 1's workloads) + 3 (Figure 6a: DET,
// Adap_32B, Adap_128B). A disk experiment is a finite workload with rearrange buffers, and its written scenario (which
// must not echo traffic.pattern: the disk workload refuses it) reads back the same. Figure 8's MTU axis sets the escape
// queue to one MTU for adaptive routing and leaves DET without one.
BOOST_AUTO_TEST_CASE(seeds003_study_expands_and_its_disk_scenarios_read_back) {
  tb::Study s = tb::load_study(IBSC_SOURCE_DIR "/scenarios/seeds003/in-order-adaptive.yaml");
  BOOST_TEST(s.report == "in-order-adaptive");
  BOOST_TEST(s.experiments(false).size() == 233u);
  BOOST_TEST(s.experiments(true).size() == 20u);
  int checked = 0, mtu = 0;
  for (const auto& e : s.experiments(false)) {
    if (e.name != "torus-LI-dyn64K-disk-t-mtu4096a" && e.name != "torus-DET-disk-t-mtu4096") continue;
    tb::Scenario a = tb::load_scenario(s.base, e.set);
    BOOST_TEST(a.point.traffic.disk_config.mtu == 4096u);
    BOOST_TEST(a.point.traffic.disk_config.compression == 2.5);
    BOOST_TEST(a.point.traffic.packets_per_host == 53u);
    BOOST_TEST(a.resolved["topology"]["spec"] == "torus:4x4:hosts=8");
    BOOST_TEST(a.point.fabric.sw.escape_queue_bytes == (e.routing == "DET" ? 0u : 4096u));
    ++mtu;
  }
  BOOST_TEST(mtu == 2);
  for (const auto& e : s.experiments(false)) {
    if (e.name != "32sw-LI-dyn256K-disk-w2-mtu512") continue;
    tb::Scenario a = tb::load_scenario(s.base, e.set);
    BOOST_TEST((a.point.traffic.workload == tb::Workload::Disk));
    BOOST_TEST(a.point.traffic.packets_per_host == 400u);
    BOOST_TEST(a.point.seed == 2u);
    BOOST_TEST((a.point.fabric.transport.memory == models::ReorderMemoryKind::Dynamic));
    BOOST_TEST(a.point.fabric.transport.pool_bytes == 262144u);
    BOOST_TEST(a.point.fabric.transport.connection_bytes == 131072u);
    BOOST_TEST(a.point.fabric.sw.escape_queue_bytes == 512u);
    const std::string file = "written_disk_scenario.yaml";
    tb::write_scenario_yaml(file, a.resolved, "test");
    tb::Scenario b = tb::load_scenario(file, {});
    BOOST_TEST(a.resolved.dump() == b.resolved.dump());
    std::remove(file.c_str());
    ++checked;
  }
  BOOST_TEST(checked == 1);
}

BOOST_AUTO_TEST_CASE(seeds001_study_expands_rows_times_patterns) {
  // 23 rows of the talk's tables x 6 patterns; --quick: the 5 rows with a quick network (4
  // deterministic, flatfly Distance+4) x the 4 quick patterns. Each row's talk values land on their pattern.
  const tb::Study s = tb::load_study(std::string(IBSC_SOURCE_DIR) + "/scenarios/seeds001/large-direct.yaml");
  BOOST_TEST(s.report == "large-direct");
  BOOST_TEST(s.rows.size() == 23u);
  BOOST_TEST(s.experiments(false).size() == 23u * 6);
  BOOST_TEST(s.experiments(true).size() == 5u * 4);
  const tb::SaturationRow& ff = s.rows.at(15);
  BOOST_TEST(ff.label == "DOR");
  BOOST_TEST(ff.table == "FlatFly");
  BOOST_TEST(ff.deterministic);
  BOOST_TEST(ff.talk.at("All2All") == 81.3);
  BOOST_TEST(ff.talk.at("Trns") == 2.3);
  BOOST_TEST(ff.talk_network == "flatfly");
  const tb::Experiment e = s.experiments(false).front();
  BOOST_TEST(s.row_of(e) == &s.rows.front());
}

BOOST_AUTO_TEST_CASE(written_scenario_reads_back_the_same) {
  tb::Study s = tb::load_study(kStudy);
  auto e = s.experiments(true).back();
  tb::Scenario a = tb::load_scenario(s.base, e.set);
  const std::string file = "written_scenario.yaml";
  tb::write_scenario_yaml(file, a.resolved, "test");
  tb::Scenario b = tb::load_scenario(file, {});
  BOOST_TEST(a.resolved.dump() == b.resolved.dump());
  std::remove(file.c_str());
}

BOOST_AUTO_TEST_CASE(bad_study_names_file_line_and_key) {
  const std::string file = "bad_study.yaml";
  std::ofstream(file) << "study: x\nbase: " << IBSC_SOURCE_DIR << "/scenarios/seeds000/model.yaml\n"
                      << "tori:\n  - {name: 4x4, set: [topology.spec=torus:4x4], figur: 6a}\n";
  try {
    tb::load_study(file);
    BOOST_FAIL("accepted a misspelt key");
  } catch (const std::runtime_error& e) {
    BOOST_TEST(std::string(e.what()).find("bad_study.yaml:4: key 'tori[0].figur': unknown key") != std::string::npos,
               e.what());
  }
  std::ofstream(file) << "study: x\nbase: nowhere.yaml\n";
  BOOST_CHECK_EXCEPTION(tb::load_study(file), std::runtime_error, [](const std::runtime_error& e) {
    return std::string(e.what()).find("key 'base'") != std::string::npos;
  });
  // Names become folders (out/STUDY-quick/runs/EXPERIMENT): ".." or "/" would leave them.
  const std::string base = std::string("base: ") + IBSC_SOURCE_DIR + "/scenarios/seeds000/model.yaml\n";
  std::ofstream(file) << "study: ../../x\n" << base;
  BOOST_TEST(error_of([&] { tb::load_study(file); }) ==
             "bad_study.yaml:1: key 'study': '../../x' is not a plain file name (no '/', '\\', '.', '..' or control "
             "characters)");
  std::ofstream(file) << "study: x\n" << base << "tori:\n  - {name: a/b, set: []}\n";
  BOOST_TEST(error_of([&] { tb::load_study(file); }).find("bad_study.yaml:4: key 'tori[0].name': 'a/b' is not") == 0);
  // A fitted choice needs its figure before and after (the report's "Choices fitted to the paper").
  const std::string axes =
      "tori: [{name: a, set: []}]\nroutings: [{name: r, set: []}]\npatterns: [{name: p, set: []}]\n"
      "lengths: [{name: l, set: []}]\nfigures: {pattern: p, length: l}\n";
  std::ofstream(file) << "study: x\n" << base << axes << "fitted:\n  - {choice: c, figure: f, before: b, why: w}\n";
  BOOST_TEST(error_of([&] { tb::load_study(file); }).find("bad_study.yaml:9: key 'fitted[0].after': missing") == 0,
             error_of([&] { tb::load_study(file); }));
  std::ofstream(file) << "study: x\n"
                      << base << axes << "fitted:\n  - {choice: c, figure: f, before: b, after: a, why: w, where: x}\n";
  BOOST_TEST(error_of([&] { tb::load_study(file); }).find("bad_study.yaml:9: key 'fitted[0].where': unknown key") == 0,
             error_of([&] { tb::load_study(file); }));
  std::ofstream(file) << "study: x\n" << base << "tori: &t\n  - {name: a, set: []}\nroutings: *t\n";
  BOOST_TEST(error_of([&] { tb::load_study(file); }).find("bad_study.yaml:3: YAML anchor '&t'") == 0);
  std::remove(file.c_str());
}

// The design-space study: its variants are the routings axis under another name, and every
// variant runs on every network, pattern and length (1 x 9 x 3 x 1 = 27, in either mode); a
// variant's overrides reach the scenario. The loader refuses figures (every pattern gets a plot),
// an axis given under both names, and report options other than one offered load counters_at.
BOOST_AUTO_TEST_CASE(design_space_study_runs_every_variant_on_every_pattern) {
  const tb::Study s = tb::load_study(IBSC_SOURCE_DIR "/scenarios/design-space/switch-options.yaml");
  BOOST_TEST(s.report == "design-space");
  BOOST_TEST(s.routings.size() == 9u);
  BOOST_TEST(s.routings.front().name == "baseline");
  BOOST_TEST(s.experiments(false).size() == 27u);
  BOOST_TEST(s.experiments(true).size() == 27u);
  int seen = 0;
  for (const auto& e : s.experiments(false)) {
    const tb::Scenario sc = tb::load_scenario(s.base, e.set);
    BOOST_TEST(sc.point.run.port_counters);  // the report reads the counters
    if (e.name == "4x4-speedup-2-output-buffers-hotspot-512") {
      ++seen;
      BOOST_TEST(sc.point.fabric.sw.crossbar_speedup == 2);
      BOOST_TEST(sc.point.fabric.sw.output_buffer_bytes_per_vl == 2048u);
      BOOST_TEST((sc.point.traffic.pattern == tb::TrafficPattern::Hotspot));
    } else if (e.name == "4x4-rtl-arbiter-bit-complement-512") {
      ++seen;
      BOOST_TEST(sc.point.arbiter.name == "rtl");
    } else if (e.name == "4x4-buffers-1k-uniform-512") {
      ++seen;
      BOOST_TEST(sc.point.fabric.sw.buffer_bytes_per_vl == 1024u);
      BOOST_TEST(sc.point.fabric.sw.crossbar_speedup == 1);
    }
  }
  BOOST_TEST(seen == 3);

  const std::string file = "bad_design.yaml";
  const std::string head = std::string("study: x\nreport: design-space\nbase: ") + IBSC_SOURCE_DIR +
                           "/scenarios/design-space/model.yaml\nnetworks: [{name: n, set: []}]\n"
                           "patterns: [{name: u, set: []}]\nlengths: [{name: l, set: []}]\n";
  std::ofstream(file) << head << "variants: [{name: a, set: []}]\nfigures: {pattern: u, length: l}\n";
  BOOST_TEST(error_of([&] { tb::load_study(file); }) ==
             "bad_design.yaml:8: key 'figures': not used by report design-space (every pattern gets a plot)");
  std::ofstream(file) << head << "variants: [{name: a, set: []}]\nroutings: [{name: b, set: []}]\n";
  BOOST_TEST(error_of([&] { tb::load_study(file); }) ==
             "bad_design.yaml:7: key 'variants': give routings or variants, not both");
  std::ofstream(file) << head << "variants: [{name: a, set: []}]\nreport_options: {counters_at: [\"0.4x\"]}\n";
  BOOST_TEST(error_of([&] { tb::load_study(file); }) ==
             "bad_design.yaml:8: key 'report_options.counters_at': needs one offered load in (0, 1], a fraction of "
             "link capacity");
  std::ofstream(file) << head << "variants: [{name: a, set: []}]\nreport_options: {counter_at: [\"0.4\"]}\n";
  BOOST_TEST(error_of([&] { tb::load_study(file); }) ==
             "bad_design.yaml:8: key 'report_options.counter_at': unknown key (design-space reads counters_at)");
  std::remove(file.c_str());
}

BOOST_AUTO_TEST_CASE(window_bytes_pro_rated_at_the_edges) {
  // 1X: 0.25 bytes/ns, 4 ns per byte. A 512-byte packet whose tail arrives 100 ns into the window
  // brought 25 of its bytes inside it; delivery counts all 512.
  Routed r({4, 4}, "ecube");
  tb::TrafficConfig tc;
  tb::InjectionConfig ic;
  tb::TrafficDriver d(r.topo, tc, ic, 0.1, 0.25, 1);
  d.set_window(1000000, 11000000);  // 1 to 11 us
  models::Packet p;
  p.length = 512;  // 2048 ns on the link
  d.delivered(p, 1100000);
  BOOST_TEST(d.window_delivered_bytes == 512u);
  BOOST_TEST(d.window_arrived_bytes == 25.0, boost::test_tools::tolerance(1e-9));
  d.delivered(p, 5000000);  // wholly inside
  BOOST_TEST(d.window_arrived_bytes == 537.0, boost::test_tools::tolerance(1e-9));
  d.delivered(p, 12000000);  // head at 9952 ns: 1048 ns of it inside, delivered after the window
  BOOST_TEST(d.window_arrived_bytes == 537.0 + 262.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(d.window_delivered_bytes == 512u + 512u);
}

BOOST_AUTO_TEST_CASE(endpoint_bound_of_a_finite_workload_by_hand) {
  // 1X: 4 ns per byte. Hosts 0 and 2 each send a 100-byte packet (400 ns) to host 1 at 0: host 1's
  // link takes them one after the other, till 800 ns. Host 0 sends 50 bytes (200 ns) to host 3 at
  // 1000 ns: its link is free again, so till 1200 ns, the latest end: the bound. Without a
  // packet limit nothing is tracked.
  Routed r({4, 4}, "ecube");
  tb::TrafficConfig tc;
  tc.packets_per_host = 10;
  tb::InjectionConfig ic;
  tb::TrafficDriver d(r.topo, tc, ic, 0.1, 0.25, 1);
  auto gen = [&](uint32_t src, uint32_t dst, uint32_t len, models::Picos t) {
    models::Packet p;
    p.src_host = src;
    p.dst_host = dst;
    p.length = len;
    d.generated(p, t);
  };
  gen(0, 1, 100, 0);
  gen(2, 1, 100, 0);
  BOOST_TEST(d.endpoint_bound_ps() == 800000.0, boost::test_tools::tolerance(1e-9));
  gen(0, 3, 50, 1000000);
  BOOST_TEST(d.endpoint_bound_ps() == 1200000.0, boost::test_tools::tolerance(1e-9));
  BOOST_TEST(d.last_generated_ps() == 1000000u);
  gen(2, 1, 100, 1000000);  // host 1's link idle since 800 ns: 1000 to 1400 ns
  BOOST_TEST(d.endpoint_bound_ps() == 1400000.0, boost::test_tools::tolerance(1e-9));
  tc.packets_per_host = 0;
  tb::TrafficDriver open(r.topo, tc, ic, 0.1, 0.25, 1);
  models::Packet p;
  p.length = 100;
  open.generated(p, 0);
  BOOST_TEST(open.endpoint_bound_ps() == 0.0);
}

BOOST_AUTO_TEST_CASE(conclusions_need_explanations_like_cells) {
  tb::Study s = tb::load_study(kStudy);
  tb::StudyRun run;
  run.study = &s;
  run.quick = true;
  run.command = "test";
  for (const auto& e : s.experiments(true))
    if (e.name == "8x8-e-cube-uniform-512" || e.name == "8x8-FX_1VL-uniform-512") {
      tb::ExperimentResult res;
      res.exp = e;
      res.throughput = e.routing == "e-cube" ? 0.5 : 0.25;  // e-cube +100% over FX_1VL; the paper says +25%
      tb::LoadPointResult p;
      p.accepted_bytes_per_ns_per_switch = p.accepted_prorated_bytes_per_ns_per_switch = res.throughput;
      res.points.push_back(p);
      res.bound.topology = res.bound.routed = 1;
      run.results.push_back(res);
    }
  BOOST_REQUIRE(run.results.size() == 2u);
  auto slurp = [](const std::string& f) {
    std::ifstream in(f);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string dir = "study_report_test";
  tb::write_study_report(dir, run);
  std::string md = slurp(dir + "/README.md");
  BOOST_TEST(md.find("| On 8x8 e-cube throughput is 25% above FX_1VL's (section 6.2) | +25.0% | +100.0%") !=
             std::string::npos);
  BOOST_TEST(md.find("value differs by +300%") != std::string::npos);
  BOOST_TEST(md.find("- Not explained yet:") == std::string::npos);  // the study file explains it
  BOOST_TEST(md.find("Measurement (quick mode)") != std::string::npos);
  BOOST_TEST(md.find("500 us") == std::string::npos);
  BOOST_TEST(slurp(dir + "/table-3.csv").find("paper,ours,difference,") != std::string::npos);
  BOOST_TEST(slurp(dir + "/table2.csv").find("paper,ours,difference\n") != std::string::npos);

  s.explanations.clear();
  tb::write_study_report(dir, run);
  md = slurp(dir + "/README.md");
  BOOST_TEST(md.find("- Not explained yet:") != std::string::npos);
  BOOST_TEST(md.find("Conclusion 8x8 e-cube over FX_1VL (paper +25.0%, ours +100.0%") != std::string::npos);
}
