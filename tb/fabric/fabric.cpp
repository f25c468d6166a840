#include "tb/fabric/fabric.h"

#include <map>
#include <sstream>
#include <tuple>

#include "routing/cycle.h"
#include "tb/fabric/huge_pages.h"
#include "tb/fabric/link_faults.h"

namespace ibsc::tb {
namespace {
// Empty modules created right after the scheduler; see ~Fabric.
struct TeardownAnchor : sc_core::sc_module {
  explicit TeardownAnchor(sc_core::sc_module_name name) : sc_module(name) {}
};
}  // namespace

using models::Picos;

Fabric::Fabric(const routing::Topology& topo, const routing::TableSet& tables, const FabricParams& params,
               models::HcaTraffic& traffic, const ArbiterFactory& arbiters)
    : topo_(topo), p_(params) {
  p_.sw.validate();
  p_.sw = p_.sw.for_vls_used(tables.vls_used);
  p_.link.validate();
  if (static_cast<int>(tables.switches.size()) != topo.num_switches ||
      static_cast<int>(tables.hosts.size()) != topo.num_hosts)
    throw std::invalid_argument("table set does not match the topology (switch or host count differs)");
  if (tables.vls_used > p_.sw.num_vls)
    throw std::invalid_argument("routing '" + tables.algorithm + "' needs " + std::to_string(tables.vls_used) +
                                " VLs but switch.num_vls is " + std::to_string(p_.sw.num_vls));
  const Picos byte_ps = p_.link.byte_ps();
  sched_ = std::make_unique<models::Scheduler>("scheduler");
  for (int i = 0; i < 4; ++i)
    teardown_anchors_.push_back(std::make_unique<TeardownAnchor>(("teardown_anchor_" + std::to_string(i)).c_str()));
  for (int s = 0; s < topo.num_switches; ++s) {
    const routing::Node& n = topo.nodes[s];
    std::vector<Picos> bps(n.num_ports + 1, 0);
    for (int port = 1; port <= n.num_ports; ++port)
      if (n.ports[port].node >= 0) bps[port] = byte_ps;
    arbiters_.push_back(arbiters(s, n.num_ports, p_.sw.num_vls));
    switches_.push_back(std::make_unique<models::Switch>(("sw_" + std::to_string(s)).c_str(), p_.sw, tables.switches[s],
                                                         bps, *arbiters_.back(), mon_, *sched_));
  }
  for (int h = 0; h < topo.num_hosts; ++h) {
    // Apart from the traffic driver's streams (other constants), reproducible per host.
    const uint64_t seed = (p_.path_seed ^ 0xD1B54A32D192ED03ull) * 0x9E3779B97F4A7C15ull +
                          static_cast<uint64_t>(h) * 0x94D049BB133111EBull;
    hcas_.push_back(std::make_unique<models::Hca>(("hca_" + std::to_string(h)).c_str(), h, tables, p_.sw.num_vls,
                                                  p_.sw.buffer_blocks(), byte_ps, traffic, mon_, *sched_, seed));
    hcas_.back()->set_params(p_.hca);
    if (p_.transport.enabled())
      hcas_.back()->attach_transport(
          std::make_unique<models::ReliableTransport>(*hcas_.back(), h, topo.num_hosts, p_.transport, traffic, mon_));
  }
  if (p_.cc.enabled) {
    p_.cc.validate();
    for (auto& s : switches_) s->enable_cc(p_.cc);
    for (auto& h : hcas_) h->enable_cc(p_.cc);
  }
  // One Link module per direction of every cable.
  auto short_name = [&](int node) {
    return topo.is_switch(node) ? "sw_" + std::to_string(node) : "hca_" + std::to_string(topo.host_index(node));
  };
  for (int a = 0; a < static_cast<int>(topo.nodes.size()); ++a) {
    const routing::Node& n = topo.nodes[a];
    for (int pa = 1; pa <= n.num_ports; ++pa) {
      const routing::PortPeer& peer = n.ports[pa];
      if (peer.node < 0) continue;
      std::string nm =
          short_name(a) + "_p" + std::to_string(pa) + "_to_" + short_name(peer.node) + "_p" + std::to_string(peer.port);
      auto link = std::make_unique<models::Link>(nm.c_str(), p_.link, peer.port, p_.sw.num_vls);
      if (topo.is_switch(a)) switches_[a]->tx[pa]->bind(link->in);
      else hcas_[topo.host_index(a)]->tx.bind(link->in);
      if (topo.is_switch(peer.node)) link->out.bind(switches_[peer.node]->rx);
      else link->out.bind(hcas_[topo.host_index(peer.node)]->rx);
      links_.push_back({nm, link.get(), a, pa, peer.node, peer.port});
      link_modules_.push_back(std::move(link));
    }
  }
  if (p_.faults.enabled())
    link_faults_ = std::make_unique<LinkFaults>(*this, topo, tables, resolve_link_faults(topo, p_.faults, &tables),
                                                static_cast<Picos>(p_.faults.detection_ns * 1000.0 + 0.5), *sched_);
  if (p_.huge_pages && huge_pages_pay_off(topo.num_hosts, p_.planned_ns)) back_with_huge_pages();
}

// SystemC removes a destroyed module from its module and top-level object lists by a search
// from the front, moving the last entry into the freed place, and a port from the port list by
// a search from the back. Destroyed in creation order, the 16,384-host fabric took 12 s of
// teardown. Here the empty anchors right behind the scheduler go first: each moves the last
// entry of the lists into its place near the front, first the modules the kernel added after
// ours (sc_start adds one), then our newest. Then modules go newest first: each is found near
// the front, its ports at the back, and its place is taken by the next newest. (Destroying
// the scheduler first would not do: its process would move to the end of the object list.)
Fabric::~Fabric() {
  link_faults_.reset();
  for (auto& a : teardown_anchors_) a.reset();
  auto newest_first = [](auto& v) {
    while (!v.empty()) v.pop_back();
  };
  newest_first(link_modules_);
  newest_first(hcas_);
  newest_first(switches_);
}

void Fabric::set_generating(bool on) {
  for (auto& h : hcas_) h->set_generating(on);
}

uint64_t Fabric::count_at_sources() const {
  uint64_t n = 0;
  for (const auto& h : hcas_) n += h->queued();
  return n;
}

uint64_t Fabric::count_in_fabric() const {
  uint64_t n = 0;
  for (const auto& h : hcas_) n += h->arriving();
  for (const auto& s : switches_) {
    for (int port = 1; port <= s->num_ports(); ++port)
      for (int v = 0; v < p_.sw.num_vls; ++v) n += s->queued(port, v);
    n += s->queued_in_output_buffers();
  }
  return n;
}

void Fabric::check_conservation() const {
  const uint64_t in_fabric = count_in_fabric(), at_sources = count_at_sources();
  // Dropped (link faults) and abandoned (no surviving path) are 0 without faults.
  if (mon_.injected != mon_.delivered + mon_.dropped + in_fabric ||
      mon_.generated != mon_.injected + at_sources + mon_.abandoned) {
    std::ostringstream os;
    os << "conservation violated: injected " << mon_.injected << " != delivered " << mon_.delivered << " + in flight "
       << in_fabric << " + dropped by link faults " << mon_.dropped << ", or generated " << mon_.generated
       << " != injected + queued at sources " << at_sources << " + abandoned " << mon_.abandoned
       << " (packets lost or duplicated)";
    throw models::FabricError(os.str());
  }
  if (!p_.transport.enabled()) return;
  // Every host packet is delivered, in a rearrange buffer, on the wire (data sent and not yet
  // arrived), rejected with its NACK on the way back, waiting to be sent again, or held.
  const models::TransportCounters c = transport_counters();
  // Link faults: dropped packets are off the wire and wait to go again (awaiting_resend) or
  // were given up (abandoned).
  const uint64_t accounted = c.app_delivered + c.stored + (c.data_sent - c.data_arrived - c.data_dropped) +
                             (c.nacks - c.nacks_received - c.nacks_dropped) + c.awaiting_resend + c.held + c.abandoned;
  const bool ordered = p_.transport.mode == models::TransportMode::Reorder;
  if (c.app_generated != accounted || c.duplicates > 0 || (ordered && c.out_of_order_deliveries > 0)) {
    std::ostringstream os;
    os << "in-order delivery violated: host packets generated " << c.app_generated << ", accounted for " << accounted
       << " (delivered " << c.app_delivered << ", stored " << c.stored << ", on the wire "
       << c.data_sent - c.data_arrived << ", NACKed " << c.nacks - c.nacks_received + c.awaiting_resend << ", held "
       << c.held << "); delivered twice " << c.duplicates << ", delivered out of order " << c.out_of_order_deliveries;
    throw models::FabricError(os.str());
  }
}

models::TransportCounters Fabric::transport_counters() const {
  models::TransportCounters c;
  for (const auto& h : hcas_)
    if (h->transport()) c.add(h->transport()->counters());
  return c;
}

std::string Fabric::deadlock_cycle() const {
  // Wait-for graph over channels (switch, input port, VL): the head of a channel waits for the
  // downstream input buffer its (output port, output VL) leads to. Channels that wait or are
  // waited for get dense ids, and routing's cycle finder (the one the table checks use) runs.
  const Picos now = models::now_ps();
  const int V = p_.sw.num_vls;
  struct Channel {
    int sw, port, vl;
    bool operator<(const Channel& o) const { return std::tie(sw, port, vl) < std::tie(o.sw, o.port, o.vl); }
  };
  std::map<Channel, int> id;
  std::vector<Channel> channel;
  auto dense = [&](const Channel& c) {
    auto [it, fresh] = id.emplace(c, static_cast<int>(channel.size()));
    if (fresh) channel.push_back(c);
    return it->second;
  };
  std::vector<std::pair<int, int>> edges;
  for (int s = 0; s < topo_.num_switches; ++s)
    for (int port = 1; port <= switches_[s]->num_ports(); ++port)
      for (int v = 0; v < V; ++v)
        for (auto [o, w] : switches_[s]->waits_of(port, v, now)) {
          const routing::PortPeer& peer = topo_.nodes[s].ports[o];
          if (peer.node >= 0 && topo_.is_switch(peer.node))
            edges.emplace_back(dense({s, port, v}), dense({peer.node, peer.port, w}));
        }
  std::vector<uint32_t> offsets;
  std::vector<int> targets;
  routing::compress_edges(static_cast<int>(channel.size()), edges, offsets, targets);
  const std::vector<int> cycle = routing::find_cycle(offsets, targets);
  if (cycle.empty()) return {};
  std::ostringstream os;
  for (int c : cycle) {
    const Channel& ch = channel[c];
    os << node_name(ch.sw) << " input port " << ch.port << " VL " << ch.vl << " (head packet "
       << switches_[ch.sw]->head_packet_id(ch.port, ch.vl) << ") -> ";
  }
  const Channel& first = channel[cycle.front()];
  os << node_name(first.sw) << " input port " << first.port << " VL " << first.vl;
  return os.str();
}

}  // namespace ibsc::tb
