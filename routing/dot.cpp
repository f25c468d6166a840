#include "routing/dot.h"

namespace ibsc::routing {

void write_dot(const Topology& t, std::ostream& out) {
  auto quoted = [](const std::string& s) {
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\\\"") : std::string(1, c);
    return q + "\"";
  };
  out << "graph fabric {\n  // " << t.kind << ": " << t.num_switches << " switches, " << t.num_hosts << " hosts\n";
  for (size_t v = 0; v < t.nodes.size(); ++v)
    out << "  n" << v << " [label=" << quoted(t.nodes[v].name)
        << (t.nodes[v].kind == NodeKind::Switch ? ", shape=box" : ", shape=ellipse") << "];\n";
  for (size_t v = 0; v < t.nodes.size(); ++v)
    for (int p = 1; p <= t.nodes[v].num_ports; ++p) {
      const PortPeer& pp = t.nodes[v].ports[p];
      if (pp.node < 0 || std::make_pair(pp.node, pp.port) < std::make_pair(static_cast<int>(v), p)) continue;
      out << "  n" << v << " -- n" << pp.node << " [taillabel=\"" << p << "\", headlabel=\"" << pp.port << "\"";
      if (pp.width > 1) out << ", label=\"" << pp.width << "x\"";
      out << "];\n";
    }
  out << "}\n";
}

}  // namespace ibsc::routing
