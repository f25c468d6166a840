// ibsim net file writer (ibsim_net_writer.h).
#include "routing/ibsim_net_writer.h"

#include <cinttypes>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "routing/table_io.h"

namespace ibsc::routing {
namespace {

std::string node_id(const Topology& t, int node) {
  return t.is_switch(node) ? "S" + std::to_string(node) : "H" + std::to_string(t.host_index(node));
}

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
  return buf;
}

// The name as a comment: ibsim's nodeid must be short and unique, names need neither.
std::string comment_name(const std::string& name) {
  std::string out;
  for (char c : name) out += (c == '\n' || c == '\r') ? ' ' : c;
  return out;
}

}  // namespace

uint64_t ibsim_switch_guid(int sw) { return kSwitchGuidBase + static_cast<uint64_t>(sw); }
uint64_t ibsim_host_port_guid(int host) { return kHostGuidBase + 2 * static_cast<uint64_t>(host) + 1; }

IbsimNetSize write_ibsim_net(const Topology& t, std::ostream& out) {
  IbsimNetSize size;
  out << "# written by ibsc for OpenSM under ibsim: " << t.num_switches << " switches, " << t.num_hosts << " hosts\n\n";
  for (int n = 0; n < static_cast<int>(t.nodes.size()); ++n) {
    const Node& node = t.nodes[n];
    const bool sw = t.is_switch(n);
    if (!sw && node.ports.size() > 1 && node.ports[1].node < 0)
      throw std::invalid_argument("host " + node.name + " has no cable: OpenSM could not reach it");
    if (sw) {
      out << "switchguid=" << hex(ibsim_switch_guid(n)) << "\n";
      out << "Switch " << node.num_ports << " \"" << node_id(t, n) << "\"  # " << comment_name(node.name) << "\n";
      ++size.switches;
      size.ports += node.num_ports + 1;
    } else {
      out << "caguid=" << hex(ibsim_host_port_guid(t.host_index(n)) - 1) << "\n";
      out << "Hca 1 \"" << node_id(t, n) << "\"  # " << comment_name(node.name) << "\n";
      size.ports += 2;
    }
    ++size.nodes;
    const int last = sw ? node.num_ports : 1;
    for (int p = 1; p <= last; ++p) {
      const PortPeer& peer = node.ports[p];
      if (peer.node < 0 || peer.node == n) continue;  // free, or a loop-back cable
      // ibsim reads a link's width and speed from the free text ("lid 0" is its placeholder).
      out << "[" << p << "] \"" << node_id(t, peer.node) << "\"[" << peer.port << "]  # lid 0 4xQDR\n";
    }
    out << "\n";
  }
  return size;
}

}  // namespace ibsc::routing
