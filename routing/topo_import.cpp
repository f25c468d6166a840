#include "routing/topo_import.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string_view>

#include "routing/input_file.h"
#include "routing/strict_number.h"
#include "routing/topo_import_links.h"

namespace ibsc::routing {

std::string import_detail::trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

namespace {

struct RawPort {
  int port;
  std::string peer;
  int peer_port;
  int width;
  std::string rate;  // "4xQDR" or "w=12" as the line gives it, "" if none
  int line;
  uint64_t guid;  // this port's GUID (HCA ports), 0 if not given
  Lid lid;        // this port's LID (HCA ports) ...
  Lid peer_lid;   // ... and the peer's, from the comment; 0 if not given
};

struct RawNode {
  bool is_switch;
  std::string id;
  int ports;
  int line;
  std::vector<RawPort> links;
  uint64_t guid = 0;
  Lid lid = 0;
  bool aggregation = false;  // a SHARP aggregation node (topo_import_links.h): left out
};

[[noreturn]] void fail(const std::string& path, int line, const std::string& what) {
  throw std::invalid_argument(path + ":" + std::to_string(line) + ": " + what);
}

std::ifstream open(const std::string& path) { return open_input_file(path, kTopologyFile); }

// Numbers of a dump: whole tokens, range-checked, so "8junk" or an overflow names the line.
long number(const std::string& path, int line, std::string_view text, long max) {
  uint64_t v = 0;
  if (!parse_unsigned(text, static_cast<uint64_t>(max), v))
    fail(path, line, "number '" + std::string(text) + "' is not an integer in 0.." + std::to_string(max));
  return static_cast<long>(v);
}

uint64_t hex_guid(const std::string& path, int line, std::string_view text) {
  std::string_view digits = text;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) digits.remove_prefix(2);
  uint64_t v = 0;
  if (!parse_unsigned(digits, UINT64_MAX, v, 16)) fail(path, line, "bad GUID '" + std::string(text) + "'");
  return v;
}

int lanes(const std::string& path, int line, std::string_view text, const std::string& token) {
  uint64_t v = 0;
  if (!parse_unsigned(text, 1000, v) || !iba_width(v))
    fail(path, line, "link width '" + token + "' is not an IBA width (1x, 2x, 4x, 8x or 12x)");
  return static_cast<int>(v);
}

using import_detail::trim;

// Line scanning by hand, in one pass: std::regex recursed once per character and overflowed
// the stack on node names of ~30,000 characters. Each take_* consumes from the front of `s`.
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool isxdigit_char(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_word(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
size_t skip_space(std::string_view& s) {
  size_t n = 0;
  while (n < s.size() && is_space(s[n])) ++n;
  s.remove_prefix(n);
  return n;
}
bool take(std::string_view& s, std::string_view lit) {
  if (s.substr(0, lit.size()) != lit) return false;
  s.remove_prefix(lit.size());
  return true;
}
std::string_view take_while(std::string_view& s, bool (*pred)(char)) {
  size_t n = 0;
  while (n < s.size() && pred(s[n])) ++n;
  std::string_view out = s.substr(0, n);
  s.remove_prefix(n);
  return out;
}
// `"text"` with at least one character inside.
bool take_quoted(std::string_view& s, std::string_view& out) {
  if (s.empty() || s[0] != '"') return false;
  size_t close = s.find('"', 1);
  if (close == std::string_view::npos || close == 1) return false;
  out = s.substr(1, close - 1);
  s.remove_prefix(close + 1);
  return true;
}
// `[digits]`
bool take_port(std::string_view& s, std::string_view& digits) {
  std::string_view t = s;
  if (!take(t, "[")) return false;
  digits = take_while(t, is_digit);
  if (digits.empty() || !take(t, "]")) return false;
  s = t;
  return true;
}

// What the free text after a header or port line says, outside "quoted" descriptions (a
// description may hold anything): `lid N` (every one, in order), the last `NxSPEED`
// (ibnetdiscover) or `w=N` (ibsim) width.
struct Annotations {
  std::vector<Lid> lids;
  int width = 0;     // lanes, 0 if not given
  std::string rate;  // the token that gave the width
};

bool known_speed(std::string_view s) {
  for (std::string_view k : {"SDR", "DDR", "QDR", "FDR10", "FDR", "EDR", "HDR", "NDR", "XDR"})
    if (s == k) return true;
  return false;
}

Annotations annotations(const std::string& path, int line, std::string_view s) {
  Annotations a;
  while (!s.empty()) {
    if (s[0] == '"') {  // a description: skipped whole (an unclosed one runs to the end)
      size_t close = s.find('"', 1);
      s.remove_prefix(close == std::string_view::npos ? s.size() : close + 1);
      continue;
    }
    if (!is_word(s[0])) {
      s.remove_prefix(1);
      continue;
    }
    std::string_view word = take_while(s, is_word);
    if (word == "lid") {
      std::string_view t = s;
      if (skip_space(t) == 0 || t.empty() || !is_digit(t[0])) continue;
      std::string_view n = take_while(t, is_word);
      a.lids.push_back(static_cast<Lid>(number(path, line, n, 0xFFFF)));
      s = t;
    } else if (word == "w" && !s.empty() && s[0] == '=') {
      s.remove_prefix(1);
      std::string_view n = s.substr(0, std::min(s.find_first_of(" \t\r\n\v\f#\""), s.size()));
      s.remove_prefix(n.size());
      a.rate = "w=" + std::string(n);
      a.width = lanes(path, line, n, a.rate);
    } else if (is_digit(word[0])) {
      const size_t x = word.find('x');
      if (x == std::string_view::npos || x == 0 || !known_speed(word.substr(x + 1))) continue;
      a.rate = std::string(word);
      a.width = lanes(path, line, word.substr(0, x), a.rate);
    }
  }
  return a;
}

using import_detail::note_unmodelled_rates;

// The lines of an ibnetdiscover dump, as given: nodes with their port lines.
struct Dump {
  std::vector<RawNode> nodes;
  std::vector<std::string> notes;
  int lines = 0;
  uint64_t pending_guid = 0;  // switchguid= (caguid=) precedes its Switch (Ca) header
};

// Node header: (Switch|Ca|Hca) PORTS "ID" [free text]. False if `s` is not one.
bool read_node_header(const std::string& path, int line, const std::string& s, Dump& d) {
  std::string_view v = s;
  const bool sw = take(v, "Switch");
  if (!sw && !take(v, "Ca") && !take(v, "Hca")) return false;
  std::string_view ports_text, id;
  if (!skip_space(v) || (ports_text = take_while(v, is_digit)).empty() || !skip_space(v) || !take_quoted(v, id))
    return false;
  long ports = number(path, line, ports_text, 1L << 30);
  if (ports < 1 || ports > 254)
    fail(path, line, "node \"" + std::string(id) + "\" has " + std::string(ports_text) + " ports (1..254)");
  RawNode n{sw, std::string(id), static_cast<int>(ports), line, {}};
  n.aggregation = !sw && v.find("\"" + std::string(import_detail::kAggregationNode) + "\"") != std::string::npos;
  std::string_view g = id;
  const bool id_is_guid = take(g, sw ? "S-" : "H-") && g.size() == 16 && take_while(g, isxdigit_char).size() == 16;
  n.guid = d.pending_guid ? d.pending_guid : id_is_guid ? hex_guid(path, line, id.substr(2)) : 0;
  if (n.is_switch) {
    Annotations a = annotations(path, line, v);
    if (!a.lids.empty()) n.lid = a.lids.front();
  }
  d.pending_guid = 0;
  d.nodes.push_back(std::move(n));
  return true;
}

// Port line: [P](GUID)? "PEER"[PP] [free text], of the node last named.
void read_port_line(const std::string& path, int line, const std::string& s, Dump& d) {
  if (d.nodes.empty()) fail(path, line, "port line before any Switch/Ca header");
  std::string_view v = s, p_text, guid_text, peer, pp_text;
  bool ok = take_port(v, p_text);
  if (ok && take(v, "(")) {
    guid_text = take_while(v, [](char c) { return isxdigit_char(c) || c == 'x'; });
    ok = take(v, ")");
  }
  ok = ok && (skip_space(v), take_quoted(v, peer)) && take_port(v, pp_text);
  if (!ok) fail(path, line, "cannot read port line '" + s + "'");
  int p = static_cast<int>(number(path, line, p_text, 1L << 30));
  int pp = static_cast<int>(number(path, line, pp_text, 1L << 30));
  RawNode& n = d.nodes.back();
  if (p < 1 || p > n.ports)
    fail(path, line, "port " + std::to_string(p) + " outside 1.." + std::to_string(n.ports) + " of \"" + n.id + "\"");
  Annotations a = annotations(path, line, v);
  // Comment LIDs: an HCA port line names its own LID first ("# lid 93 lmc 0 ... lid 9"), and
  // every port line names the peer's LID last.
  uint64_t guid = guid_text.empty() ? 0 : hex_guid(path, line, guid_text);
  Lid own = 0, peer_lid = 0;
  if (!a.lids.empty()) peer_lid = a.lids.back();
  if (!n.is_switch && a.lids.size() >= 2) own = a.lids.front();
  n.links.push_back({p, std::string(peer), pp, a.width ? a.width : 1, a.rate, line, guid, own, peer_lid});
}

Dump read_dump_lines(const std::string& path) {
  std::ifstream in = open(path);
  Dump d;
  std::string raw;
  int& line = d.lines;
  while (std::getline(in, raw)) {
    ++line;
    const std::string s = trim(raw);
    if (s.empty() || s[0] == '#') continue;
    if (read_node_header(path, line, s, d)) continue;
    if (s[0] == '[') {
      read_port_line(path, line, s, d);
      continue;
    }
    std::string_view v = s;
    if (take(v, "switchguid=0x") || take(v, "caguid=0x")) {
      std::string_view g = take_while(v, isxdigit_char);
      if (!g.empty()) d.pending_guid = hex_guid(path, line, g);
    }
    if (s.find('=') != std::string::npos && s.find(' ') == std::string::npos) continue;  // vendid=..., guids
    if (d.nodes.empty()) {
      d.notes.push_back(path + ":" + std::to_string(line) + ": skipped a line that is not part of a dump: '" + s + "'");
      continue;
    }
    fail(path, line, "unexpected line '" + s + "'");
  }
  if (d.nodes.empty()) fail(path, line, "no Switch or Ca records");
  return d;
}

using End = std::pair<int, int>;  // (raw node, port)

// Cables from both ends; a cable listed once is still a cable. Key: one end.
struct Cable {
  End peer;
  int width, line;
  std::string rate;
};

std::map<std::string, int> index_nodes(const std::string& path, const std::vector<RawNode>& nodes) {
  std::map<std::string, int> index;
  for (size_t i = 0; i < nodes.size(); ++i)
    if (!index.emplace(nodes[i].id, static_cast<int>(i)).second)
      fail(path, nodes[i].line, "node \"" + nodes[i].id + "\" defined twice");
  return index;
}

std::map<End, Cable> collect_cables(const std::string& path, const std::vector<RawNode>& nodes,
                                    const std::map<std::string, int>& index) {
  std::map<End, Cable> cable;
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const RawPort& rp : nodes[i].links) {
      auto it = index.find(rp.peer);
      if (it == index.end()) fail(path, rp.line, "cable to \"" + rp.peer + "\", which has no record in the file");
      const RawNode& peer = nodes[it->second];
      if (nodes[i].aggregation || peer.aggregation) continue;
      if (rp.peer_port < 1 || rp.peer_port > peer.ports)
        fail(path, rp.line,
             "cable to port " + std::to_string(rp.peer_port) + " of \"" + peer.id + "\", which has " +
                 std::to_string(peer.ports) + " ports");
      End a{static_cast<int>(i), rp.port}, b{it->second, rp.peer_port};
      if (a == b) fail(path, rp.line, "port " + std::to_string(rp.port) + " cabled to itself");
      for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
        auto c = cable.find(from);
        if (c != cable.end() && c->second.peer != to)
          fail(path, rp.line,
               "port " + std::to_string(from.second) + " of \"" + nodes[from.first].id +
                   "\" is also cabled elsewhere (line " + std::to_string(c->second.line) + ")");
        cable[from] = {to, rp.width, rp.line, rp.rate};
      }
    }
  return cable;
}

// The dump's nodes as topology nodes: switches, then each HCA's cabled ports as hosts.
struct Placed {
  std::vector<int> switch_node;  // raw node -> topology node, -1 for an HCA
  std::map<End, int> host_node;  // (raw HCA, port) -> host node
  std::pair<int, int> where(const std::vector<RawNode>& nodes, End end) const {
    if (nodes[end.first].is_switch) return {switch_node[end.first], end.second};
    return {host_node.at(end), 1};
  }
};

Placed add_nodes(const std::string& path, const std::vector<RawNode>& nodes, const std::map<End, Cable>& cable,
                 Topology& t) {
  Placed at;
  at.switch_node.assign(nodes.size(), -1);
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].is_switch) at.switch_node[i] = add_switch(t, nodes[i].id, nodes[i].ports);
  int aggregation = 0;
  for (size_t i = 0; i < nodes.size(); ++i) {
    aggregation += nodes[i].aggregation;
    if (nodes[i].is_switch || nodes[i].aggregation) continue;
    std::vector<int> cabled;
    for (int p = 1; p <= nodes[i].ports; ++p)
      if (cable.count({static_cast<int>(i), p})) cabled.push_back(p);
    if (cabled.empty())
      t.notes.push_back(path + ":" + std::to_string(nodes[i].line) + ": HCA \"" + nodes[i].id +
                        "\" has no cable; left out");
    for (int p : cabled) {
      std::string name = cabled.size() > 1 || p != 1 ? nodes[i].id + "/p" + std::to_string(p) : nodes[i].id;
      at.host_node[{static_cast<int>(i), p}] = add_host(t, name);
    }
  }
  if (aggregation) t.notes.push_back(import_detail::aggregation_note(path, aggregation));
  return at;
}

// GUIDs and LIDs as the dump gives them, so tables computed on the real fabric (OpenSM
// dumps) can be matched to nodes; a node GUID (switch or CA, from its guid= line or its
// S-/H-<guid> name) or an HCA port GUID given twice would make that ambiguous.
void assign_guids_and_lids(const std::string& path, const std::vector<RawNode>& nodes,
                           const std::map<std::string, int>& index, const Placed& at, Topology& t) {
  std::map<uint64_t, int> guid_line;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].aggregation) continue;
    if (nodes[i].guid && !guid_line.emplace(nodes[i].guid, nodes[i].line).second)
      fail(path, nodes[i].line,
           std::string(nodes[i].is_switch ? "switch" : "CA") + " GUID of \"" + nodes[i].id + "\" also on line " +
               std::to_string(guid_line[nodes[i].guid]));
    if (!nodes[i].is_switch) continue;
    Node& sw = t.nodes[at.switch_node[i]];
    sw.guid = nodes[i].guid;
    sw.lid = nodes[i].lid;
  }
  std::map<uint64_t, int> port_guid_line;
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const RawPort& rp : nodes[i].links) {
      auto own = at.host_node.find({static_cast<int>(i), rp.port});
      if (own != at.host_node.end()) {
        if (rp.guid && !port_guid_line.emplace(rp.guid, rp.line).second)
          fail(path, rp.line,
               "port GUID of \"" + nodes[i].id + "\" port " + std::to_string(rp.port) + " also on line " +
                   std::to_string(port_guid_line[rp.guid]));
        if (rp.guid) t.nodes[own->second].guid = rp.guid;
        if (rp.lid) t.nodes[own->second].lid = rp.lid;
      }
      auto peer = at.host_node.find({index.at(rp.peer), rp.peer_port});
      if (peer != at.host_node.end() && rp.peer_lid && nodes[i].is_switch) t.nodes[peer->second].lid = rp.peer_lid;
    }
}

void connect_cables(const std::string& path, const std::vector<RawNode>& nodes, const std::map<End, Cable>& cable,
                    const Placed& at, Topology& t) {
  std::map<std::string, int> rates;  // "4xQDR" -> cables
  for (const auto& [from, c] : cable) {
    const auto& to = c.peer;
    if (to < from) continue;
    if (!nodes[from.first].is_switch && !nodes[to.first].is_switch)
      fail(path, c.line, "cable between two HCAs \"" + nodes[from.first].id + "\" and \"" + nodes[to.first].id + "\"");
    auto a = at.where(nodes, from), b = at.where(nodes, to);
    connect(t, a.first, a.second, b.first, b.second, c.width);
    if (!c.rate.empty()) ++rates[c.rate];
    if (a.first == b.first)
      t.notes.push_back(path + ":" + std::to_string(c.line) + ": loop-back cable on \"" + nodes[from.first].id +
                        "\" ports " + std::to_string(from.second) + "-" + std::to_string(to.second) +
                        " (never routed)");
  }
  for (int s = 0; s < t.num_switches; ++s) {
    bool any = false;
    for (int p = 1; p <= t.nodes[s].num_ports; ++p) any |= t.nodes[s].ports[p].node >= 0;
    if (!any) t.notes.push_back(path + ": switch \"" + t.nodes[s].name + "\" has no cable");
  }
  note_unmodelled_rates(t, path, rates);
}

}  // namespace

Topology read_ibnetdiscover(const std::string& path) {
  const Dump d = read_dump_lines(path);
  const std::map<std::string, int> index = index_nodes(path, d.nodes);
  const std::map<End, Cable> cable = collect_cables(path, d.nodes, index);
  Topology t;
  t.kind = "file";
  t.notes = d.notes;
  const Placed at = add_nodes(path, d.nodes, cable, t);
  assign_guids_and_lids(path, d.nodes, index, at, t);
  connect_cables(path, d.nodes, cable, at, t);
  return t;
}

Topology read_topology_file(const std::string& path) {
  if (std::filesystem::is_directory(path)) {  // OpenSM's --dump_files_dir output
    const std::string lst = (std::filesystem::path(path) / "opensm-subnet.lst").string();
    if (!std::filesystem::exists(lst))
      throw std::invalid_argument(path + ": a directory without opensm-subnet.lst (OpenSM's --dump_files_dir output)");
    return read_opensm_subnet(lst);
  }
  std::ifstream in = open(path);
  std::string raw;
  while (std::getline(in, raw)) {
    std::string s = trim(raw);
    if (s.rfind("{ ", 0) == 0 && s.find("NodeGUID:") != std::string::npos) return read_opensm_subnet(path);
    if ((s.rfind("SW ", 0) == 0 || s.rfind("CA ", 0) == 0 || s.rfind("RT ", 0) == 0) &&
        s.find(" 0x") != std::string::npos)
      return read_ibnetdiscover_ports(path);
    if (s.rfind("switch ", 0) == 0 || s.rfind("host ", 0) == 0 || s.rfind("link ", 0) == 0) return read_edge_list(path);
    if (s.rfind("Switch", 0) == 0 || s.rfind("Ca", 0) == 0 || s.rfind("Hca", 0) == 0) return read_ibnetdiscover(path);
  }
  throw std::invalid_argument(
      path +
      ": not a topology file: no opensm-subnet.lst link ('{ '), ibnetdiscover (Switch/Ca, or SW/CA with "
      "--ports) or edge list (switch/host/link) line");
}

}  // namespace ibsc::routing
