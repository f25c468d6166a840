// ibsc::cosim(): the public face of tb/cosim (run_cosim, which `ibsc cosim` runs too); here
// only the options and the result are translated, so both report the same run alike.
#include "ibsc/cosim.h"

#include <exception>

#include "tb/cosim/cosim.h"

namespace ibsc {
namespace {

tb::CosimConfig config_of(const CosimOptions& o) {
  tb::CosimConfig c;
  c.ports = o.ports;
  c.vls = o.vls;
  c.levels = o.levels;
  c.cycles = o.cycles;
  c.seed = o.seed;
  c.directed = o.directed;
  c.arbiter = o.arbiter;
  c.reference = o.reference;
  c.vcd_path = o.vcd_path;
  c.trace_begin_cycle = o.trace_from;
  c.trace_end_cycle = o.trace_to;
  return c;
}

CosimMismatch mismatch_of(const tb::CosimMismatch& m) {
  CosimMismatch out;
  out.cycle = m.cycle;
  out.what = m.what;
  out.report = m.report();
  if (m.what != m.arbiter + " != " + m.reference) return out;  // a broken rule or an assertion
  for (size_t i = 0; i < m.expected_grants.size() && i < m.actual_grants.size(); ++i) {
    const int e = m.expected_grants[i], a = m.actual_grants[i];
    if (e == a) continue;
    out.signal = ((e < 0) != (a < 0) ? "grant_valid[" : "grant_port[") + std::to_string(i) + "]";
    out.input = static_cast<int>(i);
    out.expected_port = e;
    out.actual_port = a;
    break;
  }
  return out;
}

}  // namespace

CosimResult cosim(const CosimOptions& options) {
  const tb::CosimResult r = [&] {
    try {
      return tb::run_cosim(config_of(options));
    } catch (const std::exception& e) {  // options it cannot run: invalid_argument, runtime_error
      throw Error(e.what());
    }
  }();
  CosimResult out;
  out.passed = r.passed();
  out.cycles = r.cycles;
  if (r.mismatch) out.mismatch = mismatch_of(*r.mismatch);
  out.coverage.cycles = r.coverage.cycles();
  out.coverage.bins = r.coverage.bins();
  out.coverage.bins_hit = r.coverage.bins_hit();
  out.coverage.missing = r.coverage.missing();
  out.seconds = r.seconds;
  out.summary = r.summary();
  return out;
}

}  // namespace ibsc
