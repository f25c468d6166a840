// `ibnetdiscover --ports` (-p): one line per port of every node, every cable once from each end:
//   TYPE LID PORT 0xGUID WIDTH SPEED - PTYPE PLID PPORT 0xPGUID ( 'DESC' - 'PDESC' )
//   TYPE LID PORT 0xGUID WIDTH SPEED                                    'DESC'      (no cable)
// TYPE is SW or CA (RT, a router: left out with a note, as routers are not modelled); a switch's LID is port 0's and
// its GUID the port GUID all its ports share (the node GUID on the switches we know); an HCA's LID and GUID are the
// port's. The form has no node GUID for HCAs, so an HCA's ports are grouped by description (as "desc/pN"); where two
// HCAs share a description and a port number, each port stands alone.
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "routing/strict_number.h"
#include "routing/topo_import.h"
#include "routing/topo_import_links.h"

namespace ibsc::routing {
namespace {

using import_detail::fail;
using import_detail::LinkEnd;

struct PortRecord {
  LinkEnd self, peer;
  bool router = false;  // either end is a router
  bool cabled = false;
  int width = 0;
  std::string rate;
  int line = 0;
};

std::string_view rtrim(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// "TYPE LID PORT 0xGUID" from the stream.
struct PortEnd : LinkEnd {
  bool router = false;
};
PortEnd read_end(const std::string& path, int line, std::istringstream& is) {
  std::string type, lid, port, guid;
  if (!(is >> type >> lid >> port >> guid)) fail(path, line, "expected 'TYPE LID PORT 0xGUID'");
  PortEnd e;
  if (type != "SW" && type != "CA" && type != "RT")
    fail(path, line, "node type '" + type + "' is neither SW, CA nor RT");
  e.router = type == "RT";
  e.is_switch = type == "SW";
  uint64_t v = 0;
  if (!parse_unsigned(lid, 0xFFFF, v)) fail(path, line, "LID '" + lid + "' is not a number in 0..65535");
  e.lid = static_cast<Lid>(v);
  if (!parse_unsigned(port, 254, v) || v == 0) fail(path, line, "port '" + port + "' is not a number in 1..254");
  e.port = static_cast<int>(v);
  if (guid.rfind("0x", 0) != 0) fail(path, line, "GUID '" + guid + "' without 0x");
  e.guid = import_detail::hex(path, line, std::string_view(guid).substr(2), UINT64_MAX, "GUID");
  return e;
}

PortRecord read_line(const std::string& path, int line, const std::string& raw) {
  PortRecord r;
  r.line = line;
  std::istringstream is(raw);
  PortEnd self = read_end(path, line, is);
  r.self = self;
  r.router = self.router;
  std::string width, speed;
  if (!(is >> width >> speed)) fail(path, line, "expected the width and speed after the GUID");
  uint64_t lanes = 0;
  if (width.size() >= 2 && width.back() == 'x' &&
      parse_unsigned(std::string_view(width).substr(0, width.size() - 1), 100, lanes)) {
    if (!iba_width(lanes)) fail(path, line, "link width '" + width + "' is not an IBA width (1x, 2x, 4x, 8x or 12x)");
    r.width = static_cast<int>(lanes);
    r.rate = width + " " + speed;
  }
  std::string rest;
  std::getline(is, rest);
  std::string_view s = rtrim(rest);
  while (!s.empty() && (s[0] == ' ' || s[0] == '\t')) s.remove_prefix(1);
  if (s.size() >= 2 && s.front() == '\'' && s.back() == '\'') {  // no cable: 'DESC'
    r.self.desc = std::string(s.substr(1, s.size() - 2));
    return r;
  }
  if (s.empty() || s[0] != '-') fail(path, line, "expected '- PEER ...' or 'DESC' after the speed");
  std::istringstream ps{std::string(s.substr(1))};
  PortEnd peer = read_end(path, line, ps);
  r.peer = peer;
  r.router |= peer.router;
  std::getline(ps, rest);
  s = rtrim(rest);
  while (!s.empty() && (s[0] == ' ' || s[0] == '\t')) s.remove_prefix(1);
  // ( 'DESC' - 'PDESC' ): descriptions may hold anything; the first "' - '" splits them.
  const size_t mid = s.find("' - '");
  if (s.substr(0, 3) != "( '" || s.size() < 8 || s.substr(s.size() - 3) != "' )" || mid == std::string_view::npos ||
      mid + 5 > s.size() - 3)
    fail(path, line, "expected ( 'DESC' - 'PEER DESC' ) at the end of the line");
  r.self.desc = std::string(s.substr(3, mid - 3));
  r.peer.desc = std::string(s.substr(mid + 5, s.size() - 3 - mid - 5));
  r.cabled = true;
  return r;
}

}  // namespace

Topology read_ibnetdiscover_ports(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open the topology file");
  std::vector<PortRecord> recs;
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    const size_t first = raw.find_first_not_of(" \t\r");
    if (first == std::string::npos || raw[first] == '#') continue;
    recs.push_back(read_line(path, line, raw));
  }
  if (recs.empty()) throw std::invalid_argument(path + ": no port lines");
  // HCA identity: by description, unless two HCA ports share a description and a port number
  // (two HCAs named alike): then each of that description's ports is keyed by its own GUID.
  std::map<std::pair<std::string, int>, std::set<uint64_t>> ca_ports;
  auto note_ca = [&](const LinkEnd& e) {
    if (!e.is_switch) ca_ports[{e.desc, e.port}].insert(e.guid);
  };
  for (const PortRecord& r : recs) {
    if (r.router) continue;
    note_ca(r.self);
    if (r.cabled) note_ca(r.peer);
  }
  std::set<std::string> ambiguous;
  for (const auto& [k, guids] : ca_ports)
    if (guids.size() > 1) ambiguous.insert(k.first);
  auto key = [&](LinkEnd& e) {
    if (e.is_switch) {
      e.node_guid = e.guid;
      e.key = import_detail::hex16(e.guid);
    } else {
      e.key = ambiguous.count(e.desc) ? "port " + import_detail::hex16(e.guid) : "'" + e.desc + "'";
    }
  };
  std::vector<import_detail::LinkLine> links;
  std::vector<import_detail::BareEnd> bare;
  int router_lines = 0;
  for (PortRecord& r : recs) {
    if (r.router) {  // IB-to-IB routers are not modelled: their ports and cables are left out
      ++router_lines;
      continue;
    }
    key(r.self);
    if (!r.cabled) {
      bare.push_back({r.self, r.line});
      continue;
    }
    key(r.peer);
    links.push_back({r.self, r.peer, r.width, r.rate, r.line});
  }
  std::vector<std::string> notes;
  if (router_lines)
    notes.push_back(path + ": " + std::to_string(router_lines) +
                    " port line(s) of a router (RT) left out: routers are not modelled");
  return import_detail::build_from_links(path, links, bare, std::move(notes));
}

}  // namespace ibsc::routing
