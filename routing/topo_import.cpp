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
};

struct RawNode {
  bool is_switch;
  std::string id;
  int ports;
  int line;
  std::vector<RawPort> links;
};

[[noreturn]] void fail(const std::string& path, int line, const std::string& what) {
  throw std::invalid_argument(path + ":" + std::to_string(line) + ": " + what);
}

std::ifstream open(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open the topology file");
  return in;
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
  std::vector<RawNode> nodes;
  std::vector<std::string> notes;
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    std::string s = trim(raw);
    if (s.empty() || s[0] == '#') continue;
    std::smatch m;
    if (std::regex_search(s, m, header)) {
      int ports = std::stoi(m[2]);
      if (ports < 1 || ports > 254)
        fail(path, line, "node \"" + m[3].str() + "\" has " + m[2].str() + " ports (1..254)");
      nodes.push_back({m[1] == "Switch", m[3], ports, line, {}});
      continue;
    }
    if (s[0] == '[') {
      if (nodes.empty()) fail(path, line, "port line before any Switch/Ca header");
      if (!std::regex_search(s, m, port_line)) fail(path, line, "cannot read port line '" + s + "'");
      int p = std::stoi(m[1]), pp = std::stoi(m[4]);
      RawNode& n = nodes.back();
      if (p < 1 || p > n.ports)
        fail(path, line,
             "port " + std::to_string(p) + " outside 1.." + std::to_string(n.ports) + " of \"" + n.id + "\"");
      int width = 1;
      std::smatch w;
      std::string rest = m.suffix();
      if (std::regex_search(rest, w, width_re)) width = std::stoi(w[1]);
      n.links.push_back({p, m[3], pp, width, line});
      continue;
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
        try {
          l.width = std::stoi(extra);
        } catch (...) {
          fail(path, line, "bad width '" + extra + "'");
        }
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
  }
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
