#include "routing/port_mask_deps.h"

namespace ibsc::routing {

bool PortMaskDeps::applies(const Topology& t, const TableSet& ts) {
  for (int s = 0; s < t.num_switches; ++s) {
    const Node& node = t.nodes[s];
    const Sl2VlTable& tab = ts.switches[s].sl2vl;
    if (node.num_ports > 63 || tab.key() != Sl2VlTable::Key::InputVl || tab.num_ports() < node.num_ports) return false;
    int first_in = 0;
    for (int in = 1; in <= node.num_ports && !first_in; ++in)
      if (node.ports[in].node >= 0) first_in = in;
    for (int in = first_in + 1; in <= node.num_ports; ++in) {
      if (node.ports[in].node < 0) continue;
      for (int out = 1; out <= node.num_ports; ++out)
        for (int v = 0; v < kNumSls; ++v)
          if (tab.get(in, out, v) != tab.get(first_in, out, v)) return false;
    }
  }
  return true;
}

void PortMaskDeps::init(const Topology& t, size_t memo_slots) {
  arrived_.assign(memo_slots, 0);
  ports_.resize(t.num_switches);
  masks_.resize(t.num_switches);
  for (int s = 0; s < t.num_switches; ++s) {
    ports_[s] = t.nodes[s].num_ports + 1;
    masks_[s].assign(static_cast<size_t>(kV) * ports_[s], 0);
  }
}

void PortMaskDeps::flush(const Topology& t, const TableSet& ts) {
  for (const Walked& w : walked_) {
    const uint64_t from = arrived_[w.id];
    if (!from) continue;
    const Node& node = t.nodes[w.node];
    uint64_t* row = masks_[w.node].data() + static_cast<size_t>(w.vl) * ports_[w.node];
    for (const PortCandidate& c : ts.switches[w.node].route(w.dlid, static_cast<Vl>(w.vl)).candidates)
      if (c.port >= 1 && c.port <= node.num_ports && node.ports[c.port].node >= 0)
        row[c.port] |= from;  // else reported
  }
  walked_.clear();
}

}  // namespace ibsc::routing
