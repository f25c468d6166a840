// Tables of an OpenSM run (opensm_tables.h).
#include "routing/opensm_tables.h"

#include <algorithm>
#include <cinttypes>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "routing/ibsim_net_writer.h"
#include "routing/lids.h"
#include "routing/strict_number.h"
#include "routing/table_io.h"

namespace ibsc::routing {
namespace {

struct LidRange {
  Lid first = 0, last = 0;
};

std::map<uint64_t, LidRange> read_guid2lid(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open OpenSM's LID cache");
  std::map<uint64_t, LidRange> out;
  std::string raw;
  for (int line = 1; std::getline(in, raw); ++line) {
    std::istringstream is(raw);
    std::string g, a, b;
    if (!(is >> g)) continue;
    uint64_t guid = 0, first = 0, last = 0;
    const auto hex = [](const std::string& s, uint64_t max, uint64_t& v) {
      return s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && parse_unsigned(s.substr(2), max, v, 16);
    };
    if (!(is >> a >> b) || !hex(g, UINT64_MAX, guid) || !hex(a, kMaxUnicastLid, first) ||
        !hex(b, kMaxUnicastLid, last) || first == 0 || last < first)
      throw std::invalid_argument(path + ":" + std::to_string(line) + ": expected '0xGUID 0xFIRST_LID 0xLAST_LID', got '" +
                                  raw + "'");
    out[guid] = {static_cast<Lid>(first), static_cast<Lid>(last)};
  }
  return out;
}

}  // namespace

TableSet read_opensm_run(const Topology& topo, const std::string& run_dir) {
  // The topology with the GUIDs ibsim had, so the LFT reader matches OpenSM's switch headers.
  Topology t = topo;
  for (int s = 0; s < t.num_switches; ++s) t.nodes[s].guid = ibsim_switch_guid(s);
  for (int h = 0; h < t.num_hosts; ++h) t.nodes[t.host_node(h)].guid = ibsim_host_port_guid(h);

  const std::string cache = run_dir + "/cache/guid2lid";
  const std::map<uint64_t, LidRange> lids = read_guid2lid(cache);
  auto lid_of = [&](int node) {
    auto it = lids.find(t.nodes[node].guid);
    if (it == lids.end()) {
      char buf[24];
      std::snprintf(buf, sizeof buf, "0x%016" PRIx64, t.nodes[node].guid);
      throw std::invalid_argument(cache + ": OpenSM assigned no LID to " + t.nodes[node].name + " (port GUID " + buf +
                                  ")");
    }
    return it->second;
  };
  TableSet ts;
  ts.switches.assign(t.num_switches, SwitchTables{});
  ts.hosts.assign(t.num_hosts, HostTables{});
  std::map<Lid, int> owner;  // two ports on one LID would make the tables ambiguous
  auto claim = [&](LidRange r, int node) {
    for (int l = r.first; l <= r.last; ++l)
      if (auto [it, fresh] = owner.emplace(static_cast<Lid>(l), node); !fresh)
        throw std::invalid_argument(cache + ": LID " + std::to_string(l) + " belongs to both " +
                                    t.nodes[it->second].name + " and " + t.nodes[node].name);
  };
  for (int s = 0; s < t.num_switches; ++s) {
    const LidRange r = lid_of(s);
    claim(r, s);
    ts.switches[s].lid = r.first;
    ts.switches[s].sl2vl.reset(t.nodes[s].num_ports);
    ts.max_lid = std::max(ts.max_lid, r.last);
  }
  for (int h = 0; h < t.num_hosts; ++h) {
    const LidRange r = lid_of(t.host_node(h));
    const int count = r.last - r.first + 1;
    int lmc = 0;
    while ((1 << lmc) < count) ++lmc;
    if ((1 << lmc) != count || lmc > kMaxLmc || r.first % count != 0)
      throw std::invalid_argument(cache + ": " + t.nodes[t.host_node(h)].name + " has LIDs " + std::to_string(r.first) +
                                  ".." + std::to_string(r.last) + ", not an aligned range of 2^LMC LIDs");
    claim(r, t.host_node(h));
    ts.hosts[h].base_lid = r.first;
    ts.hosts[h].lmc = static_cast<uint8_t>(lmc);
    ts.max_lid = std::max(ts.max_lid, r.last);
  }

  const std::string dump = run_dir + "/dumps/opensm-lfts.dump";
  std::ifstream in(dump);
  if (!in) throw std::invalid_argument(dump + ": cannot open OpenSM's LFT dump");
  read_opensm_lfts(t, ts, in, dump);

  PathRow row;  // every host to every other by its base LID on SL 0
  row.assign(t.num_hosts);
  for (int q = 0; q < t.num_hosts; ++q) row.set(q, {ts.hosts[q].base_lid, 0});
  for (int h = 0; h < t.num_hosts; ++h) {
    ts.hosts[h].paths = row;
    ts.hosts[h].paths.hide(h);
  }
  ts.sls_used = 1;
  ts.vls_used = 1;
  return ts;
}

}  // namespace ibsc::routing
