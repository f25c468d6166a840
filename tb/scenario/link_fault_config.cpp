#include "tb/scenario/link_fault_config.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <stdexcept>

#include "models/param_error.h"

namespace ibsc::tb {
namespace {

// The switch named (or numbered) `name`, -1 when none.
int find_switch(const routing::Topology& t, const std::string& name) {
  for (int s = 0; s < t.num_switches; ++s)
    if (t.nodes[s].name == name) return s;
  if (!name.empty() && std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
      name.size() < 9) {
    const int s = std::stoi(name);
    if (s < t.num_switches) return s;
  }
  return -1;
}

CableFault cable_at(const routing::Topology& t, int s, int p, models::Picos at) {
  const routing::PortPeer& peer = t.nodes[s].ports[p];
  CableFault f{s, p, peer.node, peer.port, at, {}};
  if (std::make_pair(f.sw_b, f.port_b) < std::make_pair(f.sw_a, f.port_a)) {
    std::swap(f.sw_a, f.sw_b);
    std::swap(f.port_a, f.port_b);
  }
  f.name = t.nodes[f.sw_a].name + ":" + std::to_string(f.port_a) + "-" + t.nodes[f.sw_b].name + ":" +
           std::to_string(f.port_b);
  return f;
}

constexpr long kMaxRoutableDraws = 100000;

bool every_pair_routable(const routing::Topology& t, const routing::TableSet& tables,
                         const std::vector<CableFault>& faults) {
  const FailedPorts failed = failed_ports(t, faults);
  for (int h = 0; h < t.num_hosts; ++h)
    for (int q = 0; q < t.num_hosts; ++q)
      if (q != h && surviving_record(t, tables, failed, h, q) < 0) return false;
  return true;
}

}  // namespace

std::vector<CableFault> resolve_link_faults(const routing::Topology& t, const LinkFaultConfig& c,
                                            const routing::TableSet* tables) {
  std::vector<CableFault> out;
  if (!c.enabled()) return out;
  if (!(c.detection_ns >= 0)) throw ParamError("faults.detection_ns", "faults.detection_ns must be >= 0");
  if (c.random < 0) throw ParamError("faults.random", "faults.random must be >= 0");
  if (c.at_ns.empty()) throw ParamError("faults.at_ns", "faults.at_ns: give the failure time (one, or one per link)");
  if (c.at_ns.size() != 1 && c.at_ns.size() != c.links.size())
    throw ParamError("faults.at_ns", "faults.at_ns: give one time for all faults or one per entry of faults.links (" +
                                         std::to_string(c.links.size()) + ")");
  if (c.random > 0 && c.at_ns.size() != 1)
    throw ParamError("faults.at_ns", "faults.at_ns: with faults.random give one time for all faults");
  for (double a : c.at_ns)
    if (!(a >= 0) || a > 1e12) throw ParamError("faults.at_ns", "faults.at_ns: times must be in [0, 1e12] ns");
  auto ps = [](double ns) { return static_cast<models::Picos>(std::llround(ns * 1000.0)); };
  std::set<std::pair<int, int>> used;  // cables by their lower end
  for (size_t i = 0; i < c.links.size(); ++i) {
    const std::string& e = c.links[i];
    const size_t colon = e.rfind(':');
    const int s = colon == std::string::npos ? -1 : find_switch(t, e.substr(0, colon));
    if (s < 0) throw ParamError("faults.links", "faults.links: '" + e + "': no switch of that name (SWITCH:PORT)");
    int p = -1;
    try {
      size_t n = 0;
      p = std::stoi(e.substr(colon + 1), &n);
      if (n != e.size() - colon - 1) p = -1;
    } catch (const std::exception&) {
      p = -1;
    }
    if (p < 1 || p > t.nodes[s].num_ports)
      throw ParamError("faults.links", "faults.links: '" + e + "': switch " + t.nodes[s].name + " has ports 1.." +
                                           std::to_string(t.nodes[s].num_ports));
    const routing::PortPeer& peer = t.nodes[s].ports[p];
    if (peer.node < 0) throw ParamError("faults.links", "faults.links: '" + e + "': no cable on that port");
    if (!t.is_switch(peer.node))
      throw ParamError("faults.links", "faults.links: '" + e + "': a host link; only switch-to-switch cables fail");
    CableFault f = cable_at(t, s, p, ps(c.at_ns.size() == 1 ? c.at_ns[0] : c.at_ns[i]));
    if (!used.insert({f.sw_a, f.port_a}).second)
      throw ParamError("faults.links", "faults.links: '" + e + "': cable " + f.name + " given twice");
    out.push_back(f);
  }
  if (c.random > 0) {
    std::vector<std::pair<int, int>> healthy;
    for (int s = 0; s < t.num_switches; ++s)
      for (int p = 1; p <= t.nodes[s].num_ports; ++p) {
        const routing::PortPeer& peer = t.nodes[s].ports[p];
        if (peer.node >= 0 && t.is_switch(peer.node) && std::make_pair(s, p) < std::make_pair(peer.node, peer.port) &&
            !used.count({s, p}))
          healthy.emplace_back(s, p);
      }
    if (c.random > static_cast<int>(healthy.size()))
      throw ParamError("faults.random", "faults.random: " + std::to_string(c.random) + " faults but only " +
                                            std::to_string(healthy.size()) + " healthy switch-to-switch cables");
    std::mt19937_64 rng(c.seed);
    const size_t given = out.size();
    for (long draw = 1;; ++draw) {
      std::vector<std::pair<int, int>> pool = healthy;
      for (int k = 0; k < c.random; ++k) {  // partial Fisher-Yates: the first k are the draw
        const size_t j = k + static_cast<size_t>(rng() % (pool.size() - k));
        std::swap(pool[k], pool[j]);
        out.push_back(cable_at(t, pool[k].first, pool[k].second, ps(c.at_ns[0])));
      }
      if (!c.routable || !tables || every_pair_routable(t, *tables, out)) break;
      if (draw == kMaxRoutableDraws)
        throw std::invalid_argument("faults.routable: none of " + std::to_string(kMaxRoutableDraws) + " draws of " +
                                    std::to_string(c.random) + " faults leaves every host pair a path");
      out.resize(given);
    }
  } else if (c.routable && tables && !every_pair_routable(t, *tables, out)) {
    throw std::invalid_argument("faults.routable: the listed faults leave some host pair without a path");
  }
  return out;
}

FailedPorts failed_ports(const routing::Topology& t, const std::vector<CableFault>& faults) {
  FailedPorts failed(t.num_switches);
  for (int s = 0; s < t.num_switches; ++s) failed[s].assign(t.nodes[s].num_ports + 1, 0);
  for (const CableFault& f : faults) failed[f.sw_a][f.port_a] = failed[f.sw_b][f.port_b] = 1;
  return failed;
}

bool record_crosses_failed(const routing::Topology& t, const routing::TableSet& tables, const FailedPorts& failed,
                           const routing::PathRecord& rec, int h, int q) {
  int x = t.host_switch(h);
  for (int steps = 0; steps <= t.num_switches; ++steps) {
    const routing::Lft& lft = tables.switches[x].lft;
    const ibsc::PortNum port = rec.dlid < lft.size() ? lft[rec.dlid].primary() : ibsc::kNoPort;
    if (port == ibsc::kNoPort || port > t.nodes[x].num_ports) return true;  // no way on: as broken
    if (failed[x][port]) return true;
    const int y = t.nodes[x].ports[port].node;
    if (y < 0) return true;
    if (!t.is_switch(y)) return y != t.host_node(q);
    x = y;
  }
  return true;  // a loop
}

int surviving_record(const routing::Topology& t, const routing::TableSet& tables, const FailedPorts& failed, int h,
                     int q) {
  const auto recs = tables.hosts[h].paths[q];
  for (size_t r = 0; r < recs.size(); ++r)
    if (!record_crosses_failed(t, tables, failed, recs[r], h, q)) return static_cast<int>(r);
  return -1;
}

routing::TableSet tables_after_faults(const routing::Topology& t, const routing::TableSet& tables,
                                      const std::vector<CableFault>& faults, long* unreachable) {
  routing::TableSet out = tables;  // rows are shared until written
  const FailedPorts failed = failed_ports(t, faults);
  long cut = 0;
  for (int h = 0; h < t.num_hosts; ++h)
    for (int q = 0; q < t.num_hosts; ++q) {
      if (q == h || tables.hosts[h].paths[q].empty()) continue;
      const int r = surviving_record(t, tables, failed, h, q);
      if (r < 0) {
        out.hosts[h].paths.clear(q);
        ++cut;
      } else if (r > 0 || tables.hosts[h].paths[q].size() > 1) {
        out.hosts[h].paths.set(q, tables.hosts[h].paths[q][r]);
      }
    }
  if (unreachable) *unreachable = cut;
  return out;
}

}  // namespace ibsc::tb
