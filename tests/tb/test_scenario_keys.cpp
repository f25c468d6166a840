// The scenario key declarations (tb/scenario/scenario_keys.cpp): each is complete and consistent (help,
// a default of its own type within its range or among its choices), and load_scenario reads
// every declared key, each through its declaration (a read of the wrong type would throw).
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <set>

#include "tb/scenario/scenario.h"
#include "tb/scenario/scenario_keys.h"
#include "tb_test_util.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;

namespace {

// Dotted paths of the leaves of a resolved scenario.
void leaves(const nlohmann::ordered_json& j, const std::string& path, std::set<std::string>& out) {
  if (!j.is_object()) {
    out.insert(path);
    return;
  }
  for (const auto& [k, v] : j.items()) leaves(v, path.empty() ? k : path + "." + k, out);
}

}  // namespace

BOOST_AUTO_TEST_CASE(declarations_are_complete) {
  std::set<std::string> names;
  for (const tb::Key& k : tb::scenario_keys()) {
    BOOST_TEST_CONTEXT(k.name) {
      BOOST_TEST(names.insert(k.name).second);
      BOOST_TEST(!k.help.empty());
      switch (k.type) {
        case tb::KeyType::Int:
        case tb::KeyType::Double: {
          BOOST_TEST(k.min <= k.max);
          BOOST_TEST(k.def.is_number());
          // A default outside the range only for keys read when set (it then means "off").
          if (k.echo != tb::Echo::WhenSet) BOOST_TEST((k.def.get<double>() >= k.min && k.def.get<double>() <= k.max));
          break;
        }
        case tb::KeyType::Choice:
          BOOST_TEST(k.choices.size() >= 2u);
          BOOST_TEST((std::find(k.choices.begin(), k.choices.end(), k.def.get<std::string>()) != k.choices.end()));
          break;
        case tb::KeyType::Bool:
          BOOST_TEST(k.def.is_boolean());
          break;
        case tb::KeyType::Uint:
          BOOST_TEST(k.def.is_number_unsigned());
          break;
        case tb::KeyType::String:
          BOOST_TEST(k.def.is_string());
          break;
        default:
          BOOST_TEST(k.def.is_array());
      }
    }
  }
}

// Three scenarios that open every gate (voqsw, distance or fattree, transport, faults, ci, a steady warm-up, the
// disk keys) between them
// read every declared key: none is declared and never read.
BOOST_AUTO_TEST_CASE(every_declared_key_is_read) {
  const std::string file = tb::test::write_file("keys.yaml", "name: keys\n");
  const std::vector<std::string> gates = {"routing.algorithm=voqsw",
                                          "routing.voq_hca=true",
                                          "routing.voq_spread=true",
                                          "routing.updown_paths=balanced",
                                          "routing.root=-1",
                                          "switch.ar_fallback=free",
                                          "switch.output_request_queue=off",
                                          "faults.routable=false",
                                          "switch.crossbar_inputs=vl",
                                          "switch.vl_buffers=operational",
                                          "switch.output_buffer_bytes_per_vl=4096",
                                          "switch.escape_queue_bytes=0",
                                          "traffic.packets_per_host=10",
                                          "traffic.workload=pattern",
                                          "traffic.disk.max_message=8192",
                                          "transport.mode=reorder",
                                          "transport.ack_coalesce=4",
                                          "transport.ack_delay_ns=1000",
                                          "faults.random=0",
                                          "run.hol_sample_ns=100",
                                          "run.port_counters=true",
                                          "run.measure=ci",
                                          "run.drain=unsaturated",
                                          "run.warmup=steady",
                                          "sweep.beyond=[1.5]",
                                          "cc.enable=false",
                                          "traffic.hotspot_senders=[]",
                                          "traffic.silent_hosts=[]",
                                          "hca.injection_queues=per_vl"};
  std::set<std::string> read;
  // Another scenario: the real OpenSM's keys, which only routing opensm reads.
  const tb::Scenario osm = tb::load_scenario(file, {"routing.algorithm=opensm", "routing.opensm_engine=ftree",
                                                    "routing.opensm_options=--lmc 0", "routing.opensm_timeout_s=30"});
  leaves(osm.resolved, "", read);
  for (const int variant : {0, 1, 2, 3}) {
    std::vector<std::string> sets = gates;
    if (variant == 1) {
      // The second scenario swaps voqsw's keys for the seeds/001 hop budget, which only
      // distance and deflection read (the first five gates are voqsw's and up*/down*'s).
      sets.erase(sets.begin(), sets.begin() + 5);
      sets.insert(sets.begin(), {"routing.algorithm=distance", "routing.k=2"});
      sets.push_back("traffic.lengths=[512,1]");
    } else if (variant == 2) {  // the third, fattree's LIDs per host on a fat tree
      sets.erase(sets.begin(), sets.begin() + 5);
      sets.insert(sets.begin(), {"topology.spec=fattree:k=2,n=2", "routing.algorithm=fattree", "routing.lmc=1"});
    } else if (variant == 3) {  // the fourth, GSID's cable choice on a dragonfly
      sets.erase(sets.begin(), sets.begin() + 5);
      sets.insert(sets.begin(),
                  {"topology.spec=dragonfly:a=4,h=2,p=2", "routing.algorithm=gsid", "routing.gsid_modulus=h"});
    }
    const tb::Scenario s = tb::load_scenario(file, sets);
    leaves(s.resolved, "", read);
  }
  for (const tb::Key& k : tb::scenario_keys())
    if (k.echo != tb::Echo::Never) BOOST_TEST(read.count(k.name) == 1u, k.name << " declared but not read");
  for (const std::string& name : read) {
    BOOST_TEST_CONTEXT(name) {
      const auto& keys = tb::scenario_keys();
      BOOST_TEST(
          (std::find_if(keys.begin(), keys.end(), [&](const tb::Key& k) { return k.name == name; }) != keys.end()));
    }
  }
}

// Without the gates, the keys echoed only when set stay out of the resolved scenario.
BOOST_AUTO_TEST_CASE(keys_echoed_when_set_stay_out_by_default) {
  const std::string file = tb::test::write_file("plain.yaml", "name: plain\n");
  std::set<std::string> read;
  leaves(tb::load_scenario(file, {}).resolved, "", read);
  for (const tb::Key& k : tb::scenario_keys())
    if (k.echo != tb::Echo::Always || !k.gate.empty()) BOOST_TEST(read.count(k.name) == 0u, k.name);
}
