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
      throw std::invalid_argument(path + ":" + std::to_string(line) +
                                  ": expected '0xGUID 0xFIRST_LID 0xLAST_LID', got '" + raw + "'");
    out[guid] = {static_cast<Lid>(first), static_cast<Lid>(last)};
  }
  return out;
}

// One `IN OUT : V0 .. V15` line of opensm-sl2vl.dump; false for anything else.
bool sl2vl_line(const std::string& raw, long& in, long& out, Vl (&vls)[kNumSls]) {
  std::istringstream is(raw);
  std::string a, b, colon;
  uint64_t u = 0;
  if (!(is >> a >> b >> colon) || colon != ":") return false;
  if (!parse_unsigned(a, 255, u)) return false;
  in = static_cast<long>(u);
  if (!parse_unsigned(b, 255, u)) return false;
  out = static_cast<long>(u);
  for (Vl& v : vls) {
    std::string tok;
    if (!(is >> tok) || !parse_unsigned(tok, 15, u)) return false;
    v = static_cast<Vl>(u);
  }
  return true;
}

void read_sl2vl_dump(const Topology& t, TableSet& ts, const std::string& path) {
  std::map<uint64_t, int> switch_of, host_of;
  for (int s = 0; s < t.num_switches; ++s) switch_of[ibsim_switch_guid(s)] = s;
  for (int h = 0; h < t.num_hosts; ++h) host_of[ibsim_host_port_guid(h)] = h;
  std::ifstream in(path);
  if (!in) throw std::invalid_argument(path + ": cannot open OpenSM's SL2VL dump");
  std::vector<char> seen(t.num_hosts, 0);
  int sw = -1, host = -1;
  std::string raw;
  for (int line = 1; std::getline(in, raw); ++line) {
    if (raw.empty() || raw[0] == '#') continue;
    const bool is_sw = raw.rfind("Switch 0x", 0) == 0, is_ca = raw.rfind("Channel Adapter 0x", 0) == 0;
    if (is_sw || is_ca) {
      uint64_t guid = 0;
      const size_t at = raw.find("0x") + 2;
      if (!parse_unsigned(raw.substr(at, raw.find(',', at) - at), UINT64_MAX, guid, 16))
        throw std::invalid_argument(path + ":" + std::to_string(line) + ": no GUID in '" + raw + "'");
      auto& by = is_sw ? switch_of : host_of;
      const auto it = by.find(guid);
      if (it == by.end())
        throw std::invalid_argument(path + ":" + std::to_string(line) + ": GUID not of this fabric: '" + raw + "'");
      sw = is_sw ? it->second : -1;
      host = is_ca ? it->second : -1;
      continue;
    }
    long i = 0, o = 0;
    Vl vls[kNumSls];
    if (!sl2vl_line(raw, i, o, vls) || (sw < 0 && host < 0))
      throw std::invalid_argument(path + ":" + std::to_string(line) + ": expected 'IN OUT : 16 VLs', got '" + raw +
                                  "'");
    if (host >= 0) {
      std::copy(std::begin(vls), std::end(vls), ts.hosts[host].sl2vl);
      seen[host] = 1;
    } else if (o >= 1 && i <= t.nodes[sw].num_ports && o <= t.nodes[sw].num_ports) {
      for (int k = 0; k < kNumSls; ++k) ts.switches[sw].sl2vl.set(static_cast<int>(i), static_cast<int>(o), k, vls[k]);
    }
  }
  for (int h = 0; h < t.num_hosts; ++h)
    if (!seen[h]) throw std::invalid_argument(path + ": no SL2VL table for host " + t.nodes[t.host_node(h)].name);
}

}  // namespace

void apply_opensm_sls(const Topology& t, TableSet& ts, const std::string& run_dir, const std::vector<Sl>& pair_sls) {
  read_sl2vl_dump(t, ts, run_dir + "/dumps/opensm-sl2vl.dump");
  int top_sl = 0;
  bool used[kNumSls] = {};
  for (int a = 0; a < t.num_hosts; ++a) {
    PathRow row;
    row.assign(t.num_hosts);
    for (int b = 0; b < t.num_hosts; ++b) {
      if (a == b) continue;
      const Sl sl = pair_sls[static_cast<size_t>(a) * t.num_hosts + b];
      row.set(b, {ts.hosts[b].base_lid, sl});
      used[sl] = true;
      top_sl = std::max<int>(top_sl, sl);
    }
    row.hide(a);
    ts.hosts[a].paths = row;
  }
  // The VLs those SLs reach, at the HCAs and at every switch hop.
  int top_vl = 0;
  for (int k = 0; k < kNumSls; ++k) {
    if (!used[k]) continue;
    for (const HostTables& h : ts.hosts) top_vl = std::max<int>(top_vl, h.sl2vl[k]);
    for (int s = 0; s < t.num_switches; ++s)
      for (int i = 1; i <= t.nodes[s].num_ports; ++i)  // cabled data ports only: OpenSM leaves others as they were
        for (int o = 1; o <= t.nodes[s].num_ports; ++o)
          if (t.nodes[s].ports[i].node >= 0 && t.nodes[s].ports[o].node >= 0)
            top_vl = std::max<int>(top_vl, ts.switches[s].sl2vl.get(i, o, k));
  }
  ts.sls_used = top_sl + 1;
  ts.vls_used = top_vl + 1;
}

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

  // Every host to every other on SL 0: the base LID first, then (LMC > 0) the destination's other
  // LIDs as alternates, as the SA lists a pair's 2^LMC path records.
  PathRow row;
  row.assign(t.num_hosts);
  for (int q = 0; q < t.num_hosts; ++q) {
    row.set(q, {ts.hosts[q].base_lid, 0});
    for (int i = 1; i < (1 << ts.hosts[q].lmc); ++i) row.add(q, {static_cast<Lid>(ts.hosts[q].base_lid + i), 0});
  }
  for (int h = 0; h < t.num_hosts; ++h) {
    ts.hosts[h].paths = row;
    ts.hosts[h].paths.hide(h);
  }
  ts.sls_used = 1;
  ts.vls_used = 1;
  return ts;
}

}  // namespace ibsc::routing
