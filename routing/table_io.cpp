#include "routing/table_io.h"

#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ibsc::routing {

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
                  kSwitchGuidBase + s);
    out << buf << t.nodes[s].name << "'):\n";
    for (size_t lid = 0; lid < st.lft.size(); ++lid) {
      if (!st.lft[lid].routed()) continue;
      std::snprintf(buf, sizeof buf, "0x%04zx %03u # ", lid, st.lft[lid].primary());
      out << buf;
      int o = owner[lid];
      if (o < 0)
        out << "unknown node and type\n";
      else {
        std::snprintf(buf, sizeof buf, "%s portguid 0x%016" PRIx64 ": '", t.is_switch(o) ? "Switch" : "Channel Adapter",
                      t.is_switch(o) ? kSwitchGuidBase + o : kHostGuidBase + t.host_index(o));
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

void read_opensm_lfts(const Topology& t, TableSet& ts, std::istream& in, const std::string& name) {
  std::string raw;
  int line = 0, sw = -1;
  auto fail = [&](const std::string& what) {
    throw std::invalid_argument(name + ":" + std::to_string(line) + ": " + what);
  };
  for (auto& st : ts.switches) st.lft.assign(ts.max_lid + 1, LftEntry{});
  while (std::getline(in, raw)) {
    ++line;
    if (raw.rfind("Unicast lids", 0) == 0) {
      size_t g = raw.find("guid 0x");
      if (g == std::string::npos) fail("switch header without a guid");
      uint64_t guid = std::stoull(raw.substr(g + 7, 16), nullptr, 16);
      if (guid < kSwitchGuidBase || guid >= kSwitchGuidBase + static_cast<uint64_t>(t.num_switches))
        fail("guid " + raw.substr(g + 5, 18) + " is not a switch of this topology");
      sw = static_cast<int>(guid - kSwitchGuidBase);
      continue;
    }
    if (raw.rfind("0x", 0) == 0) {
      if (sw < 0) fail("LFT entry before any switch header");
      unsigned lid = 0, port = 0;
      if (std::sscanf(raw.c_str(), "0x%x %u", &lid, &port) != 2) fail("cannot read '" + raw + "'");
      if (lid > ts.max_lid) fail("LID " + std::to_string(lid) + " above the largest LID " + std::to_string(ts.max_lid));
      if (port > static_cast<unsigned>(t.nodes[sw].num_ports))
        fail("port " + std::to_string(port) + " beyond the " + std::to_string(t.nodes[sw].num_ports) + " ports of " +
             t.nodes[sw].name);
      ts.switches[sw].lft[lid].candidates = {{static_cast<PortNum>(port), 0}};
      continue;
    }
    if (raw.empty() || raw[0] == '#' || raw.find("lids dumped") != std::string::npos) continue;
    fail("unexpected line '" + raw + "'");
  }
}

void export_tables(const Topology& t, const TableSet& ts, const std::string& dir) {
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
