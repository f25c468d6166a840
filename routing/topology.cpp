#include "routing/topology.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ibsc::routing {

void connect(Topology& t, int a, int pa, int b, int pb, int width) {
  auto& A = t.nodes.at(a).ports.at(pa);
  auto& B = t.nodes.at(b).ports.at(pb);
  if (A.node >= 0 || B.node >= 0)
    throw std::invalid_argument("port already cabled: " + t.nodes[a].name + " port " + std::to_string(pa) + " or " +
                                t.nodes[b].name + " port " + std::to_string(pb));
  A = {b, pb, width};
  B = {a, pa, width};
}

}  // namespace ibsc::routing

namespace ibsc::routing {

int add_switch(Topology& t, const std::string& name, int num_ports) {
  if (t.num_hosts) throw std::logic_error("add_switch after hosts");
  if (num_ports < 1 || num_ports > 254)
    throw std::invalid_argument("switch " + name + ": " + std::to_string(num_ports) + " ports (1..254 allowed)");
  Node n;
  n.name = name;
  n.num_ports = num_ports;
  n.ports.resize(num_ports + 1);
  t.nodes.push_back(std::move(n));
  return t.num_switches++;
}

int add_host(Topology& t, const std::string& name) {
  Node n;
  n.kind = NodeKind::Host;
  n.name = name;
  n.num_ports = 1;
  n.ports.resize(2);
  t.nodes.push_back(std::move(n));
  ++t.num_hosts;
  return static_cast<int>(t.nodes.size()) - 1;
}

void attach_hosts(Topology& t, int hosts_per_switch, int first_port) {
  if (hosts_per_switch < 0) throw std::invalid_argument("hosts per switch must be >= 0");
  for (int s = 0, S = t.num_switches; s < S; ++s) {
    int port = first_port;
    for (int k = 0; k < hosts_per_switch; ++k) {
      while (port <= t.nodes[s].num_ports && t.nodes[s].ports[port].node >= 0) ++port;
      if (port > t.nodes[s].num_ports)
        throw std::invalid_argument("switch " + t.nodes[s].name + " has no free port for host " +
                                    std::to_string(k + 1) + " of " + std::to_string(hosts_per_switch));
      int h = add_host(t, "H" + std::to_string(t.num_hosts));
      connect(t, h, 1, s, port);
    }
  }
}

int switch_diameter(const Topology& t) {
  int diameter = 0;
  for (int s = 0; s < t.num_switches; ++s) {
    std::vector<int> dist(t.num_switches, -1), queue{s};
    dist[s] = 0;
    for (size_t i = 0; i < queue.size(); ++i) {
      const Node& n = t.nodes[queue[i]];
      for (int p = 1; p <= n.num_ports; ++p) {
        int y = n.ports[p].node;
        if (y >= 0 && y < t.num_switches && dist[y] < 0) {
          dist[y] = dist[queue[i]] + 1;
          diameter = std::max(diameter, dist[y]);
          queue.push_back(y);
        }
      }
    }
    if (static_cast<int>(queue.size()) != t.num_switches) return -1;
  }
  return diameter;
}

int count_switch_links(const Topology& t) {
  int ends = 0;
  for (int s = 0; s < t.num_switches; ++s)
    for (int p = 1; p <= t.nodes[s].num_ports; ++p)
      ends += t.nodes[s].ports[p].node >= 0 && t.nodes[s].ports[p].node < t.num_switches;
  return ends / 2;
}

}  // namespace ibsc::routing
