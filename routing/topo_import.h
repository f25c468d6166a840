// Importing fabric descriptions.
//   ibnetdiscover dumps and ibsim net files: node headers `Switch N "id"`, `Ca N "id"`,
//   `Hca N "id"`, port lines `[p](guid) "peer"[pp](guid) # ... 4xQDR` (ibsim: `... w=4`). Quirks of
//   real dumps: lines before the first node that are not `key=value` or comments (tool error
//   messages) are skipped with a note; a cable between two ports of one switch (loop-back) is
//   kept on both ports but never routed; each cabled port of a multi-port HCA becomes its own
//   host ("name/pN"), as each port has its own LID; the dump's LIDs are recorded but routing
//   assigns its own (imported LFT dumps keep theirs). `lid N` and the width are read from the
//   free text after the port, outside "quoted" descriptions; the last `NxSPEED` or `w=N` wins.
//   A node without any cable is dropped with a note; so are SHARP aggregation nodes (HCAs
//   described "Mellanox Technologies Aggregation Node": not compute hosts).
//   Loop-backs, multi-port HCAs, aggregation nodes and notes are alike in every format below.
//   Edge lists (our own format, one item a line, `#` comments):
//     switch NAME [PORTS]      host NAME      link A[:PORT] B[:PORT] [WIDTH]
//   ports omitted are the next free ones; switch ports default to the ports its links need;
//   a loop-back cable and a host without a cable are kept with a note.
//   Widths, in every format, are IBA widths: 1, 2, 4, 8 or 12 lanes. They are kept
//   (PortPeer::width) but not simulated: a file that gives any adds one note saying so, as the
//   simulation runs every cable at the scenario's link.* rate.
//   Numbers are whole tokens ("8junk" is an error, not 8).
//   Switch GUIDs and node LIDs of an ibnetdiscover dump are kept (Node::guid, Node::lid) so
//   LFT dumps of the real fabric can be matched (table_io.h).
// Errors throw std::invalid_argument as "FILE:LINE: what".
#pragma once
#include <string>

#include "routing/topology.h"

namespace ibsc::routing {

Topology read_ibnetdiscover(const std::string& path);
Topology read_edge_list(const std::string& path);
// OpenSM's opensm-subnet.lst (topo_import_opensm.cpp): switches and HCAs with OpenSM's GUIDs
// and LIDs (Node::guid: a switch's node GUID, an HCA port's port GUID; Node::lid: a switch's
// port 0 LID, an HCA port's base LID), so its LFT dumps match (table_io.h).
Topology read_opensm_subnet(const std::string& path);
// `ibnetdiscover --ports` (topo_import_ports.cpp): one line per port, the same GUIDs and LIDs.
Topology read_ibnetdiscover_ports(const std::string& path);
// Any of these formats, told apart by the first line that is not blank or a comment:
// `{ ` opensm-subnet.lst, `SW `/`CA ` ibnetdiscover --ports, `Switch`/`Ca`/`Hca` ibnetdiscover
// or ibsim, `switch`/`host`/`link` an edge list. A directory: its opensm-subnet.lst (OpenSM's
// --dump_files_dir output, whose LFTs import_opensm_dump_dir reads).
Topology read_topology_file(const std::string& path);

}  // namespace ibsc::routing
