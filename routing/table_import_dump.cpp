// Reading OpenSM's LFT dumps (table_import_dump.h): opensm-lfts.dump and opensm.fdbs.
#include "routing/table_import_dump.h"

#include <cctype>
#include <map>
#include <stdexcept>

#include "routing/lids.h"
#include "routing/strict_number.h"
#include "routing/table_io.h"
#include "routing/topo_import_links.h"

namespace ibsc::routing::dump_detail {

void fail(const std::string& name, int line, const std::string& what) {
  throw std::invalid_argument(name + ":" + std::to_string(line) + ": " + what);
}

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t'; }

// The token of `s` at `pos` up to the next blank (or the end), read as a whole number; false
// for "12abc", a sign, an empty token or a value beyond `max`.
bool number_at(const std::string& s, size_t pos, uint64_t max, uint64_t& v, int base = 10) {
  size_t end = pos;
  while (end < s.size() && !is_blank(s[end])) ++end;
  return parse_unsigned(std::string_view(s).substr(pos, end - pos), max, v, base);
}

// One reader for both formats: switch blocks by GUID, entries checked against the topology.
class Reader {
 public:
  Reader(const Topology& t, const std::string& name) : t_(t), name_(name) {
    for (int s = 0; s < t.num_switches; ++s) by_guid_[switch_guid(t, s)] = s;
  }

  void header(int line, uint64_t guid, Lid lid) {
    auto it = by_guid_.find(guid);
    if (it == by_guid_.end()) {
      bool any_guid = t_.kind != "file";  // a generated fabric has ours (table_io.h); a file may have none
      for (int s = 0; s < t_.num_switches; ++s) any_guid |= t_.nodes[s].guid != 0;
      fail(name_, line,
           "guid " + import_detail::hex16(guid) + " is not a switch of this topology" +
               (any_guid ? ""
                         : " (it has no GUIDs: read it from the same fabric's opensm-subnet.lst or ibnetdiscover "
                           "output)"));
    }
    if (!seen_.emplace(it->second, line).second)
      fail(name_, line,
           "switch " + t_.nodes[it->second].name + " already listed on line " + std::to_string(seen_[it->second]));
    dump_.blocks.push_back({it->second, lid, line, {}, {}});
    block_lids_.clear();
  }

  void entry(int line, uint64_t lid, uint64_t port, const std::string& raw) {
    if (dump_.blocks.empty()) fail(name_, line, "LFT entry before any switch header");
    LftBlock& b = dump_.blocks.back();
    const int sw = b.sw;
    if (lid == 0) fail(name_, line, "LID 0 is reserved (no port has it), so it has no LFT entry");
    if (port > static_cast<unsigned>(t_.nodes[sw].num_ports))
      fail(name_, line,
           "port " + std::to_string(port) + " beyond the " + std::to_string(t_.nodes[sw].num_ports) + " ports of " +
               t_.nodes[sw].name);
    auto [prev, fresh] = block_lids_.emplace(static_cast<Lid>(lid), std::pair{static_cast<PortNum>(port), line});
    if (!fresh && prev->second.first != port)
      fail(name_, line,
           "LID " + std::to_string(lid) + " of switch " + t_.nodes[sw].name + " goes to port " + std::to_string(port) +
               " here but to port " + std::to_string(prev->second.first) + " on line " +
               std::to_string(prev->second.second));
    b.entries.emplace_back(static_cast<Lid>(lid), static_cast<PortNum>(port));
    b.entry_lines.push_back(line);
    owner_from_comment(line, static_cast<Lid>(lid), raw);
  }

  // OpenSM's comment after an lfts entry names the LID's owner: "portguid 0xG" or "unknown node".
  void owner_from_comment(int line, Lid lid, const std::string& raw) {
    const size_t g = raw.find("portguid 0x");
    uint64_t guid = 0;
    if (g != std::string::npos) {
      size_t end = g + 11;
      while (end < raw.size() && std::isxdigit(static_cast<unsigned char>(raw[end]))) ++end;
      if (!parse_unsigned(std::string_view(raw).substr(g + 11, end - g - 11), UINT64_MAX, guid, 16))
        fail(name_, line, "bad port GUID in '" + raw + "'");
      owned(line, lid, guid);
    } else if (raw.find("unknown node and type") != std::string::npos) {
      dump_.owners.known = true;
      dump_.owners.nobody.emplace(lid, line);
    }
  }

  // The dump says a port has `lid` (guid 0: which one unsaid); every switch must agree.
  void owned(int line, Lid lid, uint64_t guid) {
    dump_.owners.known = true;
    auto [it, fresh] = dump_.owners.owned.emplace(lid, guid);
    if (!fresh && it->second != guid)
      fail(name_, line,
           "LID " + std::to_string(lid) + " belongs to port " + import_detail::hex16(guid) + " here but to " +
               import_detail::hex16(it->second) + " in an earlier block");
  }

  void fdbs_own_lid(int line, Lid lid) {
    LftBlock& b = dump_.blocks.back();
    if (b.lid == 0) b.lid = lid;  // the first LID a switch keeps is its own (port 0)
    (void)line;
  }

  LftDump take() { return std::move(dump_); }

 private:
  const Topology& t_;
  const std::string& name_;
  std::map<uint64_t, int> by_guid_;
  std::map<int, int> seen_;                            // switch -> header line
  std::map<Lid, std::pair<PortNum, int>> block_lids_;  // this block's LIDs -> (port, line)
  LftDump dump_;
};

void read_lfts(Reader& r, std::istream& in, const std::string& name, std::string raw, int line) {
  do {
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
      r.header(line, guid, static_cast<Lid>(lid));
      continue;
    }
    if (raw.rfind("0x", 0) == 0) {
      // 0xLID PORT, then free text after a blank.
      size_t lid_end = 2;
      while (lid_end < raw.size() && !is_blank(raw[lid_end])) ++lid_end;
      size_t port_at = raw.find_first_not_of(" \t", lid_end);
      uint64_t lid = 0, port = 0;
      if (port_at == std::string::npos || !number_at(raw, port_at, 1000000, port))
        fail(name, line, "cannot read '" + raw + "' (expected 0xLID PORT)");
      if (!number_at(raw, 2, 0xFFFF, lid, 16))
        fail(name, line, "LID '" + raw.substr(0, lid_end) + "' is not a 16-bit hexadecimal LID");
      r.entry(line, lid, port, raw);
      continue;
    }
    if (raw.empty() || raw[0] == '#' || raw.find("lids dumped") != std::string::npos) continue;
    fail(name, line, "unexpected line '" + raw + "'");
  } while (std::getline(in, raw));
}

void read_fdbs(Reader& r, std::istream& in, const std::string& name, std::string raw, int line) {
  const std::string head = "dump_ucast_routes: Switch 0x";
  bool in_block = false;
  do {
    ++line;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    if (raw.find_first_not_of(" \t") == std::string::npos) continue;
    if (raw.rfind(head, 0) == 0) {
      uint64_t guid = 0;
      if (!number_at(raw, head.size(), UINT64_MAX, guid, 16))
        fail(name, line, "switch header without a GUID: '" + raw + "'");
      r.header(line, guid, 0);
      in_block = true;
      continue;
    }
    if (raw.rfind("LID ", 0) == 0 && raw.find("Port") != std::string::npos) continue;  // the column titles
    if (raw.rfind("0x", 0) != 0) fail(name, line, "unexpected line '" + raw + "'");
    if (!in_block) fail(name, line, "LFT entry before any 'dump_ucast_routes: Switch' header");
    // 0xLLLL : UNREACHABLE | 0xLLLL : PPP  : ...
    const size_t colon = raw.find(" : ");
    uint64_t lid = 0, port = 0;
    if (colon == std::string::npos) fail(name, line, "cannot read '" + raw + "' (expected 0xLID : PORT)");
    if (!parse_unsigned(std::string_view(raw).substr(2, colon - 2), 0xFFFF, lid, 16))
      fail(name, line, "LID '" + raw.substr(0, colon) + "' is not a 16-bit hexadecimal LID");
    const size_t at = raw.find_first_not_of(' ', colon + 3);
    if (at != std::string::npos && raw.compare(at, 11, "UNREACHABLE") == 0) continue;
    if (at == std::string::npos || !number_at(raw, at, 1000000, port))
      fail(name, line, "cannot read '" + raw + "' (expected 0xLID : PORT or UNREACHABLE)");
    r.entry(line, lid, port, raw);
    r.owned(line, static_cast<Lid>(lid), 0);  // OpenSM prints a port only for a LID some port has
    if (port == 0) r.fdbs_own_lid(line, static_cast<Lid>(lid));
  } while (std::getline(in, raw));
}

}  // namespace

LftDump read_lft_dump(const Topology& t, std::istream& in, const std::string& name) {
  Reader r(t, name);
  std::string raw;
  int line = 0;
  while (std::getline(in, raw)) {
    if (raw.find_first_not_of(" \t\r") != std::string::npos) break;
    ++line;
  }
  if (!in) return r.take();  // nothing but blank lines
  // fdbs: its header, or an entry "0xLLLL : " (an lfts entry has no colon).
  const bool fdbs =
      raw.rfind("dump_ucast_routes:", 0) == 0 ||
      (raw.rfind("0x", 0) == 0 && raw.find(' ') != std::string::npos && raw.compare(raw.find(' '), 3, " : ") == 0);
  if (fdbs) read_fdbs(r, in, name, raw, line);
  else read_lfts(r, in, name, raw, line);
  return r.take();
}

}  // namespace ibsc::routing::dump_detail
