// k-ary n-cube tori and meshes with hosts on every switch.
#include <stdexcept>
#include <string>

#include "routing/topology.h"

namespace ibsc::routing {

Topology make_torus(const std::vector<int>& dims, int hosts_per_switch, bool wrap, int switch_ports) {
  if (dims.empty()) throw std::invalid_argument("torus/mesh needs at least one dimension");
  const int n = static_cast<int>(dims.size());
  int switches = 1;
  for (int k : dims) {
    if (k < 2 || k > 4096) throw std::invalid_argument("torus/mesh dimension sizes must be 2..4096");
    switches *= k;
    if (switches > 1 << 20) throw std::invalid_argument("torus/mesh too large (more than 2^20 switches)");
  }
  if (hosts_per_switch < 0) throw std::invalid_argument("hosts per switch must be >= 0");
  const int needed = 2 * n + hosts_per_switch;
  const int ports = switch_ports ? switch_ports : needed;
  if (ports < needed)
    throw std::invalid_argument("switches need " + std::to_string(needed) + " ports (2 per dimension + " +
                                std::to_string(hosts_per_switch) + " hosts) but have " + std::to_string(ports));
  if (ports > 254) throw std::invalid_argument("at most 254 ports per switch");
  Topology t;
  t.kind = wrap ? "torus" : "mesh";
  t.dims = dims;
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
  // Dimension d: port 1+2d toward +, 2+2d toward -. A ring of 2 has one cable (the wraparound
  // would duplicate it).
  int stride = 1;
  for (int d = 0; d < n; ++d) {
    for (int s = 0; s < switches; ++s) {
      int c = (s / stride) % dims[d];
      bool last = c + 1 == dims[d];
      if (last && (!wrap || dims[d] == 2)) continue;
      int nb = s + ((c + 1) % dims[d] - c) * stride;
      connect(t, s, 1 + 2 * d, nb, 2 + 2 * d);
    }
    stride *= dims[d];
  }
  for (int h = 0; h < t.num_hosts; ++h)
    connect(t, t.host_node(h), 1, h / hosts_per_switch, 2 * n + 1 + h % hosts_per_switch);
  return t;
}

}  // namespace ibsc::routing
