#include "models/verilated_arbiter.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>

// Verilator's runtime headers trip -Wunused-parameter; they are not ours to fix. They come
// before SystemC's: with SYSTEMC_VERSION defined they expect Verilator's SystemC output, which
// these models are not. rtl/arbiter_models.h includes one model header per entry of
// IBSC_ARB_MODELS (rtl/arbiter_config.h), both made by rtl/CMakeLists.txt.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "rtl/arbiter_models.h"
#include "verilated.h"
#include "verilated_vcd_c.h"
#pragma GCC diagnostic pop

#include <systemc>

#include "models/adaptive_arbiter.h"
#include "models/arbiter_pins.h"

namespace ibsc::models {

static_assert(AdaptiveArbiter::kDefaultPriorityLevels == VerilatedArbiter::kPriorityLevels,
              "the reference model and the RTL must have the same priority levels");

namespace {

// ---- Pin vector <-> Verilated port ----
// Verilator holds a port of up to 64 bits in the smallest of uint8/16/32/64_t, a wider one in
// VlWide<words> of 32-bit words. The asserts check that the port has the bundle's width class
// (for a wide port, exactly its word count), so a bundle built from other numbers than the
// -G parameters does not compile.
template <unsigned Bits, class Port>
void check_port_type() {
  if constexpr (Bits <= 8) static_assert(std::is_same_v<Port, CData>, "pin width disagrees with the RTL");
  else if constexpr (Bits <= 16) static_assert(std::is_same_v<Port, SData>, "pin width disagrees with the RTL");
  else if constexpr (Bits <= 32) static_assert(std::is_same_v<Port, IData>, "pin width disagrees with the RTL");
  else if constexpr (Bits <= 64) static_assert(std::is_same_v<Port, QData>, "pin width disagrees with the RTL");
  else static_assert(std::is_same_v<Port, VlWide<PinVector<Bits>::kWords>>, "pin width disagrees with the RTL");
}
template <unsigned Bits, class Port>
void drive(Port& port, const PinVector<Bits>& v) {
  check_port_type<Bits, Port>();
  if constexpr (Bits <= 32) port = static_cast<Port>(v.words[0]);
  else if constexpr (Bits <= 64) port = v.words[0] | uint64_t{v.words[1]} << 32;
  else std::copy(v.words.begin(), v.words.end(), port.data());
}
template <unsigned Bits, class Port>
void sample(PinVector<Bits>& v, const Port& port) {
  check_port_type<Bits, Port>();
  if constexpr (Bits <= 32) {
    v.words[0] = port;
  } else if constexpr (Bits <= 64) {
    v.words[0] = static_cast<uint32_t>(port);
    v.words[1] = static_cast<uint32_t>(port >> 32);
  } else {
    std::copy(port.data(), port.data() + PinVector<Bits>::kWords, v.words.begin());
  }
}

}  // namespace

// One Verilated model with its context and pins. The configurations come from
// IBSC_ARB_MODELS, made by the same CMake loop as the -G overrides in rtl/CMakeLists.txt.
struct VerilatedArbiter::Core {
  virtual ~Core() = default;
  virtual int ports() const = 0;
  virtual void reset(unsigned used_ports) = 0;
  // clk low with this cycle's inputs, evaluate, read the grants.
  virtual void decide(const std::vector<ArbRequest>& req, const std::vector<ArbOutputStatus>& out,
                      std::vector<int>& grants, uint64_t t_ps) = 0;
  virtual void rise(uint64_t t_ps) = 0;  // clk high, evaluate
  virtual void attach(VerilatedVcdC& vcd) = 0;
  virtual void trace_pins(sc_core::sc_trace_file* tf, const std::string& scope, unsigned vls) = 0;
  virtual bool pins_traced() const = 0;
  virtual void sync_pins() = 0;  // the traced pin values, after decide()
  virtual void finish() = 0;     // Verilog final blocks, at the end of an arbiter's use
};

namespace {

template <class V, unsigned P>
class CoreOf final : public VerilatedArbiter::Core {
 public:
  // Verilator's runtime files a model's scopes, and counts an RTL $error, under the thread's
  // current context, not the model's: every call into the model below first makes ctx_ current
  // (use()), and the destructor leaves the default context current, never a dead one.
  CoreOf() {
    ctx_.timeunit(-12);
    ctx_.timeprecision(-12);
    ctx_.traceEverOn(true);    // before the model exists, so it registers its trace hooks
    ctx_.fatalOnError(false);  // an RTL assertion becomes an exception, not an abort
    use();
    top_ = std::make_unique<V>(&ctx_, "TOP");
  }
  ~CoreOf() override {
    use();
    top_.reset();
    Verilated::threadContextp(Verilated::defaultContextp());
  }
  int ports() const override { return P; }

  // Synchronous reset as a fresh model gets it: inputs at rest, one edge with rst_n low, then
  // rst_n high with the clock left high (the next decide() lowers it).
  void reset(unsigned used_ports) override {
    used_ = used_ports;
    pins_.clear_inputs();
    pins_.rst_n = false;
    pins_.clk = false;
    drive_all();
    eval(0);
    pins_.clk = true;
    top_->clk = 1;
    eval(0);
    pins_.rst_n = true;
    top_->rst_n = 1;
    ctx_.gotError(false);
    ctx_.gotFinish(false);
    ctx_.errorCount(0);
  }

  void decide(const std::vector<ArbRequest>& req, const std::vector<ArbOutputStatus>& out, std::vector<int>& grants,
              uint64_t t_ps) override {
    pins_.pack(req, out, used_);
    pins_.clk = false;
    drive_all();
    eval(t_ps);
    sample(pins_.grant_valid, top_->grant_valid);
    sample(pins_.grant_port, top_->grant_port);
    pins_.unpack(grants, used_);
  }

  void rise(uint64_t t_ps) override {
    pins_.clk = true;
    top_->clk = 1;
    eval(t_ps);
  }

  void attach(VerilatedVcdC& vcd) override {
    use();
    top_->trace(&vcd, 99);
  }
  void trace_pins(sc_core::sc_trace_file* tf, const std::string& scope, unsigned vls) override {
    pins_.trace(tf, scope, used_, vls);
  }
  bool pins_traced() const override { return pins_.traced(); }
  void sync_pins() override { pins_.sync_trace(); }
  void finish() override {
    use();
    top_->final();
  }

 private:
  void drive_all() {
    V& m = *top_;
    m.clk = pins_.clk;
    m.rst_n = pins_.rst_n;
    drive(m.req_valid, pins_.req_valid);
    drive(m.req_cand, pins_.req_cand);
    drive(m.req_prio, pins_.req_prio);
    drive(m.req_vl, pins_.req_vl);
    drive(m.req_len, pins_.req_len);
    drive(m.out_busy, pins_.out_busy);
    drive(m.out_credits, pins_.out_credits);
  }
  void use() { Verilated::threadContextp(&ctx_); }
  void eval(uint64_t t_ps) {
    use();            // an RTL $error counts here (fatalOnError off): it throws below, it does not abort
    ctx_.time(t_ps);  // the time an RTL $error reports
    top_->eval();
    if (ctx_.gotError()) throw std::logic_error("VerilatedArbiter: RTL assertion failed (see the %Error line above)");
  }

  unsigned used_ = 0;
  VerilatedContext ctx_;
  std::unique_ptr<V> top_;  // after the context it runs in
  ArbiterPins<P> pins_;
};

// The configurations compiled in, smallest first.
constexpr unsigned kCfgPorts = rtl::kArbPortCounts[std::size(rtl::kArbPortCounts) - 1];

std::unique_ptr<VerilatedArbiter::Core> make_core(unsigned num_ports, bool broken) {
  unsigned cfg = kCfgPorts;
  for (unsigned p : rtl::kArbPortCounts)
    if (p >= num_ports) {
      cfg = p;
      break;
    }
#define IBSC_ARB_MAKE(V, PORTS, BROKEN) \
  if (cfg == PORTS && broken == (BROKEN != 0)) return std::make_unique<CoreOf<V, PORTS>>();
  IBSC_ARB_MODELS(IBSC_ARB_MAKE)
#undef IBSC_ARB_MAKE
  throw std::logic_error("VerilatedArbiter: no model for " + std::to_string(cfg) + " ports");
}

}  // namespace

VerilatedArbiter::VerilatedArbiter(int num_ports, int num_vls, Variant variant)
    : num_ports_(num_ports), num_vls_(num_vls) {
  if (num_ports < 1 || num_ports > max_ports() || num_vls < 1 || num_vls > max_vls())
    throw std::invalid_argument("VerilatedArbiter: no Verilated configuration for " + std::to_string(num_ports) +
                                " ports and " + std::to_string(num_vls) + " VLs (largest: " +
                                std::to_string(max_ports()) + " ports, " + std::to_string(max_vls()) + " VLs)");
  broken_ = variant != Variant::kCorrect;
  core_ = make_core(static_cast<unsigned>(num_ports), broken_);
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

const char* VerilatedArbiter::kind() const { return broken_ ? "rtl-broken" : "rtl"; }
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
  now_ps_ = [] {
    return static_cast<uint64_t>(sc_core::sc_time_stamp().value() / sc_core::sc_time(1, sc_core::SC_PS).value());
  };
}

void VerilatedArbiter::trace_pins(sc_core::sc_trace_file* tf, const std::string& scope) {
  core_->trace_pins(tf, scope, static_cast<unsigned>(num_vls_));
}

}  // namespace ibsc::models
