#include "tests/support/manual_fabric.h"

#include <algorithm>
#include <string>

namespace ibsc::testing {

routing::Topology chain(int n, int left, int right, int ports) {
  routing::Topology t;
  t.kind = "chain";
  t.num_switches = n;
  t.num_hosts = left + right;
  for (int s = 0; s < n; ++s) {
    routing::Node node;
    node.name = "S" + std::to_string(s);
    node.num_ports = ports;
    node.ports.resize(ports + 1);
    t.nodes.push_back(node);
  }
  for (int h = 0; h < t.num_hosts; ++h) {
    routing::Node node;
    node.kind = routing::NodeKind::Host;
    node.name = "H" + std::to_string(h);
    node.num_ports = 1;
    node.ports.resize(2);
    t.nodes.push_back(node);
  }
  for (int s = 0; s + 1 < n; ++s) routing::connect(t, s, 1, s + 1, 2);
  for (int h = 0; h < left; ++h) routing::connect(t, t.host_node(h), 1, 0, 3 + h);
  const int first_right = n == 1 ? 3 + left : 3;
  for (int h = 0; h < right; ++h) routing::connect(t, t.host_node(left + h), 1, n - 1, first_right + h);
  return t;
}

routing::TableSet chain_tables(const routing::Topology& t, int num_sls) {
  routing::TableSet ts;
  ts.algorithm = "manual-chain";
  ts.sls_used = num_sls;
  ts.vls_used = num_sls;
  ts.max_lid = static_cast<Lid>(t.num_hosts + t.num_switches);
  for (int s = 0; s < t.num_switches; ++s) {
    routing::SwitchTables st;
    st.lid = static_cast<Lid>(t.num_hosts + 1 + s);
    st.lft.resize(ts.max_lid + 1);
    st.sl2vl.reset(t.nodes[s].num_ports);
    for (int sl = 0; sl < kNumSls; ++sl) st.sl2vl.set_all(sl, static_cast<Vl>(std::min(sl, num_sls - 1)));
    for (int h = 0; h < t.num_hosts; ++h) {
      int hs = t.host_switch(h);
      PortNum port = hs == s ? static_cast<PortNum>(t.host_switch_port(h)) : (hs > s ? 1 : 2);
      st.lft.set(h + 1, port);
    }
    ts.switches.push_back(std::move(st));
  }
  for (int h = 0; h < t.num_hosts; ++h) {
    routing::HostTables ht;
    ht.base_lid = static_cast<Lid>(h + 1);
    for (int sl = 0; sl < kNumSls; ++sl) ht.sl2vl[sl] = static_cast<Vl>(std::min(sl, num_sls - 1));
    ht.paths.assign(t.num_hosts);
    for (int d = 0; d < t.num_hosts; ++d) ht.paths.set(d, {static_cast<Lid>(d + 1), static_cast<Sl>(h % num_sls)});
    ts.hosts.push_back(std::move(ht));
  }
  return ts;
}

routing::Topology parallel_pair(int hosts) {
  return routing::make_torus_widths({2}, {2}, hosts, true);  // a ring of 2 with 2 lanes: no wraparound copy
}

routing::TableSet parallel_pair_tables(const routing::Topology& t) {
  routing::TableSet ts = chain_tables(t, 1);
  ts.algorithm = "manual-port-sets";
  for (int s = 0; s < 2; ++s) {
    const PortNum first = s == 0 ? 1 : 2;
    for (int h = 0; h < t.num_hosts; ++h) {
      routing::Lft& lft = ts.switches[s].lft;
      if (t.host_switch(h) == s) lft.set(h + 1, static_cast<PortNum>(t.host_switch_port(h)));
      else lft.set(h + 1, {{first, 0}, {static_cast<PortNum>(first + 2), 1}});
    }
  }
  return ts;
}

ScriptedTraffic::ScriptedTraffic(int hosts, std::vector<Scripted> script)
    : per_host_(hosts), next_(hosts, 0), last_(hosts, 0) {
  std::stable_sort(script.begin(), script.end(), [](const Scripted& a, const Scripted& b) { return a.time < b.time; });
  for (const auto& s : script) per_host_[s.src].push_back(s);
}

models::Picos ScriptedTraffic::next_gap(int host) {
  if (next_[host] >= per_host_[host].size()) return models::kNever;
  models::Picos t = per_host_[host][next_[host]].time;
  models::Picos gap = t - last_[host];
  last_[host] = t;
  return gap;
}

bool ScriptedTraffic::make(int host, models::Packet& p) {
  const Scripted& s = per_host_[host][next_[host]++];
  p.dst_host = static_cast<uint32_t>(s.dst);
  p.length = s.length;
  return true;
}

void ScriptedTraffic::generated(models::Packet& p, models::Picos) { p.measured = true; }

void ScriptedTraffic::delivered(const models::Packet& p, models::Picos t) {
  deliveries.push_back(
      {p.id, static_cast<int>(p.src_host), static_cast<int>(p.dst_host), p.gen_time, t, p.length, p.hops});
}

}  // namespace ibsc::testing
