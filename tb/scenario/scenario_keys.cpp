#include "tb/scenario/scenario_keys.h"

#include "models/congestion_control.h"
#include "models/link.h"
#include "models/switch_params.h"
#include "models/transport_params.h"
#include "routing/lids.h"
#include "routing/routing.h"
#include "routing/types.h"
#include "tb/scenario/scenario.h"

namespace ibsc::tb {
namespace {

// Defaults come from the parameter structs (their one source), read off default-built ones.
std::vector<Key> declare() {
  const Scenario s{};
  const TopologyChoice& t = s.topology;
  const routing::RoutingOptions& ro = s.routing;
  const models::SwitchParams& sw = s.point.fabric.sw;
  const models::LinkParams& ln = s.point.fabric.link;
  const models::HcaParams& hca = s.point.fabric.hca;
  const TrafficConfig& tr = s.point.traffic;
  const DiskWorkloadConfig& dc = tr.disk_config;
  const models::TransportParams& tp = s.point.fabric.transport;
  const LinkFaultConfig& fc = s.point.fabric.faults;
  const models::CcParams& cc = s.point.fabric.cc;
  const std::string with_cc = "`cc.enable`";
  const RunParams& run = s.point.run;
  const SweepConfig& sp = s.sweep;
  constexpr int kMaxBytes = 2147483647;
  constexpr int kMtu = static_cast<int>(kMaxMtuBytes);
  const std::string bytes = "bytes", ns = "ns";
  using J = nlohmann::ordered_json;
  return {
      text_key("name", "unnamed", "the output folder, `out/NAME`"),
      uint_key("seed", s.point.seed, "random seed of traffic, routing tie-breaks and fault draws"),
      text_key("topology.spec", t.spec,
               "any spec of `ibsc route`: `torus:4x4`, `torus:4x4x4`, `mesh:8x8`, `ring:8`, `hypercube:6` "
               "(`:widths=2`: parallel cables per dimension), `irregular:16:seed=3` (`:regular=1`: every switch uses "
               "all its link ports, seeds/004), `flatfly:4x8x8x8`, `dragonfly:a=4,h=2,p=2`, `slimfly:q=8`, "
               "`fattree:k=18,n=2` (k-ary n-tree), `fattree:radix=36,size=648[,levels=3][,blocking=2]` (a "
               "cluster's tree: hosts in all), `xgft:m=18,36:w=1,18`, "
               "`product:A*B`, `file:PATH` (ibnetdiscover, ibsim or edge list)"),
      int_key("topology.hosts_per_switch", t.hosts_per_switch, -1, 254, "hosts",
              "the spec's `hosts=`; -1 keeps the spec's own (4 on tori, meshes, irregular)"),
      int_key("topology.switch_ports", t.switch_ports, -1, 254, "ports",
              "the spec's `ports=`; -1 keeps the spec's own; 0: just enough"),
      choice_key(
          "routing.algorithm", ro.algorithm,
          "the routing (`routing: NAME` is short for it): `voqsw` (seeds/004: SL budget `routing.max_sls`, "
          "VLs `routing.vls`, 0 = ports), `vn` (`routing.vls` virtual networks: the HCA draws one of the "
          "pair's n SLs per packet from its own seeded stream), `adaptive-updown` (seeds/003: every minimal "
          "port plus an up*/down* escape; needs `switch.escape_queue_bytes`), `updown-escape` (that escape "
          "sub-network alone), `file` (tables read from `routing.lft_file`), `opensm` (the real OpenSM's "
          "`routing.opensm_engine`); seeds/001 (routing/README.md; one LFT "
          "per input VL and VL2VL tables, so `switch.vl2vl: true` and `switch.num_vls` >= their VLs): "
          "`distance`, `deflection` (Distance+k / Deflection+k, any topology, `routing.k`), `ador`, "
          "`mixed-ador`, `twisted-ador`, `twisted-mixed` (flattened butterflies), `static`, `gsid` (dragonflies); "
          "`fattree` (IBSC's fat-tree routing, OpenSM ftree's idea; `routing.lmc`), `fattree-ar` (the same with "
          "adaptive routing: every minimal port, the static one first)"),
      text_key("routing.lft_file", ro.lft_file, "`routing.algorithm: file`: an OpenSM LFT dump or export directory"),
      text_key(
          "routing.opensm_engine", ro.opensm_engine,
          "`routing.algorithm: opensm`: OpenSM's own engine, run on ibsim (Debian packages opensm, ibsim-utils, "
          "infiniband-diags; routing/README.md): `minhop`, `updn`, `dnup`, `ftree`, `dor`, and with paths on SLs "
          "(QoS on, VLs from `routing.vls`, each pair's SL from the SA: at most 2,000 host pairs) `lash`, `dfsssp`, "
          "`sssp`, `nue`, `torus-2QoS` (2D/3D tori and meshes). OpenSM's log must confirm the engine: a "
          "fallback is an error. Its log and version are kept beside results.json (`opensm.log`)")
          .when_set(),
      text_key("routing.opensm_options", ro.opensm_options,
               "`routing.algorithm: opensm`: added to OpenSM's command line, e.g. `--root_guid_file FILE`")
          .when_set(),
      real_key("routing.opensm_timeout_s", ro.opensm_timeout_s, 0.1, 1e6, "s",
               "`routing.algorithm: opensm`: OpenSM's time limit (an engine that waits forever, a fabric too large "
               "for ibsim): stopped and refused after it")
          .when_set(),
      int_key("routing.max_lmc", ro.max_lmc, 0, routing::kMaxLmc, "",
              "destination renaming may use up to 2^max_lmc LIDs per host"),
      int_key("routing.vls", ro.vls, 0, ibsc::kMaxDataVls, "VLs", "VLs for generic algorithms; 0: the algorithm's own"),
      int_key("routing.max_sls", ro.max_sls, 1, ibsc::kNumSls, "SLs", "SL budget"),
      int_key("routing.max_vls", ro.max_vls, 1, ibsc::kMaxDataVls, "VLs", "data VL budget"),
      flag_key("routing.voq_hca", ro.voq_hca,
               "`voqsw` only, beyond seeds/004: tuples at the HCAs too, so the first switch's input VL is a "
               "virtual output queue (routing/voqsw.h)")
          .when_set(),
      flag_key("routing.voq_spread", ro.voq_spread,
               "`voqsw` only: SLs kept out of considered neighbours' VLs where they can be, and paths with no "
               "considered tuple spread over the VLs instead of SL 0")
          .when_set(),
      choice_key("routing.updown_paths", ro.updown_paths,
                 "which of a pair's shortest legal paths `updown-bfs`, `updown-dfs`, `minhop` (and `voqsw`, `vn` on "
                 "them) take: `balanced` (least loaded busiest channel, then lowest load sum, rip-up passes), `first` "
                 "(lowest output port at each switch: the first path found), `random` (seeded); up*/down* only: "
                 "`highest` (the one climbing nearest the root, then `balanced`), `tree` (not shortest: up the "
                 "spanning tree to the pair's lowest common ancestor and down; the root's links carry the most)")
          .when_set(),
      int_key("routing.root", ro.root, -1, 65535, "switch",
              "up*/down* root switch (`updown-bfs`, `updown-dfs`, and `voqsw`, `vn` on them): -1, the seeds/000 "
              "heuristic (highest average distance); 0 is Autonet's lowest-UID root")
          .when_set(),
      int_key("routing.k", ro.k, 0, 15, "hops",
              "`distance`, `deflection` (seeds/001's Distance+k, Deflection+k): the source's VL is d + k - 1, its "
              "switch keeps it and each switch-to-switch hop after lowers it, so k extra hops are allowed; k = 0 "
              "is plain Distance; diameter + k VLs must fit `routing.vls` (0: the talk's 8)")
          .when_set(),
      choice_key("routing.gsid_modulus", ro.gsid_modulus,
                 "`gsid`: the source switch takes global cable (destination switch mod `cables`, its own count) or "
                 "(mod `h`, the most any switch has; a residue past its own cables goes the static way). They differ "
                 "only where groups lack cables (fewer than a x h + 1 groups, as the talk's 128): routing/README.md")
          .when_set(),
      int_key("routing.lmc", ro.lmc, 0, routing::kMaxLmc, "",
              "`fattree`, `fattree-ar`: 2^lmc LIDs per host, each routed on its own up-path, the HCA drawing one per "
              "packet; hosts x 2^lmc must fit the unicast LIDs (LMC 1 at 16,384 hosts)")
          .when_set(),
      int_key("switch.num_vls", sw.num_vls, 1, ibsc::kMaxDataVls, "VLs", "data VLs per port"),
      int_key("switch.buffer_bytes_per_vl", static_cast<int>(sw.buffer_bytes_per_vl), 64, 1 << 20, bytes,
              "input buffer per port and VL, a multiple of 64"),
      choice_key("switch.vl_buffers", sw.vl_buffers,
                 "`per_vl`: every VL has its buffer_bytes_per_vl (and output_buffer_bytes_per_vl); `operational`: a "
                 "port's num_vls x those bytes are shared evenly by the VLs the subnet manager enables, the "
                 "routing's VLs rounded up to OperationalVLs 1, 2, 4, 8 or 15 (at most num_vls)")
          .when_set(),
      real_key("switch.routing_delay_ns", sw.routing_delay_ns, 0, 1e6, ns,
               "LFT look-up + arbitration + crossbar set-up"),
      real_key("switch.core_clock_ns", sw.core_clock_ns, 0.001, 1e3, ns, "switch core clock; arbitration on its edges"),
      int_key("switch.crossbar_speedup", sw.crossbar_speedup, 1, models::SwitchParams::kMaxCrossbarSpeedup, "",
              "crossbar rate / link rate"),
      choice_key("switch.crossbar_inputs", sw.crossbar_inputs,
                 "`port`: one crossbar input per input port; `vl`: one per input VL, so a port may feed several "
                 "outputs at once from different VLs")
          .when_set(),
      choice_key("switch.ar_fallback", sw.ar_fallback,
                 "adaptive routing: when a head may take a worse priority level of its LFT entry: `free` whenever no "
                 "better candidate is free with credits this cycle; `credits` only when no better candidate has "
                 "credits for the packet, so a head waits for a busy minimal output (seeds/001)")
          .when_set(),
      int_key("switch.output_buffer_bytes_per_vl", static_cast<int>(sw.output_buffer_bytes_per_vl), 0, 1 << 20, bytes,
              "output buffer per output port and VL between crossbar and link, a multiple of 64; 0: none")
          .when_set(),
      int_key("switch.escape_queue_bytes", static_cast<int>(sw.escape_queue_bytes), 0, 1 << 20, bytes,
              "escape queue in each input VL buffer (one MTU, at least the longest packet), a multiple of 64, below "
              "`buffer_bytes_per_vl`; the rest is the adaptive queue; needs a routing with escape candidates "
              "(`adaptive-updown`) and at most 8 VLs; output buffers then keep escape queues too; 0: none")
          .when_set(),
      choice_key("switch.output_request_queue", sw.output_request_queue,
                 "`fifo`: a FIFO request queue per output crossbar port (seeds/004) decides instead of the switch "
                 "arbiter: each free output serves the first request, in the order heads became routed requests, that "
                 "can go now (crossbar input free, room on its output VL); `fifo_head`: only the queue's head, which "
                 "blocks the rest while it cannot go; not with `switch.arbiter: rtl`, nor VLArb tables without output "
                 "buffers (`models/output_request_queue.h`)")
          .when_set(),
      flag_key("switch.vl2vl", sw.vl2vl, "SL2VL keyed by input VL"),
      text_key("switch.arbiter", s.point.arbiter.name,
               "the switch arbiter, any registered name: `model` (the C++ model), `rtl` (the Verilated RTL), or "
               "one a program registers (`ibsc::register_arbiter`, examples/own-arbiter); an unknown name is "
               "refused with the registered ones listed"),
      list_key("switch.rtl_switches", KeyType::IntList, J(s.point.arbiter.rtl_switches), "",
               "with `switch.arbiter` other than `model`: switch indices that get it (the rest the model); "
               "empty: all"),
      flag_key("switch.vlarb.use_tables", sw.vlarb.use_tables, "IBA VLArb tables instead of round-robin"),
      int_key("switch.vlarb.limit_of_high_priority", sw.vlarb.limit_of_high_priority, 0,
              models::VlArbParams::kMaxLimitOfHighPriority, "x 4096 bytes", "255: unlimited"),
      list_key("switch.vlarb.high", KeyType::IntList, J::array(), "",
               "flat list `[vl, weight, vl, weight, ...]`, weight in 64-byte units, at most 64 entries"),
      list_key("switch.vlarb.low", KeyType::IntList, J::array(), "", "as `switch.vlarb.high`"),
      int_key("link.width", ln.width, 1, 12, "lanes", "1, 2, 4, 8 or 12"),
      real_key("link.lane_gbps", ln.lane_gbps, 0.001, 1000, "Gb/s", "signalling rate per lane"),
      choice_key("link.coding", ln.coding, "line coding"),
      real_key("link.cable_m", ln.cable_m, 0, 1e5, "m", "cable length; fly time = length x delay"),
      real_key("link.ns_per_m", ln.ns_per_m, 0, 1e3, "ns/m", "propagation delay"),
      choice_key("hca.injection_queues", hca.injection_queues,
                 "the HCA's send side: `per_vl`, an injection queue per VL, each sent when its VL has credits; "
                 "`single`, one FIFO for all VLs, whose head without credits holds back the packets behind it "
                 "(`models/hca.h`); not with `cc.enable`")
          .when_set(),
      choice_key("traffic.pattern", tr.pattern, "destinations (see below)"),
      list_key("traffic.hotspot_hosts", KeyType::IntList, J(tr.hotspot_hosts), "", "`hotspot`: the hot hosts"),
      real_key("traffic.hotspot_fraction", tr.hotspot_fraction, 0, 1, "",
               "`hotspot`: share of all packets sent to the hot hosts"),
      text_key("traffic.permutation_file", tr.permutation_file, "`permutation`: a file of `src dst` lines"),
      int_key("traffic.packets_per_host", 0, 1, 1000000000, "packets",
              "a finite workload: each host generates this many packets, then stops; the point runs until all "
              "are delivered (or the drain ends)")
          .when_set()
          .shown("off"),
      choice_key("traffic.workload", tr.workload,
                 "`disk`: the bursty disk-like workload of `tb/traffic/disk_workload.h` (seeds/003's shape without its "
                 "traces: disks and workstations, bursts of messages of 512 B to 64 KB split at the MTU) instead of "
                 "the pattern, injection process and sweep load")
          .when_set(),
      int_key("traffic.disk.disks", dc.disks, 1, 1 << 20, "hosts", "hosts that are disks")
          .only_with("`traffic.workload`"),
      real_key("traffic.disk.compression", dc.compression, 1e-6, 1e6, "", "every gap divided by this")
          .only_with("`traffic.workload`"),
      int_key("traffic.disk.mtu", static_cast<int>(dc.mtu), 1, kMtu, bytes, "longer messages are split")
          .only_with("`traffic.workload`"),
      int_key("traffic.disk.max_message", 0, 1, 1 << 30, bytes,
              "a message drawn longer is cut to this length (the same draws otherwise: what the 64 KB messages cost)")
          .when_set()
          .only_with("`traffic.workload`")
          .shown("off"),
      choice_key("traffic.injection", s.point.injection.process, "injection process"),
      list_key("traffic.lengths", KeyType::DoubleList, J::array(), bytes,
               "a length mix `[len, weight, len, weight, ...]` instead of `traffic.length`")
          .when_set()
          .shown("(none)"),
      int_key("traffic.length", static_cast<int>(s.point.injection.length_mix.front().first), 1, kMtu, bytes,
              "fixed packet length"),
      choice_key("transport.mode", tp.mode,
                 "the HCAs' reliable transport (seeds/003): `reorder`: one connection per host pair, ACK/NACK "
                 "packets through the fabric, rearrange buffer, in-order delivery checked; `ooo`: delivered on "
                 "arrival, no ACK (Adap-OOO)")
          .when_set(),
      choice_key("transport.injection", tp.injection,
                 "on a NACK: `immediate` re-send; `li` (ADAP-LI: limited injection until every rejected packet is "
                 "ACKed); `lw` (ADAP-LW, static memory only)")
          .only_with("`transport.mode`"),
      choice_key("transport.memory", tp.memory,
                 "rearrange memory: `static` (bytes per connection) or `dynamic` (a pool per NIC, bytes per "
                 "connection its cap)")
          .only_with("`transport.mode`"),
      int_key("transport.connection_bytes", static_cast<int>(tp.connection_bytes), 1, kMaxBytes, bytes,
              "static buffer, or dynamic cap, per connection")
          .only_with("`transport.mode`"),
      int_key("transport.pool_bytes", static_cast<int>(tp.pool_bytes), 1, kMaxBytes, bytes,
              "`dynamic`: pool per destination NIC")
          .only_with("`transport.mode`"),
      int_key("transport.control_bytes", static_cast<int>(tp.control_bytes), 1, kMtu, bytes,
              "ACK/NACK packet length on the wire")
          .only_with("`transport.mode`"),
      int_key("transport.ack_coalesce", static_cast<int>(tp.ack_coalesce), 1, 1 << 20, "packets",
              "`reorder`: an ACK once this many packets of a connection are delivered unACKed, after "
              "`transport.ack_delay_ns`, with the last packet of a message (IBA's AckReq; `traffic.workload: disk` "
              "marks it), or at once while a NACKed packet is not ACKed; 1: an ACK per in-order delivery")
          .only_with("`transport.mode`")
          .when_set(),
      real_key("transport.ack_delay_ns", tp.ack_delay_ns, 0, 1e9, "ns",
               "longest a delivered packet waits for its coalesced ACK; > 0 with `transport.ack_coalesce` above 1")
          .only_with("`transport.mode`")
          .when_set(),
      list_key("traffic.hotspot_senders", KeyType::IntList, J(tr.hotspot_senders), "",
               "`hot-senders`: hosts that send only to `traffic.hotspot_hosts`; the others send uniformly among the "
               "hosts that are not hot (victim flows)")
          .when_set(),
      list_key("traffic.silent_hosts", KeyType::IntList, J(tr.silent_hosts), "",
               "hosts that generate nothing (any pattern), e.g. the hot senders for a no-hot-spot baseline")
          .when_set(),
      flag_key("cc.enable", cc.enabled,
               "InfiniBand congestion control (IBA Annex A10, `models/congestion_control.h`): FECN marking in the "
               "switches, CNPs from the destination HCAs, per-flow CCTI and inter-packet delay at the sources")
          .when_set(),
      int_key("cc.threshold", cc.threshold, 0, models::CcParams::kMaxThreshold, "",
              "A10's Threshold: an output VL is over it with ceil(B x (16 - T) / 16) blocks queued for it in the "
              "switch's input buffers, B one input VL buffer in 64-byte blocks; 0 marks nothing, 15 marks soonest")
          .only_with(with_cc),
      int_key("cc.marking_rate", static_cast<int>(cc.marking_rate), 0, 65535, "packets",
              "A10's Marking_Rate: eligible packets left unmarked between two marks; 0 marks every one")
          .only_with(with_cc),
      int_key("cc.packet_size_blocks", static_cast<int>(cc.packet_size_blocks), 0, 255, "64-byte blocks",
              "A10's Packet_Size: shorter packets are never marked")
          .only_with(with_cc),
      list_key("cc.victim_mask", KeyType::IntList, J(cc.victim_ports), "ports",
               "port numbers (every switch) that mark also as victims: over threshold without credits for another "
               "packet as large")
          .only_with(with_cc),
      int_key("cc.cnp_bytes", static_cast<int>(cc.cnp_bytes), 1, kMtu, bytes, "CNP (the BECN) length on the wire")
          .only_with(with_cc),
      int_key("cc.cnp_sl", cc.cnp_sl, -1, ibsc::kNumSls - 1, "SL",
              "SL of the CNPs; -1: the path record's SL back to the source")
          .only_with(with_cc),
      choice_key("cc.flow", cc.flow, "what a CCTI belongs to: `host` (per destination host, A10's QP level) or `sl`")
          .only_with(with_cc),
      int_key("cc.ccti_increase", static_cast<int>(cc.ccti_increase), 1, 255, "", "CCTI_Increase per BECN")
          .only_with(with_cc),
      int_key("cc.ccti_timer", static_cast<int>(cc.ccti_timer), 0, 65535, "1.024 us",
              "CCTI_Timer: every period each flow's CCTI drops by 1; 0: never")
          .only_with(with_cc),
      int_key("cc.ccti_min", static_cast<int>(cc.ccti_min), 0, 16383, "", "CCTI_Min: the timer stops there")
          .only_with(with_cc),
      int_key("cc.ccti_limit", static_cast<int>(cc.ccti_limit), 0, 16383, "",
              "CCTI_Limit: the highest CCTI; at most `cc.cct`'s last index")
          .only_with(with_cc),
      int_key("cc.trigger_threshold", static_cast<int>(cc.trigger_threshold), 0, 255, "",
              "Trigger_Threshold: a BECN bringing a CCTI to it counts an event; 0: none")
          .only_with(with_cc),
      list_key("cc.cct", KeyType::DoubleList, J(cc.cct), "packet times",
               "the CCT: inter-packet delay per CCTI, in units of the packet's own wire time")
          .only_with(with_cc)
          .shown("IBSC's: entry i is i / 4, 128 entries"),
      real_key("cc.sample_ns", cc.sample_ns, 0, 1e12, ns,
               "period of the CCTI and throughput time series (`cc_timeseries.csv`); 0: none")
          .only_with(with_cc),
      list_key("faults.links", KeyType::StringList, J(fc.links), "",
               "link faults during the run (seeds/002, `tb/fabric/link_faults.h`): switch-to-switch cables by one end, "
               "`\"SWITCH:PORT\"` (name or index; quote names with commas)")
          .only_with("`faults.links` or `faults.random`"),
      int_key("faults.random", fc.random, 0, 1 << 20, "cables", "more failing cables, drawn with `faults.seed`")
          .only_with("`faults.links` or `faults.random`"),
      int_key("faults.seed", static_cast<int>(fc.seed), 0, kMaxBytes, "", "seed of the `faults.random` draw")
          .only_with("`faults.links` or `faults.random`"),
      list_key("faults.at_ns", KeyType::DoubleList, J(fc.at_ns), ns, "failure time: one, or one per link")
          .only_with("`faults.links` or `faults.random`"),
      real_key("faults.detection_ns", fc.detection_ns, 0, 1e12, ns, "sources migrate this long after each failure")
          .only_with("`faults.links` or `faults.random`"),
      flag_key("faults.routable", fc.routable,
               "redraw the `faults.random` cables (same stream on) until every host pair keeps a path record that "
               "avoids them (seeds/002 Figure 5's other reading)")
          .when_set(),
      real_key("run.warmup_ns", run.warmup_ns, 0, 1e12, ns, "traffic runs, nothing is measured"),
      choice_key(
          "run.warmup", run.warmup,
          "`fixed`: warm up `run.warmup_ns`; `steady`: at least that, then in steps of half of it until the "
          "packets in the fabric grew over the last `run.warmup_ns` by at most 2% of those delivered in it "
          "plus 3 standard deviations of chance (tb/stats/steady_warmup.h); `rate`: as `steady`, and until the last "
          "two "
          "steps' accepted traffic agrees within their 95% batch-means intervals; each point then writes `warmup` "
          "(`ns`, `settled`; `rate`: the last step's interval)")
          .when_set(),
      real_key("run.warmup_max_ns", run.warmup_max_ns, 0, 1e12, ns, "longest warm-up; 0: 10 x `run.warmup_ns`")
          .only_with("`run.warmup: steady` or `rate`, or `sweep.beyond` (its points)"),
      real_key("run.window_ns", run.window_ns, 1, 1e12, ns, "packets generated here are measured"),
      real_key("run.drain_ns", run.drain_ns, 0, 1e12, ns, "at most this long after the window for measured packets"),
      choice_key("run.drain", run.drain,
                 "`always`; `unsaturated`: a point whose window already delivered clearly less than it generated "
                 "(the test that makes it `saturated`) stops at the window's end with the same verdict and writes "
                 "`\"drain\": \"skipped\"`; its packet counts, latency and counters then cover warm-up and window "
                 "only (docs/running.md). Past saturation the drain is 40-70% of a probe")
          .when_set(),
      real_key("run.watchdog_ns", run.watchdog_ns, 1, 1e12, ns,
               "deadlock watchdog: packets in flight and no grant or delivery this long"),
      real_key("run.check_ns", run.check_ns, 1, 1e12, ns, "period of the invariant checks and progress reports"),
      real_key("run.hol_sample_ns", run.hol_sample_ns, 0, 1e12, ns,
               "> 0: sample head-of-line blocking this often over the window (packets behind a waiting head bound "
               "for another output; `hol_blocked_per_switch`, `hol_blocked_share` per point)")
          .when_set()
          .shown("off"),
      flag_key("run.port_counters", run.port_counters,
               "per load point a `switch_counters` section (over the window; per switch, per port and VL with "
               "anything counted: `grant_packets`, `grant_bytes`, `credit_stall_ns`, `output_busy_stall_ns` on the "
               "output side; `head_wait_ns`, `hol_blocked_ns`, `occupancy_mean_bytes`, `occupancy_max_bytes` on "
               "the input side; definitions in models/port_counters.h; stall times are summed over the waiting "
               "heads, so stall / window = mean heads stalled), and `ibsc run` prints the 10 most stalled output "
               "VLs; waves show `head_stall` per input VL")
          .when_set(),
      choice_key("run.measure", run.measure,
                 "`window`: measure `run.window_ns`; `ci`: until the batch-means intervals converge (above)")
          .when_set(),
      real_key("run.ci_relative_width", run.ci_relative_width, 0, 1e12, "", "half-width / mean to stop at")
          .only_with("`run.measure: ci`"),
      real_key("run.ci_max_window_ns", run.ci_max_window_ns, 0, 1e12, ns,
               "longest measuring time; 0: 10 x `run.window_ns`")
          .only_with("`run.measure: ci`"),
      choice_key("sweep.load_unit", sp.load_unit, "`fraction` of link capacity or `bytes_per_ns` per host"),
      list_key("sweep.loads", KeyType::DoubleList, J(sp.loads), "", "explicit offered loads; empty: automatic sweep"),
      real_key("sweep.start", sp.start, 0.001, 1, "", "automatic sweep: first load"),
      real_key("sweep.step", sp.step, 0.001, 1, "", "automatic sweep: increment, until two saturated points"),
      real_key("sweep.max", sp.max, 0.001, 1, "", "automatic sweep: last load tried"),
      int_key("sweep.refine", sp.refine, 0, SweepConfig::kMaxRefine, "steps",
              "bisection steps between the last unsaturated and first saturated load"),
      list_key("sweep.beyond", KeyType::DoubleList, J(sp.beyond), "",
               "automatic sweep: after the bisection, loads at these multiples (> 1) of the saturation load, up to "
               "`sweep.max`: accepted traffic past saturation, each warmed up with `run.warmup: rate`")
          .when_set(),
      int_key("sweep.jobs", sp.jobs, 0, 256, "processes", "load points run at once; 0: one per core").never_echoed(),
  };
}

}  // namespace

const std::vector<Key>& scenario_keys() {
  static const std::vector<Key> keys = declare();
  return keys;
}

}  // namespace ibsc::tb
