#include "routing/topo_import.h"

#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace ibsc::routing {
namespace {

struct RawPort {
  int port;
  std::string peer;
  int peer_port;
  int width;
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
};

[[noreturn]] void fail(const std::string& path, int line, const std::string& what) {
  throw std::invalid_argument(path + ":" + std::to_string(line) + ": " + what);
}

std::ifstream open(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open the topology file");
  return in;
}

// Numbers of a dump: range-checked, so an overflow names the line instead of "stoi".
long number(const std::string& path, int line, const std::string& text, long max, int base = 10) {
  size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(text, &used, base);
  } catch (...) {
    used = 0;
  }
  if (used != text.size() || text.empty() || v > static_cast<unsigned long long>(max))
    fail(path, line, "number '" + text + "' is not an integer in 0.." + std::to_string(max));
  return static_cast<long>(v);
}

uint64_t hex_guid(const std::string& path, int line, const std::string& text) {
  size_t used = 0;
  uint64_t v = 0;
  try {
    v = std::stoull(text, &used, 16);
  } catch (...) {
    used = 0;
  }
  if (used != text.size() || text.empty() || text.size() > 18) fail(path, line, "bad GUID '" + text + "'");
  return v;
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

}  // namespace

Topology read_ibnetdiscover(const std::string& path) {
  std::ifstream in = open(path);
  static const std::regex header(R"re(^(Switch|Ca|Hca)\s+(\d+)\s+"([^"]+)")re");
  static const std::regex port_line(R"re(^\[(\d+)\](\([0-9a-fA-Fx]*\))?\s*"([^"]+)"\[(\d+)\])re");
  static const std::regex width_re(R"re(\b(\d+)x(SDR|DDR|QDR|FDR10|FDR|EDR|HDR|NDR|XDR)\b)re");
  static const std::regex lid_re(R"re(\blid\s+(\d+))re");
  static const std::regex sw_guid_re(R"re(^switchguid=0x([0-9a-fA-F]+))re");
  static const std::regex id_guid_re(R"re(^S-([0-9a-fA-F]{16})$)re");
  std::vector<RawNode> nodes;
  uint64_t pending_guid = 0;  // switchguid= precedes its Switch header
  std::vector<std::string> notes;
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    std::string s = trim(raw);
    if (s.empty() || s[0] == '#') continue;
    std::smatch m;
    if (std::regex_search(s, m, header)) {
      long ports = number(path, line, m[2], 1L << 30);
      if (ports < 1 || ports > 254)
        fail(path, line, "node \"" + m[3].str() + "\" has " + m[2].str() + " ports (1..254)");
      RawNode n{m[1] == "Switch", m[3], static_cast<int>(ports), line, {}};
      if (n.is_switch) {
        std::smatch g;
        const std::string id = m[3];
        n.guid = pending_guid ? pending_guid
                 : std::regex_search(id, g, id_guid_re) ? hex_guid(path, line, g[1]) : 0;
        std::string rest = m.suffix();
        if (std::regex_search(rest, g, lid_re)) n.lid = static_cast<Lid>(number(path, line, g[1], 0xFFFF));
      }
      pending_guid = 0;
      nodes.push_back(std::move(n));
      continue;
    }
    if (s[0] == '[') {
      if (nodes.empty()) fail(path, line, "port line before any Switch/Ca header");
      if (!std::regex_search(s, m, port_line)) fail(path, line, "cannot read port line '" + s + "'");
      int p = static_cast<int>(number(path, line, m[1], 1L << 30));
      int pp = static_cast<int>(number(path, line, m[4], 1L << 30));
      RawNode& n = nodes.back();
      if (p < 1 || p > n.ports)
        fail(path, line,
             "port " + std::to_string(p) + " outside 1.." + std::to_string(n.ports) + " of \"" + n.id + "\"");
      int width = 1;
      std::smatch w;
      std::string rest = m.suffix();
      if (std::regex_search(rest, w, width_re)) width = static_cast<int>(number(path, line, w[1], 1L << 30));
      // Comment LIDs: an HCA port line names its own LID first ("# lid 93 lmc 0 ... lid 9"), and
      // every port line names the peer's LID last.
      uint64_t guid = m[2].matched && m[2].length() > 2 ? hex_guid(path, line, m[2].str().substr(1, m[2].length() - 2)) : 0;
      Lid own = 0, peer_lid = 0;
      std::vector<Lid> lids;
      for (std::sregex_iterator it(rest.begin(), rest.end(), lid_re), end; it != end; ++it)
        lids.push_back(static_cast<Lid>(number(path, line, (*it)[1], 0xFFFF)));
      if (!lids.empty()) peer_lid = lids.back();
      if (!n.is_switch && lids.size() >= 2) own = lids.front();
      n.links.push_back({p, m[3], pp, width, line, guid, own, peer_lid});
      continue;
    }
    if (std::regex_search(s, m, sw_guid_re)) pending_guid = hex_guid(path, line, m[1]);
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
  std::map<std::pair<int, int>, std::pair<std::pair<int, int>, std::pair<int, int>>> cable;  // -> (peer, (width, line))
  for (size_t i = 0; i < nodes.size(); ++i)
    for (const RawPort& rp : nodes[i].links) {
      auto it = index.find(rp.peer);
      if (it == index.end()) fail(path, rp.line, "cable to \"" + rp.peer + "\", which has no record in the file");
      const RawNode& peer = nodes[it->second];
      if (rp.peer_port < 1 || rp.peer_port > peer.ports)
        fail(path, rp.line,
             "cable to port " + std::to_string(rp.peer_port) + " of \"" + peer.id + "\", which has " +
                 std::to_string(peer.ports) + " ports");
      std::pair<int, int> a{static_cast<int>(i), rp.port}, b{it->second, rp.peer_port};
      if (a == b) fail(path, rp.line, "port " + std::to_string(rp.port) + " cabled to itself");
      for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
        auto c = cable.find(from);
        if (c != cable.end() && c->second.first != to)
          fail(path, rp.line,
               "port " + std::to_string(from.second) + " of \"" + nodes[from.first].id +
                   "\" is also cabled elsewhere (line " + std::to_string(c->second.second.second) + ")");
        cable[from] = {to, {rp.width, rp.line}};
      }
    }
  Topology t;
  t.kind = "file";
  t.notes = notes;
  std::vector<int> switch_node(nodes.size(), -1);
  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].is_switch) switch_node[i] = add_switch(t, nodes[i].id, nodes[i].ports);
  std::map<std::pair<int, int>, int> host_node;  // (raw node, port) -> host node
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].is_switch) continue;
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
      fail(path, nodes[i].line, "switch GUID of \"" + nodes[i].id + "\" also on line " +
                                    std::to_string(guid_line[sw.guid]));
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
  for (const auto& [from, val] : cable) {
    const auto& to = val.first;
    if (to < from) continue;
    if (!nodes[from.first].is_switch && !nodes[to.first].is_switch)
      fail(path, val.second.second,
           "cable between two HCAs \"" + nodes[from.first].id + "\" and \"" + nodes[to.first].id + "\"");
    auto a = where(from), b = where(to);
    connect(t, a.first, a.second, b.first, b.second, val.second.first);
    if (a.first == b.first)
      t.notes.push_back(path + ":" + std::to_string(val.second.second) + ": loop-back cable on \"" +
                        nodes[from.first].id + "\" ports " + std::to_string(from.second) + "-" +
                        std::to_string(to.second) + " (never routed)");
  }
  for (int s = 0; s < t.num_switches; ++s) {
    bool any = false;
    for (int p = 1; p <= t.nodes[s].num_ports; ++p) any |= t.nodes[s].ports[p].node >= 0;
    if (!any) t.notes.push_back(path + ": switch \"" + t.nodes[s].name + "\" has no cable");
  }
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
  };
  std::vector<Link> links;
  std::string raw;
  int line = 0;
  auto name_port = [&](const std::string& tok, std::string& name, int& port) {
    size_t c = tok.rfind(':');
    name = tok.substr(0, c);
    port = 0;
    if (c != std::string::npos) {
      try {
        port = std::stoi(tok.substr(c + 1));
      } catch (...) {
        fail(path, line, "bad port in '" + tok + "'");
      }
      if (port < 1 || port > 254) fail(path, line, "port " + tok.substr(c + 1) + " outside 1..254");
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
        try {
          ports = std::stoi(y);
        } catch (...) {
          fail(path, line, "bad port count '" + y + "'");
        }
        if (ports < 1 || ports > 254) fail(path, line, "port count " + y + " outside 1..254");
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
        size_t used = 0;
        try {
          l.width = std::stoi(extra, &used);
        } catch (...) {
          used = 0;
        }
        if (used != extra.size() || l.width < 1 || l.width > 64)
          fail(path, line, "bad width '" + extra + "' (lanes, 1..64)");
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
  for (const Link& l : links) {
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
  return t;
}

Topology read_topology_file(const std::string& path) {
  std::ifstream in = open(path);
  std::string raw;
  while (std::getline(in, raw)) {
    std::string s = trim(raw);
    if (s.rfind("switch ", 0) == 0 || s.rfind("host ", 0) == 0 || s.rfind("link ", 0) == 0) return read_edge_list(path);
    if (s.rfind("Switch", 0) == 0 || s.rfind("Ca", 0) == 0 || s.rfind("Hca", 0) == 0) return read_ibnetdiscover(path);
  }
  throw std::invalid_argument(
      path + ": neither an ibnetdiscover dump nor an edge list (no Switch/Ca or switch/host/link line)");
}

}  // namespace ibsc::routing
