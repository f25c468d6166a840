#include "models/verilated_arbiter.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>

// Verilator's runtime headers trip -Wunused-parameter; they are not ours to fix.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "Varb_p16_v16.h"
#include "Varb_p16_v16_broken.h"
#include "Varb_p64_v16.h"
#include "Varb_p64_v16_broken.h"
#include "verilated.h"
#include "verilated_vcd_c.h"
#pragma GCC diagnostic pop

// After Verilator's headers: they change their own declarations when SystemC is already seen.
#include <systemc>

namespace ibsc::models {
namespace {

constexpr int clog2(int n) {
  int w = 0;
  while ((1 << w) < n) ++w;
  return w;
}

// Bit-field access to Verilator pins: pins up to 64 bits are integers, wider ones are VlWide
// arrays of 32-bit words. Fields here are at most 16 bits wide.
template <class T>
void put(T& pin, unsigned lsb, unsigned width, uint64_t v) {
  static_assert(std::is_integral_v<T>);
  const uint64_t mask = ((uint64_t{1} << width) - 1) << lsb;
  pin = static_cast<T>((static_cast<uint64_t>(pin) & ~mask) | ((v << lsb) & mask));
}
template <std::size_t W>
void put(VlWide<W>& pin, unsigned lsb, unsigned width, uint64_t v) {
  for (unsigned b = 0; b < width;) {
    const unsigned word = (lsb + b) / 32, off = (lsb + b) % 32;
    const unsigned n = std::min(width - b, 32 - off);
    const uint32_t mask = (n == 32 ? ~0u : ((1u << n) - 1)) << off;
    pin.at(word) = (pin.at(word) & ~mask) | ((static_cast<uint32_t>(v >> b) << off) & mask);
    b += n;
  }
}
template <class T>
uint64_t get(const T& pin, unsigned lsb, unsigned width) {
  static_assert(std::is_integral_v<T>);
  return (static_cast<uint64_t>(pin) >> lsb) & ((uint64_t{1} << width) - 1);
}
template <std::size_t W>
uint64_t get(const VlWide<W>& pin, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  for (unsigned b = 0; b < width; ++b)
    v |= static_cast<uint64_t>((pin.at((lsb + b) / 32) >> ((lsb + b) % 32)) & 1u) << b;
  return v;
}
template <class T>
void clear(T& pin) {
  if constexpr (std::is_integral_v<T>)
    pin = 0;
  else
    std::memset(pin.data(), 0, sizeof(pin));
}
template <class T>
void fill_ones(T& pin, unsigned count) {
  for (unsigned k = 0; k < count; ++k) put(pin, k, 1, 1);
}

}  // namespace

// One Verilated configuration. Widths must match the -G overrides in rtl/CMakeLists.txt.
struct VerilatedArbiter::Core {
  virtual ~Core() = default;
  virtual int ports() const = 0;
  virtual int vls() const = 0;
  virtual void apply(const std::vector<ArbRequest>& req, const std::vector<ArbOutputStatus>& out) = 0;
  virtual void read(std::vector<int>& grants) = 0;
  virtual void rise() = 0;
  virtual void attach(VerilatedVcdC& vcd) = 0;
};

namespace {

template <class V, int P, int NV>
class CoreOf final : public VerilatedArbiter::Core {
 public:
  static constexpr unsigned kPortW = clog2(P) ? clog2(P) : 1;
  static constexpr unsigned kVlW = clog2(NV) ? clog2(NV) : 1;
  static constexpr unsigned kCreditW = 16;
  static constexpr unsigned kPrioW = 3;

  explicit CoreOf(int used_ports) : used_(used_ports) {
    ctx_.timeunit(-12);
    ctx_.timeprecision(-12);
    ctx_.traceEverOn(true);    // before the model exists, so it registers its trace hooks
    ctx_.fatalOnError(false);  // an RTL assertion becomes an exception, not an abort
    top_ = std::make_unique<V>(&ctx_, "TOP");
    // Synchronous reset: one edge with rst_n low, then idle low clock.
    top_->rst_n = 0;
    top_->clk = 0;
    top_->eval();
    top_->clk = 1;
    top_->eval();
    top_->rst_n = 1;
  }
  ~CoreOf() override { top_->final(); }
  int ports() const override { return P; }
  int vls() const override { return NV; }

  void apply(const std::vector<ArbRequest>& req, const std::vector<ArbOutputStatus>& out) override {
    V& t = *top_;
    clear(t.req_valid);
    clear(t.req_cand);
    clear(t.req_prio);
    clear(t.req_vl);
    clear(t.req_len);
    clear(t.out_credits);
    clear(t.out_busy);
    fill_ones(t.out_busy, P);  // unused outputs are tied busy
    const unsigned top_level = VerilatedArbiter::kPriorityLevels - 1;
    for (int i = 0; i < used_; ++i) {
      const ArbRequest& r = req[static_cast<size_t>(i)];
      if (!r.valid) continue;
      put(t.req_valid, i, 1, 1);
      put(t.req_vl, i * kVlW, kVlW, r.vl);
      put(t.req_len, i * kCreditW, kCreditW, r.length_credits);
      uint64_t seen = 0;
      for (const ArbCandidate& c : r.candidates) {
        const unsigned o = c.port;
        const unsigned level = std::min<unsigned>(c.priority, top_level);
        const unsigned lsb = (i * P + o) * kPrioW;
        // A port listed twice keeps its lower level, as in AdaptiveArbiter.
        if (((seen >> o) & 1u) && level >= get(t.req_prio, lsb, kPrioW)) continue;
        seen |= uint64_t{1} << o;
        put(t.req_cand, i * P + o, 1, 1);
        put(t.req_prio, lsb, kPrioW, level);
      }
    }
    for (int o = 0; o < used_; ++o) {
      const ArbOutputStatus& s = out[static_cast<size_t>(o)];
      put(t.out_busy, o, 1, s.busy ? 1 : 0);
      const int nv = std::min<int>(NV, static_cast<int>(s.credits.size()));
      for (int v = 0; v < nv; ++v) put(t.out_credits, (o * NV + v) * kCreditW, kCreditW, s.credits[v]);
    }
    t.clk = 0;
    t.eval();
    check();
  }

  void read(std::vector<int>& grants) override {
    for (int i = 0; i < used_; ++i)
      grants[static_cast<size_t>(i)] =
          get(top_->grant_valid, i, 1) ? static_cast<int>(get(top_->grant_port, i * kPortW, kPortW)) : -1;
  }

  void rise() override {
    top_->clk = 1;
    top_->eval();
    check();
  }

  void attach(VerilatedVcdC& vcd) override { top_->trace(&vcd, 99); }

 private:
  void check() {
    if (ctx_.gotError()) throw std::logic_error("VerilatedArbiter: RTL assertion failed (see the %Error line above)");
  }

  int used_;
  VerilatedContext ctx_;
  std::unique_ptr<V> top_;
};

// The configurations compiled in (rtl/CMakeLists.txt): 16 and 64 ports, 16 VLs each.
constexpr int kCfgPorts = 64;
constexpr int kCfgVls = 16;

std::unique_ptr<VerilatedArbiter::Core> make_core(int num_ports, bool broken) {
  if (num_ports <= 16) {
    if (broken) return std::make_unique<CoreOf<Varb_p16_v16_broken, 16, 16>>(num_ports);
    return std::make_unique<CoreOf<Varb_p16_v16, 16, 16>>(num_ports);
  }
  if (broken) return std::make_unique<CoreOf<Varb_p64_v16_broken, 64, 16>>(num_ports);
  return std::make_unique<CoreOf<Varb_p64_v16, 64, 16>>(num_ports);
}

}  // namespace

VerilatedArbiter::VerilatedArbiter(int num_ports, int num_vls, Variant variant)
    : num_ports_(num_ports), num_vls_(num_vls) {
  if (num_ports < 1 || num_ports > kCfgPorts || num_vls < 1 || num_vls > kCfgVls)
    throw std::invalid_argument("VerilatedArbiter: no Verilated configuration for " + std::to_string(num_ports) +
                                " ports and " + std::to_string(num_vls) + " VLs (largest: " +
                                std::to_string(kCfgPorts) + " ports, " + std::to_string(kCfgVls) + " VLs)");
  broken_ = variant != Variant::kCorrect;
  core_ = make_core(num_ports, broken_);
}

VerilatedArbiter::~VerilatedArbiter() { close_trace(); }

const char* VerilatedArbiter::kind() const { return broken_ ? "rtl-broken" : "rtl"; }
int VerilatedArbiter::rtl_ports() const { return core_->ports(); }
int VerilatedArbiter::rtl_vls() const { return core_->vls(); }
int VerilatedArbiter::max_ports() { return kCfgPorts; }
int VerilatedArbiter::max_vls() { return kCfgVls; }

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
  core_->apply(requests, outputs);
  core_->read(grants);
  const bool dumping = trace_open_ && trace_enabled_ && t >= window_begin_ && t < window_end_;
  if (dumping) dump(t);
  core_->rise();
  if (dumping) dump(t + std::max<uint64_t>(period_ps_ / 2, 1));
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
  if (!trace_open_) {
    throw std::runtime_error("VerilatedArbiter: cannot open trace file '" + vcd_path + "'");
  }
  dumped_ = false;
}

void VerilatedArbiter::close_trace() {
  // The writer object stays: the Verilated model keeps a pointer to it.
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

}  // namespace ibsc::models
