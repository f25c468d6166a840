// Simulation time in integer picoseconds (SystemC's default resolution), so that byte times,
// fly times and clock edges are exact and comparisons never round.
#pragma once
#include <systemc>

#include <cstdint>
#include <limits>

namespace ibsc::models {

using Picos = uint64_t;
constexpr Picos kNever = std::numeric_limits<Picos>::max();
constexpr Picos kPsPerNs = 1000;

// Read from the kernel inline: sc_time_stamp() is an out-of-line library call, several per hop.
inline Picos now_ps() { return sc_core::sc_get_curr_simcontext()->time_stamp().value(); }
inline sc_core::sc_time to_sc(Picos ps) { return sc_core::sc_time::from_value(ps); }
// First edge of a clock with the given period at or after t (edges at k * period).
inline Picos clock_edge(Picos t, Picos period) { return (t + period - 1) / period * period; }

// Notifies `ev` at absolute time t (>= now). A pending earlier notification wins, which is what
// a module wants: it re-computes its next wake-up every time it runs.
inline void notify_at(sc_core::sc_event& ev, Picos t) {
  Picos now = now_ps();
  ev.notify(to_sc(t > now ? t - now : 0));
}

}  // namespace ibsc::models
