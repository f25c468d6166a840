// OpenSM's opensm-subnet.lst (its --dump_files_dir, written by osm_dump.c's topology dump): one
// line per cabled port, every cable once from each end:
//   { TYPE Ports:NN SystemGUID:G NodeGUID:G PortGUID:G VenID:V DevID:D Rev:R {DESC} LID:LLLL PN:PP }
//   { ...the peer, same fields... } PHY=4x LOG=ACT SPD=2.5
// TYPE is SW or CA, with "-SM" on the subnet manager's node (Rt, a router: its cables are
// left out with a note, as routers are not modelled); numbers are hexadecimal. A switch's
// LID is port 0's; an HCA's is the cabled port's base LID (its LMC is not in the file).
// ibdiagnet's ibdiagnet2.lst has the same layout; a line without the {DESC} is read (the node
// is then named by GUID).
#include <fstream>
#include <map>
#include <stdexcept>

#include "routing/strict_number.h"
#include "routing/topo_import.h"
#include "routing/topo_import_links.h"

namespace ibsc::routing {
namespace {

using import_detail::fail;
using import_detail::hex;
using import_detail::LinkEnd;
using import_detail::LinkLine;

class LineReader {
 public:
  LineReader(const std::string& path, int line, std::string_view s) : path_(path), line_(line), s_(s) {}

  void expect(std::string_view lit) {
    if (s_.substr(0, lit.size()) != lit)
      fail(path_, line_, "expected '" + std::string(lit) + "' at '" + std::string(s_.substr(0, 40)) + "'");
    s_.remove_prefix(lit.size());
  }
  // Up to the next blank (or the end).
  std::string_view word() {
    size_t n = 0;
    while (n < s_.size() && s_[n] != ' ' && s_[n] != '\t') ++n;
    std::string_view w = s_.substr(0, n);
    s_.remove_prefix(n);
    return w;
  }
  void blanks() {
    while (!s_.empty() && (s_[0] == ' ' || s_[0] == '\t')) s_.remove_prefix(1);
  }
  uint64_t field(std::string_view key, uint64_t max) {
    blanks();
    expect(key);
    return hex(path_, line_, word(), max, std::string(key.substr(0, key.size() - 1)));
  }
  // "{DESC} LID:": the description may hold anything, even braces, so it ends at the first
  // "} LID:" (a description holding that text is beyond reading).
  std::string description() {
    blanks();
    expect("{");
    const size_t end = s_.find("} LID:");
    if (end == std::string_view::npos) fail(path_, line_, "node description without '} LID:' after it");
    std::string d(s_.substr(0, end));
    s_.remove_prefix(end + 1);
    return d;
  }

  LinkEnd end() {
    blanks();
    expect("{ ");
    LinkEnd e;
    const std::string_view type = word();
    const std::string_view kind = type.substr(0, type.find('-'));
    router_ |= kind == "Rt";
    if (kind != "SW" && kind != "CA" && kind != "Rt")
      fail(path_, line_, "node type '" + std::string(type) + "' is neither SW, CA nor Rt (with -SM on the SM's node)");
    if (type.size() > kind.size() && type.substr(kind.size()) != "-SM")
      fail(path_, line_, "node type '" + std::string(type) + "' (expected SW, CA or Rt, with -SM on the SM's node)");
    e.is_switch = kind == "SW";
    e.num_ports = static_cast<int>(field("Ports:", 254));
    if (e.num_ports < 1) fail(path_, line_, "node with 0 ports");
    field("SystemGUID:", UINT64_MAX);
    const uint64_t node_guid = field("NodeGUID:", UINT64_MAX);
    const uint64_t port_guid = field("PortGUID:", UINT64_MAX);
    for (std::string_view k : {"VenID:", "DevID:", "Rev:"}) field(k, UINT64_MAX);
    blanks();
    if (!s_.empty() && s_[0] == '{') e.desc = description();  // some writers leave it out (ibdiagnet2.lst)
    e.lid = static_cast<Lid>(field("LID:", 0xFFFF));
    e.port = static_cast<int>(field("PN:", 254));
    blanks();
    expect("}");
    e.guid = e.is_switch ? node_guid : port_guid;
    e.node_guid = node_guid;
    e.key = import_detail::hex16(node_guid);
    return e;
  }

  // "PHY=4x LOG=ACT SPD=2.5": the width, the link state and the speed.
  void link(LinkLine& l, std::string& state) {
    blanks();
    expect("PHY=");
    const std::string_view phy = word();
    blanks();
    expect("LOG=");
    state = std::string(word());
    blanks();
    expect("SPD=");
    const std::string_view spd = word();
    blanks();
    if (!s_.empty()) fail(path_, line_, "unexpected '" + std::string(s_) + "' at the end of the line");
    if (phy != "??") {
      uint64_t lanes = 0;
      if (phy.size() < 2 || phy.back() != 'x' || !parse_unsigned(phy.substr(0, phy.size() - 1), 100, lanes) ||
          !iba_width(lanes))
        fail(path_, line_, "link width PHY=" + std::string(phy) + " is not an IBA width (1x, 2x, 4x, 8x or 12x)");
      l.width = static_cast<int>(lanes);
      l.rate = std::string(phy) + " " + std::string(spd) + " Gb/s";
    }
    if (state != "ACT" && state != "ARM" && state != "INI" && state != "DWN")
      fail(path_, line_, "link state LOG=" + state + " (expected ACT, ARM, INI or DWN)");
  }

  bool router() const { return router_; }

 private:
  const std::string& path_;
  int line_;
  std::string_view s_;
  bool router_ = false;
};

}  // namespace

Topology read_opensm_subnet(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open the topology file");
  std::vector<LinkLine> links;
  std::map<std::string, int> inactive;  // link state -> lines
  int router_lines = 0;
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    if (raw.find_first_not_of(" \t") == std::string::npos) continue;
    LineReader r(path, line, raw);
    LinkLine l;
    l.line = line;
    l.a = r.end();
    l.b = r.end();
    std::string state;
    r.link(l, state);
    if (r.router()) {  // IB-to-IB routers are not modelled: their cables are left out
      ++router_lines;
      continue;
    }
    if (state != "ACT") ++inactive[state];
    links.push_back(std::move(l));
  }
  if (links.empty()) throw std::invalid_argument(path + ": no link lines between switches and HCAs");
  std::vector<std::string> notes;
  if (router_lines)
    notes.push_back(path + ": " + std::to_string(router_lines) +
                    " link line(s) of a router (Rt) left out: routers are not modelled");
  // OpenSM routes over every port it found, whatever its state; so are they kept here.
  for (const auto& [state, n] : inactive)
    notes.push_back(path + ": " + std::to_string(n) + " link line(s) in state " + state +
                    " (not ACTIVE); kept as cables, as OpenSM routes over them");
  return import_detail::build_from_links(path, links, {}, std::move(notes));
}

}  // namespace ibsc::routing
