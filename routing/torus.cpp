// k-ary n-cube tori and meshes with hosts on every switch.
#include <stdexcept>
#include <string>

#include "routing/topology.h"

namespace ibsc::routing {

Topology make_torus(const std::vector<int>& dims, int hosts_per_switch, bool wrap, int switch_ports) {
  return make_torus_widths(dims, {}, hosts_per_switch, wrap, switch_ports);
}

Topology make_torus_widths(const std::vector<int>& dims, const std::vector<int>& widths_in, int hosts_per_switch,
                           bool wrap, int switch_ports) {
  if (dims.empty()) throw std::invalid_argument("torus/mesh needs at least one dimension");
  const int n = static_cast<int>(dims.size());
  std::vector<int> widths = widths_in.empty() ? std::vector<int>(n, 1) : widths_in;
  if (static_cast<int>(widths.size()) != n)
    throw std::invalid_argument("torus/mesh: " + std::to_string(widths.size()) + " link widths for " +
                                std::to_string(n) + " dimensions");
  int net_ports = 0;
  for (int w : widths) {
    if (w < 1 || w > 16) throw std::invalid_argument("torus/mesh link widths must be 1..16");
    net_ports += 2 * w;
  }
  int switches = 1;
  for (int k : dims) {
    if (k < 2 || k > 4096) throw std::invalid_argument("torus/mesh dimension sizes must be 2..4096");
    switches *= k;
    if (switches > 1 << 20) throw std::invalid_argument("torus/mesh too large (more than 2^20 switches)");
  }
  if (hosts_per_switch < 0) throw std::invalid_argument("hosts per switch must be >= 0");
  const int needed = net_ports + hosts_per_switch;
  const int ports = switch_ports ? switch_ports : needed;
  if (ports < needed)
    throw std::invalid_argument("switches need " + std::to_string(needed) + " ports (2 per dimension and lane + " +
                                std::to_string(hosts_per_switch) + " hosts) but have " + std::to_string(ports));
  if (ports > 254) throw std::invalid_argument("at most 254 ports per switch");
  Topology t;
  t.kind = wrap ? "torus" : "mesh";
  t.dims = dims;
  if (!widths_in.empty()) t.widths = widths;
  t.num_switches = switches;
  t.num_hosts = switches * hosts_per_switch;
  for (int s = 0; s < switches; ++s) {
    Node node;
    node.num_ports = ports;
    node.ports.resize(ports + 1);
    std::string name = "S";
    for (int d = 0, r = s; d < n; ++d, r /= dims[d - 1]) {
      node.coord.push_back(r % dims[d]);
      name += (d ? "," : "(") + std::to_string(r % dims[d]);
    }
    node.name = name + ")";
    t.nodes.push_back(std::move(node));
  }
  for (int h = 0; h < t.num_hosts; ++h) {
    Node node;
    node.kind = NodeKind::Host;
    node.name = "H" + std::to_string(h);
    node.num_ports = 1;
    node.ports.resize(2);
    t.nodes.push_back(std::move(node));
  }
  // Dimension d, lane l: port base_d + 2l toward +, base_d + 2l + 1 toward -, base_d = 1 + 2 *
  // (lanes of the lower dimensions): 1+2d and 2+2d when every width is 1. A ring of 2 has one
  // cable per lane (the wraparound would duplicate it).
  int stride = 1;
  for (int d = 0, base = 1; d < n; base += 2 * widths[d], ++d) {
    for (int s = 0; s < switches; ++s) {
      int c = (s / stride) % dims[d];
      bool last = c + 1 == dims[d];
      if (last && (!wrap || dims[d] == 2)) continue;
      int nb = s + ((c + 1) % dims[d] - c) * stride;
      for (int l = 0; l < widths[d]; ++l) connect(t, s, base + 2 * l, nb, base + 2 * l + 1);
    }
    stride *= dims[d];
  }
  for (int h = 0; h < t.num_hosts; ++h)
    connect(t, t.host_node(h), 1, h / hosts_per_switch, net_ports + 1 + h % hosts_per_switch);
  return t;
}

}  // namespace ibsc::routing
