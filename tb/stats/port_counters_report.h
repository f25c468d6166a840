// The switches' named counters per port and VL (models/port_counters.h) over a measuring
// window, as results.json's `switch_counters` section (run.port_counters: true), and the
// "most stalled output VLs" summary `ibsc run` prints.
#pragma once
#include <ostream>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/fabric/fabric.h"
#include "tb/stats/results.h"

namespace ibsc::tb {

// Turns the counters on in every switch of the fabric (before the run).
void enable_port_counters(Fabric& f);
// Starts the window at now: zeroes every switch's counters.
void reset_port_counters(Fabric& f);
// The window [start, now]: per switch, per (port, VL) with anything counted, the counters.
nlohmann::ordered_json collect_port_counters(Fabric& f, double window_ns);
// The `n` output VLs with the most stall time (credit + output busy) at the highest load point
// that has counters; nothing when no point has them.
void print_most_stalled(std::ostream& os, const std::vector<LoadPointResult>& points, size_t n = 10);

}  // namespace ibsc::tb
