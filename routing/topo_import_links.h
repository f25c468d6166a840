// Internal to the importers (topo_import*.cpp): a fabric read as a list of cables, each named
// by its two ends, into a Topology. opensm-subnet.lst and `ibnetdiscover --ports` both list one
// cable per line (each cable once from each end); this turns such lists into switches, hosts and
// cables, checking that every line tells the same story about a node (kind, ports, description,
// LIDs, GUIDs) and a port (one peer).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "routing/topology.h"

namespace ibsc::routing::import_detail {

[[noreturn]] void fail(const std::string& path, int line, const std::string& what);

std::string trim(const std::string& s);  // without leading and trailing blanks and line ends

// Hexadecimal digits (no prefix) of at most `max`, else an error naming `what` at the line.
uint64_t hex(const std::string& path, int line, std::string_view text, uint64_t max, const std::string& what);
std::string hex16(uint64_t v);  // "0x%016llx"

// One end of a cable as a line gives it.
struct LinkEnd {
  bool is_switch = false;
  std::string key;         // node identity: switches by GUID; HCAs by node GUID where the line has it
  std::string desc;        // node description
  int num_ports = 0;       // 0: the line does not say (the highest port seen is used)
  uint64_t guid = 0;       // switch: node GUID; HCA: this port's GUID
  uint64_t node_guid = 0;  // the node GUID where the line gives it (names "S-/H-<guid>"), else 0
  Lid lid = 0;             // switch: port 0's LID; HCA: this port's base LID
  int port = 0;
};

struct LinkLine {
  LinkEnd a, b;
  int width = 0;     // lanes, 0: not given
  std::string rate;  // the text that gave the width and speed ("4x SDR"), for the note
  int line = 0;
};

// Ports a line lists without a cable (ibnetdiscover --ports lists every switch port): they
// tell a switch's port count.
struct BareEnd {
  LinkEnd end;
  int line = 0;
};

// Switches in the order they first appear, then for each HCA in that order its cabled ports,
// each its own host ("desc/pN" when the HCA has several cabled ports or the port is not 1).
// A description that several nodes share (or an empty one) gives way to the node's id,
// "S-<guid>" or "H-<guid>", as ibnetdiscover names nodes. `notes` are kept in front.
Topology build_from_links(const std::string& path, const std::vector<LinkLine>& links, const std::vector<BareEnd>& bare,
                          std::vector<std::string> notes);

// NVIDIA's SHARP aggregation nodes: an HCA inside each Quantum switch (its last port) that
// reduces data for collectives, not a compute host. Every importer leaves them out, with
// aggregation_note(); their LIDs stay in imported LFTs as dumped.
constexpr std::string_view kAggregationNode = "Mellanox Technologies Aggregation Node";
std::string aggregation_note(const std::string& path, int count);

// The note saying that per-cable widths/speeds are kept but not simulated (nothing if empty).
void note_unmodelled_rates(Topology& t, const std::string& path, const std::map<std::string, int>& rates);

}  // namespace ibsc::routing::import_detail
