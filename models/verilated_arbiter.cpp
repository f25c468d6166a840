#include "models/verilated_arbiter.h"

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <type_traits>

#include <systemc>

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

namespace ibsc::models {
namespace {

constexpr int clog2(int n) {
  int w = 0;
  while ((1 << w) < n) ++w;
  return w;
}

// ---- The channel every model port is bound to ----
// Immediate semantics: write() stores the value at once and read() returns it; no update
// phase, no delta cycle. The value-changed event is never notified, so the model's SC_METHOD
// (statically sensitive to its inputs) is never triggered by the kernel; it is also disabled,
// so it does not run at initialization either. The model is evaluated only by arbitrate(),
// through eval().
template <class T>
class WireBase : public sc_core::sc_signal_inout_if<T> {
 public:
  const T& read() const override { return v_; }
  const T& get_data_ref() const override { return v_; }
  void write(const T& v) override { v_ = v; }
  bool event() const override { return false; }
  const sc_core::sc_event& value_changed_event() const override { return never_; }
  const sc_core::sc_event& default_event() const override { return never_; }
  T& value() { return v_; }  // in place, for the bit-field writers below

 protected:
  T v_{};
  sc_core::sc_event never_;
};
template <class T>
class Wire final : public WireBase<T> {};
template <>
class Wire<bool> final : public WireBase<bool> {
 public:
  const sc_core::sc_event& posedge_event() const override { return never_; }
  const sc_core::sc_event& negedge_event() const override { return never_; }
  bool posedge() const override { return false; }
  bool negedge() const override { return false; }
};

// The channel type for a port member of the model (sc_in<T>& or sc_out<T>&).
template <class Port>
struct WireOf;
template <class T>
struct WireOf<sc_core::sc_in<T>> {
  using type = Wire<T>;
};
template <class T>
struct WireOf<sc_core::sc_out<T>> {
  using type = Wire<T>;
};
template <class Port>
using WireFor = typename WireOf<std::remove_reference_t<Port>>::type;

// ---- eval() of a SystemC-output model ----
// Verilator 5 declares eval() private in SystemC models (the kernel is meant to call it through
// the model's SC_METHOD). Access checks do not apply to the names in an explicit instantiation
// ([temp.explicit]), so the instantiation of Grant below hands out &V::eval through the friend
// function eval_of(Tag), and arbitrate() calls it directly.
template <class Tag, typename Tag::Fn F>
struct Grant {
  friend typename Tag::Fn eval_of(Tag) { return F; }
};
#define IBSC_EVAL_ACCESS(V)             \
  struct EvalOf_##V {                   \
    using Fn = void (V::*)();           \
    friend Fn eval_of(EvalOf_##V);      \
  };                                    \
  template struct Grant<EvalOf_##V, &V::eval>;
IBSC_EVAL_ACCESS(Varb_p16_v16)
IBSC_EVAL_ACCESS(Varb_p16_v16_broken)
IBSC_EVAL_ACCESS(Varb_p64_v16)
IBSC_EVAL_ACCESS(Varb_p64_v16_broken)
#undef IBSC_EVAL_ACCESS

// Bit-field access to the port values: up to 64 bits they are integers, wider ones sc_bv of
// 32-bit words. Fields here are at most 16 bits wide.
template <class T>
void put(T& pin, unsigned lsb, unsigned width, uint64_t v) {
  static_assert(std::is_integral_v<T>);
  const uint64_t mask = ((uint64_t{1} << width) - 1) << lsb;
  pin = static_cast<T>((static_cast<uint64_t>(pin) & ~mask) | ((v << lsb) & mask));
}
template <int N>
void put(sc_dt::sc_bv<N>& pin, unsigned lsb, unsigned width, uint64_t v) {
  for (unsigned b = 0; b < width;) {
    const unsigned word = (lsb + b) / 32, off = (lsb + b) % 32;
    const unsigned n = std::min(width - b, 32 - off);
    const uint32_t mask = (n == 32 ? ~0u : ((1u << n) - 1)) << off;
    pin.set_word(static_cast<int>(word),
                 (pin.get_word(static_cast<int>(word)) & ~mask) | ((static_cast<uint32_t>(v >> b) << off) & mask));
    b += n;
  }
}
template <class T>
uint64_t get(const T& pin, unsigned lsb, unsigned width) {
  static_assert(std::is_integral_v<T>);
  return (static_cast<uint64_t>(pin) >> lsb) & ((uint64_t{1} << width) - 1);
}
template <int N>
uint64_t get(const sc_dt::sc_bv<N>& pin, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  for (unsigned b = 0; b < width; ++b)
    v |= static_cast<uint64_t>((pin.get_word(static_cast<int>((lsb + b) / 32)) >> ((lsb + b) % 32)) & 1u) << b;
  return v;
}
template <class T>
void clear(T& pin) {
  if constexpr (std::is_integral_v<T>) {
    pin = 0;
  } else {
    const int words = (pin.length() + 31) / 32;
    for (int w = 0; w < words; ++w) pin.set_word(w, 0);
  }
}
template <class T>
void fill_ones(T& pin, unsigned count) {
  for (unsigned k = 0; k < count; ++k) put(pin, k, 1, 1);
}

bool elaborated() { return sc_core::sc_get_curr_simcontext()->elaboration_done(); }

}  // namespace

// One Verilated model of one configuration. Widths must match the -G overrides in
// rtl/CMakeLists.txt.
struct VerilatedArbiter::Core {
  virtual ~Core() = default;
  virtual int ports() const = 0;
  virtual int vls() const = 0;
  virtual bool broken() const = 0;
  virtual const char* name() const = 0;  // SystemC instance name
  virtual void reset(int used_ports) = 0;
  virtual void apply(const std::vector<ArbRequest>& req, const std::vector<ArbOutputStatus>& out) = 0;
  virtual void read(std::vector<int>& grants) = 0;
  virtual void rise() = 0;
  virtual void attach(VerilatedVcdC& vcd) = 0;
  virtual void finish() = 0;  // Verilog final blocks, at the end of an arbiter's use
  bool in_use = false;
};

namespace {

template <class V, int P, int NV, bool Broken, class EvalTag>
class CoreOf final : public VerilatedArbiter::Core {
 public:
  static constexpr unsigned kPortW = clog2(P) ? clog2(P) : 1;
  static constexpr unsigned kVlW = clog2(NV) ? clog2(NV) : 1;
  static constexpr unsigned kCreditW = 16;
  static constexpr unsigned kPrioW = 3;

  // During elaboration only (a new sc_module). No evaluation here: the ports are bound only
  // once elaboration completes; reset() comes with the first arbitrate().
  CoreOf() {
    ctx_.timeunit(-12);
    ctx_.timeprecision(-12);
    ctx_.traceEverOn(true);    // before the model exists, so it registers its trace hooks
    ctx_.fatalOnError(false);  // an RTL assertion becomes an exception, not an abort
    Verilated::threadContextp(&ctx_);  // the SystemC model's constructor takes this context
    top_ = std::make_unique<V>(sc_core::sc_gen_unique_name("rtl_arbiter"));
    V& t = *top_;
    t.clk(clk_);
    t.rst_n(rst_n_);
    t.req_valid(req_valid_);
    t.req_cand(req_cand_);
    t.req_prio(req_prio_);
    t.req_vl(req_vl_);
    t.req_len(req_len_);
    t.out_busy(out_busy_);
    t.out_credits(out_credits_);
    t.grant_valid(grant_valid_);
    t.grant_port(grant_port_);
    // The model's own SC_METHOD (eval on any input change) must never run, not even at
    // initialization: arbitrate() evaluates.
    for (sc_core::sc_object* o : t.get_child_objects()) {
      sc_core::sc_process_handle h(o);
      if (h.valid()) h.disable();
    }
  }
  int ports() const override { return P; }
  int vls() const override { return NV; }
  bool broken() const override { return Broken; }
  const char* name() const override { return top_->name(); }

  // Synchronous reset as a fresh model gets it: inputs cleared, one edge with rst_n low, then
  // rst_n high with the clock left high (the next apply() lowers it).
  void reset(int used_ports) override {
    used_ = used_ports;
    clear(req_valid_.value());
    clear(req_cand_.value());
    clear(req_prio_.value());
    clear(req_vl_.value());
    clear(req_len_.value());
    clear(out_busy_.value());
    clear(out_credits_.value());
    rst_n_.value() = false;
    clk_.value() = false;
    eval();
    clk_.value() = true;
    eval();
    rst_n_.value() = true;
    ctx_.gotError(false);
    ctx_.gotFinish(false);
    ctx_.errorCount(0);
  }

  void apply(const std::vector<ArbRequest>& req, const std::vector<ArbOutputStatus>& out) override {
    auto& req_valid = req_valid_.value();
    auto& req_cand = req_cand_.value();
    auto& req_prio = req_prio_.value();
    auto& req_vl = req_vl_.value();
    auto& req_len = req_len_.value();
    auto& out_busy = out_busy_.value();
    auto& out_credits = out_credits_.value();
    clear(req_valid);
    clear(req_cand);
    clear(req_prio);
    clear(req_vl);
    clear(req_len);
    clear(out_credits);
    clear(out_busy);
    fill_ones(out_busy, P);  // unused outputs are tied busy
    const unsigned top_level = VerilatedArbiter::kPriorityLevels - 1;
    for (int i = 0; i < used_; ++i) {
      const ArbRequest& r = req[static_cast<size_t>(i)];
      if (!r.valid) continue;
      put(req_valid, i, 1, 1);
      put(req_vl, i * kVlW, kVlW, r.vl);
      put(req_len, i * kCreditW, kCreditW, r.length_credits);
      uint64_t seen = 0;
      for (const ArbCandidate& c : r.candidates) {
        const unsigned o = c.port;
        const unsigned level = std::min<unsigned>(c.priority, top_level);
        const unsigned lsb = (i * P + o) * kPrioW;
        // A port listed twice keeps its lower level, as in AdaptiveArbiter.
        if (((seen >> o) & 1u) && level >= get(req_prio, lsb, kPrioW)) continue;
        seen |= uint64_t{1} << o;
        put(req_cand, i * P + o, 1, 1);
        put(req_prio, lsb, kPrioW, level);
      }
    }
    for (int o = 0; o < used_; ++o) {
      const ArbOutputStatus& s = out[static_cast<size_t>(o)];
      put(out_busy, o, 1, s.busy ? 1 : 0);
      const int nv = std::min<int>(NV, static_cast<int>(s.credits.size()));
      for (int v = 0; v < nv; ++v) put(out_credits, (o * NV + v) * kCreditW, kCreditW, s.credits[v]);
    }
    clk_.value() = false;
    eval();
    check();
  }

  void read(std::vector<int>& grants) override {
    const auto& valid = grant_valid_.value();
    const auto& port = grant_port_.value();
    for (int i = 0; i < used_; ++i)
      grants[static_cast<size_t>(i)] =
          get(valid, i, 1) ? static_cast<int>(get(port, i * kPortW, kPortW)) : -1;
  }

  void rise() override {
    clk_.value() = true;
    eval();
    check();
  }

  void attach(VerilatedVcdC& vcd) override { top_->trace(&vcd, 99); }
  void finish() override { top_->final(); }

 private:
  void eval() {
    Verilated::threadContextp(&ctx_);  // where $error/$stop inside the RTL count
    ((*top_).*eval_of(EvalTag{}))();
  }
  void check() {
    if (ctx_.gotError()) throw std::logic_error("VerilatedArbiter: RTL assertion failed (see the %Error line above)");
  }

  int used_ = 0;
  VerilatedContext ctx_;
  WireFor<decltype(V::clk)> clk_;
  WireFor<decltype(V::rst_n)> rst_n_;
  WireFor<decltype(V::req_valid)> req_valid_;
  WireFor<decltype(V::req_cand)> req_cand_;
  WireFor<decltype(V::req_prio)> req_prio_;
  WireFor<decltype(V::req_vl)> req_vl_;
  WireFor<decltype(V::req_len)> req_len_;
  WireFor<decltype(V::out_busy)> out_busy_;
  WireFor<decltype(V::out_credits)> out_credits_;
  WireFor<decltype(V::grant_valid)> grant_valid_;
  WireFor<decltype(V::grant_port)> grant_port_;
  std::unique_ptr<V> top_;  // after the channels it is bound to
};

// The configurations compiled in (rtl/CMakeLists.txt): 16 and 64 ports, 16 VLs each.
constexpr int kCfgPorts = 64;
constexpr int kCfgVls = 16;

int config_ports(int num_ports) { return num_ports <= 16 ? 16 : 64; }

std::unique_ptr<VerilatedArbiter::Core> make_core(int cfg_ports, bool broken) {
  if (cfg_ports == 16) {
    if (broken) return std::make_unique<CoreOf<Varb_p16_v16_broken, 16, 16, true, EvalOf_Varb_p16_v16_broken>>();
    return std::make_unique<CoreOf<Varb_p16_v16, 16, 16, false, EvalOf_Varb_p16_v16>>();
  }
  if (broken) return std::make_unique<CoreOf<Varb_p64_v16_broken, 64, 16, true, EvalOf_Varb_p64_v16_broken>>();
  return std::make_unique<CoreOf<Varb_p64_v16, 64, 16, false, EvalOf_Varb_p64_v16>>();
}

// Every model of the process. Modules cannot be created after elaboration, and deleting one
// is not needed: a model outlives its arbiter and is reused. Never destroyed (no SystemC
// objects torn down during static destruction).
std::vector<std::unique_ptr<VerilatedArbiter::Core>>& pool() {
  static auto* cores = new std::vector<std::unique_ptr<VerilatedArbiter::Core>>;
  return *cores;
}

VerilatedArbiter::Core* find_free(int cfg_ports, bool broken) {
  for (auto& c : pool())
    if (!c->in_use && c->ports() == cfg_ports && c->broken() == broken) return c.get();
  return nullptr;
}

VerilatedArbiter::Core* acquire(int num_ports, bool broken) {
  const int cfg = config_ports(num_ports);
  VerilatedArbiter::Core* c = find_free(cfg, broken);
  if (!c) {
    if (elaborated())
      throw std::logic_error("VerilatedArbiter: SystemC elaboration is complete and no free " + std::to_string(cfg) +
                             "-port" + (broken ? " broken" : "") +
                             " model is left to reuse; create the arbiters before sc_start()");
    pool().push_back(make_core(cfg, broken));
    c = pool().back().get();
  }
  c->in_use = true;
  return c;
}

}  // namespace

// ---- VCD file: Verilator's writer, top scope renamed TOP ----
// A SystemC-output model names its top VCD scope after its SystemC instance (rtl_arbiter_3,
// driver.rtl_arbiter_0, ...). The header is held until $enddefinitions and that one scope is
// renamed TOP, as in every dump so far (waves/arbiter.gtkw names TOP.switch_arbiter.*); the
// value changes after it pass straight through.
struct VerilatedArbiter::VcdFile final : VerilatedVcdFile {
  explicit VcdFile(const std::string& instance) : from_(" module " + instance + " $end") {}
  bool open(const std::string& name) override {
    header_.clear();
    in_header_ = true;
    return VerilatedVcdFile::open(name);
  }
  void close() override {
    flush_header();
    VerilatedVcdFile::close();
  }
  ssize_t write(const char* bufp, ssize_t len) override {
    if (!in_header_) return VerilatedVcdFile::write(bufp, len);
    header_.append(bufp, static_cast<size_t>(len));
    if (header_.find("$enddefinitions") != std::string::npos) flush_header();
    return len;
  }

 private:
  void flush_header() {
    if (!in_header_) return;
    in_header_ = false;
    const size_t at = header_.find(from_);
    if (at != std::string::npos) header_.replace(at, from_.size(), " module TOP $end");
    const char* p = header_.data();
    ssize_t left = static_cast<ssize_t>(header_.size());
    while (left > 0) {
      const ssize_t n = VerilatedVcdFile::write(p, left);
      if (n <= 0) break;
      p += n;
      left -= n;
    }
    header_.clear();
  }

  std::string from_;
  std::string header_;
  bool in_header_ = false;
};

VerilatedArbiter::VerilatedArbiter(int num_ports, int num_vls, Variant variant)
    : num_ports_(num_ports), num_vls_(num_vls) {
  if (num_ports < 1 || num_ports > kCfgPorts || num_vls < 1 || num_vls > kCfgVls)
    throw std::invalid_argument("VerilatedArbiter: no Verilated configuration for " + std::to_string(num_ports) +
                                " ports and " + std::to_string(num_vls) + " VLs (largest: " +
                                std::to_string(kCfgPorts) + " ports, " + std::to_string(kCfgVls) + " VLs)");
  broken_ = variant != Variant::kCorrect;
  core_ = acquire(num_ports, broken_);
}

VerilatedArbiter::~VerilatedArbiter() {
  try {
    close_trace();
  } catch (const std::exception&) {  // a destructor does not throw; the file stays as it is
  }
  if (ready_) core_->finish();
  trace_.reset();  // before the model goes to its next arbiter
  core_->in_use = false;
}

const char* VerilatedArbiter::kind() const { return broken_ ? "rtl-broken" : "rtl"; }
int VerilatedArbiter::rtl_ports() const { return core_->ports(); }
int VerilatedArbiter::rtl_vls() const { return core_->vls(); }
int VerilatedArbiter::max_ports() { return kCfgPorts; }
int VerilatedArbiter::max_vls() { return kCfgVls; }

void VerilatedArbiter::prepare() {
  if (!elaborated()) {
    // Nobody has started the simulation: this process uses the arbiter on its own. Leave one
    // model of every configuration for arbiters created later in the process, then complete
    // elaboration (port binding) without advancing time.
    for (int cfg : {16, 64})
      for (bool broken : {false, true}) {
        bool have = false;
        for (auto& c : pool()) have |= c->ports() == cfg && c->broken() == broken;
        if (!have) pool().push_back(make_core(cfg, broken));
      }
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  }
  core_->reset(num_ports_);
  ready_ = true;
  if (trace_pending_) start_trace();
}

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
  if (!ready_) prepare();
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
  trace_path_ = vcd_path;
  if (elaborated()) {
    start_trace();
    return;
  }
  // Verilator attaches a writer to a SystemC model only after elaboration: create the file now
  // (so a bad path fails here, as before) and start it at the first edge.
  if (!std::ofstream(vcd_path).good())
    throw std::runtime_error("VerilatedArbiter: cannot open trace file '" + vcd_path + "'");
  trace_pending_ = true;
  trace_open_ = true;
}

void VerilatedArbiter::start_trace() {
  trace_pending_ = false;
  trace_open_ = false;
  vcd_file_ = std::make_unique<VcdFile>(core_->name());
  trace_ = std::make_unique<VerilatedVcdC>(vcd_file_.get());
  core_->attach(*trace_);
  trace_->open(trace_path_.c_str());
  trace_open_ = trace_->isOpen();
  if (!trace_open_) throw std::runtime_error("VerilatedArbiter: cannot open trace file '" + trace_path_ + "'");
  dumped_ = false;
}

void VerilatedArbiter::close_trace() {
  // Never reached an edge: the file still gets its header if the model can be attached now.
  if (trace_pending_) {
    trace_pending_ = false;
    trace_open_ = false;
    if (elaborated()) start_trace();
  }
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
