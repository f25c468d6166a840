// A user's own switch arbiter, registered by name from outside IBSC (this file), as a user's
// program would (ibsc/arbiter_registry.h): the scenario reader accepts its name and refuses an
// unknown one with the registered names listed, and the fabric runs it in every switch.
#include <boost/test/unit_test.hpp>

#include <fstream>

#include "ibsc/arbiter_registry.h"
#include "tb/scenario/config_reader.h"
#include "tb/scenario/scenario.h"
#include "tests/support/parallel_pair_run.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;

namespace {
testing::ScStrict strict;

// Lowest input first: inputs in index order, each takes its first eligible candidate (free,
// whole packet's credits on its VL) not taken yet. Counts its grants.
class LowestInputFirst : public SwitchArbiter {
 public:
  static inline uint64_t grants = 0;  // over every switch's instance
  void arbitrate(const std::vector<ArbRequest>& req, const std::vector<ArbOutputStatus>& out,
                 std::vector<int>& g) override {
    std::vector<bool> taken(out.size(), false);
    for (size_t i = 0; i < req.size(); ++i) {
      g[i] = -1;
      if (!req[i].valid) continue;
      for (const ArbCandidate& c : req[i].candidates) {
        const ArbOutputStatus& o = out[c.port];
        if (taken[c.port] || o.busy || o.credits[req[i].vl] < req[i].length_credits) continue;
        g[i] = c.port;
        taken[c.port] = true;
        ++grants;
        break;
      }
    }
  }
  const char* kind() const override { return "test-lowest-input"; }
};

ArbiterRegistrar lowest_input("test-lowest-input", [](int, int) { return std::make_unique<LowestInputFirst>(); });

std::string write_yaml(const std::string& file, const std::string& text) {
  std::ofstream(file) << text;
  return file;
}

}  // namespace

// Hosts 0, 1, 2 (sw_0) each send one packet to hosts 4, 5, 6 (sw_1): each packet is granted once
// in sw_0 and once in sw_1, so the registered arbiter grants exactly 6 times.
BOOST_AUTO_TEST_CASE(registered_arbiter_runs_in_every_switch) {
  testing::ParallelPairRun run("test-lowest-input");
  BOOST_TEST(std::string(run.fabric->arbiter(0).kind()) == "test-lowest-input");
  BOOST_TEST(std::string(run.fabric->arbiter(1).kind()) == "test-lowest-input");
  sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_US));
  BOOST_TEST(run.traffic.deliveries.size() == 3u);
  BOOST_TEST(LowestInputFirst::grants == 6u);
}

// The registry: IBSC's own two are entries; a second registration of a name is refused; an
// unknown name lists the registered ones.
BOOST_AUTO_TEST_CASE(registry_lists_and_refuses) {
  BOOST_TEST(registered_arbiters() == (std::vector<std::string>{"model", "rtl", "test-lowest-input"}));
  BOOST_CHECK_THROW(register_arbiter("model", [](int p, int v) { return make_arbiter("model", p, v); }),
                    std::invalid_argument);
  BOOST_CHECK_THROW(register_arbiter("", [](int p, int v) { return make_arbiter("model", p, v); }),
                    std::invalid_argument);
  try {
    make_arbiter("nope", 4, 1);
    BOOST_FAIL("no throw");
  } catch (const std::invalid_argument& e) {
    BOOST_TEST(std::string(e.what()) == "unknown arbiter 'nope' (registered: model, rtl, test-lowest-input)");
  }
}

// switch.arbiter takes any registered name; an unknown one is refused at its file and line.
BOOST_AUTO_TEST_CASE(scenario_names_registered_arbiter) {
  const std::string good = write_yaml("own_good.yaml",
                                      "topology:\n  spec: torus:2x2\nswitch:\n  arbiter: test-lowest-input\n"
                                      "  rtl_switches: [1]\n");
  const tb::Scenario s = tb::load_scenario(good, {});
  BOOST_TEST(s.point.arbiter.name == "test-lowest-input");
  BOOST_TEST(s.point.arbiter.covers(1));
  BOOST_TEST(!s.point.arbiter.covers(0));
  const std::string bad = write_yaml("own_bad.yaml", "topology:\n  spec: torus:2x2\nswitch:\n  arbiter: nope\n");
  try {
    tb::load_scenario(bad, {});
    BOOST_FAIL("no throw");
  } catch (const tb::ConfigError& e) {
    BOOST_TEST(std::string(e.what()) ==
               "own_bad.yaml:4: key 'switch.arbiter': unknown arbiter 'nope' (registered: model, rtl, "
               "test-lowest-input)");
  }
}
