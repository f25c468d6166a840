// VerilatedArbiter: rtl/switch_arbiter.sv, Verilated to plain C++ (verilator --cc), behind the
// SwitchArbiter interface. Each arbitrate() call is one rising edge of the RTL clock: the
// requests are packed into the pin bundle (models/arbiter_pins.h), the pins are copied into the
// model with clk low and the model is evaluated, the combinational grants are read back and
// unpacked, then clk rises and one more evaluation moves the round-robin pointers. The RTL is
// therefore clocked only on the edges the switch arbitrates, as the interface contract
// requires, stays in lockstep with AdaptiveArbiter, and its grants come back within the call, at
// the same simulated instant: the model is a plain object evaluated by the caller, not a SystemC
// process, and nothing here starts or advances SystemC.
//
// Each arbiter owns its model and the model's VerilatedContext (so an assertion in one model is
// counted against that model only), created and reset (rst_n low for one edge) by the
// constructor. Arbiters can be created and destroyed at any time.
//
// Configurations (fixed at Verilation time, see rtl/CMakeLists.txt and the generated
// rtl/arbiter_config.h): the smallest one with at least num_ports ports is used; a switch with
// fewer ports drives ports 0..num_ports-1 and ties the rest off (no request, output busy, no
// credits), which does not change the result: the pointers then only skip idle ports.
//
// Waves: open_trace() writes a VCD of every RTL signal with Verilator's writer: the ports under
// TOP, the module's signals (ports included) under TOP.switch_arbiter. A dump time is the
// arbitration edge time: by default cycles() times the period of set_clock_period_ps(); use_systemc_time() takes
// sc_time_stamp() instead, so waves line up with the fabric. At time t the inputs and the
// combinational decision are visible with clk low; at t + period/2 clk rises and grant_*_q,
// in_ptr_q and out_ptr_q take the new values. trace_pins() puts the pin bundle's per-port view
// in a SystemC trace file too (the fabric's waves).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/switch_arbiter.h"
#include "rtl/arbiter_config.h"

class VerilatedVcdC;  // Verilator's VCD writer; kept out of this header's includes
namespace sc_core {
class sc_trace_file;
}

namespace ibsc::models {

class VerilatedArbiter : public SwitchArbiter {
 public:
  // Throws std::invalid_argument if no Verilated configuration is large enough.
  VerilatedArbiter(int num_ports, int num_vls);
  ~VerilatedArbiter() override;
  VerilatedArbiter(const VerilatedArbiter&) = delete;
  VerilatedArbiter& operator=(const VerilatedArbiter&) = delete;

  // Same argument checks as AdaptiveArbiter::arbitrate (std::invalid_argument); throws
  // std::logic_error if an assertion inside the RTL fires (an illegal matching).
  void arbitrate(const std::vector<ArbRequest>& requests, const std::vector<ArbOutputStatus>& outputs,
                 std::vector<int>& grants) override;
  const char* kind() const override;

  int num_ports() const { return num_ports_; }
  int num_vls() const { return num_vls_; }
  int rtl_ports() const;                       // NUM_PORTS of the Verilated configuration in use
  uint64_t cycles() const { return cycles_; }  // arbitrate() calls so far

  // Largest configuration compiled in; a fabric checks this before choosing the RTL.
  static int max_ports();
  static int max_vls();
  static constexpr int kPriorityLevels = 1 << rtl::kArbPrioW;  // 2^PRIO_W

  struct Core;  // one Verilated model and its pins (models/verilated_core.h)
  // A user's own RTL arbiter (ibsc_add_rtl_arbiter, cmake/ibsc_rtl_arbiter.cmake): `make`
  // returns the smallest Verilated configuration with at least `num_ports` ports, or nullptr
  // when there is none (std::invalid_argument then); `kind` is its registered name.
  using CoreMaker = std::unique_ptr<Core> (*)(unsigned num_ports);
  VerilatedArbiter(int num_ports, int num_vls, CoreMaker make, std::string kind);

  // ---- Tracing ----
  // At most once per arbiter: std::logic_error on a second call, std::runtime_error if the file
  // cannot be opened.
  void open_trace(const std::string& vcd_path);
  void close_trace();  // also done by the destructor
  void set_trace_enabled(bool on) { trace_enabled_ = on; }
  // Dump only edges with begin_ps <= time < end_ps (default: everything).
  void set_trace_window(uint64_t begin_ps, uint64_t end_ps);
  void set_clock_period_ps(uint64_t period_ps);
  void use_systemc_time();
  // The pins of the used ports, as values of a SystemC trace file under `scope` (see
  // ArbiterPins::trace); before the simulation starts. They follow the arbitrations inside the
  // trace window while tracing is enabled, like the VCD above.
  void trace_pins(sc_core::sc_trace_file* tf, const std::string& scope);

 private:
  void dump(uint64_t t_ps);

  int num_ports_;
  int num_vls_;
  std::string kind_;  // a user's RTL (and the tests' rtl-broken): its registered name
  std::unique_ptr<Core> core_;
  std::unique_ptr<VerilatedVcdC> trace_;
  bool trace_attached_ = false;
  bool trace_open_ = false;
  uint64_t cycles_ = 0;
  uint64_t period_ps_ = 1000;
  std::function<uint64_t()> now_ps_;
  bool trace_enabled_ = true;
  uint64_t window_begin_ = 0;
  uint64_t window_end_ = UINT64_MAX;
  uint64_t last_dump_ = 0;
  bool dumped_ = false;
};

}  // namespace ibsc::models
