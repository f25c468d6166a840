#include "routing/table_io.h"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ibsc::routing {

uint64_t switch_guid(const Topology& t, int sw) { return t.nodes[sw].guid ? t.nodes[sw].guid : kSwitchGuidBase + sw; }
uint64_t host_guid(const Topology& t, int host) {
  const Node& n = t.nodes[t.host_node(host)];
  return n.guid ? n.guid : kHostGuidBase + host;
}

void write_opensm_lfts(const Topology& t, const TableSet& ts, std::ostream& out) {
  // Who owns each LID, for the comments.
  std::vector<int> owner(ts.max_lid + 1, -1);
  for (int h = 0; h < t.num_hosts; ++h)
    for (int c = 0; c < (1 << ts.hosts[h].lmc); ++c)
      if (ts.hosts[h].base_lid + c <= ts.max_lid) owner[ts.hosts[h].base_lid + c] = t.host_node(h);
  for (int s = 0; s < t.num_switches; ++s)
    if (ts.switches[s].lid <= ts.max_lid) owner[ts.switches[s].lid] = s;
  char buf[160];
  for (int s = 0; s < t.num_switches; ++s) {
    const SwitchTables& st = ts.switches[s];
    std::snprintf(buf, sizeof buf, "Unicast lids [0-%u] of switch Lid %u guid 0x%016" PRIx64 " ('", ts.max_lid, st.lid,
                  switch_guid(t, s));
    out << buf << t.nodes[s].name << "'):\n";
    for (size_t lid = 0; lid < st.lft.size(); ++lid) {
      if (!st.lft[lid].routed()) continue;
      std::snprintf(buf, sizeof buf, "0x%04zx %03u # ", lid, st.lft[lid].primary());
      out << buf;
      int o = owner[lid];
      if (o < 0) out << "unknown node and type\n";
      else {
        std::snprintf(buf, sizeof buf, "%s portguid 0x%016" PRIx64 ": '", t.is_switch(o) ? "Switch" : "Channel Adapter",
                      t.is_switch(o) ? switch_guid(t, o) : host_guid(t, t.host_index(o)));
        out << buf << t.nodes[o].name << "'\n";
      }
    }
    out << ts.max_lid << " lids dumped\n";
  }
}

void write_sl2vl(const Topology& t, const TableSet& ts, std::ostream& out) {
  out << "# ibsc SL2VL tables: switch INDEX LID, then IN OUT and the VL of SL 0..15 (hex)\n";
  for (int s = 0; s < t.num_switches; ++s) {
    const Sl2VlTable& tab = ts.switches[s].sl2vl;
    out << "switch " << s << " " << ts.switches[s].lid << "  # " << t.nodes[s].name
        << (tab.key() == Sl2VlTable::Key::InputVl ? " (VL2VL: keyed by input VL)" : "") << "\n";
    for (int i = 0; i <= tab.num_ports(); ++i)
      for (int o = 1; o <= tab.num_ports(); ++o) {
        if (i == o) continue;
        out << i << " " << o;
        for (int k = 0; k < kNumSls; ++k) out << " " << std::hex << int(tab.get(i, o, k)) << std::dec;
        out << "\n";
      }
  }
  for (int h = 0; h < t.num_hosts; ++h) {
    out << "host " << h << " " << ts.hosts[h].base_lid << " " << int(ts.hosts[h].lmc);
    for (int k = 0; k < kNumSls; ++k) out << " " << std::hex << int(ts.hosts[h].sl2vl[k]) << std::dec;
    out << "  # " << t.nodes[t.host_node(h)].name << "\n";
  }
}

void write_path_records(const Topology& t, const TableSet& ts, std::ostream& out) {
  out << "# ibsc path records: path SRC_HOST DST_HOST DLID SL (first record primary)\n";
  for (int h = 0; h < t.num_hosts; ++h)
    for (int q = 0; q < t.num_hosts; ++q)
      for (const PathRecord& r : ts.hosts[h].paths[q])
        out << "path " << h << " " << q << " " << r.dlid << " " << int(r.sl) << "\n";
}

void export_tables(const Topology& t, const TableSet& ts, const std::string& dir) {
  // An OpenSM dump holds one LFT per switch: the per-input-VL copies would be lost unsaid.
  for (const SwitchTables& st : ts.switches)
    if (st.per_vl())
      throw std::runtime_error("routing '" + ts.algorithm +
                               "' programs one LFT per input VL, which an OpenSM LFT dump cannot hold: not exported");
  std::filesystem::create_directories(dir);
  auto open = [&](const std::string& file) {
    std::ofstream out(dir + "/" + file);
    if (!out) throw std::runtime_error(dir + "/" + file + ": cannot write");
    return out;
  };
  {
    auto out = open("opensm-lfts.dump");
    write_opensm_lfts(t, ts, out);
  }
  {
    auto out = open("sl2vl.txt");
    write_sl2vl(t, ts, out);
  }
  auto out = open("path-records.txt");
  write_path_records(t, ts, out);
}

}  // namespace ibsc::routing
