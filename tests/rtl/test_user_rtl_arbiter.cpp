// A user's own RTL arbiter (examples/own-arbiter/fixed_priority_arbiter.sv), Verilated and registered
// as `fixed-priority-rtl` by ibsc_add_rtl_arbiter() (tests/rtl/CMakeLists.txt), co-verified
// cycle by cycle against its own C++ reference (registered here as `fixed-priority`) and
// against IBSC's model, which it must fail; and run in a fabric by name.
#include <boost/test/unit_test.hpp>

#include <algorithm>

#include "ibsc/arbiter_registry.h"
#include "ibsc/cosim.h"
#include "models/verilated_arbiter.h"
#include "tb/cosim/cosim.h"
#include "tests/support/parallel_pair_run.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;

namespace {
testing::ScStrict strict;

// The C++ reference of fixed_priority_arbiter.sv: inputs in index order; each takes the
// eligible untaken candidate with the lowest level (levels above 7 count as 7, the RTL's
// PRIO_W = 3; a port listed twice with its lower level), then the lowest port.
class FixedPriority : public SwitchArbiter {
 public:
  void arbitrate(const std::vector<ArbRequest>& req, const std::vector<ArbOutputStatus>& out,
                 std::vector<int>& g) override {
    std::vector<bool> taken(out.size(), false);
    for (size_t i = 0; i < req.size(); ++i) {
      g[i] = -1;
      if (!req[i].valid) continue;
      int best = -1, level = 0;
      for (const ArbCandidate& c : req[i].candidates) {
        const ArbOutputStatus& o = out[c.port];
        const int lv = std::min<int>(c.priority, 7);
        if (taken[c.port] || o.busy || o.credits[req[i].vl] < req[i].length_credits) continue;
        if (best < 0 || lv < level || (lv == level && c.port < best)) best = c.port, level = lv;
      }
      g[i] = best;
      if (best >= 0) taken[best] = true;
    }
  }
  const char* kind() const override { return "fixed-priority"; }
};
ArbiterRegistrar reference("fixed-priority", [](int, int) { return std::make_unique<FixedPriority>(); });

tb::CosimConfig config(const std::string& reference) {
  tb::CosimConfig c;
  c.ports = 12;
  c.vls = 4;
  c.cycles = 20000;
  c.arbiter = "fixed-priority-rtl";
  c.reference = reference;
  return c;
}

}  // namespace

BOOST_AUTO_TEST_CASE(user_rtl_matches_its_reference) {
  const tb::CosimResult r = tb::run_cosim(config("fixed-priority"));
  BOOST_TEST(r.passed(), r.summary());
  BOOST_TEST(r.cycles > 20000u);  // the directed cases and the random ones
}

// IBSC's model serves inputs round robin and prefers more credits: the user's policy differs,
// and the lockstep says where.
BOOST_AUTO_TEST_CASE(user_rtl_fails_against_default_model) {
  const tb::CosimResult r = tb::run_cosim(config("model"));
  BOOST_TEST_REQUIRE(!r.passed());
  BOOST_TEST(r.mismatch->what == "fixed-priority-rtl != model");
  BOOST_TEST(r.mismatch->report().find("expected (model)             : ") != std::string::npos);
}

// The public face (ibsc/cosim.h), as an installed package's user calls it, runs the same
// lockstep. Against the model: directed cycles 0..3 (credit-starved, one credit short, exactly
// enough on output 11 alone, all busy) grant at most input 0 -> output 11 on both sides; the
// model's round-robin pointers then stand past that grant, so at cycle 4 (every input asks for
// every output, equal credits) it gives input 0 output 11 and stateless fixed priority output 0.
BOOST_AUTO_TEST_CASE(public_api_names_the_first_mismatch) {
  ibsc::CosimOptions o;
  o.arbiter = "fixed-priority-rtl";
  o.reference = "model";
  o.ports = 12;
  o.cycles = 20000;
  const ibsc::CosimResult r = ibsc::cosim(o);
  BOOST_TEST(!r.passed);
  BOOST_TEST(r.cycles == 5u);
  BOOST_TEST_REQUIRE(r.mismatch.has_value());
  BOOST_TEST(r.mismatch->cycle == 4u);
  BOOST_TEST(r.mismatch->signal == "grant_port[0]");
  BOOST_TEST(r.mismatch->input == 0);
  BOOST_TEST(r.mismatch->expected_port == 11);
  BOOST_TEST(r.mismatch->actual_port == 0);
  BOOST_TEST(r.mismatch->what == "fixed-priority-rtl != model");
  BOOST_TEST(r.coverage.cycles == 4u);  // the cycles before the mismatch
  BOOST_TEST(r.summary.rfind("FAIL: 5 cycles compared", 0) == 0u);
  BOOST_TEST(r.summary.find(r.mismatch->report) != std::string::npos);

  // Against its own reference it passes: 53 directed cycles at 12 ports and the 20,000 random
  // ones, every bin hit (12 inputs + 12 outputs + 4 VLs + 4 levels + 10 situations = 42).
  o.reference = "fixed-priority";
  const ibsc::CosimResult ok = ibsc::cosim(o);
  BOOST_TEST(ok.passed, ok.summary);
  BOOST_TEST(!ok.mismatch.has_value());
  BOOST_TEST(ok.cycles == 20053u);
  BOOST_TEST(ok.coverage.bins == 42);
  BOOST_TEST(ok.coverage.complete());
  BOOST_TEST(ok.coverage.missing.empty());
}

// Options it cannot run throw ibsc::Error with the reason; nothing runs.
BOOST_AUTO_TEST_CASE(public_api_refuses_what_it_cannot_run) {
  auto refused = [](ibsc::CosimOptions o, const std::string& reason) {
    try {
      ibsc::cosim(o);
    } catch (const ibsc::Error& e) {
      BOOST_TEST(std::string(e.what()).find(reason) != std::string::npos, e.what());
      return;
    }
    BOOST_ERROR("not refused: " + reason);
  };
  ibsc::CosimOptions o;
  o.arbiter = "fixed-priority-rtl";
  o.reference = "fixed-priority";
  o.ports = 12;
  o.cycles = 10;
  ibsc::CosimOptions bad = o;
  bad.reference = "nope";
  refused(bad, "--reference: unknown arbiter 'nope' (registered: fixed-priority, fixed-priority-rtl, model, rtl)");
  bad = o;
  bad.ports = 0;
  refused(bad, "ports must be 1..255, not 0");
  bad = o;
  bad.arbiter = "model";
  bad.vcd_path = "model.vcd";
  refused(bad, "--vcd needs a Verilated arbiter; 'model' is not one");
  bad = o;
  bad.vcd_path = "/nonexistent-dir/waves.vcd";
  refused(bad, "cannot create '/nonexistent-dir/waves.vcd'");
  bad = o;
  bad.vcd_path = "empty.vcd";
  bad.trace_from = 10;
  bad.trace_to = 5;
  refused(bad, "the dump window would be empty");
}

// In a fabric by name: hosts 0, 1, 2 (sw_0) each send a packet to hosts 4, 5, 6 (sw_1) on the
// parallel pair; both switches run the Verilated user RTL, which arbitrates and delivers all.
BOOST_AUTO_TEST_CASE(user_rtl_runs_in_fabric) {
  testing::ParallelPairRun run("fixed-priority-rtl");
  auto* rtl = dynamic_cast<models::VerilatedArbiter*>(&run.fabric->arbiter(0));
  BOOST_TEST_REQUIRE(rtl != nullptr);
  BOOST_TEST(std::string(rtl->kind()) == "fixed-priority-rtl");
  sc_core::sc_start(sc_core::sc_time(20, sc_core::SC_US));
  BOOST_TEST(run.traffic.deliveries.size() == 3u);
  BOOST_TEST(rtl->cycles() > 0u);
  run.fabric->check_conservation();
}
