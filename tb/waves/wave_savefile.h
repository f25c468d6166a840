// GTKWave save files (.gtkw) that open where the action is: at the wave window, zoomed to it,
// with named markers A and B on its start and end, and the primary marker on its first sampled
// edge (so the value column shows sampled values, not the unknowns before the window).
//
// WaveProbe writes one beside each dump (run.vcd -> run.gtkw) naming exactly the switches, ports,
// VLs and hosts it dumped: a fabric of 6-port or 36-port switches gets its own groups instead of
// the quick start's 8 ports. The standard views in waves/ use the same window lines.
//
// Format (GTKWave's savefile.c): "[timestart] t" is the left edge in dump time units (ps here);
// "*zoom marker A B ..." sets the zoom (a frame of 200 pixels spans 2^-zoom time units) and
// markers (-1: unset); "[markername] Aname" names marker A; "@flags" then "+{alias} signal" add
// traces; "@800200 -name" ... "@1000200 -name" open and close a group.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ibsc::tb {

// What a WaveProbe dumped.
struct DumpLayout {
  struct Port {
    int port = 0;
    std::string peer;  // "sw_1 p2" or "host 3"
  };
  struct Switch {
    int index = 0;
    int num_ports = 0;  // request_ports is num_ports + 1 bits wide
    std::vector<Port> ports;
  };
  std::string vcd_path;
  int num_vls = 1;
  bool out_occupancy = false;  // output buffers configured: out_occupancy traced per port and VL
  std::vector<Switch> switches;
  std::vector<int> hosts;  // HCAs traced
  uint64_t start_ps = 0, end_ps = 0, first_edge_ps = 0;
};

// "run.vcd" -> "run.gtkw" (the path beside the dump).
std::string gtkw_path(const std::string& vcd_path);

// The lines that frame [start_ps, end_ps): [timestart] a little before the start, the zoom that
// shows the whole window in a 1600-pixel window with 560 pixels of panes, the primary marker at
// marker_ps and named markers A (start) and B (end).
std::string gtkw_window_lines(uint64_t start_ps, uint64_t end_ps, uint64_t marker_ps);

// The whole save file for a dump: a core-clock line, then a group per switch port (requests,
// grants, packet on the link, and per VL input occupancy, credits, output occupancy when
// configured, head stall), then a group per host (credits, packet on the link).
std::string gtkw_text(const DumpLayout& d);

}  // namespace ibsc::tb
