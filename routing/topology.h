// Topology: switches and hosts (HCAs) joined by point-to-point links through numbered ports.
// Port numbers are explicit and stable as on real hardware: a switch's port 0 is its
// management port and never carries a link; data ports are 1..num_ports. An HCA has one port, 1.
// Plain C++17, no SystemC.
#pragma once
#include <string>
#include <vector>

#include "routing/types.h"

namespace ibsc::routing {

enum class NodeKind { Switch, Host };

// The far end of a port's cable; node < 0 means the port is not connected.
struct PortPeer {
  int node = -1;
  int port = -1;
  int width = 1;  // lanes (1X, 4X, ...) as read from a dump; the fabric model uses its own link rate
};

struct Node {
  NodeKind kind = NodeKind::Switch;
  std::string name;
  int num_ports = 0;            // data ports; valid port numbers are 1..num_ports
  std::vector<PortPeer> ports;  // size num_ports + 1; index 0 (management) stays unconnected
  std::vector<int> coord;       // position in a k-ary n-cube or mesh, empty otherwise
  uint64_t guid = 0;            // node (switch) or port (host) GUID from a dump; 0: none given
  Lid lid = 0;                  // LID the dump reports (switch port 0, host port); 0: none given
  const PortPeer& peer(int port) const { return ports.at(port); }
};

struct Topology {
  std::string kind;         // "torus", "mesh", "hypercube", "irregular", "file", ...
  std::vector<int> dims;    // per-dimension size for torus/mesh/flatfly, empty otherwise
  std::vector<int> widths;  // torus/mesh: parallel cables per dimension; empty means 1 each
  std::vector<Node> nodes;  // switches first (0..num_switches-1), then hosts
  int num_switches = 0;
  int num_hosts = 0;
  std::vector<std::string> notes;  // what an importer skipped or changed, one line each

  int host_node(int host) const { return num_switches + host; }
  int host_index(int node) const { return node - num_switches; }
  bool is_switch(int node) const { return node < num_switches; }
  // The switch a host is cabled to, and the switch port it uses.
  int host_switch(int host) const { return nodes[host_node(host)].ports[1].node; }
  int host_switch_port(int host) const { return nodes[host_node(host)].ports[1].port; }
};

// Adds a cable between (a, pa) and (b, pb); throws std::invalid_argument if a port is taken.
void connect(Topology& t, int a, int pa, int b, int pb, int width = 1);

// k-ary n-cube torus or mesh with `hosts_per_switch` HCAs per switch. Switch ports: for
// dimension d, port 1+2d goes to the + neighbour and 2+2d to the - neighbour; host ports follow.
// Switch index = sum coord[d] * prod(dims[0..d-1]) (dimension 0 varies fastest).
Topology make_torus(const std::vector<int>& dims, int hosts_per_switch, bool wrap = true,
                    int switch_ports = 0 /* 0: exactly 2n + hosts */);

// Torus or mesh with widths[d] parallel cables (lanes) per neighbour in dimension d (seeds/001:
// 8x16x16 with widths 3,5,5). Dimension d, lane l: port base_d + 2l toward +, base_d + 2l + 1
// toward -, base_d = 1 + 2 * sum(widths[0..d-1]); hosts after. All widths 1 is make_torus.
Topology make_torus_widths(const std::vector<int>& dims, const std::vector<int>& widths, int hosts_per_switch,
                           bool wrap = true, int switch_ports = 0);

// Helpers for generators and importers: append a switch or a host, return its node index.
// Hosts must be added after every switch (switches are nodes 0..S-1).
int add_switch(Topology& t, const std::string& name, int num_ports);
int add_host(Topology& t, const std::string& name);
// Attaches `hosts_per_switch` new hosts to each switch on its highest free ports
// (ports after `first_port - 1`), throwing when a switch has too few free ports.
void attach_hosts(Topology& t, int hosts_per_switch, int first_port);
// Switch-to-switch diameter (hops); -1 when the switches are not connected.
int switch_diameter(const Topology& t);
// Cables between switches (each counted once; parallel cables each count; loop-backs too).
int count_switch_links(const Topology& t);

}  // namespace ibsc::routing
