// Link faults of a scenario (seeds/002 section 5, issue 15): which switch-to-switch cables fail
// and when, given by name ("S(1,0):2", a cable by one of its ends; a switch index works too:
// "5:2") or as n cables drawn at random (seeded). Host links never fail (the paper's model).
// Off by default: no key set, nothing changes. Errors name the key; the scenario reader adds
// file and line.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "models/sim_time.h"
#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::tb {

struct LinkFaultConfig {
  std::vector<std::string> links;  // faults.links: cables by one end, "SWITCH:PORT"
  std::vector<double> at_ns;       // faults.at_ns: failure time per listed link, or one for all (also the random ones)
  int random = 0;                  // faults.random: this many more cables, drawn among the healthy ones
  uint64_t seed = 1;               // faults.seed: the random draw's seed
  double detection_ns = 1000;      // faults.detection_ns: failure to path migration at the sources
  bool routable = false;           // faults.routable: redraw the random faults until every host pair keeps a path
  bool enabled() const { return !links.empty() || random > 0; }
};

// One failed cable: both directions stop at `at`.
struct CableFault {
  int sw_a = -1, port_a = -1, sw_b = -1, port_b = -1;
  models::Picos at = 0;
  std::string name;  // "S(1,0):2-S(2,0):4"
};

// Resolves the configuration on a topology; throws ParamError (models/param_error.h) naming the key
// ("faults.links: ...") for an unknown switch or port, a host link, a port with no cable, a cable
// given twice, or more random faults than healthy cables. With faults.routable the random
// draw is repeated (the same random stream on) until every host pair keeps a path record that
// avoids all failed cables in `tables`; the first draw is the one faults.routable: false makes.
std::vector<CableFault> resolve_link_faults(const routing::Topology& t, const LinkFaultConfig& c,
                                            const routing::TableSet* tables = nullptr);

// failed[switch][port] != 0: the cable on that port has failed.
using FailedPorts = std::vector<std::vector<char>>;
FailedPorts failed_ports(const routing::Topology& t, const std::vector<CableFault>& faults);

// Whether path record `rec` of host h to host q, walked through the LFTs (primary candidate),
// crosses a failed cable; a walk that does not arrive counts as broken too.
bool record_crosses_failed(const routing::Topology& t, const routing::TableSet& tables, const FailedPorts& failed,
                           const routing::PathRecord& rec, int h, int q);

// The index of the first record of (h, q) that avoids every failed cable (what APM migrates
// to), -1 when none is left.
int surviving_record(const routing::Topology& t, const routing::TableSet& tables, const FailedPorts& failed, int h,
                     int q);

// The tables as the sources use them once every fault is known: each host pair keeps only its
// surviving record, as its primary; a pair with none keeps no record and is counted in
// `unreachable` (a channel-load bound must leave such pairs out of the demand).
routing::TableSet tables_after_faults(const routing::Topology& t, const routing::TableSet& tables,
                                      const std::vector<CableFault>& faults, long* unreachable);

}  // namespace ibsc::tb
