// VerilatedArbiter: rtl/switch_arbiter.sv, Verilated to SystemC (Verilator's --sc output),
// behind the SwitchArbiter interface. Each arbitrate() call is one rising edge of the RTL clock:
// inputs are applied, the combinational grants are read, then the clock rises and the
// round-robin pointers move. The RTL is therefore clocked only on the edges the switch
// arbitrates, as the interface contract requires, and stays in lockstep with AdaptiveArbiter.
//
// Why the model is not driven through sc_signals: it is a real sc_module (class Varb_*, with
// sc_in/sc_out ports) in the same sc_main as the fabric, but arbitrate() is a synchronous call
// that must return this cycle's grants, and through sc_signals values move only a delta cycle
// later, in the model's own SC_METHOD. So every port is bound to a small channel of ours with
// immediate semantics (write() stores at once, read() returns the stored value, the
// value-changed event is never notified), the model's SC_METHOD is disabled and never runs, and
// arbitrate() calls the model's eval() itself, from inside the calling SystemC process: inputs
// with clk low, eval, read the grants, clk high, eval. The grants are decided at the same
// simulated instant, with no extra delta cycle and no clock edge besides the arbitrated ones.
// (Verilator 5 makes eval() private in SystemC models; verilated_arbiter.cpp reaches it through
// an explicit template instantiation, which the language exempts from access checking.)
//
// Elaboration: SystemC binds ports only when elaboration completes, elaborates once per process
// and creates no module after that. A model is created with its arbiter and reset at the
// arbiter's first arbitrate() (rst_n low for one edge). A fabric creates its arbiters during
// elaboration and arbitrates during simulation. In a process that arbitrates without having
// started SystemC (the lockstep co-verification, unit tests), the first arbitrate() completes
// elaboration itself with sc_start(SC_ZERO_TIME), after creating one spare model of each
// configuration. A destroyed arbiter leaves its model to a process-wide pool, and an arbiter
// created after elaboration takes a free model of its configuration from it; with the reset,
// runs one after the other in one process give exactly what they give in separate processes.
// Creating an arbiter after elaboration with no free model of its configuration throws
// std::logic_error.
//
// Configurations (fixed at Verilation time, see rtl/CMakeLists.txt): the smallest available
// one with at least num_ports ports and num_vls VLs is used; a switch with fewer ports drives
// ports 0..num_ports-1 and ties the rest off (no request, output busy, no credits), which does
// not change the result: the pointers then only skip idle ports.
//
// Waves: open_trace() writes a VCD of every RTL signal, under TOP.switch_arbiter whatever the
// SystemC instance name (the ports too: a SystemC model has no TOP-level copies of them).
// Verilator attaches a writer to a SystemC model only after elaboration, so a file opened
// before is started at the first arbitrate() (or by close_trace()). A dump time is the
// arbitration edge time: by default cycles() * clock_period_ps(); use_systemc_time() takes
// sc_time_stamp() instead, so waves line up with the fabric. At time t the inputs and the
// combinational decision are visible with clk low; at t + period/2 clk rises and grant_*_q,
// in_ptr_q and out_ptr_q take the new values.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/switch_arbiter.h"

class VerilatedVcdC;  // Verilator's VCD writer; kept out of this header's includes

namespace ibsc::models {

class VerilatedArbiter : public SwitchArbiter {
 public:
  enum class Variant {
    kCorrect,
    kBrokenSkipCreditCheck,  // BROKEN_SKIP_CREDIT_CHECK=1: grants without whole-packet credits
  };

  // Throws std::invalid_argument if no Verilated configuration is large enough,
  // std::logic_error after elaboration if no model of its configuration is free (see above).
  VerilatedArbiter(int num_ports, int num_vls, Variant variant = Variant::kCorrect);
  ~VerilatedArbiter() override;
  VerilatedArbiter(const VerilatedArbiter&) = delete;
  VerilatedArbiter& operator=(const VerilatedArbiter&) = delete;

  // Same argument checks as AdaptiveArbiter::arbitrate (std::invalid_argument); throws
  // std::logic_error if an assertion inside the RTL fires (an illegal matching). The first
  // call resets the model, and completes SystemC elaboration if nothing has started it.
  void arbitrate(const std::vector<ArbRequest>& requests, const std::vector<ArbOutputStatus>& outputs,
                 std::vector<int>& grants) override;
  const char* kind() const override;

  int num_ports() const { return num_ports_; }
  int num_vls() const { return num_vls_; }
  int rtl_ports() const;                       // NUM_PORTS of the Verilated configuration in use
  int rtl_vls() const;                         // NUM_VLS of that configuration
  uint64_t cycles() const { return cycles_; }  // arbitrate() calls so far

  // Largest configuration compiled in; a fabric checks this before choosing the RTL.
  static int max_ports();
  static int max_vls();
  static constexpr int kPriorityLevels = 8;  // 2^PRIO_W

  struct Core;     // implementation detail: one Verilated model (verilated_arbiter.cpp)
  struct VcdFile;  // implementation detail: the VCD file, top scope renamed TOP

  // ---- Tracing ----
  // At most once per arbiter: std::logic_error on a second call, std::runtime_error if the file
  // cannot be opened. Before elaboration the file is created now and written from the first
  // arbitrate() on (see above).
  void open_trace(const std::string& vcd_path);
  void close_trace();  // also done by the destructor
  bool trace_open() const { return trace_open_; }  // open, or to be started at the first edge
  void set_trace_enabled(bool on) { trace_enabled_ = on; }
  // Dump only edges with begin_ps <= time < end_ps (default: everything).
  void set_trace_window(uint64_t begin_ps, uint64_t end_ps);
  void set_clock_period_ps(uint64_t period_ps);
  uint64_t clock_period_ps() const { return period_ps_; }
  void set_time_source(std::function<uint64_t()> now_ps) { now_ps_ = std::move(now_ps); }
  void use_systemc_time();

 private:
  void dump(uint64_t t_ps);
  void prepare();      // first arbitrate(): elaboration complete, model reset, trace started
  void start_trace();  // attaches the model to a new writer and opens trace_path_

  int num_ports_;
  int num_vls_;
  bool broken_ = false;
  Core* core_ = nullptr;  // owned by the process-wide pool, ours until the destructor
  bool ready_ = false;    // prepare() done
  std::unique_ptr<VcdFile> vcd_file_;     // outlives trace_, which writes through it
  std::unique_ptr<VerilatedVcdC> trace_;
  std::string trace_path_;
  bool trace_attached_ = false;
  bool trace_pending_ = false;  // opened before elaboration, not started yet
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
