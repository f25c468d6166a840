// Internal to table_import*.cpp: the LFT dumps OpenSM writes, read into switch blocks before
// the LIDs are laid out.
//   opensm-lfts.dump (osm_dump.c's dump_ucast_lfts, also the `file` engine's input and our
//   export): `Unicast lids [0-MAX] of switch Lid L guid 0xG ('desc'):`, then `0xLLLL PPP # who`
//   for every LID the switch forwards (lower-case hexadecimal), `who` being `TYPE portguid 0xG:
//   'desc'` or `unknown node and type` (a LID no port has); `N lids dumped` closes the block.
//   opensm.fdbs (dump_ucast_routes): `dump_ucast_routes: Switch 0xG`, a `LID : Port : Hops :
//   Optimal` title, then for every LID 1..MAX `0xLLLL : PPP  : HH   : yes` (or `No N hop path
//   possible via port P!`, or `PPP  : HOPS UNKNOWN`), or `0xLLLL : UNREACHABLE` where no port has
//   the LID or the switch has no entry. No switch LID in the header: the LID the switch sends
//   to port 0 is its own.
#pragma once
#include <istream>
#include <map>
#include <string>
#include <vector>

#include "routing/topology.h"
#include "routing/types.h"

namespace ibsc::routing::dump_detail {

[[noreturn]] void fail(const std::string& name, int line, const std::string& what);

struct LftBlock {
  int sw = -1;
  Lid lid = 0;  // the header's `Lid` (fdbs: the LID sent to port 0; 0 if none)
  int line = 0;
  std::vector<std::pair<Lid, PortNum>> entries;
  std::vector<int> entry_lines;
};

// What the dump says about who has each LID, where it says it.
struct LidOwners {
  bool known = false;             // the dump names owners (OpenSM's comments, or fdbs)
  std::map<Lid, uint64_t> owned;  // LID -> port GUID of its owner (0: some port, unnamed)
  std::map<Lid, int> nobody;      // LIDs the dump says no port has -> a line saying so
};

struct LftDump {
  std::vector<LftBlock> blocks;
  LidOwners owners;
};

// Either format, told apart by its first line that is not blank.
LftDump read_lft_dump(const Topology& t, std::istream& in, const std::string& name);

}  // namespace ibsc::routing::dump_detail
