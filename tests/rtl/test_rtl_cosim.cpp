// Lockstep co-verification of the Verilated switch arbiter against its C++ model: directed
// corner cases plus constrained random must agree on every grant with full functional
// coverage, and the deliberately broken RTL (no credit check) must be caught.
#include <boost/test/unit_test.hpp>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "ibsc/arbiter_registry.h"
#include "models/adaptive_arbiter.h"
#include "models/verilated_arbiter.h"
#include "rtl/arbiter_config.h"
#include "tb/cli/cmd_cosim.h"
#include "tb/cosim/cosim.h"
#include "tests/support/sc_test_main.h"

using ibsc::tb::CosimConfig;
using ibsc::tb::run_cosim;

namespace {

void expect_clean(const CosimConfig& cfg) {
  const auto r = run_cosim(cfg);
  BOOST_TEST_MESSAGE(r.summary());
  BOOST_TEST_REQUIRE(r.passed(), r.summary());
  BOOST_TEST(r.coverage.complete(), r.coverage.report());
  BOOST_TEST(r.cycles >= cfg.cycles);
}

}  // namespace

BOOST_AUTO_TEST_CASE(lockstep_16_ports_4_vls) {
  CosimConfig cfg;
  cfg.ports = 16;
  cfg.vls = 4;
  cfg.cycles = 200000;
  cfg.seed = 1;
  expect_clean(cfg);
}

// Smaller switches use the low ports of the 16-port RTL with the rest tied off; the pointers
// may then rest on an idle port, which must not change any grant.
BOOST_AUTO_TEST_CASE(lockstep_tied_off_sizes) {
  for (auto [ports, vls] : std::vector<std::pair<int, int>>{{8, 2}, {5, 3}, {12, 16}, {2, 1}}) {
    CosimConfig cfg;
    cfg.ports = ports;
    cfg.vls = vls;
    cfg.cycles = 30000;
    cfg.seed = 100 + static_cast<uint64_t>(ports);
    expect_clean(cfg);
  }
}

// Larger switches use the 64-port configuration (36 ports: a common InfiniBand radix).
BOOST_AUTO_TEST_CASE(lockstep_64_port_configuration) {
  for (auto [ports, vls] : std::vector<std::pair<int, int>>{{64, 16}, {36, 4}, {17, 2}}) {
    CosimConfig cfg;
    cfg.ports = ports;
    cfg.vls = vls;
    cfg.cycles = 20000;
    cfg.seed = 200 + static_cast<uint64_t>(ports);
    expect_clean(cfg);
  }
}

BOOST_AUTO_TEST_CASE(lockstep_many_seeds) {
  for (uint64_t seed = 2; seed < 12; ++seed) {
    CosimConfig cfg;
    cfg.ports = 16;
    cfg.vls = 8;
    cfg.levels = 8;
    cfg.cycles = 10000;
    cfg.seed = seed;
    expect_clean(cfg);
  }
}

namespace {
// The directed cases alone reach every coverage bin the shape allows.
void directed_cases_cover(int ports, int vls) {
  for (int levels : {1, 4, 8}) {
    CosimConfig cfg;
    cfg.ports = ports;
    cfg.vls = vls;
    cfg.levels = levels;
    cfg.cycles = 0;
    const auto r = run_cosim(cfg);
    BOOST_TEST_REQUIRE(r.passed(), r.summary());
    BOOST_TEST(r.coverage.complete(), "ports " << ports << " levels " << levels << "\n" << r.coverage.report());
  }
}
}  // namespace

BOOST_AUTO_TEST_CASE(directed_cases_alone_cover_everything) {
  for (int ports : {1, 2, 3, 8, 16}) directed_cases_cover(ports, 4);
}
// The same on the 64-port configuration (a case of its own: a tree may build 16 ports only).
BOOST_AUTO_TEST_CASE(directed_cases_alone_cover_64_ports) { directed_cases_cover(64, 16); }

BOOST_AUTO_TEST_CASE(broken_variant_caught) {
  CosimConfig cfg;
  cfg.broken = true;
  cfg.cycles = 1000;
  const auto r = run_cosim(cfg);
  BOOST_TEST_MESSAGE(r.summary());
  BOOST_TEST_REQUIRE(!r.passed());
  BOOST_TEST(r.mismatch->what == "rtl != model");
  // The first directed cycle (every output credit-starved) already shows it.
  BOOST_TEST(r.mismatch->cycle == 0u);
  BOOST_TEST(r.mismatch->expected == "(none)");
  BOOST_TEST(r.mismatch->actual != "(none)");
  BOOST_TEST(r.mismatch->report().find("MISMATCH at cycle 0") != std::string::npos);
  // Nothing agreed, so no coverage figures (not "0/50 bins over 0 cycles") and no zero rows.
  const std::string sum = r.summary();
  BOOST_TEST(sum.find("coverage: none (the first cycle already mismatched)") != std::string::npos, sum);
  BOOST_TEST(sum.find("bins over") == std::string::npos, sum);
  BOOST_TEST(sum.find("grants per input") == std::string::npos, sum);
  BOOST_TEST(sum.find("FAIL: 1 cycle compared") != std::string::npos, sum);
}

// Random stimulus alone also finds the broken variant quickly.
BOOST_AUTO_TEST_CASE(broken_variant_caught_by_random) {
  CosimConfig cfg;
  cfg.ports = 40;
  cfg.broken = true;
  cfg.directed = false;
  cfg.cycles = 100000;
  cfg.seed = 7;
  const auto r = run_cosim(cfg);
  BOOST_TEST_REQUIRE(!r.passed());
  BOOST_TEST(r.cycles < 100u);
}

// The RTL itself is exactly fair: k inputs contending for one output each win 1/k of grants.
BOOST_AUTO_TEST_CASE(rtl_round_robin_exactly_fair) {
  using namespace ibsc::models;
  const int n = 16, k = 6, m = 50;
  VerilatedArbiter rtl(n, 1);
  std::vector<ArbRequest> req(n);
  std::vector<ArbOutputStatus> out(n);
  for (auto& o : out) o.credits = {100};
  for (int j = 0; j < k; ++j) {
    req[j * 2 + 1].valid = true;
    req[j * 2 + 1].length_credits = 4;
    req[j * 2 + 1].candidates = {{3, 0}};
  }
  std::vector<int> g(n), wins(n, 0);
  for (int c = 0; c < k * m; ++c) {
    rtl.arbitrate(req, out, g);
    for (int i = 0; i < n; ++i) wins[i] += g[i] >= 0;
  }
  for (int j = 0; j < k; ++j) BOOST_TEST(wins[j * 2 + 1] == m);
  BOOST_TEST(rtl.cycles() == static_cast<uint64_t>(k * m));
}

// Each arbiter owns its model and context; they can be created and destroyed in any order and
// the survivors go on exactly as the reference model (a fabric destroys its arbiters in switch
// order, the reverse of nothing in particular).
BOOST_AUTO_TEST_CASE(arbiters_created_and_destroyed_in_any_order) {
  using namespace ibsc::models;
  ibsc::tb::RandomStimulus rnd({6, 2, 4}, 11);
  ibsc::tb::ArbCycle c;
  std::vector<int> g(6), h(6);
  auto step = [&](SwitchArbiter& model, SwitchArbiter& rtl) {
    rnd.next(c);
    model.arbitrate(c.req, c.out, g);
    rtl.arbitrate(c.req, c.out, h);
    BOOST_TEST_REQUIRE(g == h);
  };
  AdaptiveArbiter model_b(6, 2), model_c(6, 2);
  auto a = std::make_unique<VerilatedArbiter>(6, 2);
  auto b = std::make_unique<VerilatedArbiter>(6, 2);
  // Another Verilated model: the 64-port one (40 ports) where it is built, else the broken
  // 16-port one (CI's sanitizer tree builds 16 only: IBSC_ARB_PORT_COUNTS).
  const bool has64 = std::end(ibsc::rtl::kArbPortCounts)[-1] >= 64;
  auto d = ibsc::make_arbiter(ibsc::tb::kBrokenRtl, has64 ? 40 : 10, 2);
  BOOST_TEST(std::string(d->kind()) == "rtl-broken");
  for (int k = 0; k < 50; ++k) step(model_b, *b);
  a.reset();  // not the context current on this thread (b's is)
  for (int k = 0; k < 50; ++k) step(model_b, *b);
  b.reset();  // the context current on this thread...
  d.reset();  // ...is not left dangling for the next one destroyed
  auto cc = std::make_unique<VerilatedArbiter>(6, 2);
  for (int k = 0; k < 50; ++k) step(model_c, *cc);
  BOOST_TEST(cc->cycles() == 50u);
}

BOOST_AUTO_TEST_CASE(oversized_shape_rejected) {
  using ibsc::models::VerilatedArbiter;
  BOOST_CHECK_THROW(VerilatedArbiter(VerilatedArbiter::max_ports() + 1, 2), std::invalid_argument);
  BOOST_CHECK_THROW(VerilatedArbiter(4, VerilatedArbiter::max_vls() + 1), std::invalid_argument);
}

namespace {

// Exit code of `ibsc cosim ARGS...` (the subcommand reports it as CLI::RuntimeError).
int cli_exit_code(std::vector<std::string> args) {
  CLI::App app{"test"};
  ibsc::tb::add_cosim_command(app);
  std::vector<const char*> argv{"ibsc", "cosim"};
  for (const auto& a : args) argv.push_back(a.c_str());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::RuntimeError& e) {
    return e.get_exit_code();
  }
  return -1;
}

}  // namespace

BOOST_AUTO_TEST_CASE(command_line) {
  BOOST_TEST(cli_exit_code({"--ports", "8", "--vls", "2", "--cycles", "5000", "--seed", "3"}) == 0);
  BOOST_TEST(cli_exit_code({"--ports", "8", "--cycles", "100", "--broken"}) == 1);
  // Random cycles alone are too few to cover everything: reported, not a mismatch.
  BOOST_TEST(cli_exit_code({"--ports", "8", "--cycles", "3", "--no-directed"}) == 2);
  BOOST_CHECK_THROW(cli_exit_code({"--ports", "65"}), CLI::ValidationError);
  BOOST_CHECK_THROW(cli_exit_code({"--vls", "0"}), CLI::ValidationError);
}
