// The table set of one OpenSM run under ibsim (opensm_engine.h), read from its run folder:
//   cache/guid2lid        OpenSM's LID cache, one `0xPORTGUID 0xFIRST 0xLAST` per port: the
//                         LIDs OpenSM assigned (LAST - FIRST + 1 = 2^LMC);
//   dumps/opensm-lfts.dump its LFTs, matched to switches by GUID.
// GUIDs are those ibsim_net_writer.h gave the nodes. Every host pair gets the destination's base
// LID on SL 0 (OpenSM's default SL) and, with LMC > 0, its other LIDs as alternate records;
// every SL2VL maps to VL 0.
// For engines that put paths on SLs (opensm_engine.h), apply_opensm_sls then reads
//   dumps/opensm-sl2vl.dump  every switch's SL2VL per (input, output port) and every HCA
//                            port's (`Channel Adapter 0xPORTGUID` blocks), as OpenSM programmed them;
// and sets each pair's SL as the SA answered it, and the SLs and VLs the tables use.
// Errors throw std::invalid_argument as "FILE:LINE: what" or naming the node without a LID.
#pragma once
#include <string>
#include <vector>

#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::routing {

TableSet read_opensm_run(const Topology& topo, const std::string& run_dir);

// pair_sls[a * hosts + b]: the SL of host a's path to host b.
void apply_opensm_sls(const Topology& topo, TableSet& ts, const std::string& run_dir, const std::vector<Sl>& pair_sls);

}  // namespace ibsc::routing
