// Export and import of the table set as text.
//   LFTs in the dump format OpenSM's `file` routing engine loads (opensm -R file -U FILE):
//     Unicast lids [0-MAX] of switch Lid L guid 0xGUID ('NAME'):
//     0xLLLL PPP # destination
//     N lids dumped
//   one block per switch; only routed LIDs are listed (the first candidate of adaptive
//   entries). GUIDs are synthesised: switch s has kSwitchGuidBase + s, host h kHostGuidBase + h.
//   SL2VL tables (our format, one line per (input port, output port) of each switch, then one
//   per host port; `#` comments):
//     switch INDEX LID
//     IN OUT V0 V1 ... V15        (the VL for SL 0..15, hexadecimal digits)
//     host INDEX BASE_LID LMC V0 ... V15
//   Path records: `path SRC_HOST DST_HOST DLID SL` per record.
// Reading back checks GUIDs, LIDs and ports against the topology; errors name file:line.
#pragma once
#include <cstdint>
#include <istream>
#include <ostream>
#include <string>

#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::routing {

constexpr uint64_t kSwitchGuidBase = 0x0002c90300000000ULL;
constexpr uint64_t kHostGuidBase = 0x0002c90400000000ULL;

void write_opensm_lfts(const Topology& t, const TableSet& ts, std::ostream& out);
void write_sl2vl(const Topology& t, const TableSet& ts, std::ostream& out);
void write_path_records(const Topology& t, const TableSet& ts, std::ostream& out);

// Replaces the LFTs of `ts` (sized for ts.max_lid) by those in the dump; `name` is for errors.
void read_opensm_lfts(const Topology& t, TableSet& ts, std::istream& in, const std::string& name);

// Writes opensm-lfts.dump, sl2vl.txt and path-records.txt into `dir` (created if missing).
void export_tables(const Topology& t, const TableSet& ts, const std::string& dir);

}  // namespace ibsc::routing
