// ArbiterPins: the pins of rtl/switch_arbiter.sv as one struct, for one Verilated configuration
// (NUM_PORTS = Ports). Each field is one RTL port, a packed vector stored as 32-bit words, least
// significant word first: the layout Verilator gives a port in its plain C++ model, so driving
// the model copies words and nothing is reinterpreted. Widths come from the generated header
// rtl/arbiter_config.h, made from the same CMake values as the -G parameters of the Verilated
// models (rtl/CMakeLists.txt), so the two sides cannot disagree.
//
//   pack()   ArbRequest/ArbOutputStatus vectors of a switch with `used` ports -> input pins;
//            ports used..Ports-1 are tied off: no request, output busy, no credits.
//   unpack() grant pins -> per input the granted output or -1.
//   trace()  registers the used ports' pins, one signal per port and field, in a SystemC trace
//            file; sync_trace() copies the pins into them (the caller decides when: the
//            adapter does so after each arbitration inside its trace window).
// Element k of a per-port field sits at bits [k*W +: W], as the RTL's header comment lists.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "models/switch_arbiter.h"
#include "rtl/arbiter_config.h"

namespace ibsc::models {

// The RTL's localparam rule for an index width: $clog2(n), at least 1.
constexpr unsigned rtl_index_width(unsigned n) {
  unsigned w = 0;
  while ((1u << w) < n) ++w;
  return w ? w : 1;
}

// A packed vector of Bits bits in 32-bit words.
template <unsigned Bits>
struct PinVector {
  static constexpr unsigned kBits = Bits;
  static constexpr unsigned kWords = (Bits + 31) / 32;
  std::array<uint32_t, kWords> words{};

  void clear() { words.fill(0); }
  // Field of `width` <= 32 bits at `lsb`; v is cut to the width.
  void put(unsigned lsb, unsigned width, uint32_t v) {
    const unsigned w = lsb / 32, off = lsb % 32;
    const uint64_t mask = ((uint64_t{1} << width) - 1) << off;
    const uint64_t cur = words[w] | (w + 1 < kWords ? uint64_t{words[w + 1]} << 32 : 0);
    const uint64_t next = (cur & ~mask) | ((uint64_t{v} << off) & mask);
    words[w] = static_cast<uint32_t>(next);
    if (off + width > 32) words[w + 1] = static_cast<uint32_t>(next >> 32);
  }
  uint32_t get(unsigned lsb, unsigned width) const {
    const unsigned w = lsb / 32, off = lsb % 32;
    const uint64_t cur = words[w] | (w + 1 < kWords ? uint64_t{words[w + 1]} << 32 : 0);
    return static_cast<uint32_t>((cur >> off) & ((uint64_t{1} << width) - 1));
  }
  void set_bit(unsigned k) { words[k / 32] |= 1u << (k % 32); }
  bool bit(unsigned k) const { return (words[k / 32] >> (k % 32)) & 1u; }
};

template <unsigned Ports>
struct ArbiterPins {
  static constexpr unsigned kPorts = Ports;
  static constexpr unsigned kVls = rtl::kArbNumVls;
  static constexpr unsigned kCreditW = rtl::kArbCreditW;
  static constexpr unsigned kPrioW = rtl::kArbPrioW;
  static constexpr unsigned kPortW = rtl_index_width(Ports);
  static constexpr unsigned kVlW = rtl_index_width(kVls);
  static constexpr unsigned kLevels = 1u << kPrioW;
  static_assert(Ports >= 1 && Ports <= 64, "candidate sets are handled as 64-bit masks");
  static_assert(kCreditW <= 16, "ArbRequest and ArbOutputStatus carry 16-bit credits");
  static_assert(kPrioW <= 8, "ArbCandidate carries an 8-bit priority");

  // ---- Pins, named as the RTL ports ----
  bool clk = false;
  bool rst_n = false;
  PinVector<Ports> req_valid;
  PinVector<Ports * Ports> req_cand;
  PinVector<Ports * Ports * kPrioW> req_prio;
  PinVector<Ports * kVlW> req_vl;
  PinVector<Ports * kCreditW> req_len;
  PinVector<Ports> out_busy;
  PinVector<Ports * kVls * kCreditW> out_credits;
  PinVector<Ports> grant_valid;          // output of the RTL
  PinVector<Ports * kPortW> grant_port;  // output of the RTL

  // All request and status inputs at rest: nothing requests, every output busy with no credits.
  void clear_inputs() {
    req_valid.clear();
    req_cand.clear();
    req_prio.clear();
    req_vl.clear();
    req_len.clear();
    out_credits.clear();
    out_busy.clear();
    for (unsigned o = 0; o < Ports; ++o) out_busy.set_bit(o);
  }

  // Inputs of one arbitration; req and out hold `used` <= Ports entries (checked by the caller:
  // candidate ports < used, VL < kVls). Levels above the top one count as the top one, and a port
  // listed twice keeps its lower level, as in AdaptiveArbiter.
  void pack(const std::vector<ArbRequest>& req, const std::vector<ArbOutputStatus>& out, unsigned used) {
    req_valid.clear();
    req_cand.clear();
    req_prio.clear();
    req_vl.clear();
    req_len.clear();
    for (unsigned i = 0; i < used; ++i) {
      const ArbRequest& r = req[i];
      if (!r.valid) continue;
      req_valid.set_bit(i);
      req_vl.put(i * kVlW, kVlW, r.vl);
      req_len.put(i * kCreditW, kCreditW, r.length_credits);
      uint64_t seen = 0;
      for (const ArbCandidate& c : r.candidates) {
        const unsigned o = c.port;
        const unsigned level = std::min<unsigned>(c.priority, kLevels - 1);
        const unsigned lsb = (i * Ports + o) * kPrioW;
        if (((seen >> o) & 1u) && level >= req_prio.get(lsb, kPrioW)) continue;
        seen |= uint64_t{1} << o;
        req_cand.set_bit(i * Ports + o);
        req_prio.put(lsb, kPrioW, level);
      }
    }
    out_busy.clear();
    out_credits.clear();
    for (unsigned o = used; o < Ports; ++o) out_busy.set_bit(o);  // tied off
    for (unsigned o = 0; o < used; ++o) {
      const ArbOutputStatus& s = out[o];
      if (s.busy) out_busy.set_bit(o);
      const unsigned nv = std::min<unsigned>(kVls, static_cast<unsigned>(s.credits.size()));
      const unsigned base = o * kVls * kCreditW;
      for (unsigned v = 0; v < nv; ++v) out_credits.put(base + v * kCreditW, kCreditW, s.credits[v]);
    }
  }

  // grants[i] for i < used: the output granted to input i, or -1.
  void unpack(std::vector<int>& grants, unsigned used) const {
    for (unsigned i = 0; i < used; ++i)
      grants[i] = grant_valid.bit(i) ? static_cast<int>(grant_port.get(i * kPortW, kPortW)) : -1;
  }

  // ---- Tracing into a SystemC VCD ----
  // Signals <scope>.in<i>.{valid,cand,vl,len,grant_valid,grant_port} and
  // <scope>.out<o>.{busy,vl<v>.credits} for i, o < used and v < vls; call once, before the
  // simulation starts (SystemC traces are fixed then).
  void trace(sc_core::sc_trace_file* tf, const std::string& scope, unsigned used, unsigned vls) {
    used = std::min(used, Ports);
    vls = std::min(vls, kVls);
    view_ = std::make_unique<TraceView>();
    view_->used = used;
    view_->vls = vls;
    view_->in.resize(used);
    view_->out.resize(used);
    view_->credits.resize(static_cast<size_t>(used) * vls);
    for (unsigned i = 0; i < used; ++i) {
      const std::string n = scope + ".in" + std::to_string(i) + ".";
      InView& v = view_->in[i];
      sc_core::sc_trace(tf, v.valid, n + "valid", 1);
      sc_core::sc_trace(tf, v.cand, n + "cand", static_cast<int>(used));
      sc_core::sc_trace(tf, v.vl, n + "vl", static_cast<int>(kVlW));
      sc_core::sc_trace(tf, v.len, n + "len", static_cast<int>(kCreditW));
      sc_core::sc_trace(tf, v.grant_valid, n + "grant_valid", 1);
      sc_core::sc_trace(tf, v.grant_port, n + "grant_port", static_cast<int>(kPortW));
    }
    for (unsigned o = 0; o < used; ++o) {
      const std::string n = scope + ".out" + std::to_string(o) + ".";
      sc_core::sc_trace(tf, view_->out[o], n + "busy", 1);
      for (unsigned v = 0; v < vls; ++v)
        sc_core::sc_trace(tf, view_->credits[o * vls + v], n + "vl" + std::to_string(v) + ".credits",
                          static_cast<int>(kCreditW));
    }
  }
  bool traced() const { return view_ != nullptr; }
  // Copies the pins into the traced values (after unpack()).
  void sync_trace() {
    if (!view_) return;
    TraceView& t = *view_;
    for (unsigned i = 0; i < t.used; ++i) {
      InView& v = t.in[i];
      v.valid = req_valid.bit(i);
      v.cand = 0;
      for (unsigned o = 0; o < t.used; ++o) v.cand |= static_cast<uint64_t>(req_cand.bit(i * Ports + o)) << o;
      v.vl = req_vl.get(i * kVlW, kVlW);
      v.len = req_len.get(i * kCreditW, kCreditW);
      v.grant_valid = grant_valid.bit(i);
      v.grant_port = grant_port.get(i * kPortW, kPortW);
    }
    for (unsigned o = 0; o < t.used; ++o) {
      t.out[o] = out_busy.bit(o);
      for (unsigned v = 0; v < t.vls; ++v)
        t.credits[o * t.vls + v] = out_credits.get((o * kVls + v) * kCreditW, kCreditW);
    }
  }

 private:
  struct InView {
    uint64_t valid = 0, cand = 0, vl = 0, len = 0, grant_valid = 0, grant_port = 0;
  };
  struct TraceView {
    unsigned used = 0, vls = 0;
    std::vector<InView> in;
    std::vector<uint64_t> out;      // busy
    std::vector<uint64_t> credits;  // [o * vls + v]
  };
  std::unique_ptr<TraceView> view_;  // only when traced: the values sc_trace reads
};

}  // namespace ibsc::models
