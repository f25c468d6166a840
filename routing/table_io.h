// Export and import of the table set as text.
//   LFTs in the dump format OpenSM's `file` routing engine loads (opensm -R file -U FILE):
//     Unicast lids [0-MAX] of switch Lid L guid 0xGUID ('NAME'):
//     0xLLLL PPP # destination
//     N lids dumped
//   one block per switch; only routed LIDs are listed (the first candidate of adaptive
//   entries). GUIDs are the topology's (Node::guid, kept from ibnetdiscover dumps) or, where it
//   has none, synthesised: switch s has kSwitchGuidBase + s, host h kHostGuidBase + h.
//   SL2VL tables (our format, one line per (input port, output port) of each switch, then one
//   per host port; `#` comments):
//     switch INDEX LID
//     IN OUT V0 V1 ... V15        (the VL for SL 0..15, hexadecimal digits)
//     host INDEX BASE_LID LMC V0 ... V15
//   Path records: `path SRC_HOST DST_HOST DLID SL` per record.
// Reading back matches switches by GUID and checks LIDs and ports against the topology;
// errors throw std::invalid_argument as "FILE:LINE: what".
//
// Importing tables computed elsewhere (import_opensm_tables, `ibsc route --import-opensm`,
// scenario `routing: {algorithm: file, lft_file: PATH}`): the LIDs are those of the dump, never
// renumbered, so the tables are checked and simulated exactly as the subnet manager wrote them.
// Which LIDs the nodes have is decided, in this order, by
//   1. sl2vl.txt beside the dump (our export): its switch LIDs, host base LIDs and LMCs;
//   2. the LIDs of the topology file (Node::lid from an ibnetdiscover dump of the real fabric),
//      if every node has one and every switch header's `Lid` equals its switch's;
//   3. otherwise the LIDs ibsc assigns with LMC 0 (lids.h), if every header matches them.
// A header matching none of these is an error at its line. In case 2 the hosts' LMC is read off
// the dump where it says which LIDs ports have (OpenSM's lfts comments, opensm.fdbs): a host's
// base LID and the owned LIDs right after it, which must be 2^LMC from an aligned base, the same
// LMC for all (table_import.cpp); otherwise LMC 0. Without sl2vl.txt every SL maps to VL 0 and
// one SL is used; without path-records.txt each host pair gets a record per LID of the
// destination on SL 0, its base LID first (the primary; with LMC 0 the only one). A dump may
// route LIDs no node of the topology has (OpenSM's "unknown node and type", a switch's extra LIDs):
// they are kept and max_lid covers them. Per-input-VL LFTs are not part of the OpenSM format.
// The dump is opensm-lfts.dump or opensm.fdbs (OpenSM's --dump_files_dir), told apart by content;
// their layouts are in table_import_dump.h.
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

// Replaces the LFTs of `ts` (sized for ts.max_lid) by those in the dump (lfts or fdbs); `name`
// is for errors.
void read_opensm_lfts(const Topology& t, TableSet& ts, std::istream& in, const std::string& name);

// The GUID written for (and matched against) a switch or a host.
uint64_t switch_guid(const Topology& t, int sw);
uint64_t host_guid(const Topology& t, int host);

// Reads `path`: a directory holding opensm-lfts.dump or else opensm.fdbs (and optionally
// sl2vl.txt and path-records.txt, as export_tables writes them), or a single dump file.
TableSet import_opensm_tables(const Topology& t, const std::string& path);
// OpenSM's --dump_files_dir output: opensm-lfts.dump, else opensm.fdbs (same as
// import_opensm_tables, but `dir` must be a directory).
TableSet import_opensm_dump_dir(const Topology& t, const std::string& dir);

// Writes opensm-lfts.dump, sl2vl.txt and path-records.txt into `dir` (created if missing); refuses
// tables with one LFT per input VL (no dump format holds them).
void export_tables(const Topology& t, const TableSet& ts, const std::string& dir);

}  // namespace ibsc::routing
