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
#include "routing/table_io.h"

namespace ibsc::routing {
namespace {

struct LftBlock {
  int sw = -1;
  Lid lid = 0;  // the header's `Lid`
  int line = 0;
  std::vector<std::pair<Lid, PortNum>> entries;
  std::vector<int> entry_lines;
};

[[noreturn]] void fail(const std::string& name, int line, const std::string& what) {
  throw std::invalid_argument(name + ":" + std::to_string(line) + ": " + what);
}

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// The token of `s` at `pos` up to the next blank (or the end), read as a whole number; false
// for "12abc", a sign, an empty token or a value beyond `max`.
bool number_at(const std::string& s, size_t pos, uint64_t max, uint64_t& v, int base = 10) {
  size_t end = pos;
  while (end < s.size() && !is_blank(s[end])) ++end;
  return parse_unsigned(std::string_view(s).substr(pos, end - pos), max, v, base);
}

// Whitespace-separated tokens, after cutting a `#` comment.
std::vector<std::string> tokens(const std::string& raw) {
  std::istringstream is(raw.substr(0, raw.find('#')));
  std::vector<std::string> out;
  for (std::string t; is >> t;) out.push_back(t);
  return out;
}

std::vector<LftBlock> parse_lfts(const Topology& t, std::istream& in, const std::string& name) {
  std::map<uint64_t, int> by_guid;
  for (int s = 0; s < t.num_switches; ++s) by_guid[switch_guid(t, s)] = s;
  std::vector<LftBlock> blocks;
  std::map<int, int> seen;                            // switch -> header line
  std::map<Lid, std::pair<PortNum, int>> block_lids;  // this block's LIDs -> (port, line)
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    ++line;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    if (raw.rfind("Unicast lids", 0) == 0) {
      uint64_t lid = 0, guid = 0;
      size_t l = raw.find("Lid "), g = raw.find("guid 0x");
      if (l == std::string::npos || g == std::string::npos || !number_at(raw, l + 4, 0xFFFF, lid) ||
          !number_at(raw, g + 7, UINT64_MAX, guid, 16))
        fail(name, line, "switch header without 'Lid N guid 0xGUID': '" + raw + "'");
      if (lid == 0 || lid > kMaxUnicastLid)
        fail(name, line,
             "switch Lid " + std::to_string(lid) + " is not a unicast LID (1.." + std::to_string(kMaxUnicastLid) + ")");
      auto it = by_guid.find(guid);
      if (it == by_guid.end()) {
        char buf[40];
        std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(guid));
        fail(name, line, std::string("guid ") + buf + " is not a switch of this topology");
      }
      if (!seen.emplace(it->second, line).second)
        fail(name, line,
             "switch " + t.nodes[it->second].name + " already listed on line " + std::to_string(seen[it->second]));
      blocks.push_back({it->second, static_cast<Lid>(lid), line, {}, {}});
      block_lids.clear();
      continue;
    }
    if (raw.rfind("0x", 0) == 0) {
      if (blocks.empty()) fail(name, line, "LFT entry before any switch header");
      // 0xLID PORT, then free text after a blank.
      size_t lid_end = 2;
      while (lid_end < raw.size() && !is_blank(raw[lid_end])) ++lid_end;
      size_t port_at = raw.find_first_not_of(" \t", lid_end);
      uint64_t lid = 0, port = 0;
      if (port_at == std::string::npos || !number_at(raw, port_at, 1000000, port))
        fail(name, line, "cannot read '" + raw + "' (expected 0xLID PORT)");
      if (!number_at(raw, 2, 0xFFFF, lid, 16))
        fail(name, line, "LID '" + raw.substr(0, lid_end) + "' is not a 16-bit hexadecimal LID");
      const int sw = blocks.back().sw;
      if (lid == 0) fail(name, line, "LID 0 is reserved (no port has it), so it has no LFT entry");
      if (port > static_cast<unsigned>(t.nodes[sw].num_ports))
        fail(name, line,
             "port " + std::to_string(port) + " beyond the " + std::to_string(t.nodes[sw].num_ports) + " ports of " +
                 t.nodes[sw].name);
      auto [prev, fresh] = block_lids.emplace(static_cast<Lid>(lid), std::pair{static_cast<PortNum>(port), line});
      if (!fresh && prev->second.first != port)
        fail(name, line,
             "LID " + std::to_string(lid) + " of switch " + t.nodes[sw].name + " goes to port " + std::to_string(port) +
                 " here but to port " + std::to_string(prev->second.first) + " on line " +
                 std::to_string(prev->second.second));
      blocks.back().entries.emplace_back(static_cast<Lid>(lid), static_cast<PortNum>(port));
      blocks.back().entry_lines.push_back(line);
      continue;
    }
    if (raw.empty() || raw[0] == '#' || raw.find("lids dumped") != std::string::npos) continue;
    fail(name, line, "unexpected line '" + raw + "'");
  }
  return blocks;
}

void apply_lfts(const Topology& t, const std::vector<LftBlock>& blocks, TableSet& ts, const std::string& name) {
  for (auto& st : ts.switches) st.lft.assign(ts.max_lid + 1);
  for (const LftBlock& b : blocks) {
    if (b.lid != ts.switches[b.sw].lid)
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

// Sizes everything but the LFTs once the LIDs are known; max_lid from the nodes' LIDs.
void finish_layout(const Topology& t, TableSet& ts) {
  ts.max_lid = 0;
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
    if (b.lid != t.nodes[b.sw].lid) return false;
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

}  // namespace

void read_opensm_lfts(const Topology& t, TableSet& ts, std::istream& in, const std::string& name) {
  apply_lfts(t, parse_lfts(t, in, name), ts, name);
}

TableSet import_opensm_tables(const Topology& t, const std::string& path) {
  namespace fs = std::filesystem;
  const bool dir = fs::is_directory(path);
  const std::string dump = dir ? (fs::path(path) / "opensm-lfts.dump").string() : path;
  std::ifstream in(dump);
  if (!in) throw std::invalid_argument(dump + ": cannot open the LFT dump");
  const std::vector<LftBlock> blocks = parse_lfts(t, in, dump);
  if (blocks.empty()) throw std::invalid_argument(dump + ": no 'Unicast lids ... of switch' block");

  TableSet ts;
  ts.algorithm = "file";
  const std::string sl2vl = dir ? (fs::path(path) / "sl2vl.txt").string() : "";
  if (!sl2vl.empty() && fs::exists(sl2vl)) {
    ts.switches.assign(t.num_switches, SwitchTables{});
    ts.hosts.assign(t.num_hosts, HostTables{});
    std::ifstream s(sl2vl);
    read_sl2vl(t, ts, s, sl2vl);
  } else if (real_lids(t, blocks)) {
    ts.switches.assign(t.num_switches, SwitchTables{});
    ts.hosts.assign(t.num_hosts, HostTables{});
    for (int s = 0; s < t.num_switches; ++s) ts.switches[s].lid = t.nodes[s].lid;
    for (int h = 0; h < t.num_hosts; ++h) ts.hosts[h].base_lid = t.nodes[t.host_node(h)].lid;
  } else {
    assign_lids(t, 0, ts);
    for (const LftBlock& b : blocks)
      if (b.lid != ts.switches[b.sw].lid)
        fail(dump, b.line,
             "switch " + t.nodes[b.sw].name + " has Lid " + std::to_string(b.lid) +
                 ", neither its LID in the topology file (" + std::to_string(t.nodes[b.sw].lid) +
                 ") nor the LID ibsc assigns with LMC 0 (" + std::to_string(ts.switches[b.sw].lid) + ")");
  }
  // Two nodes on one LID would make the tables ambiguous.
  std::map<Lid, int> owner;
  auto claim = [&](Lid lid, int node) {
    auto [it, fresh] = owner.emplace(lid, node);
    if (!fresh)
      throw std::invalid_argument(path + ": LID " + std::to_string(lid) + " belongs to both " +
                                  t.nodes[it->second].name + " and " + t.nodes[node].name);
  };
  finish_layout(t, ts);
  for (int s = 0; s < t.num_switches; ++s) claim(ts.switches[s].lid, s);
  for (int h = 0; h < t.num_hosts; ++h)
    for (int c = 0; c < (1 << ts.hosts[h].lmc); ++c) claim(static_cast<Lid>(ts.hosts[h].base_lid + c), t.host_node(h));
  apply_lfts(t, blocks, ts, dump);

  const std::string records = dir ? (fs::path(path) / "path-records.txt").string() : "";
  if (!records.empty() && fs::exists(records)) {
    std::ifstream r(records);
    read_path_records(t, ts, r, records);
  } else {
    PathRow row;  // every host to every other by its base LID on SL 0: one row, less the host itself
    row.assign(t.num_hosts);
    for (int q = 0; q < t.num_hosts; ++q) row.set(q, {ts.hosts[q].base_lid, 0});
    for (int h = 0; h < t.num_hosts; ++h) {
      ts.hosts[h].paths = row;
      ts.hosts[h].paths.hide(h);
    }
  }
  // The budgets the tables need, read off the tables themselves: the SLs of the records, and
  // the VLs those SLs (and, through VL2VL tables, those VLs) can reach, to a fixed point.
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
  return ts;
}

}  // namespace ibsc::routing
