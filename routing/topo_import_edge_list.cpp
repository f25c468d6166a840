// The edge-list topology format (routing/README.md): `switch NAME [PORTS]`, `host NAME`,
// `link A[:P] B[:P] [WIDTH]`. Read in two steps: the lines into declarations and links, then
// those into a Topology (a switch without a port count gets as many as its links need).
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "routing/input_file.h"
#include "routing/strict_number.h"
#include "routing/topo_import.h"
#include "routing/topo_import_links.h"

namespace ibsc::routing {
namespace {

using import_detail::fail;

struct Decl {
  bool is_switch;
  int ports;  // 0: as many as its links need
  int line;
};

struct Link {
  std::string a, b;
  int pa, pb, width, line;  // pa, pb: 0 when the line names no port (the first free one)
  bool width_given;
};

struct EdgeList {
  std::map<std::string, Decl> decl;
  std::vector<std::string> order;  // names in declaration order: node numbering follows it
  std::vector<Link> links;
};

// "NAME" or "NAME:PORT" (a name may itself hold ':'; the last one separates the port).
void name_port(const std::string& path, int line, const std::string& tok, std::string& name, int& port) {
  size_t c = tok.rfind(':');
  name = tok.substr(0, c);
  port = 0;
  if (c == std::string::npos) return;
  uint64_t v = 0;
  if (!parse_unsigned(tok.substr(c + 1), 1000000, v)) fail(path, line, "bad port in '" + tok + "'");
  if (v < 1 || v > 254) fail(path, line, "port " + tok.substr(c + 1) + " outside 1..254");
  port = static_cast<int>(v);
}

void read_declaration(const std::string& path, int line, const std::string& kw, std::istringstream& is, EdgeList& e) {
  std::string x, y, extra;
  if (!(is >> x)) fail(path, line, kw + " needs a name");
  int ports = 0;
  if (kw == "switch" && (is >> y)) {
    uint64_t v = 0;
    if (!parse_unsigned(y, 1000000, v)) fail(path, line, "bad port count '" + y + "'");
    if (v < 1 || v > 254) fail(path, line, "port count " + y + " outside 1..254");
    ports = static_cast<int>(v);
  }
  if (is >> extra) fail(path, line, "unexpected '" + extra + "'");
  if (!e.decl.emplace(x, Decl{kw == "switch", ports, line}).second) fail(path, line, "'" + x + "' declared twice");
  e.order.push_back(x);
}

void read_link(const std::string& path, int line, std::istringstream& is, EdgeList& e) {
  std::string x, y, extra;
  Link l{};
  l.line = line;
  l.width = 1;
  if (!(is >> x >> y)) fail(path, line, "link needs two ends");
  name_port(path, line, x, l.a, l.pa);
  name_port(path, line, y, l.b, l.pb);
  if (is >> extra) {
    uint64_t v = 0;
    if (!parse_unsigned(extra, 1000, v) || !iba_width(v))
      fail(path, line, "bad width '" + extra + "' (IBA link widths: 1, 2, 4, 8 or 12 lanes)");
    l.width = static_cast<int>(v);
    l.width_given = true;
    if (is >> extra) fail(path, line, "unexpected '" + extra + "'");
  }
  e.links.push_back(l);
}

EdgeList read_lines(const std::string& path) {
  std::ifstream in = open_input_file(path, kTopologyFile);
  EdgeList e;
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    std::string s = import_detail::trim(raw.substr(0, raw.find('#')));
    if (s.empty()) continue;
    std::istringstream is(s);
    std::string kw;
    is >> kw;
    if (kw == "switch" || kw == "host") read_declaration(path, line, kw, is, e);
    else if (kw == "link") read_link(path, line, is, e);
    else fail(path, line, "unknown keyword '" + kw + "' (switch, host, link)");
  }
  return e;
}

// Switches first, then hosts, each in declaration order; a switch without a port count gets
// the highest port its links name, or one per link that names none.
std::map<std::string, int> add_nodes(const std::string& path, EdgeList& e, Topology& t) {
  std::map<std::string, int> need;  // ports a switch needs
  for (const Link& l : e.links)
    for (auto [n, p] : {std::pair{l.a, l.pa}, std::pair{l.b, l.pb}}) {
      if (!e.decl.count(n)) fail(path, l.line, "'" + n + "' is not declared (switch NAME or host NAME first)");
      need[n] = std::max(need[n] + (p ? 0 : 1), p);
    }
  std::map<std::string, int> node;
  for (const auto& n : e.order)
    if (e.decl[n].is_switch) node[n] = add_switch(t, n, e.decl[n].ports ? e.decl[n].ports : std::max(need[n], 1));
  for (const auto& n : e.order)
    if (!e.decl[n].is_switch) node[n] = add_host(t, n);
  return node;
}

// The port a link end uses: the one named, or the switch's first free one; a host has port 1.
int pick_port(const std::string& path, const Topology& t, const Link& l, int v, int p, const std::string& n) {
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
}

// A loop-back ("link A A", "link A A:3") picks a free port other than `taken`.
int pick_port_beside(const std::string& path, Topology& t, const Link& l, int v, const std::string& n, int taken) {
  if (taken > t.nodes[v].num_ports) return pick_port(path, t, l, v, 0, n);
  int& held = t.nodes[v].ports[taken].node;
  const int was = held;
  held = v;
  const int q = pick_port(path, t, l, v, 0, n);
  held = was;
  return q;
}

void connect_link(const std::string& path, const Link& l, int a, int b, Topology& t) {
  if (!t.is_switch(a) && !t.is_switch(b)) fail(path, l.line, "link between two hosts");
  const bool loop = a == b;
  int pa = loop && !l.pa && l.pb ? pick_port_beside(path, t, l, a, l.a, l.pb) : pick_port(path, t, l, a, l.pa, l.a);
  int pb = loop && !l.pb ? pick_port_beside(path, t, l, b, l.b, pa) : pick_port(path, t, l, b, l.pb, l.b);
  // As the ibnetdiscover reader: a port cannot be cabled to itself.
  if (loop && pa == pb) fail(path, l.line, "port " + std::to_string(pa) + " of '" + l.a + "' cabled to itself");
  try {
    connect(t, a, pa, b, pb, l.width);
  } catch (const std::invalid_argument& e) {
    fail(path, l.line, e.what());
  }
  if (loop)  // kept, as from a real dump, but no route uses it
    t.notes.push_back(path + ":" + std::to_string(l.line) + ": loop-back cable on '" + l.a + "' ports " +
                      std::to_string(pa) + "-" + std::to_string(pb) + " (never routed)");
}

}  // namespace

Topology read_edge_list(const std::string& path) {
  EdgeList e = read_lines(path);
  Topology t;
  t.kind = "file";
  const std::map<std::string, int> node = add_nodes(path, e, t);
  std::map<std::string, int> rates;  // "4x" -> cables
  for (const Link& l : e.links) {
    if (l.width_given) ++rates[std::to_string(l.width) + "x"];
    connect_link(path, l, node.at(l.a), node.at(l.b), t);
  }
  for (int h = 0; h < t.num_hosts; ++h) {
    const Node& host = t.nodes[t.host_node(h)];
    if (host.ports[1].node < 0)
      t.notes.push_back(path + ":" + std::to_string(e.decl[host.name].line) + ": host '" + host.name +
                        "' has no cable");
  }
  import_detail::note_unmodelled_rates(t, path, rates);
  return t;
}

}  // namespace ibsc::routing
