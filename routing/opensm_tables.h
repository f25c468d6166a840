// The table set of one OpenSM run under ibsim (opensm_engine.h), read from its run folder:
//   cache/guid2lid        OpenSM's LID cache, one `0xPORTGUID 0xFIRST 0xLAST` per port: the
//                         LIDs OpenSM assigned (LAST - FIRST + 1 = 2^LMC);
//   dumps/opensm-lfts.dump its LFTs, matched to switches by GUID.
// GUIDs are those ibsim_net_writer.h gave the nodes. Every host pair gets one path record, the
// destination's base LID on SL 0 (OpenSM's default SL), and every SL2VL maps to VL 0.
// Errors throw std::invalid_argument as "FILE:LINE: what" or naming the node without a LID.
#pragma once
#include <string>

#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::routing {

TableSet read_opensm_run(const Topology& topo, const std::string& run_dir);

}  // namespace ibsc::routing
