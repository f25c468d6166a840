// Fabric waves: a chain of two switches carries one 512-byte packet from host 0 to host 1;
// the VCD written by WaveProbe is read back and every edge is checked against the timing the
// model defines (1X SDR: 4 ns/byte, fly 100 ns, routing delay 100 ns, core clock 4 ns,
// 2048-byte buffers = 32 credits of 64 bytes). Each case is its own process.
//
// Timeline (ns), packet id 0 -> tx_packet 1:
//   0      HCA 0 starts sending; its credits 32 -> 24; wire busy [0, 2048)
//   100    head at switch 0 port 3;  ready at 100 + 100 = 200, an edge of the 4 ns clock
//   200    switch 0 grants input 3 -> output 1; credits toward switch 1: 32 -> 24;
//          link sw_0 p1 busy [200, 2248)
//   300    head at switch 1 port 2; 400: switch 1 grants 2 -> 3, block k (0..7) leaves its
//          buffer at 400 + 256 (k+1) and the credit is back at switch 0 one fly later:
//          756, 1012, ..., 2548 -> counter 25, 26, ..., 32
//   switch 0 input 3 drains from 200: block k freed at 200 + 256 (k+1), credit at HCA 0
//   one fly later: 556, ..., 2348.
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <regex>
#include <sstream>

#include "models/verilated_arbiter.h"
#include "routing/routing.h"
#include "tb/cosim/cosim.h"
#include "tb/cosim/vcd_reader.h"
#include "tb/fabric/arbiter_factory.h"
#include "tb/fabric/fabric.h"
#include "tb/run/run_point.h"
#include "tb/waves/wave_probe.h"
#include "tb/waves/wave_savefile.h"
#include "tests/support/manual_fabric.h"
#include "tests/support/sc_test_main.h"

using ibsc::models::Picos;
using ibsc::tb::VcdReader;

namespace {
constexpr Picos kNs = 1000;
constexpr Picos kFly = 100 * kNs, kRouting = 100 * kNs, kByte = 4 * kNs, kBlock = 64 * kByte;
constexpr Picos kLen = 512;
ibsc::testing::ScStrict strict;

VcdReader load_vcd(const std::string& path);

// One packet through a two-switch chain, waves of `switches` over [start, end) ns.
struct Run {
  ibsc::routing::Topology topo = ibsc::testing::chain(2, 1, 1);
  ibsc::routing::TableSet tables = ibsc::testing::chain_tables(topo);
  ibsc::testing::ScriptedTraffic traffic{topo.num_hosts, {{0, 0, 1, static_cast<uint32_t>(kLen)}}};
  ibsc::tb::FabricParams params;
  std::unique_ptr<ibsc::tb::Fabric> fabric;
  std::unique_ptr<ibsc::tb::WaveProbe> probe;
  std::string file;
  Run(const std::string& vcd, std::vector<int> switches, double start_ns, double end_ns,
      const std::string& arb = "model", std::vector<int> ports = {}, uint32_t output_buffer_bytes = 0)
      : file(vcd) {
    params.sw.num_vls = 1;
    params.sw.output_buffer_bytes_per_vl = output_buffer_bytes;
    ibsc::tb::ArbiterChoice ac;
    ac.name = arb;
    fabric = std::make_unique<ibsc::tb::Fabric>(topo, tables, params, traffic, ibsc::tb::make_arbiter_factory(ac));
    ibsc::tb::WaveOptions w;
    w.file = vcd;
    w.switches = std::move(switches);
    w.start_ns = start_ns;
    w.end_ns = end_ns;
    w.ports = std::move(ports);
    probe = std::make_unique<ibsc::tb::WaveProbe>("probe", *fabric, w, params.sw);
  }
  // Runs to the end, closes the dump and reads it back.
  VcdReader finish() {
    sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_US));
    BOOST_TEST_REQUIRE(traffic.deliveries.size() == 1u);
    probe.reset();
    return load_vcd(file);
  }
};

// SystemC's VCD writer adds $comment blocks, which the reader (made for Verilator's dumps)
// does not take; they carry no values, so a copy without them is read instead.
VcdReader load_vcd(const std::string& path) {
  std::ifstream in(path);
  BOOST_TEST_REQUIRE(in.good(), path);
  std::ofstream out(path + ".nocomment");
  std::string line;
  bool comment = false;
  while (std::getline(in, line)) {
    if (!comment && line.rfind("$comment", 0) == 0) comment = true;
    if (!comment) out << line << "\n";
    if (comment && line.find("$end") != std::string::npos) comment = false;
  }
  out.close();
  return VcdReader::load(path + ".nocomment");
}

std::string sig(const VcdReader& v, const std::string& suffix) {
  std::string n = v.find(suffix);
  BOOST_TEST_REQUIRE(!n.empty(), "no signal " << suffix);
  return n;
}

// A value with x bits (not sampled: before and after the window).
constexpr uint64_t X = UINT64_MAX;
bool all_x(const std::string& val) { return val.find_first_not_of("xX") == std::string::npos; }
// The changes of a signal as (time ns, value) pairs.
std::vector<std::pair<uint64_t, uint64_t>> changes_ns(const VcdReader& v, const std::string& suffix) {
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const auto& [t, val] : v.changes(sig(v, suffix)))
    out.emplace_back(t / kNs, all_x(val) ? X : std::stoull(val, nullptr, 2));
  return out;
}
using Changes = std::vector<std::pair<uint64_t, uint64_t>>;
// As text "t:v t:v ..." so a failing comparison prints both sides.
std::string text(const Changes& c) {
  std::string s;
  for (const auto& [t, v] : c) s += std::to_string(t) + ":" + (v == X ? "x" : std::to_string(v)) + " ";
  return s;
}
// The expected changes of a window ending at end_ns: the sampled ones, then x from the end on.
Changes then_x(Changes c, uint64_t end_ns = 5000) {
  c.emplace_back(end_ns, X);
  return c;
}
}  // namespace

BOOST_AUTO_TEST_CASE(credits_grant_and_wire_times) {
  Run r("waves_exact.vcd", {0, 1}, 0, 5000);
  const VcdReader v = r.finish();
  BOOST_TEST(v.timescale().find("ps") != std::string::npos);
  // Switch 0 grants when the head has waited the routing delay: 100 + 100 = 200 ns, an edge.
  const Picos head0 = kFly, grant0 = head0 + kRouting;
  BOOST_TEST(grant0 % (4 * kNs) == 0u);
  BOOST_TEST(text(changes_ns(v, "sw_0.p3.grant")) ==
             text(then_x(Changes{{0, 0}, {grant0 / kNs, 1}, {grant0 / kNs + 4, 0}})));
  BOOST_TEST(text(changes_ns(v, "sw_0.p3.grant_out")) == text(then_x(Changes{{0, 0}, {grant0 / kNs, 1}})));
  // Switch 1: head one fly after switch 0 sent it, grant one routing delay later.
  const Picos grant1 = grant0 + kFly + kRouting;
  BOOST_TEST(text(changes_ns(v, "sw_1.p2.grant")) ==
             text(then_x(Changes{{0, 0}, {grant1 / kNs, 1}, {grant1 / kNs + 4, 0}})));
  BOOST_TEST(text(changes_ns(v, "sw_1.p2.grant_out")) == text(then_x(Changes{{0, 0}, {grant1 / kNs, 3}})));
  // The arbiter request shows on the grant's edge only, with its one candidate and its VLs.
  BOOST_TEST(text(changes_ns(v, "sw_0.p3.request")) ==
             text(then_x(Changes{{0, 0}, {grant0 / kNs, 1}, {grant0 / kNs + 4, 0}})));
  BOOST_TEST(text(changes_ns(v, "sw_0.p3.request_ports")) ==
             text(then_x(Changes{{0, 0}, {grant0 / kNs, 1u << 1}, {grant0 / kNs + 4, 0}})));
  BOOST_TEST(v.width(sig(v, "sw_0.p3.request_ports")) == 9);  // bit o for port o of 8
  BOOST_TEST(text(changes_ns(v, "sw_1.p2.request")) ==
             text(then_x(Changes{{0, 0}, {grant1 / kNs, 1}, {grant1 / kNs + 4, 0}})));
  BOOST_TEST(text(changes_ns(v, "sw_1.p2.request_ports")) ==
             text(then_x(Changes{{0, 0}, {grant1 / kNs, 1u << 3}, {grant1 / kNs + 4, 0}})));
  BOOST_TEST(text(changes_ns(v, "sw_1.p2.request_out_vl")) == text(then_x(Changes{{0, 0}})));
  BOOST_TEST(text(changes_ns(v, "sw_0.p1.request")) == text(then_x(Changes{{0, 0}})));  // nothing comes in on p1

  // Credits of switch 0 toward switch 1 fall by 512 / 64 = 8 on the grant edge, then each
  // block comes back one block time after switch 1 forwards it, plus the fly time.
  Changes credits{{0, 32}, {grant0 / kNs, 24}};
  for (Picos k = 1; k <= kLen / 64; ++k) credits.emplace_back((grant1 + k * kBlock + kFly) / kNs, 24 + k);
  BOOST_TEST(credits.back().first == 2548u);
  BOOST_TEST(credits.back().second == 32u);
  BOOST_TEST(text(changes_ns(v, "sw_0.p1.vl0.credits")) == text(then_x(credits)));

  // The packet is on each wire for exactly length x byte time from its grant.
  BOOST_TEST(text(changes_ns(v, "sw_0.p1.tx_packet")) ==
             text(then_x(Changes{{0, 0}, {grant0 / kNs, 1}, {(grant0 + kLen * kByte) / kNs, 0}})));
  BOOST_TEST(text(changes_ns(v, "sw_1.p3.tx_packet")) ==
             text(then_x(Changes{{0, 0}, {grant1 / kNs, 1}, {(grant1 + kLen * kByte) / kNs, 0}})));
  BOOST_TEST(text(changes_ns(v, "hca_0.tx_packet")) == text(then_x(Changes{{0, 1}, {kLen * kByte / kNs, 0}})));
  // Nothing goes back toward host 0 or toward switch 0.
  BOOST_TEST(text(changes_ns(v, "sw_0.p3.tx_packet")) == text(then_x(Changes{{0, 0}})));
  BOOST_TEST(text(changes_ns(v, "sw_1.p2.tx_packet")) == text(then_x(Changes{{0, 0}})));
  // Only connected ports are traced.
  BOOST_TEST(v.find("sw_0.p4.tx_packet").empty());

  // The core clock (4 ns): rises on every sampled edge, falls half a period later, x from the
  // window's end: 1250 edges in [0, 5000) ns.
  const auto& clk = v.changes(sig(v, "core_clk"));
  BOOST_TEST(v.width(sig(v, "core_clk")) == 1);
  BOOST_TEST_REQUIRE(clk.size() == 2 * 1250u + 1);
  for (size_t k = 0; k + 1 < clk.size(); ++k) {
    BOOST_TEST(clk[k].first == k * 2 * kNs, k);
    BOOST_TEST(clk[k].second == (k % 2 ? "0" : "1"), k);
  }
  BOOST_TEST(clk.back().first == 5000 * kNs);
  BOOST_TEST(all_x(clk.back().second));
}

BOOST_AUTO_TEST_CASE(occupancy_and_hca_credits) {
  Run r("waves_occupancy.vcd", {0}, 0, 5000);
  const VcdReader v = r.finish();
  const Picos head0 = kFly, grant0 = head0 + kRouting;
  // Switch 0 input 3 holds the whole packet from its head's arrival (virtual cut-through
  // reserves it) and frees a block per block time once forwarding starts.
  Changes occ{{0, 0}, {head0 / kNs, 8}};
  for (Picos k = 1; k <= 8; ++k) occ.emplace_back((grant0 + k * kBlock) / kNs, 8 - k);
  BOOST_TEST(text(changes_ns(v, "sw_0.p3.vl0.occupancy")) == text(then_x(occ)));
  // HCA 0 spends 8 credits at time 0; each freed block of switch 0 returns one fly later.
  Changes hca{{0, 24}};
  for (Picos k = 1; k <= 8; ++k) hca.emplace_back((grant0 + k * kBlock + kFly) / kNs, 24 + k);
  BOOST_TEST(text(changes_ns(v, "hca_0.vl0.credits")) == text(then_x(hca)));
  // Switch 1 is not selected, nor host 1 (attached to it).
  BOOST_TEST(v.find("sw_1.p2.tx_packet").empty());
  BOOST_TEST(v.find("hca_1.tx_packet").empty());
}

BOOST_AUTO_TEST_CASE(nothing_outside_the_window) {
  const Picos start = 1000 * kNs, end = 2000 * kNs;
  Run r("waves_window.vcd", {0, 1}, 1000, 2000);
  const VcdReader v = r.finish();
  size_t inside = 0;
  for (const std::string& s : v.signals()) {
    const auto& ch = v.changes(s);
    BOOST_TEST_REQUIRE(ch.size() >= 3u, s);
    // Before the window every value is x (not 0: credits at 0 read as starvation), from its
    // first edge on it is sampled, and from its end it is x again; nothing else outside it.
    BOOST_TEST((ch.front().first == 0 && all_x(ch.front().second)), s << " starts with " << ch.front().second);
    BOOST_TEST(ch[1].first == start, s);
    BOOST_TEST(!all_x(ch[1].second), s);
    BOOST_TEST((ch.back().first == end && all_x(ch.back().second)), s << " ends with " << ch.back().second);
    for (size_t k = 1; k + 1 < ch.size(); ++k) {
      BOOST_TEST((ch[k].first >= start && ch[k].first < end), s << " changes at " << ch[k].first << " ps");
      ++inside;
    }
  }
  BOOST_TEST(inside > 0u);  // the credits climb back inside the window
  BOOST_TEST(!v.uint_at(sig(v, "sw_0.p1.vl0.credits"), start - 1).has_value());  // x: no number
  // At the window's first edge, 1000 ns: one block back since 756 ns (the timeline above).
  BOOST_TEST(*v.uint_at(sig(v, "sw_0.p1.vl0.credits"), start) == 25u);
  // (SystemC stamps the time the file is closed, with no values: last_time() is not checked.)
  // The grants at 200 and 400 ns fall before the window: no pulse at all.
  for (const auto& [t, val] : v.changes(sig(v, "sw_0.p3.grant"))) BOOST_TEST(val.find('1') == std::string::npos);
  // A 1 us window of two small switches stays small.
  BOOST_TEST(std::filesystem::file_size("waves_window.vcd") < 20000u);
}

// Checks every signal a save file names against the dump and returns those GTKWave would not
// show: not in the dump, or there with another width than the file's [n:0] ("name[n:0]").
std::vector<std::string> missing_in_dump(const std::string& path, const VcdReader& v, int* checked = nullptr) {
  std::ifstream f(path);
  BOOST_TEST_REQUIRE(f.good(), path);
  const std::regex line(R"(^(\+\{[^}]*\} )?(\S+?)(\[(\d+):0\])?$)");
  std::vector<std::string> missing;
  std::string s;
  int n = 0;
  while (std::getline(f, s)) {
    if (s.empty() || s[0] == '[' || s[0] == '@' || s[0] == '-' || s[0] == '*') continue;
    std::smatch m;
    BOOST_TEST_REQUIRE(std::regex_match(s, m, line), s);
    const std::string sname = m[2];
    ++n;
    if (!v.has(sname)) missing.push_back(sname);
    else if (v.width(sname) != (m[4].matched ? std::stoi(m[4]) + 1 : 1)) missing.push_back(sname + m[3].str());
  }
  if (checked) *checked = n;
  return missing;
}

// A save file's window: [timestart], zoom, primary marker and named markers A and B.
struct SaveWindow {
  uint64_t timestart = 0, marker = 0, a = 0, b = 0;
  double zoom = 0;
  // The time span GTKWave shows: 200 pixels per 2^-zoom units, about 900 pixels of waves
  // in the files' 1600-pixel window (tb/waves/wave_savefile.cpp).
  double shown() const { return std::pow(2.0, -zoom) / 200 * 900; }
};
SaveWindow save_window(const std::string& path) {
  std::ifstream f(path);
  SaveWindow w;
  std::string s;
  bool star = false, start = false, names = false;
  while (std::getline(f, s)) {
    std::istringstream is(s);
    std::string tag;
    if (s.rfind("[timestart] ", 0) == 0) start = static_cast<bool>(is >> tag >> w.timestart);
    if (s.rfind("*", 0) == 0) star = static_cast<bool>(is.ignore(1) >> w.zoom >> w.marker >> w.a >> w.b);
    if (s == "[markername] Awindow start") names = true;
  }
  BOOST_TEST((star && start && names), path << " has no window");
  return w;
}
// The window [a, b) ps is where the save file opens: markers A and B on it, the left edge a
// little before it and the zoom showing all of it but not much more.
void opens_at(const SaveWindow& w, uint64_t a, uint64_t b, const std::string& what) {
  BOOST_TEST(w.a == a, what);
  BOOST_TEST(w.b == b, what);
  BOOST_TEST((w.timestart <= a && w.timestart + (b - a) / 10 >= a), what << " starts at " << w.timestart);
  BOOST_TEST((w.shown() >= static_cast<double>(b - w.timestart) && w.shown() <= 1.2 * (b - a)),
             what << " shows " << w.shown() << " ps");
}

// The README's own example command (quick start, 8-port switches) makes the dump the GTKWave
// save files are for: every signal they name exists in it with that width, and they open at its
// window. The command is read from the README, so the three cannot drift apart. Only the run
// phases are shortened. The save file written beside the dump fits it too.
BOOST_AUTO_TEST_CASE(gtkwave_save_files_match_dump) {
  std::ifstream readme(IBSC_SOURCE_DIR "/README.md");
  std::string cmd, l;
  while (std::getline(readme, l))
    if (l.find("ibsc run scenarios/quickstart.yaml --waves run.vcd") != std::string::npos) cmd = l;
  BOOST_TEST_REQUIRE(!cmd.empty(), "README has no waves example");
  std::smatch window;
  BOOST_TEST_REQUIRE(std::regex_search(cmd, window, std::regex(R"(--wave-start (\d+) --wave-end (\d+))")), cmd);
  const uint64_t start = std::stoull(window[1]) * kNs, end = std::stoull(window[2]) * kNs;
  cmd = std::regex_replace(cmd, std::regex(R"(^\s*build/tb/ibsc)"), IBSC_BINARY);
  cmd = std::regex_replace(cmd, std::regex(R"( scenarios/)"), " " IBSC_SOURCE_DIR "/scenarios/");
  cmd = std::regex_replace(cmd, std::regex(R"( run\.vcd)"), " waves_readme.vcd");
  BOOST_TEST_MESSAGE(cmd);
  std::filesystem::remove("waves_readme.vcd");
  std::filesystem::remove("waves_readme.gtkw");
  BOOST_TEST_REQUIRE(std::system((cmd + " --set run.window_ns=10000 --set run.drain_ns=20000 --quiet"
                                        " --out waves_readme_out > waves_readme.txt 2>&1")
                                     .c_str()) == 0);
  const VcdReader v = load_vcd("waves_readme.vcd");
  for (const std::string& file : {std::string(IBSC_SOURCE_DIR "/waves/switch_ports.gtkw"),
                                  std::string(IBSC_SOURCE_DIR "/waves/link.gtkw"), std::string("waves_readme.gtkw")}) {
    int checked = 0;
    BOOST_TEST(missing_in_dump(file, v, &checked).empty(), file);
    BOOST_TEST(checked >= 8, file);
    opens_at(save_window(file), start, end, file);
    BOOST_TEST(save_window(file).marker == start, file);  // 20000 ns is an edge: the first sampled
    // The standard files carry the very lines the probe writes for this window.
    std::ifstream f(file);
    const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    BOOST_TEST(text.find(ibsc::tb::gtkw_window_lines(start, end, start)) != std::string::npos, file);
  }
  // The command says where the save file is.
  std::ifstream out("waves_readme.txt");
  const std::string said((std::istreambuf_iterator<char>(out)), std::istreambuf_iterator<char>());
  BOOST_TEST(said.find("gtkwave waves_readme.gtkw") != std::string::npos, said);
  // Every port of sw_0 is in the standard save file, every port of both switches in the one
  // written beside the dump, with the core clock; and the traffic shows in them.
  std::ifstream f(IBSC_SOURCE_DIR "/waves/switch_ports.gtkw");
  const std::string gtkw((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::ifstream g("waves_readme.gtkw");
  const std::string own((std::istreambuf_iterator<char>(g)), std::istreambuf_iterator<char>());
  for (int p = 1; p <= 8; ++p) {
    BOOST_TEST(gtkw.find("SystemC.sw_0.p" + std::to_string(p) + ".grant") != std::string::npos, p);
    for (int sw : {0, 1})
      BOOST_TEST(own.find("SystemC.sw_" + std::to_string(sw) + ".p" + std::to_string(p) + ".grant") !=
                 std::string::npos);
  }
  for (const std::string* text : {&gtkw, &own}) BOOST_TEST(text->find("SystemC.core_clk\n") != std::string::npos);
  // Before the window x, at its first edge numbers (credits toward a neighbour: 0..32).
  const std::string credits = "SystemC.sw_0.p1.vl0.credits";
  BOOST_TEST(!v.uint_at(credits, start - 1).has_value());
  BOOST_TEST(all_x(*v.value_at(credits, start - 1)));
  BOOST_TEST(*v.uint_at(credits, start) <= 32u);
  // On every edge with a grant, that input requested, offering the output it got.
  int grants = 0;
  for (int p = 1; p <= 8; ++p) {
    const std::string pn = "SystemC.sw_0.p" + std::to_string(p);
    for (const auto& [t, val] : v.changes(pn + ".grant")) {
      if (val != "1") continue;
      ++grants;
      BOOST_TEST(*v.uint_at(pn + ".request", t) == 1u, pn << " at " << t);
      const uint64_t out = *v.uint_at(pn + ".grant_out", t);
      BOOST_TEST((*v.uint_at(pn + ".request_ports", t) >> out & 1u) == 1u, pn << " at " << t);
    }
  }
  BOOST_TEST(grants > 10);
}

// 6-port switches (4x4 torus, 2 hosts each): the standard save file names sw_0's ports 7 and 8,
// 13 signals each, that this dump cannot have, and request_ports 9 bits wide where this dump's
// are 7: 26 + 6 of its 105 names. The save file written beside the dump has 6 port groups per
// switch and every name it gives is in the dump with its width.
BOOST_AUTO_TEST_CASE(save_file_fits_the_port_count) {
  std::filesystem::remove("waves_6port.gtkw");
  const std::string cmd = std::string(IBSC_BINARY) + " run " IBSC_SOURCE_DIR "/scenarios/quickstart.yaml" +
                          " --set topology.spec=torus:4x4:hosts=2:ports=6 --set run.warmup_ns=2000"
                          " --set run.window_ns=4000 --set run.drain_ns=20000 --out waves_6port_out --quiet"
                          " --waves waves_6port.vcd --wave-switches 0,1 --wave-start 2000 --wave-end 4000"
                          " > waves_6port.txt 2>&1";
  BOOST_TEST_REQUIRE(std::system(cmd.c_str()) == 0);
  const VcdReader v = load_vcd("waves_6port.vcd");
  int standard = 0, own = 0;
  const auto lost = missing_in_dump(IBSC_SOURCE_DIR "/waves/switch_ports.gtkw", v, &standard);
  BOOST_TEST(standard == 8 * 13 + 1);
  BOOST_TEST(lost.size() == 2 * 13u + 6);
  for (const std::string& s : lost)
    BOOST_TEST((s.rfind("SystemC.sw_0.p7.", 0) == 0 || s.rfind("SystemC.sw_0.p8.", 0) == 0 ||
                std::regex_match(s, std::regex(R"(SystemC\.sw_0\.p[1-6]\.request_ports\[8:0\])"))),
               s);
  BOOST_TEST(missing_in_dump("waves_6port.gtkw", v, &own).empty());
  // Two switches x 6 ports x (7 + 3 per VL x 2 VLs) + 2 x 2 hosts x (1 + 2 VLs) + the clock.
  BOOST_TEST(own == 2 * 6 * 13 + 4 * 3 + 1);
  std::ifstream g("waves_6port.gtkw");
  const std::string text((std::istreambuf_iterator<char>(g)), std::istreambuf_iterator<char>());
  BOOST_TEST(text.find("SystemC.sw_0.p6.request_ports[6:0]") != std::string::npos);
  BOOST_TEST(text.find("-sw_0 port 5 (host 0)") != std::string::npos);
  BOOST_TEST(text.find(".p7.") == std::string::npos);
  opens_at(save_window("waves_6port.gtkw"), 2000 * kNs, 4000 * kNs, "waves_6port.gtkw");
}

// waves/arbiter.gtkw opens at the window of docs/cosim.md's RTL waves command (cycles of
// tb/cosim's kCosimPeriodPs), zoomed and marked as the probe's save files are.
BOOST_AUTO_TEST_CASE(arbiter_save_file_opens_at_the_cosim_window) {
  std::ifstream doc(IBSC_SOURCE_DIR "/docs/cosim.md");
  const std::string text((std::istreambuf_iterator<char>(doc)), std::istreambuf_iterator<char>());
  std::smatch m;
  BOOST_TEST_REQUIRE(std::regex_search(text, m, std::regex(R"(--trace-from (\d+)\s+--trace-to (\d+))")));
  const uint64_t from = std::stoull(m[1]) * ibsc::tb::kCosimPeriodPs, to = std::stoull(m[2]) * ibsc::tb::kCosimPeriodPs;
  std::ifstream f(IBSC_SOURCE_DIR "/waves/arbiter.gtkw");
  const std::string gtkw((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  BOOST_TEST(gtkw.find(ibsc::tb::gtkw_window_lines(from, to, from)) != std::string::npos);
  opens_at(save_window(IBSC_SOURCE_DIR "/waves/arbiter.gtkw"), from, to, "arbiter.gtkw");
}

// With output buffers the dump has out_occupancy and so does the save file beside it: the one
// packet (512 bytes = 8 blocks) passes sw_0's output buffer on port 1.
BOOST_AUTO_TEST_CASE(output_buffer_occupancy_in_save_file) {
  Run r("waves_outbuf.vcd", {0}, 0, 5000, "model", {}, 2048);
  BOOST_TEST(r.probe->save_file() == "waves_outbuf.gtkw");
  const VcdReader v = r.finish();
  int checked = 0;
  BOOST_TEST(missing_in_dump("waves_outbuf.gtkw", v, &checked).empty());
  std::ifstream g("waves_outbuf.gtkw");
  const std::string text((std::istreambuf_iterator<char>(g)), std::istreambuf_iterator<char>());
  BOOST_TEST(text.find("+{p1 vl0 out_occupancy} SystemC.sw_0.p1.vl0.out_occupancy[31:0]") != std::string::npos);
  // Chain switch 0: ports 1 (to sw_1) and 3 (host 0); host 0's HCA: 2 x (7 + 4) + 2 + clock.
  BOOST_TEST(checked == 2 * 11 + 2 + 1);
  uint64_t most = 0;
  for (const auto& [t, val] : changes_ns(v, "sw_0.p1.vl0.out_occupancy"))
    if (val != X) most = std::max(most, val);
  BOOST_TEST(most == kLen / 64);
}

// With the RTL arbiter the selected switch's arbiter dumps too, over the same window and on
// the same time axis: its decision for input 3 (index 2) appears at the model's grant time.
BOOST_AUTO_TEST_CASE(rtl_arbiter_waves_share_the_window) {
  Run r("waves_rtl.vcd", {0}, 100, 1000, "rtl");
  BOOST_TEST_REQUIRE(r.probe->rtl_files().size() == 1u);
  const std::string rtl = r.probe->rtl_files()[0];
  BOOST_TEST(rtl == "waves_rtl.sw_0.rtl.vcd");
  const VcdReader v = r.finish();
  BOOST_TEST(*v.uint_at(sig(v, "sw_0.p3.grant"), 200 * kNs) == 1u);
  const VcdReader a = load_vcd(rtl);
  const std::string gv = sig(a, "gnt_valid");
  BOOST_TEST_REQUIRE(!a.changes(gv).empty());
  for (const auto& [t, val] : a.changes(gv)) BOOST_TEST((t >= 100 * kNs && t < 1000 * kNs), t);
  BOOST_TEST(*a.uint_at(gv, 200 * kNs) == 1u << 2);  // input port 3 is RTL input 2
  // The pin bundle in the fabric's file: the same decision, the same request, at the same time.
  BOOST_TEST(*v.uint_at(sig(v, "sw_0.arbiter.in2.valid"), 200 * kNs) == 1u);
  BOOST_TEST(*v.uint_at(sig(v, "sw_0.arbiter.in2.grant_valid"), 200 * kNs) == 1u);
  BOOST_TEST(*v.uint_at(sig(v, "sw_0.arbiter.in2.grant_port"), 200 * kNs) ==
             *a.uint_at(sig(a, "gnt_port[2]"), 200 * kNs));
  BOOST_TEST(*v.uint_at(sig(v, "sw_0.arbiter.in2.cand"), 200 * kNs) == *a.uint_at(sig(a, "cand[2]"), 200 * kNs));
  BOOST_TEST(*v.uint_at(sig(v, "sw_0.arbiter.in2.len"), 200 * kNs) == *a.uint_at(sig(a, "len[2]"), 200 * kNs));
  // Set only inside the window, like the RTL dump.
  for (const auto& [t, val] : v.changes(sig(v, "sw_0.arbiter.in2.grant_valid")))
    BOOST_TEST((t == 0 || (t >= 100 * kNs && t < 1000 * kNs)), t);
}

BOOST_AUTO_TEST_CASE(switch_list_and_options) {
  BOOST_TEST(ibsc::tb::parse_switch_list("0,3,7") == (std::vector<int>{0, 3, 7}));
  BOOST_TEST(ibsc::tb::parse_switch_list("2,2") == (std::vector<int>{2}));
  BOOST_CHECK_THROW(ibsc::tb::parse_switch_list("0,x"), std::invalid_argument);
  BOOST_CHECK_THROW(ibsc::tb::parse_switch_list(""), std::invalid_argument);
  BOOST_CHECK_THROW(ibsc::tb::parse_switch_list("-1"), std::invalid_argument);
  try {
    ibsc::tb::parse_switch_list("1,a", "port");
    BOOST_TEST(false);
  } catch (const std::invalid_argument& e) {
    BOOST_TEST(std::string(e.what()).find("'a' is not a port index") != std::string::npos, e.what());
  }
  BOOST_TEST(ibsc::tb::rtl_wave_path("out/run.vcd", 3) == "out/run.sw_3.rtl.vcd");
  BOOST_TEST(ibsc::tb::rtl_wave_path("a.b/run", 0) == "a.b/run.sw_0.rtl.vcd");
  ibsc::tb::WaveOptions w;
  w.file = "x.vcd";
  w.switches = {4};
  BOOST_CHECK_THROW(w.validate(4), std::invalid_argument);
  w.switches = {3};
  w.validate(4);
  w.end_ns = w.start_ns;
  BOOST_CHECK_THROW(w.validate(4), std::invalid_argument);
  // Ports are checked against each chosen switch: chain switches have 8 ports, 1-3 connected.
  const ibsc::routing::Topology topo = ibsc::testing::chain(2, 1, 1);
  w.end_ns = 100;
  w.switches = {0, 1};
  w.ports = {1, 3};
  w.validate(topo);
  auto message = [&](std::vector<int> ports) {
    w.ports = std::move(ports);
    try {
      w.validate(topo);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  BOOST_TEST(message({9}) == "waves: port 9 does not exist on switch 0 (ports 1..8)");
  BOOST_TEST(message({0}) == "waves: port 0 does not exist on switch 0 (ports 1..8)");
  BOOST_TEST(message({4, 5}) == "waves: none of ports 4,5 is connected on switch 0");
  BOOST_TEST(message({1, 2, 4}) == "accepted");  // unconnected ones are skipped, as always
  w.file = "no_such_folder/x.vcd";
  BOOST_TEST(w.vcd_path() == "no_such_folder/x.vcd");
  BOOST_CHECK_THROW(ibsc::tb::check_writable(w.vcd_path()), std::runtime_error);
  w.file = "x";
  BOOST_TEST(w.vcd_path() == "x.vcd");
}

// --wave-ports in the library: only the chosen ports of the chosen switch are dumped, and
// hosts only when their port is chosen.
BOOST_AUTO_TEST_CASE(chosen_ports_only) {
  // Chain: sw_0 uses ports 1 and 3, sw_1 ports 2 and 3; ports 1,2 leave one port of each.
  Run r("waves_ports.vcd", {0, 1}, 0, 5000, "model", {1, 2});
  const VcdReader v = r.finish();
  for (const std::string& s : v.signals()) {
    const bool chosen =
        s.rfind("SystemC.sw_0.p1.", 0) == 0 || s.rfind("SystemC.sw_1.p2.", 0) == 0 || s == "SystemC.core_clk";
    BOOST_TEST(chosen, s << " is not of a chosen port");
  }
  BOOST_TEST(!v.find("sw_1.p2.request").empty());
  BOOST_TEST(!v.find("sw_0.p1.tx_packet").empty());
  BOOST_TEST(v.find("sw_0.p3.grant").empty());
  BOOST_TEST(v.find("hca_0.tx_packet").empty());
  // The chosen port still shows its real values: the packet leaves sw_0 on p1 at 200 ns.
  BOOST_TEST(*v.uint_at(sig(v, "sw_0.p1.tx_packet"), 200 * kNs) == 1u);
}

// `ibsc run --waves`: one load point in a child process writes the dump of the chosen
// switches over the chosen window; the wave options need --waves.
BOOST_AUTO_TEST_CASE(command_line) {
  const std::string base = std::string(IBSC_BINARY) + " run " IBSC_SOURCE_DIR "/scenarios/quickstart.yaml" +
                           " --set run.warmup_ns=2000 --set run.window_ns=4000 --set run.drain_ns=20000" +
                           " --out waves_cli_out --quiet";
  std::filesystem::remove("waves_cli.vcd");
  const int rc = std::system((base + " --waves waves_cli.vcd --wave-switches 0,5 --wave-ports 1,5 --wave-start 1000"
                                     " --wave-end 3000 --wave-load 0.4 > waves_cli.txt 2>&1")
                                 .c_str());
  BOOST_TEST_REQUIRE(rc == 0);
  const VcdReader v = load_vcd("waves_cli.vcd");
  BOOST_TEST(!v.find("sw_0.p1.vl1.credits").empty());
  BOOST_TEST(!v.find("sw_5.p1.tx_packet").empty());
  BOOST_TEST(v.find("sw_1.p1.tx_packet").empty());
  // --wave-ports 1,5: port 5 is host 0's (and host 20's on sw_5); no other port, no other host.
  BOOST_TEST(!v.find("sw_0.p5.request").empty());
  BOOST_TEST(!v.find("hca_0.tx_packet").empty());
  BOOST_TEST(!v.find("hca_20.tx_packet").empty());
  for (const std::string& s : v.signals()) {
    const bool chosen = s.find(".p1.") != std::string::npos || s.find(".p5.") != std::string::npos ||
                        s.rfind("SystemC.hca_0.", 0) == 0 || s.rfind("SystemC.hca_20.", 0) == 0 ||
                        s == "SystemC.core_clk";
    BOOST_TEST(chosen, s);
  }
  for (const std::string& s : v.signals())
    for (const auto& [t, val] : v.changes(s))
      BOOST_TEST((t == 0 || (t >= 1000 * kNs && t < 3000 * kNs) || (t == 3000 * kNs && all_x(val))), s << " at " << t);
  std::ifstream out("waves_cli.txt");
  const std::string text((std::istreambuf_iterator<char>(out)), std::istreambuf_iterator<char>());
  BOOST_TEST(text.find("0.400") != std::string::npos, text);  // the single point, at --wave-load
  BOOST_TEST(std::system((base + " --wave-end 10 > waves_cli_bad.txt 2>&1").c_str()) != 0);
}
