// Reading tables back: OpenSM LFT dumps (ours or a real subnet manager's), our SL2VL and
// path-record text. The LID policy is described in table_io.h.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "routing/lids.h"
#include "routing/strict_number.h"
#include "routing/table_import_dump.h"
#include "routing/table_io.h"
#include "routing/topo_import_links.h"

namespace ibsc::routing {
namespace {

using dump_detail::fail;
using dump_detail::LftBlock;
using dump_detail::LftDump;

// Whitespace-separated tokens, after cutting a `#` comment.
std::vector<std::string> tokens(const std::string& raw) {
  std::istringstream is(raw.substr(0, raw.find('#')));
  std::vector<std::string> out;
  for (std::string t; is >> t;) out.push_back(t);
  return out;
}

void apply_lfts(const Topology& t, const LftDump& d, TableSet& ts, const std::string& name) {
  for (auto& st : ts.switches) st.lft.assign(ts.max_lid + 1);
  for (const LftBlock& b : d.blocks) {
    if (b.lid && b.lid != ts.switches[b.sw].lid)
      fail(name, b.line,
           "switch " + t.nodes[b.sw].name + " has Lid " + std::to_string(b.lid) + " here but " +
               std::to_string(ts.switches[b.sw].lid) + " in the tables");
    for (size_t i = 0; i < b.entries.size(); ++i) {
      const auto [lid, port] = b.entries[i];
      if (lid > ts.max_lid)
        fail(name, b.entry_lines[i],
             "LID " + std::to_string(lid) + " above the largest LID of the fabric, " + std::to_string(ts.max_lid));
      ts.switches[b.sw].lft.set(lid, port);
    }
  }
}

// OpenSM gives every HCA port 2^LMC LIDs from an aligned base (the subnet's `lmc` option) and
// its dumps show which LIDs some port has. A host's LIDs are its base and the owned LIDs right
// after it, up to the next node's base or a LID the dump gives to another port: their count
// is 2^LMC. One LMC for every host, as OpenSM has one; a host the dump does not route at all
// (down when OpenSM swept) takes it too, and the check then reports its pairs unrouted.
void lmc_from_dump(const Topology& t, const LftDump& d, TableSet& ts, const std::string& name) {
  const dump_detail::LidOwners& own = d.owners;
  if (!own.known) return;
  // At a host's own switch every LID of the host leaves by the port cabled to it: this tells
  // the host's LIDs from those of a node left out of the topology (an aggregation node) where
  // the dump names no owner (opensm.fdbs).
  std::vector<const LftBlock*> block_of(t.num_switches, nullptr);
  for (const LftBlock& b : d.blocks) block_of[b.sw] = &b;
  std::vector<std::vector<std::pair<Lid, PortNum>>> sorted(t.num_switches);  // filled when first asked
  auto leaves_by = [&](int h, Lid lid) {
    const int s = t.host_switch(h);
    if (s < 0 || !block_of[s]) return true;
    auto& e = sorted[s];
    if (e.empty()) {
      e = block_of[s]->entries;
      std::sort(e.begin(), e.end());
    }
    auto it = std::lower_bound(e.begin(), e.end(), std::pair<Lid, PortNum>{lid, 0});
    return it != e.end() && it->first == lid && it->second == t.host_switch_port(h);
  };
  std::map<Lid, int> base_of;  // base LID -> node
  for (int s = 0; s < t.num_switches; ++s) base_of[ts.switches[s].lid] = s;
  for (int h = 0; h < t.num_hosts; ++h) base_of[ts.hosts[h].base_lid] = t.host_node(h);
  int lmc_host = -1;
  std::vector<int> absent;  // hosts the dump does not route at all: the others' LMC, unchecked
  for (int h = 0; h < t.num_hosts; ++h) {
    const Lid base = ts.hosts[h].base_lid;
    const uint64_t guid = host_guid(t, h);
    auto at = own.owned.find(base);
    if (at == own.owned.end()) {
      absent.push_back(h);
      continue;
    }
    if (at->second && at->second != guid)
      throw std::invalid_argument(name + ": LID " + std::to_string(base) + " is host " + t.nodes[t.host_node(h)].name +
                                  "'s in the topology but port " + import_detail::hex16(at->second) +
                                  "'s in the dump: are they of the same fabric?");
    int n = 1;
    for (; n < (1 << kMaxLmc); ++n) {
      auto it = own.owned.find(static_cast<Lid>(base + n));
      if (it == own.owned.end() || base_of.count(static_cast<Lid>(base + n)) || (it->second && it->second != guid) ||
          !leaves_by(h, static_cast<Lid>(base + n)))
        break;
    }
    int lmc = 0;
    while ((1 << lmc) < n) ++lmc;
    if ((1 << lmc) != n || base % n != 0)
      throw std::invalid_argument(name + ": host " + t.nodes[t.host_node(h)].name + " has LIDs " +
                                  std::to_string(base) + ".." + std::to_string(base + n - 1) +
                                  " in the dump: not 2^LMC LIDs from a base aligned to 2^LMC");
    if (lmc_host >= 0 && lmc != ts.hosts[lmc_host].lmc)
      throw std::invalid_argument(name + ": host " + t.nodes[t.host_node(h)].name + " has " + std::to_string(n) +
                                  " LIDs in the dump but " + t.nodes[t.host_node(lmc_host)].name + " has " +
                                  std::to_string(1 << ts.hosts[lmc_host].lmc) +
                                  ": OpenSM gives every HCA port the same LMC");
    ts.hosts[h].lmc = static_cast<uint8_t>(lmc);
    if (lmc_host < 0) lmc_host = h;
  }
  for (int h : absent) ts.hosts[h].lmc = lmc_host < 0 ? 0 : ts.hosts[lmc_host].lmc;
}

// Sizes everything but the LFTs once the LIDs are known; max_lid from the nodes' LIDs and the
// LIDs the dump names an owner for or says no port has (their entries are kept: the tables as
// written; e.g. a switch's extra LIDs with OpenSM's lmc_esp0).
void finish_layout(const Topology& t, TableSet& ts, const dump_detail::LidOwners& own) {
  ts.max_lid = 0;
  if (!own.nobody.empty()) ts.max_lid = own.nobody.rbegin()->first;
  if (!own.owned.empty()) ts.max_lid = std::max(ts.max_lid, own.owned.rbegin()->first);
  for (const auto& st : ts.switches) ts.max_lid = std::max(ts.max_lid, st.lid);
  for (const auto& h : ts.hosts) ts.max_lid = std::max<Lid>(ts.max_lid, h.base_lid + (1 << h.lmc) - 1);
  for (int s = 0; s < t.num_switches; ++s)
    if (ts.switches[s].sl2vl.num_ports() != t.nodes[s].num_ports) ts.switches[s].sl2vl.reset(t.nodes[s].num_ports);
  PathRow none;
  none.assign(t.num_hosts);
  for (auto& h : ts.hosts) h.paths = none;
}

bool real_lids(const Topology& t, const std::vector<LftBlock>& blocks) {
  for (const Node& n : t.nodes)
    if (n.lid == 0) return false;
  for (const LftBlock& b : blocks)
    if (b.lid && b.lid != t.nodes[b.sw].lid) return false;
  return true;
}

void read_sl2vl(const Topology& t, TableSet& ts, std::istream& in, const std::string& name) {
  std::string raw;
  int line = 0, sw = -1;
  std::vector<char> got_sw(t.num_switches, 0), got_host(t.num_hosts, 0);
  // Whole-token numbers: "5junk" is not 5.
  auto num = [](const std::string& tok, uint64_t max, long& v) {
    uint64_t u = 0;
    if (!parse_unsigned(tok, max, u)) return false;
    v = static_cast<long>(u);
    return true;
  };
  auto vls = [&](const std::vector<std::string>& tok, size_t first, auto&& set) {
    if (tok.size() != first + kNumSls) fail(name, line, "expected 16 VLs (hex digits)");
    for (int k = 0; k < kNumSls; ++k) {
      const std::string& v = tok[first + k];
      if (v.size() != 1 || !std::isxdigit(static_cast<unsigned char>(v[0])))
        fail(name, line, "expected 16 VLs (hex digits)");
      set(k, static_cast<Vl>(std::stoi(v, nullptr, 16)));
    }
  };
  while (std::getline(in, raw)) {
    ++line;
    const bool vl2vl = raw.find("(VL2VL") != std::string::npos;
    const std::vector<std::string> tok = tokens(raw);
    if (tok.empty()) continue;
    const std::string& kw = tok[0];
    long idx = -1, a = -1, b = -1;
    if (kw == "switch") {
      if (tok.size() != 3 || !num(tok[1], 1u << 30, idx) || !num(tok[2], 1u << 30, a) || idx >= t.num_switches ||
          a < 1 || a > kMaxUnicastLid)
        fail(name, line, "expected 'switch INDEX LID' with INDEX < " + std::to_string(t.num_switches));
      sw = static_cast<int>(idx);
      got_sw[sw] = 1;
      ts.switches[sw].lid = static_cast<Lid>(a);
      ts.switches[sw].sl2vl.reset(t.nodes[sw].num_ports, vl2vl ? Sl2VlTable::Key::InputVl : Sl2VlTable::Key::Sl);
    } else if (kw == "host") {
      if (tok.size() < 4 || !num(tok[1], 1u << 30, idx) || !num(tok[2], 1u << 30, a) || !num(tok[3], 1u << 30, b) ||
          idx >= t.num_hosts || a < 1 || a > kMaxUnicastLid || b > kMaxLmc)
        fail(name, line, "expected 'host INDEX BASE_LID LMC' with INDEX < " + std::to_string(t.num_hosts));
      HostTables& h = ts.hosts[idx];
      got_host[idx] = 1;
      h.base_lid = static_cast<Lid>(a);
      h.lmc = static_cast<uint8_t>(b);
      vls(tok, 4, [&](int k, Vl v) { h.sl2vl[k] = v; });
    } else if (std::isdigit(static_cast<unsigned char>(kw[0]))) {
      if (sw < 0) fail(name, line, "port line before any 'switch' line");
      Sl2VlTable& tab = ts.switches[sw].sl2vl;
      if (!num(kw, 1u << 30, a)) fail(name, line, "bad input port '" + kw + "'");
      if (tok.size() < 2 || !num(tok[1], 1u << 30, b) || a > tab.num_ports() || b < 1 || b > tab.num_ports())
        fail(name, line, "ports outside 0.." + std::to_string(tab.num_ports()) + " of " + t.nodes[sw].name);
      vls(tok, 2, [&](int k, Vl v) { tab.set(static_cast<int>(a), static_cast<int>(b), k, v); });
    } else {
      fail(name, line, "unknown keyword '" + kw + "' (switch, host, or a port line)");
    }
  }
  for (int s = 0; s < t.num_switches; ++s)
    if (!got_sw[s]) fail(name, line, "no 'switch " + std::to_string(s) + "' section (" + t.nodes[s].name + ")");
  for (int h = 0; h < t.num_hosts; ++h)
    if (!got_host[h]) fail(name, line, "no 'host " + std::to_string(h) + "' line");
}

void read_path_records(const Topology& t, TableSet& ts, std::istream& in, const std::string& name) {
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    const std::vector<std::string> tok = tokens(raw);
    if (tok.empty()) continue;
    uint64_t v[4] = {};
    bool ok = tok.size() == 5 && tok[0] == "path";
    for (int i = 0; ok && i < 4; ++i) ok = parse_unsigned(tok[i + 1], 1u << 30, v[i]);
    if (!ok || v[0] >= static_cast<uint64_t>(t.num_hosts) || v[1] >= static_cast<uint64_t>(t.num_hosts) || v[2] < 1 ||
        v[2] > ts.max_lid || v[3] >= static_cast<uint64_t>(kNumSls))
      fail(name, line,
           "expected 'path SRC_HOST DST_HOST DLID SL' within " + std::to_string(t.num_hosts) + " hosts, LIDs 1.." +
               std::to_string(ts.max_lid) + ", SLs 0..15");
    ts.hosts[v[0]].paths.add(v[1], {static_cast<Lid>(v[2]), static_cast<Sl>(v[3])});
  }
}

// The budgets the tables need, read off the tables themselves: the SLs of the records, and
// the VLs those SLs (and, through VL2VL tables, those VLs) can reach, to a fixed point.
void set_budgets(TableSet& ts) {
  int top_sl = 0;
  bool vl_seen[kNumSls] = {};
  for (const auto& h : ts.hosts)
    for (size_t q = 0; q < h.paths.size(); ++q)
      for (const PathRecord& r : h.paths[q]) {
        top_sl = std::max<int>(top_sl, r.sl);
        vl_seen[h.sl2vl[r.sl] & 15] = true;
      }
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& st : ts.switches) {
      const Sl2VlTable& tab = st.sl2vl;
      for (int k = 0; k < kNumSls; ++k) {
        if (tab.key() == Sl2VlTable::Key::Sl ? k > top_sl : !vl_seen[k]) continue;
        for (int i = 0; i <= tab.num_ports(); ++i)
          for (int o = 1; o <= tab.num_ports(); ++o) {
            const int v = tab.get(i, o, k) & 15;
            if (!vl_seen[v]) vl_seen[v] = grew = true;
          }
      }
    }
  }
  int top_vl = 0;
  for (int v = 0; v < kMaxDataVls; ++v)
    if (vl_seen[v]) top_vl = v;
  ts.sls_used = top_sl + 1;
  ts.vls_used = top_vl + 1;
}

// The dump a path names: a file (its format told by its content), or in a directory
// opensm-lfts.dump, else opensm.fdbs.
std::string dump_file(const std::string& path) {
  namespace fs = std::filesystem;
  if (!fs::is_directory(path)) return path;
  for (const char* leaf : {"opensm-lfts.dump", "opensm.fdbs"})
    if (fs::exists(fs::path(path) / leaf)) return (fs::path(path) / leaf).string();
  return (fs::path(path) / "opensm-lfts.dump").string();  // for the error: cannot open it
}

// Which LID each node has (table_io.h's order): sl2vl.txt, the topology's own LIDs, or ours.
void lay_out_lids(const Topology& t, const LftDump& d, const std::string& sl2vl, TableSet& ts,
                  const std::string& dump) {
  if (!sl2vl.empty() && std::filesystem::exists(sl2vl)) {
    ts.switches.assign(t.num_switches, SwitchTables{});
    ts.hosts.assign(t.num_hosts, HostTables{});
    std::ifstream s(sl2vl);
    read_sl2vl(t, ts, s, sl2vl);
  } else if (real_lids(t, d.blocks)) {
    ts.switches.assign(t.num_switches, SwitchTables{});
    ts.hosts.assign(t.num_hosts, HostTables{});
    for (int s = 0; s < t.num_switches; ++s) ts.switches[s].lid = t.nodes[s].lid;
    for (int h = 0; h < t.num_hosts; ++h) ts.hosts[h].base_lid = t.nodes[t.host_node(h)].lid;
    lmc_from_dump(t, d, ts, dump);
  } else {
    assign_lids(t, 0, ts);
    for (const LftBlock& b : d.blocks)
      if (b.lid && b.lid != ts.switches[b.sw].lid)
        fail(dump, b.line,
             "switch " + t.nodes[b.sw].name + " has Lid " + std::to_string(b.lid) +
                 ", neither its LID in the topology file (" + std::to_string(t.nodes[b.sw].lid) +
                 ") nor the LID ibsc assigns with LMC 0 (" + std::to_string(ts.switches[b.sw].lid) + ")");
  }
}

// Without path-records.txt: every host to every other by each of its 2^LMC LIDs on SL 0, the
// base LID first (the primary path), the others after it as alternates; one row shared by all
// hosts, less the host itself.
void default_path_records(const Topology& t, TableSet& ts) {
  PathRow row;
  row.assign(t.num_hosts);
  for (int q = 0; q < t.num_hosts; ++q) {
    const HostTables& dst = ts.hosts[q];
    if (dst.lmc == 0) {  // one record: the row stays in its compact form
      row.set(q, {dst.base_lid, 0});
      continue;
    }
    std::vector<PathRecord> recs(size_t{1} << dst.lmc);
    for (size_t c = 0; c < recs.size(); ++c) recs[c] = {static_cast<Lid>(dst.base_lid + c), 0};
    row.set(q, recs);
  }
  for (int h = 0; h < t.num_hosts; ++h) {
    ts.hosts[h].paths = row;
    ts.hosts[h].paths.hide(h);
  }
}

}  // namespace

void read_opensm_lfts(const Topology& t, TableSet& ts, std::istream& in, const std::string& name) {
  apply_lfts(t, dump_detail::read_lft_dump(t, in, name), ts, name);
}

TableSet import_opensm_dump_dir(const Topology& t, const std::string& dir) {
  if (!std::filesystem::is_directory(dir))
    throw std::invalid_argument(dir + ": not a directory (OpenSM's --dump_files_dir output)");
  return import_opensm_tables(t, dir);
}

TableSet import_opensm_tables(const Topology& t, const std::string& path) {
  namespace fs = std::filesystem;
  const bool dir = fs::is_directory(path);
  const std::string dump = dump_file(path);
  std::ifstream in(dump);
  if (!in) throw std::invalid_argument(dump + ": cannot open the LFT dump");
  const LftDump d = dump_detail::read_lft_dump(t, in, dump);
  if (d.blocks.empty())
    throw std::invalid_argument(dump +
                                ": no switch block ('Unicast lids ... of switch' or 'dump_ucast_routes: Switch')");

  TableSet ts;
  ts.algorithm = "file";
  lay_out_lids(t, d, dir ? (fs::path(path) / "sl2vl.txt").string() : "", ts, dump);
  // Two nodes on one LID would make the tables ambiguous.
  std::map<Lid, int> owner;
  auto claim = [&](Lid lid, int node) {
    auto [it, fresh] = owner.emplace(lid, node);
    if (!fresh)
      throw std::invalid_argument(path + ": LID " + std::to_string(lid) + " belongs to both " +
                                  t.nodes[it->second].name + " and " + t.nodes[node].name);
  };
  finish_layout(t, ts, d.owners);
  for (int s = 0; s < t.num_switches; ++s) claim(ts.switches[s].lid, s);
  for (int h = 0; h < t.num_hosts; ++h)
    for (int c = 0; c < (1 << ts.hosts[h].lmc); ++c) claim(static_cast<Lid>(ts.hosts[h].base_lid + c), t.host_node(h));
  apply_lfts(t, d, ts, dump);

  const std::string records = dir ? (fs::path(path) / "path-records.txt").string() : "";
  if (!records.empty() && fs::exists(records)) {
    std::ifstream r(records);
    read_path_records(t, ts, r, records);
  } else {
    default_path_records(t, ts);
  }
  set_budgets(ts);
  return ts;
}

}  // namespace ibsc::routing
