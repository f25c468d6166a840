#include "models/verilated_arbiter.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>

// Verilator's runtime headers come first (models/verilated_core.h says why); rtl/arbiter_models.h
// includes one model header per entry of IBSC_ARB_MODELS (rtl/arbiter_config.h), both made by
// rtl/CMakeLists.txt.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "rtl/arbiter_models.h"
#pragma GCC diagnostic pop
#include "models/verilated_core.h"

#include "models/adaptive_arbiter.h"
#include "models/sim_time.h"

namespace ibsc::models {

static_assert(AdaptiveArbiter::kDefaultPriorityLevels == VerilatedArbiter::kPriorityLevels,
              "the reference model and the RTL must have the same priority levels");

namespace {

// The configurations compiled in, smallest first.
constexpr unsigned kCfgPorts = rtl::kArbPortCounts[std::size(rtl::kArbPortCounts) - 1];

std::unique_ptr<VerilatedArbiter::Core> make_core(unsigned num_ports) {
  unsigned cfg = kCfgPorts;
  for (unsigned p : rtl::kArbPortCounts)
    if (p >= num_ports) {
      cfg = p;
      break;
    }
#define IBSC_ARB_MAKE(V, PORTS) \
  if (cfg == PORTS) return std::make_unique<CoreOf<V, PORTS>>();
  IBSC_ARB_MODELS(IBSC_ARB_MAKE)
#undef IBSC_ARB_MAKE
  throw std::logic_error("VerilatedArbiter: no model for " + std::to_string(cfg) + " ports");
}

}  // namespace

VerilatedArbiter::VerilatedArbiter(int num_ports, int num_vls) : num_ports_(num_ports), num_vls_(num_vls) {
  if (num_ports < 1 || num_ports > max_ports() || num_vls < 1 || num_vls > max_vls())
    throw std::invalid_argument("VerilatedArbiter: no Verilated configuration for " + std::to_string(num_ports) +
                                " ports and " + std::to_string(num_vls) + " VLs (largest: " +
                                std::to_string(max_ports()) + " ports, " + std::to_string(max_vls()) + " VLs)");
  core_ = make_core(static_cast<unsigned>(num_ports));
  core_->reset(static_cast<unsigned>(num_ports));
}

VerilatedArbiter::VerilatedArbiter(int num_ports, int num_vls, CoreMaker make, std::string kind)
    : num_ports_(num_ports), num_vls_(num_vls), kind_(std::move(kind)) {
  if (num_ports >= 1 && num_vls >= 1 && num_vls <= max_vls()) core_ = make(static_cast<unsigned>(num_ports));
  if (!core_)
    throw std::invalid_argument("VerilatedArbiter '" + kind_ + "': no Verilated configuration for " +
                                std::to_string(num_ports) + " ports and " + std::to_string(num_vls) + " VLs");
  core_->reset(static_cast<unsigned>(num_ports));
}

VerilatedArbiter::~VerilatedArbiter() {
  try {
    close_trace();
  } catch (const std::exception&) {  // a destructor does not throw; the file stays as it is
  }
  core_->finish();
  trace_.reset();  // before the model it reads
}

const char* VerilatedArbiter::kind() const { return kind_.empty() ? "rtl" : kind_.c_str(); }
int VerilatedArbiter::rtl_ports() const { return core_->ports(); }
int VerilatedArbiter::max_ports() { return static_cast<int>(kCfgPorts); }
int VerilatedArbiter::max_vls() { return static_cast<int>(rtl::kArbNumVls); }

void VerilatedArbiter::arbitrate(const std::vector<ArbRequest>& requests, const std::vector<ArbOutputStatus>& outputs,
                                 std::vector<int>& grants) {
  const size_t n = static_cast<size_t>(num_ports_);
  if (requests.size() != n || outputs.size() != n || grants.size() != n)
    throw std::invalid_argument("VerilatedArbiter: expected " + std::to_string(n) + " requests, outputs and grants");
  for (const ArbRequest& r : requests) {
    if (!r.valid) continue;
    if (r.vl >= num_vls_) throw std::invalid_argument("VerilatedArbiter: request VL out of range");
    for (const ArbCandidate& c : r.candidates)
      if (c.port >= num_ports_) throw std::invalid_argument("VerilatedArbiter: candidate port out of range");
  }
  const uint64_t t = now_ps_ ? now_ps_() : cycles_ * period_ps_;
  const uint64_t edge = t + std::max<uint64_t>(period_ps_ / 2, 1);
  core_->decide(requests, outputs, grants, t);
  const bool in_window = trace_enabled_ && t >= window_begin_ && t < window_end_;
  if (in_window && core_->pins_traced()) core_->sync_pins();
  const bool dumping = trace_open_ && in_window;
  if (dumping) dump(t);
  core_->rise(edge);
  if (dumping) dump(edge);
  ++cycles_;
}

void VerilatedArbiter::dump(uint64_t t_ps) {
  // VCD time must increase; edges closer than half a period are nudged, never reordered.
  if (dumped_ && t_ps <= last_dump_) t_ps = last_dump_ + 1;
  trace_->dump(t_ps);
  last_dump_ = t_ps;
  dumped_ = true;
}

void VerilatedArbiter::open_trace(const std::string& vcd_path) {
  if (trace_attached_) throw std::logic_error("VerilatedArbiter: open_trace() may be called once per arbiter");
  trace_attached_ = true;
  trace_ = std::make_unique<VerilatedVcdC>();
  core_->attach(*trace_);
  trace_->open(vcd_path.c_str());
  trace_open_ = trace_->isOpen();
  if (!trace_open_) throw std::runtime_error("VerilatedArbiter: cannot open trace file '" + vcd_path + "'");
  dumped_ = false;
}

void VerilatedArbiter::close_trace() {
  if (trace_open_) trace_->close();
  trace_open_ = false;
}

void VerilatedArbiter::set_trace_window(uint64_t begin_ps, uint64_t end_ps) {
  window_begin_ = begin_ps;
  window_end_ = end_ps;
}

void VerilatedArbiter::set_clock_period_ps(uint64_t period_ps) {
  if (period_ps < 2) throw std::invalid_argument("VerilatedArbiter: clock period must be at least 2 ps");
  period_ps_ = period_ps;
}

void VerilatedArbiter::use_systemc_time() {
  // The model's time (sim_time.h), which is SystemC's unless the scheduler runs ahead of it.
  now_ps_ = [] { return static_cast<uint64_t>(ibsc::models::now_ps()); };
}

void VerilatedArbiter::trace_pins(sc_core::sc_trace_file* tf, const std::string& scope) {
  core_->trace_pins(tf, scope, static_cast<unsigned>(num_vls_));
}

}  // namespace ibsc::models
