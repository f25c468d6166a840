// Waves of the Verilated switch arbiter: the VCD it writes is read back with tb/cosim's own
// reader, and grants must appear in it on the cycles the C++ model says. Also the trace
// window, the GTKWave save file's signal list, and SystemC time stamps.
#include <boost/test/unit_test.hpp>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include "models/adaptive_arbiter.h"
#include "models/arbiter_pins.h"
#include "models/verilated_arbiter.h"
#include "rtl/arbiter_config.h"
#include "tb/cosim/cosim.h"
#include "tb/cosim/stimulus.h"
#include "tb/cosim/vcd_reader.h"
#include "tests/support/sc_test_main.h"

using ibsc::models::AdaptiveArbiter;
using ibsc::models::VerilatedArbiter;
using ibsc::tb::VcdReader;

namespace {

constexpr uint64_t kPeriod = 1000;

// Runs the model and the RTL (tracing) on random cycles; returns the model's grants per cycle.
std::vector<std::vector<int>> run_traced(const std::string& vcd, int ports, int vls, int cycles, uint64_t begin = 0,
                                         uint64_t end = UINT64_MAX) {
  AdaptiveArbiter model(ports, vls);
  VerilatedArbiter rtl(ports, vls);
  rtl.set_clock_period_ps(kPeriod);
  rtl.open_trace(vcd);
  rtl.set_trace_window(begin, end);
  ibsc::tb::RandomStimulus rnd({ports, vls, 4}, 42);
  ibsc::tb::ArbCycle c;
  std::vector<std::vector<int>> all;
  std::vector<int> g(static_cast<size_t>(ports)), h(static_cast<size_t>(ports));
  for (int k = 0; k < cycles; ++k) {
    rnd.next(c);
    model.arbitrate(c.req, c.out, g);
    rtl.arbitrate(c.req, c.out, h);
    BOOST_TEST_REQUIRE(g == h);
    all.push_back(g);
  }
  rtl.close_trace();
  return all;
}

std::string sig(const VcdReader& v, const std::string& suffix) {
  std::string s = v.find("switch_arbiter." + suffix);
  BOOST_TEST_REQUIRE(!s.empty(), "no signal " << suffix);
  return s;
}

}  // namespace

// First: this case builds a SystemC module and runs sc_start(); the arbiter inside it is a
// plain member of the module, evaluated from its thread.
namespace {

// Two arbitrations at 12 ns and 52 ns of SystemC time.
struct Driver : sc_core::sc_module {
  VerilatedArbiter rtl{4, 1};
  std::vector<int> g = std::vector<int>(4);
  SC_HAS_PROCESS(Driver);
  explicit Driver(sc_core::sc_module_name n) : sc_module(n) {
    rtl.set_clock_period_ps(4000);
    rtl.use_systemc_time();
    rtl.open_trace("rtl_waves_systemc.vcd");
    SC_THREAD(run);
  }
  void run() {
    std::vector<ibsc::models::ArbRequest> req(4);
    std::vector<ibsc::models::ArbOutputStatus> out(4);
    for (auto& o : out) o.credits = {10};
    req[0].valid = true;
    req[0].length_credits = 1;
    req[0].candidates = {{3, 0}};
    wait(12, sc_core::SC_NS);
    rtl.arbitrate(req, out, g);
    wait(40, sc_core::SC_NS);
    rtl.arbitrate(req, out, g);
    rtl.close_trace();
  }
};

}  // namespace

// Inside a SystemC simulation the dump uses SystemC time, so waves line up with the fabric.
BOOST_AUTO_TEST_CASE(systemc_time_stamps) {
  using namespace sc_core;
  ibsc::testing::ScStrict strict;
  Driver d("driver");
  sc_start();
  const VcdReader v = VcdReader::load("rtl_waves_systemc.vcd");
  std::vector<uint64_t> times;
  for (const auto& [t, val] : v.changes(sig(v, "clk"))) times.push_back(t);
  BOOST_TEST(times == std::vector<uint64_t>({12000, 14000, 52000, 54000}));
  BOOST_TEST(*v.uint_at(sig(v, "gnt_port[0]"), 52000) == 3u);
}

BOOST_AUTO_TEST_CASE(grants_in_vcd_on_model_cycles) {
  const int ports = 8, vls = 2, cycles = 300;
  const auto model = run_traced("rtl_waves_grants.vcd", ports, vls, cycles);
  const VcdReader v = VcdReader::load("rtl_waves_grants.vcd");
  BOOST_TEST(v.timescale() == "1ps");
  const std::string clk = sig(v, "clk"), gv = sig(v, "gnt_valid"), gq = sig(v, "grant_valid_q");
  int grants_seen = 0;
  for (int k = 0; k < cycles; ++k) {
    const uint64_t t = static_cast<uint64_t>(k) * kPeriod, edge = t + kPeriod / 2;
    BOOST_TEST_REQUIRE(*v.uint_at(clk, t) == 0u);
    BOOST_TEST_REQUIRE(*v.uint_at(clk, edge) == 1u);
    const uint64_t valid = *v.uint_at(gv, t), valid_q = *v.uint_at(gq, edge);
    for (int i = 0; i < ports; ++i) {
      const int g = model[static_cast<size_t>(k)][static_cast<size_t>(i)];
      BOOST_TEST_REQUIRE(((valid >> i) & 1u) == (g >= 0 ? 1u : 0u), "cycle " << k << " input " << i);
      BOOST_TEST_REQUIRE(((valid_q >> i) & 1u) == (g >= 0 ? 1u : 0u), "cycle " << k << " input " << i);
      if (g < 0) continue;
      ++grants_seen;
      const std::string idx = "[" + std::to_string(i) + "]";
      BOOST_TEST_REQUIRE(*v.uint_at(sig(v, "gnt_port" + idx), t) == static_cast<uint64_t>(g));
      BOOST_TEST_REQUIRE(*v.uint_at(sig(v, "grant_port_q" + idx), edge) == static_cast<uint64_t>(g));
    }
  }
  BOOST_TEST(grants_seen > cycles);
  // Tied-off ports never request.
  const std::string rv = sig(v, "req_valid");
  for (const auto& [t, val] : v.changes(rv)) BOOST_TEST((std::stoull(val, nullptr, 2) >> ports) == 0u);
}

BOOST_AUTO_TEST_CASE(trace_window_limits_dump) {
  run_traced("rtl_waves_window.vcd", 4, 1, 100, 40 * kPeriod, 50 * kPeriod);
  const VcdReader v = VcdReader::load("rtl_waves_window.vcd");
  const auto& ch = v.changes(sig(v, "clk"));
  BOOST_TEST_REQUIRE(!ch.empty());
  BOOST_TEST(ch.front().first == 40 * kPeriod);
  BOOST_TEST(v.last_time() == 49 * kPeriod + kPeriod / 2);
  BOOST_TEST(ch.size() == 20u);  // low and high for each of the 10 cycles
}

BOOST_AUTO_TEST_CASE(tracing_can_be_paused) {
  AdaptiveArbiter model(4, 1);
  VerilatedArbiter rtl(4, 1);
  rtl.set_clock_period_ps(kPeriod);
  rtl.open_trace("rtl_waves_paused.vcd");
  std::vector<ibsc::models::ArbRequest> req(4);
  std::vector<ibsc::models::ArbOutputStatus> out(4);
  for (auto& o : out) o.credits = {10};
  req[2].valid = true;
  req[2].length_credits = 1;
  req[2].candidates = {{1, 0}};
  std::vector<int> g(4);
  for (int k = 0; k < 10; ++k) {
    rtl.set_trace_enabled(k < 3 || k >= 8);
    rtl.arbitrate(req, out, g);
  }
  rtl.close_trace();
  const VcdReader v = VcdReader::load("rtl_waves_paused.vcd");
  std::vector<uint64_t> times;
  for (const auto& [t, val] : v.changes(sig(v, "clk"))) times.push_back(t);
  BOOST_TEST(times == std::vector<uint64_t>({0, 500, 1000, 1500, 2000, 2500, 8000, 8500, 9000, 9500}));
}

// Every signal named in waves/arbiter.gtkw exists in the dump, with the range GTKWave shows.
BOOST_AUTO_TEST_CASE(gtkwave_save_file_matches_dump) {
  ibsc::tb::CosimConfig cfg;
  cfg.cycles = 50;
  cfg.vcd_path = "rtl_waves_cosim.vcd";
  BOOST_TEST_REQUIRE(ibsc::tb::run_cosim(cfg).passed());
  const VcdReader v = VcdReader::load(cfg.vcd_path);
  std::ifstream f(IBSC_SOURCE_DIR "/waves/arbiter.gtkw");
  BOOST_TEST_REQUIRE(f.good());
  const std::regex line(R"(^(\+\{[^}]*\} )?(\S+?)(\[(\d+):0\])?$)");
  std::string s;
  int checked = 0;
  while (std::getline(f, s)) {
    if (s.empty() || s[0] == '[' || s[0] == '@' || s[0] == '-' || s[0] == '*') continue;
    std::smatch m;
    BOOST_TEST_REQUIRE(std::regex_match(s, m, line), s);
    const std::string name = m[2];
    BOOST_TEST_REQUIRE(v.has(name), "gtkw names " << name << ", not in the dump");
    const int width = m[4].matched ? std::stoi(m[4]) + 1 : 1;
    BOOST_TEST(v.width(name) == width, name);
    ++checked;
  }
  BOOST_TEST(checked > 100);
}

// The pin bundle's fields have exactly the widths of the Verilated model's ports (the top-level
// pins in the dump), for both configurations: the generated header and the -G flags agree.
template <unsigned P>
void check_pin_widths(const std::string& vcd, int ports) {
  {
    VerilatedArbiter rtl(ports, 2);
    BOOST_TEST_REQUIRE(rtl.rtl_ports() == static_cast<int>(P));
    rtl.open_trace(vcd);
    std::vector<ibsc::models::ArbRequest> req(static_cast<size_t>(ports));
    std::vector<ibsc::models::ArbOutputStatus> out(static_cast<size_t>(ports));
    std::vector<int> g(static_cast<size_t>(ports));
    rtl.arbitrate(req, out, g);
  }
  using Pins = ibsc::models::ArbiterPins<P>;
  const VcdReader v = VcdReader::load(vcd);
  const std::pair<const char*, unsigned> pins[] = {
      {"req_valid", decltype(Pins::req_valid)::kBits},     {"req_cand", decltype(Pins::req_cand)::kBits},
      {"req_prio", decltype(Pins::req_prio)::kBits},       {"req_vl", decltype(Pins::req_vl)::kBits},
      {"req_len", decltype(Pins::req_len)::kBits},         {"out_busy", decltype(Pins::out_busy)::kBits},
      {"out_credits", decltype(Pins::out_credits)::kBits}, {"grant_valid", decltype(Pins::grant_valid)::kBits},
      {"grant_port", decltype(Pins::grant_port)::kBits},
  };
  for (const auto& [name, bits] : pins) {
    const std::string top = std::string("TOP.") + name;
    BOOST_TEST_REQUIRE(v.has(top), top);
    BOOST_TEST(v.width(top) == static_cast<int>(bits), top << " with " << P << " ports");
  }
}

BOOST_AUTO_TEST_CASE(pin_bundle_widths_match_rtl_ports) {
  check_pin_widths<16>("rtl_waves_pins16.vcd", 5);
  // The 64-port model only where it is built (CI's sanitizer tree: 16 only, IBSC_ARB_PORT_COUNTS).
  if (std::end(ibsc::rtl::kArbPortCounts)[-1] >= 64) check_pin_widths<64>("rtl_waves_pins64.vcd", 40);
}

BOOST_AUTO_TEST_CASE(vcd_reader_handwritten) {
  {
    std::ofstream f("rtl_waves_hand.vcd");
    f << "$date today $end\n$timescale\n 1ns\n$end\n$scope module top $end\n"
         "$var wire 1 ! a $end\n$var wire 4 \" b [3:0] $end\n$scope module sub $end\n"
         "$var wire 1 ! a_alias $end\n$upscope $end\n$upscope $end\n$enddefinitions $end\n"
         "#0\n$dumpvars\n0!\nbx \"\n$end\n#5\n1!\nb101 \"\n#12\nb1111 \"\n";
  }
  const VcdReader v = VcdReader::load("rtl_waves_hand.vcd");
  BOOST_TEST(v.timescale() == "1ns");
  BOOST_TEST(v.has("top.a"));
  BOOST_TEST(v.find("a_alias") == "top.sub.a_alias");
  BOOST_TEST(v.width("top.b") == 4);
  BOOST_TEST(!v.uint_at("top.b", 0).has_value());  // x
  BOOST_TEST(*v.uint_at("top.b", 7) == 5u);
  BOOST_TEST(*v.uint_at("top.b", 100) == 15u);
  BOOST_TEST(*v.uint_at("top.sub.a_alias", 5) == 1u);
  BOOST_TEST(v.last_time() == 12u);
  {
    std::ofstream f("rtl_waves_bad.vcd");
    f << "$scope module top $end\n$enddefinitions $end\n#0\n1?\n";
  }
  BOOST_CHECK_THROW(VcdReader::load("rtl_waves_bad.vcd"), std::runtime_error);
  BOOST_CHECK_THROW(VcdReader::load("no_such_file.vcd"), std::runtime_error);
}
