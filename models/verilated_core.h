// The Verilated side of a switch arbiter behind the pin bundle: one Verilated model of an
// arbiter with IBSC's ports (rtl/switch_arbiter.sv's, models/arbiter_pins.h), its context and
// pins, as VerilatedArbiter drives it. For the adapter's own file and the files that
// ibsc_add_rtl_arbiter() generates for a user's RTL (cmake/ibsc_rtl_arbiter.cmake): each
// includes its Verilated model headers first, then this one. A model whose ports are not the
// bundle's does not compile: a missing port is named by the compiler ("has no member named
// 'req_cand'"), a port of another width class by "RTL port 'req_cand' is not the pin bundle's
// width". For a user's RTL, ibsc_add_rtl_arbiter() checks exact widths before this compiles
// (cmake/ibsc_rtl_pins_check.cmake); these asserts stand behind it.
#pragma once
// Verilator's runtime headers trip -Wunused-parameter; they are not ours to fix. They come
// before SystemC's: with SYSTEMC_VERSION defined they expect Verilator's SystemC output, which
// these models are not.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "verilated.h"
#include "verilated_vcd_c.h"
#pragma GCC diagnostic pop

#include <systemc>

#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "models/arbiter_pins.h"
#include "models/verilated_arbiter.h"

namespace ibsc::models {

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

namespace verilated_pins {

// ---- Pin vector <-> Verilated port ----
// Verilator holds a port of up to 64 bits in the smallest of uint8/16/32/64_t, a wider one in
// VlWide<words> of 32-bit words. port_fits says whether the port has the bundle's width class
// (for a wide port, exactly its word count); CoreOf asserts it port by port, naming the port, so
// an RTL whose port widths are not the -G parameters' bundle does not compile.
template <unsigned Bits, class Port>
constexpr bool port_fits() {
  if constexpr (Bits <= 8) return std::is_same_v<Port, CData>;
  else if constexpr (Bits <= 16) return std::is_same_v<Port, SData>;
  else if constexpr (Bits <= 32) return std::is_same_v<Port, IData>;
  else if constexpr (Bits <= 64) return std::is_same_v<Port, QData>;
  else return std::is_same_v<Port, VlWide<PinVector<Bits>::kWords>>;
}
template <class Pin, class Port>
struct Fits;
template <unsigned Bits, class Port>
struct Fits<PinVector<Bits>, Port>
    : std::bool_constant<port_fits<Bits, std::remove_cv_t<std::remove_reference_t<Port>>>()> {};

template <unsigned Bits, class Port>
inline void drive(Port& port, const PinVector<Bits>& v) {
  if constexpr (Bits <= 32) port = static_cast<Port>(v.words[0]);
  else if constexpr (Bits <= 64) port = v.words[0] | uint64_t{v.words[1]} << 32;
  else std::copy(v.words.begin(), v.words.end(), port.data());
}
template <unsigned Bits, class Port>
inline void sample(PinVector<Bits>& v, const Port& port) {
  if constexpr (Bits <= 32) {
    v.words[0] = port;
  } else if constexpr (Bits <= 64) {
    v.words[0] = static_cast<uint32_t>(port);
    v.words[1] = static_cast<uint32_t>(port >> 32);
  } else {
    std::copy(port.data(), port.data() + PinVector<Bits>::kWords, v.words.begin());
  }
}

}  // namespace verilated_pins

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
    verilated_pins::sample(pins_.grant_valid, top_->grant_valid);
    verilated_pins::sample(pins_.grant_port, top_->grant_port);
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
  // Every port of the bundle, by name: a missing one fails as "no member named 'PORT'", one of
  // another width as "RTL port 'PORT' is not the pin bundle's width".
#define IBSC_PIN_FITS(port)                                                                                     \
  static_assert(verilated_pins::Fits<decltype(ArbiterPins<P>::port), decltype(std::declval<V&>().port)>::value, \
                "RTL port '" #port "' is not the pin bundle's width (models/arbiter_pins.h)")
  IBSC_PIN_FITS(req_valid);
  IBSC_PIN_FITS(req_cand);
  IBSC_PIN_FITS(req_prio);
  IBSC_PIN_FITS(req_vl);
  IBSC_PIN_FITS(req_len);
  IBSC_PIN_FITS(out_busy);
  IBSC_PIN_FITS(out_credits);
  IBSC_PIN_FITS(grant_valid);
  IBSC_PIN_FITS(grant_port);
#undef IBSC_PIN_FITS

  void drive_all() {
    V& m = *top_;
    m.clk = pins_.clk;
    m.rst_n = pins_.rst_n;
    verilated_pins::drive(m.req_valid, pins_.req_valid);
    verilated_pins::drive(m.req_cand, pins_.req_cand);
    verilated_pins::drive(m.req_prio, pins_.req_prio);
    verilated_pins::drive(m.req_vl, pins_.req_vl);
    verilated_pins::drive(m.req_len, pins_.req_len);
    verilated_pins::drive(m.out_busy, pins_.out_busy);
    verilated_pins::drive(m.out_credits, pins_.out_credits);
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

}  // namespace ibsc::models
