// Simulation time in integer picoseconds (SystemC's default resolution), so that byte times,
// fly times and clock edges are exact and comparisons never round.
#pragma once
#include <systemc>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace ibsc::models {

using Picos = uint64_t;
constexpr Picos kNever = std::numeric_limits<Picos>::max();
constexpr Picos kPsPerNs = 1000;

// SystemC's own time, read from the kernel inline: sc_time_stamp() is an out-of-line library
// call, several per hop.
inline Picos kernel_now_ps() { return sc_core::sc_get_curr_simcontext()->time_stamp().value(); }
// The model's time while the scheduler runs ahead of the kernel (Scheduler::run_ahead_until),
// 0 otherwise.
inline Picos g_ahead_ps = 0;
// The model's time: the kernel's, or the scheduler's while it runs ahead.
inline Picos now_ps() { return g_ahead_ps ? g_ahead_ps : kernel_now_ps(); }
// For a module about to notify a SystemC event from a wake-up: the kernel would take the
// notification at its own time, behind the model's while the scheduler runs ahead, so that
// combination is refused (a testbench error, not a model one).
inline void require_kernel_time(const char* who) {
  if (g_ahead_ps)
    throw std::logic_error(std::string(who) +
                           " notifies SystemC events from the model: the scheduler must not run ahead "
                           "(Scheduler::run_ahead_until) in this fabric");
}
inline sc_core::sc_time to_sc(Picos ps) { return sc_core::sc_time::from_value(ps); }
// First edge of a clock with the given period at or after t (edges at k * period).
inline Picos clock_edge(Picos t, Picos period) { return (t + period - 1) / period * period; }

// Notifies `ev` at absolute time t (>= now). A pending earlier notification wins, which is what
// a module wants: it re-computes its next wake-up every time it runs.
inline void notify_at(sc_core::sc_event& ev, Picos t) {
  Picos now = kernel_now_ps();
  ev.notify(to_sc(t > now ? t - now : 0));
}

}  // namespace ibsc::models
