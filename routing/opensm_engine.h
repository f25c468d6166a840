// The real OpenSM as a routing engine (routing.algorithm: opensm, `ibsc route --routing opensm
// --opensm-engine E`): OpenSM's own engine routes the topology on ibsim's simulated fabric, and
// its dumps become the table set, checked like any other.
//
// One run, in a private folder (RoutingOptions::opensm_dir, else a temporary folder removed
// after a good run and kept, and named, after a failed one):
//   net            the topology as an ibsim net file (ibsim_net_writer.h: IBSC's GUIDs)
//   opensm.conf    OpenSM's configuration, written here, so /etc/opensm and /var/log are never
//                  read or written (every file OpenSM would look for points into the folder)
//   ibsim.log, opensm.out, opensm.log, cache/ (OSM_CACHE_DIR: guid2lid), dumps/
// ibsim runs as `ibsim -s -n -N nodes -S switches -P ports net` with the limits sized from the
// topology, under its own IBSIM_SOCKNAME (pid, counter and time: two runs at once never share a
// socket); OpenSM runs as `opensm -o -F opensm.conf -R ENGINE -f opensm.log -D 0x43
// --dump_files_dir dumps [-Q] OPTIONS...` with LD_PRELOAD of ibsim's libumad2sim.so, under a
// time limit (RoutingOptions::opensm_timeout_s) after which its process group is killed.
//
// A run is good only when opensm.log says `ENGINE tables configured on all switches` for the
// engine asked for; OpenSM falls back to minhop when an engine fails (and says so in its own
// words per engine), so anything else is an error naming the engine and quoting the log.
// Missing programs (opensm, ibsim, libumad2sim.so, saquery; the environment variables
// IBSC_OPENSM, IBSC_IBSIM, IBSC_UMAD2SIM, IBSC_SAQUERY point elsewhere), ibsim refusing the
// fabric and a time-out are errors too. Never a silent fallback.
//
// The tables (opensm_tables.h): LIDs (and LMC ranges) from OpenSM's guid2lid cache file, LFTs
// from dumps/opensm-lfts.dump by switch GUID, every host pair on the destination's base LID.
// Engines that put paths on SLs (lash, dfsssp, sssp, nue, torus-2QoS) run with QoS on (-Q) as a
// live SM (no -o) until its log says SUBNET UP: the SL2VL tables of switches and HCAs come from
// dumps/opensm-sl2vl.dump and each pair's SL from the SA (`saquery --src-to-dst SLID:DLID`, one
// per pair under ibsim, which carries no multi-packet answers; at most kMaxSaPathQueries pairs).
// routing.vls sets max_op_vls, qos_max_vls and (nue) nue_max_num_vls. torus-2QoS gets a
// torus-2QoS.conf written from the torus or mesh generator's coordinates (2D or 3D).
// Plain C++17 on POSIX, no SystemC.
#pragma once
#include <string>
#include <vector>

#include "routing/routing.h"

namespace ibsc::routing {

// The engines of `opensm -R` that IBSC drives, as OpenSM spells them.
const std::vector<std::string>& opensm_engines();

// Runs OpenSM's engine opt.opensm_engine on the topology; throws RoutingError (engine and reason).
TableSet route_opensm(const Topology& topo, const RoutingOptions& opt);

// Why OpenSM cannot run here (a program or library missing, as route_opensm would say), or
// empty when opensm, ibsim and libumad2sim.so are all found.
std::string opensm_tools_missing();

}  // namespace ibsc::routing
