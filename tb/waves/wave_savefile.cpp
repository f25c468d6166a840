#include "tb/waves/wave_savefile.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <sstream>

namespace ibsc::tb {
namespace {

// Trace flags as GTKWave writes them: 22 hex, 24 decimal, 28 binary (one bit), group begin/end.
constexpr const char* kHex = "@22";
constexpr const char* kDec = "@24";
constexpr const char* kBit = "@28";

// The window as laid out in the save files: [size] 1600 wide, the signal tree 260 pixels and the
// names 300 or more (GTKWave widens that pane to the longest name), so about 900 pixels of waves
// (measured on GTKWave 3.3.118 with these files); 3% of the window spare on each side.
constexpr double kWavePixels = 900;
constexpr double kMargin = 0.03;

void group(std::ostream& o, const std::string& name, const std::string& body) {
  o << "@800200\n-" << name << "\n" << body << "@1000200\n-" << name << "\n";
}
std::string trace(const char* flags, const std::string& alias, const std::string& signal, int width) {
  std::string s = std::string(flags) + "\n+{" + alias + "} SystemC." + signal;
  if (width > 1) s += "[" + std::to_string(width - 1) + ":0]";
  return s + "\n";
}

}  // namespace

std::string gtkw_path(const std::string& vcd_path) {
  std::filesystem::path p(vcd_path);
  p.replace_extension(".gtkw");
  return p.string();
}

std::string gtkw_window_lines(uint64_t start_ps, uint64_t end_ps, uint64_t marker_ps) {
  const double width = static_cast<double>(end_ps - start_ps);
  const uint64_t margin = static_cast<uint64_t>(kMargin * width);
  const uint64_t left = start_ps > margin ? start_ps - margin : 0;
  // 200 pixels span 2^-zoom time units: the window and its margins over the wave pixels.
  const double zoom = -std::log2(200.0 * (1 + 2 * kMargin) * width / kWavePixels);
  char line[64];
  std::snprintf(line, sizeof line, "*%.6f %llu %llu %llu", zoom, static_cast<unsigned long long>(marker_ps),
                static_cast<unsigned long long>(start_ps), static_cast<unsigned long long>(end_ps));
  std::ostringstream o;
  o << "[timestart] " << left << "\n[size] 1600 1000\n[pos] -1 -1\n" << line;
  for (int m = 2; m < 26; ++m) o << " -1";  // named markers C..Z unset
  o << "\n[markername] Awindow start\n[markername] Bwindow end\n";
  return o.str();
}

std::string gtkw_text(const DumpLayout& d) {
  std::ostringstream o;
  o << "[*] IBSC fabric waves, written with " << std::filesystem::path(d.vcd_path).filename().string()
    << " for exactly what it holds: open with gtkwave "
    << std::filesystem::path(gtkw_path(d.vcd_path)).filename().string()
    << "\n[*] (or gtkwave <dump> <this file>). Window " << d.start_ps / 1000 << "-" << d.end_ps / 1000
    << " ns (markers A, B); before and after it every value is x (not sampled).\n"
       "[*] Sampled on core-clock edges, after the switch has arbitrated on that edge. occupancy = 64-byte blocks in "
       "that input buffer;\n[*] credits = credits toward the peer on that output port and VL; out_occupancy = blocks "
       "in that output buffer;\n[*] head_stall: 0 not waiting, 1 credit stall, 2 output busy, 3 both, 4 arbitration; "
       "request_ports bit o = output o;\n[*] grant_out = output granted at the last arbitration (0 none); tx_packet = "
       "packet id + 1 on the outgoing link (0 idle).\n";
  std::error_code ec;
  const auto abs = std::filesystem::absolute(d.vcd_path, ec);
  if (!ec) {
    // GTKWave finds the dump from here, or relative to [savefile] when the folder moved.
    o << "[dumpfile] \"" << abs.string() << "\"\n[savefile] \"" << gtkw_path(abs.string()) << "\"\n";
  }
  o << gtkw_window_lines(d.start_ps, d.end_ps, d.first_edge_ps) << "[treeopen] SystemC.\n";
  for (const auto& s : d.switches) o << "[treeopen] SystemC.sw_" << s.index << ".\n";
  o << "[sst_width] 260\n[signals_width] 300\n[sst_expanded] 1\n[sst_vpaned_height] 320\n";
  o << trace(kBit, "core clock", "core_clk", 1);
  for (const auto& s : d.switches) {
    const std::string sn = "sw_" + std::to_string(s.index);
    for (const auto& p : s.ports) {
      const std::string pn = "p" + std::to_string(p.port), full = sn + "." + pn;
      std::string body = trace(kBit, pn + " request", full + ".request", 1) +
                         trace(kHex, pn + " request_ports", full + ".request_ports", s.num_ports + 1) +
                         trace(kDec, pn + " request_in_vl", full + ".request_in_vl", 32) +
                         trace(kDec, pn + " request_out_vl", full + ".request_out_vl", 32) +
                         trace(kBit, pn + " grant", full + ".grant", 1) +
                         trace(kDec, pn + " grant_out", full + ".grant_out", 32) +
                         trace(kDec, pn + " tx_packet", full + ".tx_packet", 64);
      for (int v = 0; v < d.num_vls; ++v) {
        const std::string vn = pn + " vl" + std::to_string(v), vf = full + ".vl" + std::to_string(v);
        body +=
            trace(kDec, vn + " occupancy", vf + ".occupancy", 32) + trace(kDec, vn + " credits", vf + ".credits", 32);
        if (d.out_occupancy) body += trace(kDec, vn + " out_occupancy", vf + ".out_occupancy", 32);
        body += trace(kDec, vn + " head_stall", vf + ".head_stall", 32);
      }
      group(o, sn + " port " + std::to_string(p.port) + " (" + p.peer + ")", body);
    }
  }
  for (int h : d.hosts) {
    const std::string hn = "hca_" + std::to_string(h);
    std::string body = trace(kDec, hn + " tx_packet", hn + ".tx_packet", 64);
    for (int v = 0; v < d.num_vls; ++v)
      body += trace(kDec, hn + " vl" + std::to_string(v) + " credits", hn + ".vl" + std::to_string(v) + ".credits", 32);
    group(o, "host " + std::to_string(h), body);
  }
  return o.str();
}

}  // namespace ibsc::tb
