#include "routing/topo_import.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "routing/strict_number.h"
#include "routing/topo_import_links.h"

namespace ibsc::routing {
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

std::ifstream open(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open the topology file");
  return in;
}

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

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

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

}  // namespace

Topology read_ibnetdiscover(const std::string& path) {
  std::ifstream in = open(path);
  std::vector<RawNode> nodes;
  uint64_t pending_guid = 0;  // switchguid= precedes its Switch header
  std::vector<std::string> notes;
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    const std::string s = trim(raw);
    if (s.empty() || s[0] == '#') continue;
    std::string_view v = s;
    // Node header: (Switch|Ca|Hca) PORTS "ID" [free text]
    bool sw = take(v, "Switch");
    if (sw || take(v, "Ca") || take(v, "Hca")) {
      std::string_view ports_text, id;
      if (skip_space(v) && !(ports_text = take_while(v, is_digit)).empty() && skip_space(v) && take_quoted(v, id)) {
        long ports = number(path, line, ports_text, 1L << 30);
        if (ports < 1 || ports > 254)
          fail(path, line, "node \"" + std::string(id) + "\" has " + std::string(ports_text) + " ports (1..254)");
        RawNode n{sw, std::string(id), static_cast<int>(ports), line, {}};
        n.aggregation = !sw && v.find("\"" + std::string(import_detail::kAggregationNode) + "\"") != std::string::npos;
        if (n.is_switch) {
          std::string_view g = id;
          const bool id_is_guid = take(g, "S-") && g.size() == 16 && take_while(g, isxdigit_char).size() == 16;
          n.guid = pending_guid ? pending_guid : id_is_guid ? hex_guid(path, line, id.substr(2)) : 0;
          Annotations a = annotations(path, line, v);
          if (!a.lids.empty()) n.lid = a.lids.front();
        }
        pending_guid = 0;
        nodes.push_back(std::move(n));
        continue;
      }
      v = s;
    }
    if (s[0] == '[') {
      // Port line: [P](GUID)? "PEER"[PP] [free text]
      if (nodes.empty()) fail(path, line, "port line before any Switch/Ca header");
      std::string_view p_text, guid_text, peer, pp_text;
      bool ok = take_port(v, p_text);
      if (ok && take(v, "(")) {
        guid_text = take_while(v, [](char c) { return isxdigit_char(c) || c == 'x'; });
        ok = take(v, ")");
      }
      ok = ok && (skip_space(v), take_quoted(v, peer)) && take_port(v, pp_text);
      if (!ok) fail(path, line, "cannot read port line '" + s + "'");
      int p = static_cast<int>(number(path, line, p_text, 1L << 30));
      int pp = static_cast<int>(number(path, line, pp_text, 1L << 30));
      RawNode& n = nodes.back();
      if (p < 1 || p > n.ports)
        fail(path, line,
             "port " + std::to_string(p) + " outside 1.." + std::to_string(n.ports) + " of \"" + n.id + "\"");
      Annotations a = annotations(path, line, v);
      // Comment LIDs: an HCA port line names its own LID first ("# lid 93 lmc 0 ... lid 9"), and
      // every port line names the peer's LID last.
      uint64_t guid = guid_text.empty() ? 0 : hex_guid(path, line, guid_text);
      Lid own = 0, peer_lid = 0;
      if (!a.lids.empty()) peer_lid = a.lids.back();
      if (!n.is_switch && a.lids.size() >= 2) own = a.lids.front();
      n.links.push_back({p, std::string(peer), pp, a.width ? a.width : 1, a.rate, line, guid, own, peer_lid});
      continue;
    }
    if (take(v, "switchguid=0x")) {
      std::string_view g = take_while(v, isxdigit_char);
      if (!g.empty()) pending_guid = hex_guid(path, line, g);
    }
    if (s.find('=') != std::string::npos && s.find(' ') == std::string::npos) continue;  // vendid=..., guids
    if (nodes.empty()) {
      notes.push_back(path + ":" + std::to_string(line) + ": skipped a line that is not part of a dump: '" + s + "'");
      continue;
    }
    fail(path, line, "unexpected line '" + s + "'");
  }
  if (nodes.empty()) fail(path, line, "no Switch or Ca records");

  std::map<std::string, int> index;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!index.emplace(nodes[i].id, static_cast<int>(i)).second)
      fail(path, nodes[i].line, "node \"" + nodes[i].id + "\" defined twice");
  }
  // Cables from both ends; a cable listed once is still a cable. Key: (node, port).
  struct Cable {
    std::pair<int, int> peer;
    int width, line;
    std::string rate;
  };
  std::map<std::pair<int, int>, Cable> cable;
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
      std::pair<int, int> a{static_cast<int>(i), rp.port}, b{it->second, rp.peer_port};
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
  Topology t;
  t.kind = "file";
  t.notes = notes;
  std::vector<int> switch_node(nodes.size(), -1);
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].is_switch) switch_node[i] = add_switch(t, nodes[i].id, nodes[i].ports);
  std::map<std::pair<int, int>, int> host_node;  // (raw node, port) -> host node
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
      host_node[{static_cast<int>(i), p}] = add_host(t, name);
    }
  }
  if (aggregation) t.notes.push_back(import_detail::aggregation_note(path, aggregation));
  auto where = [&](std::pair<int, int> end) -> std::pair<int, int> {
    if (nodes[end.first].is_switch) return {switch_node[end.first], end.second};
    return {host_node.at(end), 1};
  };
  // GUIDs and LIDs as the dump gives them, so tables computed on the real fabric (OpenSM
  // dumps) can be matched to nodes; a switch GUID given twice would make that ambiguous.
  std::map<uint64_t, int> guid_line;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (!nodes[i].is_switch) continue;
    Node& sw = t.nodes[switch_node[i]];
    sw.guid = nodes[i].guid;
    sw.lid = nodes[i].lid;
    if (sw.guid && !guid_line.emplace(sw.guid, nodes[i].line).second)
      fail(path, nodes[i].line,
           "switch GUID of \"" + nodes[i].id + "\" also on line " + std::to_string(guid_line[sw.guid]));
  }
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const RawPort& rp : nodes[i].links) {
      auto own = host_node.find({static_cast<int>(i), rp.port});
      if (own != host_node.end()) {
        if (rp.guid) t.nodes[own->second].guid = rp.guid;
        if (rp.lid) t.nodes[own->second].lid = rp.lid;
      }
      auto peer = host_node.find({index.at(rp.peer), rp.peer_port});
      if (peer != host_node.end() && rp.peer_lid && nodes[i].is_switch) t.nodes[peer->second].lid = rp.peer_lid;
    }
  std::map<std::string, int> rates;  // "4xQDR" -> cables
  for (const auto& [from, c] : cable) {
    const auto& to = c.peer;
    if (to < from) continue;
    if (!nodes[from.first].is_switch && !nodes[to.first].is_switch)
      fail(path, c.line, "cable between two HCAs \"" + nodes[from.first].id + "\" and \"" + nodes[to.first].id + "\"");
    auto a = where(from), b = where(to);
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
  return t;
}

Topology read_edge_list(const std::string& path) {
  std::ifstream in = open(path);
  struct Decl {
    bool is_switch;
    int ports;
    int line;
  };
  std::map<std::string, Decl> decl;
  std::vector<std::string> order;
  struct Link {
    std::string a, b;
    int pa, pb, width, line;
    bool width_given;
  };
  std::vector<Link> links;
  std::string raw;
  int line = 0;
  auto name_port = [&](const std::string& tok, std::string& name, int& port) {
    size_t c = tok.rfind(':');
    name = tok.substr(0, c);
    port = 0;
    if (c != std::string::npos) {
      uint64_t v = 0;
      if (!parse_unsigned(tok.substr(c + 1), 1000000, v)) fail(path, line, "bad port in '" + tok + "'");
      if (v < 1 || v > 254) fail(path, line, "port " + tok.substr(c + 1) + " outside 1..254");
      port = static_cast<int>(v);
    }
  };
  while (std::getline(in, raw)) {
    ++line;
    std::string s = trim(raw.substr(0, raw.find('#')));
    if (s.empty()) continue;
    std::istringstream is(s);
    std::string kw, x, y, extra;
    is >> kw;
    if (kw == "switch" || kw == "host") {
      if (!(is >> x)) fail(path, line, kw + " needs a name");
      int ports = 0;
      if (kw == "switch" && (is >> y)) {
        uint64_t v = 0;
        if (!parse_unsigned(y, 1000000, v)) fail(path, line, "bad port count '" + y + "'");
        if (v < 1 || v > 254) fail(path, line, "port count " + y + " outside 1..254");
        ports = static_cast<int>(v);
      }
      if (is >> extra) fail(path, line, "unexpected '" + extra + "'");
      if (!decl.emplace(x, Decl{kw == "switch", ports, line}).second) fail(path, line, "'" + x + "' declared twice");
      order.push_back(x);
    } else if (kw == "link") {
      Link l{};
      l.line = line;
      l.width = 1;
      if (!(is >> x >> y)) fail(path, line, "link needs two ends");
      name_port(x, l.a, l.pa);
      name_port(y, l.b, l.pb);
      if (is >> extra) {
        uint64_t v = 0;
        if (!parse_unsigned(extra, 1000, v) || !iba_width(v))
          fail(path, line, "bad width '" + extra + "' (IBA link widths: 1, 2, 4, 8 or 12 lanes)");
        l.width = static_cast<int>(v);
        l.width_given = true;
        if (is >> extra) fail(path, line, "unexpected '" + extra + "'");
      }
      links.push_back(l);
    } else {
      fail(path, line, "unknown keyword '" + kw + "' (switch, host, link)");
    }
  }
  std::map<std::string, int> need;  // ports a switch needs
  for (const Link& l : links)
    for (auto [n, p] : {std::pair{l.a, l.pa}, std::pair{l.b, l.pb}}) {
      if (!decl.count(n)) fail(path, l.line, "'" + n + "' is not declared (switch NAME or host NAME first)");
      need[n] = std::max(need[n] + (p ? 0 : 1), p);
    }
  Topology t;
  t.kind = "file";
  std::map<std::string, int> node;
  for (const auto& n : order)
    if (decl[n].is_switch) {
      int ports = decl[n].ports ? decl[n].ports : std::max(need[n], 1);
      node[n] = add_switch(t, n, ports);
    }
  for (const auto& n : order)
    if (!decl[n].is_switch) node[n] = add_host(t, n);
  std::map<std::string, int> rates;  // "4x" -> cables
  for (const Link& l : links) {
    if (l.width_given) ++rates[std::to_string(l.width) + "x"];
    int a = node[l.a], b = node[l.b];
    auto pick = [&](int v, int p, const std::string& n) {
      if (t.nodes[v].kind == NodeKind::Host) {
        if (p > 1) fail(path, l.line, "host '" + n + "' has one port");
        return 1;
      }
      if (p) {
        if (p > t.nodes[v].num_ports)
          fail(path, l.line,
               "port " + std::to_string(p) + " of '" + n + "' beyond its " + std::to_string(t.nodes[v].num_ports) +
                   " ports");
        return p;
      }
      for (int q = 1; q <= t.nodes[v].num_ports; ++q)
        if (t.nodes[v].ports[q].node < 0) return q;
      fail(path, l.line, "switch '" + n + "' has no free port");
    };
    if (!t.is_switch(a) && !t.is_switch(b)) fail(path, l.line, "link between two hosts");
    int pa = pick(a, l.pa, l.a);
    int pb = pick(b, l.pb, l.b);
    try {
      connect(t, a, pa, b, pb, l.width);
    } catch (const std::invalid_argument& e) {
      fail(path, l.line, e.what());
    }
    if (a == b)  // kept, as from a real dump, but no route uses it
      t.notes.push_back(path + ":" + std::to_string(l.line) + ": loop-back cable on '" + l.a + "' ports " +
                        std::to_string(pa) + "-" + std::to_string(pb) + " (never routed)");
  }
  for (int h = 0; h < t.num_hosts; ++h)
    if (t.nodes[t.host_node(h)].ports[1].node < 0)
      t.notes.push_back(path + ":" + std::to_string(decl[t.nodes[t.host_node(h)].name].line) + ": host '" +
                        t.nodes[t.host_node(h)].name + "' has no cable");
  note_unmodelled_rates(t, path, rates);
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
