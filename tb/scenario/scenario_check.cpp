#include "tb/scenario/scenario_check.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <stdexcept>

#include "models/param_error.h"
#include "routing/checks.h"
#include "routing/duato_check.h"
#include "routing/routing.h"
#include "tb/fabric/huge_pages.h"
#include "tb/scenario/config_reader.h"
#include "tb/scenario/link_fault_config.h"
#include "tb/traffic/injection.h"
#include "tb/traffic/traffic.h"

namespace ibsc::tb {

std::string locate(const Scenario& s, const std::exception& e, const std::string& fallback_key) {
  auto where = [&](const std::string& key) { return s.where ? s.where(key) : s.file; };
  if (const auto* p = dynamic_cast<const ParamError*>(&e)) return where(p->key()) + ": " + e.what();
  return where(fallback_key) + ": key '" + fallback_key + "': " + e.what();
}

namespace {

[[noreturn]] void fail(const Scenario& s, const std::string& key, const std::string& what) {
  throw ConfigError((s.where ? s.where(key) : s.file) + ": key '" + key + "': " + what);
}

// The longest quiet time of a healthy fabric: between two injections, grants or deliveries no
// more than a fly time, a routing delay and a clock edge, or a fly time and one serialisation.
double quiet_ns(const Scenario& s, uint32_t max_len) {
  const auto& f = s.point.fabric;
  return f.link.fly_ps() / 1000.0 + f.sw.routing_delay_ns + f.sw.core_clock_ns + max_len * f.link.byte_ps() / 1000.0;
}

}  // namespace

void check_scenario(const Scenario& s, const routing::Topology& topo, const routing::TableSet& tables) {
  const models::SwitchParams& sw = s.point.fabric.sw;
  if (topo.num_hosts == 0) fail(s, "topology.spec", "the topology has no hosts: there is no traffic to simulate");
  if (s.point.fabric.faults.enabled()) {
    try {
      resolve_link_faults(topo, s.point.fabric.faults, &tables);
    } catch (const std::invalid_argument& e) {
      throw ConfigError(locate(s, e, "faults.links"));
    }
  }
  if (tables.vls_used > sw.num_vls)
    fail(s, "switch.num_vls",
         "routing '" + tables.algorithm + "' needs " + std::to_string(tables.vls_used) +
             " data VLs but the switch has " + std::to_string(sw.num_vls));
  if (s.routing.vls > 0 && tables.vls_used != s.routing.vls)
    fail(s, "routing.vls",
         "routing '" + tables.algorithm + "' uses " + std::to_string(tables.vls_used) +
             " VLs whatever routing.vls says; remove the key or set it to " + std::to_string(tables.vls_used));
  // SL2VL: the key the tables were made for, and VLs the switch has, for every SL a path uses.
  std::set<int> sls;
  {
    bool seen[256] = {};
    std::set<std::pair<const void*, size_t>> rows;  // hosts share rows: read each view once
    for (const auto& h : tables.hosts)
      if (rows.insert({h.paths.identity(), h.paths.hidden()}).second)
        for (size_t q = 0; q < h.paths.size(); ++q)
          for (const auto& pr : h.paths[q]) seen[pr.sl] = true;
    for (int sl = 0; sl < 256; ++sl)
      if (seen[sl]) sls.insert(sl);
  }
  for (const auto& h : tables.hosts)
    for (int sl : sls)
      if (h.sl2vl[sl] >= sw.num_vls)
        fail(s, "switch.num_vls",
             "an HCA's SL2VL maps SL " + std::to_string(sl) + " to VL " + std::to_string(h.sl2vl[sl]) +
                 ", which the switch does not have");
  for (size_t i = 0; i < tables.switches.size(); ++i) {
    const routing::Sl2VlTable& t = tables.switches[i].sl2vl;
    const bool by_vl = t.key() == routing::Sl2VlTable::Key::InputVl;
    if (by_vl != sw.vl2vl)
      fail(s, "switch.vl2vl",
           std::string("routing '") + tables.algorithm + "' programs " +
               (by_vl ? "VL2VL tables (keyed by input VL)" : "SL2VL tables (keyed by SL)") +
               "; set switch.vl2vl: " + (by_vl ? "true" : "false"));
    const routing::Node& n = topo.nodes[i];
    for (int in = 1; in <= n.num_ports; ++in)
      for (int out = 1; out <= n.num_ports; ++out) {
        if (n.ports[in].node < 0 || n.ports[out].node < 0) continue;
        for (int k = 0; k < (by_vl ? sw.num_vls : kNumSls); ++k)
          if ((by_vl || sls.count(k)) && t.get(in, out, k) >= sw.num_vls)
            fail(s, "switch.num_vls",
                 "switch " + n.name + " maps " + (by_vl ? "VL " : "SL ") + std::to_string(k) + " from port " +
                     std::to_string(in) + " to port " + std::to_string(out) + " onto VL " +
                     std::to_string(t.get(in, out, k)) + ", which the switch does not have");
      }
  }

  // VLArb tables: a data VL the routing uses but no entry serves would never be sent.
  if (sw.vlarb.use_tables)
    for (int v = 0; v < tables.vls_used; ++v) {
      auto serves = [&](const std::vector<models::VlArbEntry>& t) {
        return std::any_of(t.begin(), t.end(), [&](auto& e) { return e.vl == v && e.weight > 0; });
      };
      if (!serves(sw.vlarb.high) && !serves(sw.vlarb.low))
        fail(s, "switch.vlarb.use_tables",
             "data VL " + std::to_string(v) + " (used by routing '" + tables.algorithm +
                 "') has no entry with weight > 0 in switch.vlarb.high or .low, so "
                 "it would never be sent");
    }

  // Packets: each must fit a VL buffer (virtual cut-through reserves the whole packet).
  const std::string len_key = s.lengths_key;
  uint32_t max_len = 0;
  for (auto [len, w] : s.point.injection.length_mix) max_len = std::max(max_len, len);
  if (max_len > sw.buffer_bytes_per_vl)
    fail(s, len_key,
         "a " + std::to_string(max_len) + "-byte packet does not fit a " + std::to_string(sw.buffer_bytes_per_vl) +
             "-byte VL buffer (switch.buffer_bytes_per_vl): virtual cut-through could never forward it");
  const models::CcParams& cc = s.point.fabric.cc;
  if (cc.enabled && cc.cnp_bytes > sw.buffer_bytes_per_vl)
    fail(s, "cc.cnp_bytes",
         "a " + std::to_string(cc.cnp_bytes) + "-byte CNP does not fit a " + std::to_string(sw.buffer_bytes_per_vl) +
             "-byte VL buffer (switch.buffer_bytes_per_vl)");
  if (cc.enabled && cc.cnp_sl >= 0 && cc.cnp_sl >= tables.sls_used)
    fail(s, "cc.cnp_sl",
         "SL " + std::to_string(cc.cnp_sl) + " is not one of the " + std::to_string(tables.sls_used) +
             " SLs routing '" + tables.algorithm + "' uses: its VLs and deadlock freedom were not checked for it");
  if (sw.output_buffer_bytes_per_vl > 0 && max_len > sw.output_buffer_bytes_per_vl)
    fail(s, len_key,
         "a " + std::to_string(max_len) + "-byte packet does not fit a " +
             std::to_string(sw.output_buffer_bytes_per_vl) +
             "-byte output VL buffer (switch.output_buffer_bytes_per_vl): the crossbar could never move it");

  // Escape queues and escape candidates go together: adaptive candidates without an escape
  // queue to fall back on could deadlock, and escape queues under a routing without escape
  // candidates would only shrink every buffer. The escape queue holds one packet whole.
  const bool escape_cands = routing::has_escape_candidates(tables);
  if (escape_cands && sw.escape_queue_bytes == 0)
    fail(s, "routing.algorithm",
         "routing '" + tables.algorithm +
             "' has escape candidates: it needs escape queues "
             "(switch.escape_queue_bytes, one MTU: at least the longest packet)");
  if (!escape_cands && sw.escape_queue_bytes > 0)
    fail(s, "switch.escape_queue_bytes",
         "routing '" + tables.algorithm +
             "' has no escape candidates "
             "(adaptive-updown has): escape queues would never be used");
  if (sw.escape_queue_bytes > 0 && max_len > sw.escape_queue_bytes)
    fail(s, len_key,
         "a " + std::to_string(max_len) + "-byte packet does not fit the " + std::to_string(sw.escape_queue_bytes) +
             "-byte escape queue (switch.escape_queue_bytes): the escape channel could not always take it");

  // Traffic and injection, as each load point will build them.
  try {
    make_destination_pattern(s.point.traffic, topo);
    InjectionProcess(s.point.injection, 0.0, s.point.fabric.link.bytes_per_ns(), 1);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(locate(s, e, "traffic.pattern"));
  }
  if (s.sweep.load_unit == LoadUnit::BytesPerNs)
    for (double l : s.sweep.loads)
      if (l > s.point.fabric.link.bytes_per_ns() * (1 + 1e-9))
        fail(s, "sweep.loads",
             std::to_string(l) + " bytes/ns per host exceeds the link rate of " +
                 std::to_string(s.point.fabric.link.bytes_per_ns()) + " bytes/ns");

  // The RTL arbiter's switches are checked when the scenario is read (ArbiterChoice::validate).

  // A window that cannot hold the shortest packet on a link measures nothing, and the sweep
  // would report "no saturation, best accepted 0".
  uint32_t min_len = max_len;
  for (auto [len, w] : s.point.injection.length_mix) min_len = std::min(min_len, len);
  const double packet_ns = min_len * static_cast<double>(s.point.fabric.link.byte_ps()) / 1000.0;
  if (s.point.run.window_ns < packet_ns) {
    char b[200];
    std::snprintf(b, sizeof b, "%g ns is shorter than one %u-byte packet on a link (%g ns): nothing could be measured",
                  s.point.run.window_ns, min_len, packet_ns);
    fail(s, "run.window_ns", b);
  }

  // The watchdog must outlast the longest quiet time of a fabric that is merely lightly loaded.
  const double quiet = quiet_ns(s, max_len);
  if (s.point.run.watchdog_ns < 4 * quiet)
    fail(s, "run.watchdog_ns",
         std::to_string(s.point.run.watchdog_ns) + " ns is too short: a healthy fabric can be " + "quiet for " +
             std::to_string(quiet) + " ns (fly time + routing delay + clock + longest packet); use at least 4x that");
}

void prepare_scenario(const Scenario& s, routing::Topology& topo, routing::TableSet& tables) {
  try {
    topo = build_topology(s.topology);
  } catch (const ConfigError&) {
    throw;
  } catch (const std::exception& e) {
    throw ConfigError(locate(s, e, "topology.spec"));
  }
  // What the importer skipped or does not model (a dump's own link widths and speeds).
  for (const auto& n : topo.notes) std::fprintf(stderr, "ibsc: note: %s\n", n.c_str());
  back_heap_growth_with_huge_pages(topo.num_hosts);  // before the tables and the fabric
  try {
    tables = routing::compute_routing(topo, s.routing);
  } catch (const std::exception& e) {
    throw ConfigError(locate(s, e, "routing.algorithm"));
  }
  check_routing(s, topo, tables);
  check_scenario(s, topo, tables);
}

void check_routing(const Scenario& s, const routing::Topology& topo, const routing::TableSet& tables) {
  routing::CheckLimits lim;
  lim.max_sls = s.routing.max_sls;
  lim.max_vls = s.routing.max_vls;
  lim.max_problems = 5;
  const routing::CheckReport rep = routing::check_tables(topo, tables, lim);
  if (rep.ok()) return;
  // Imported tables are the likely culprit; a computed routing failing is a bug or a
  // deliberately deadlock-prone algorithm (dor1vl on a ring).
  const char* why = !rep.paths_end       ? "routing loops"
                    : !rep.connected     ? "host pairs without a route"
                    : !rep.within_budget ? "SL/VL budget exceeded"
                                         : "a channel dependency cycle: deadlock possible";
  fail(s, s.routing.algorithm == routing::Algorithm::File ? "routing.lft_file" : "routing.algorithm",
       "the tables of routing '" + tables.algorithm + "' fail the checks of `ibsc route --check` (" + why +
           "); not simulated:\n" + rep.text());
}

}  // namespace ibsc::tb
