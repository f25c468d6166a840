#include "tb/cosim/stimulus.h"

#include <algorithm>
#include <sstream>

namespace ibsc::tb {
namespace {

using models::ArbOutputStatus;
using models::ArbRequest;

ArbCycle blank(const StimulusShape& s, const std::string& label, uint16_t credits) {
  ArbCycle c;
  c.label = label;
  c.req.assign(static_cast<size_t>(s.ports), ArbRequest{});
  c.out.assign(static_cast<size_t>(s.ports), ArbOutputStatus{});
  for (auto& o : c.out) o.credits.assign(static_cast<size_t>(s.vls), credits);
  return c;
}

// Input i asks for every output at level 0.
void request_all(ArbCycle& c, int i, uint8_t vl, uint16_t len) {
  ArbRequest& r = c.req[static_cast<size_t>(i)];
  r.valid = true;
  r.vl = vl;
  r.length_credits = len;
  r.candidates.clear();
  for (size_t o = 0; o < c.out.size(); ++o) r.candidates.push_back({static_cast<uint8_t>(o), 0});
}

void request_one(ArbCycle& c, int i, int o, uint8_t level, uint8_t vl, uint16_t len) {
  ArbRequest& r = c.req[static_cast<size_t>(i)];
  r.valid = true;
  r.vl = vl;
  r.length_credits = len;
  r.candidates.push_back({static_cast<uint8_t>(o), level});
}

}  // namespace

std::vector<ArbCycle> directed_cycles(const StimulusShape& s) {
  std::vector<ArbCycle> v;
  const int n = s.ports;
  const uint8_t last_vl = static_cast<uint8_t>(s.vls - 1);

  ArbCycle c = blank(s, "all_credit_starved", 0);
  for (int i = 0; i < n; ++i) request_all(c, i, static_cast<uint8_t>(i % s.vls), 4);
  v.push_back(c);

  c = blank(s, "one_credit_short", 3);
  for (int i = 0; i < n; ++i) request_all(c, i, static_cast<uint8_t>(i % s.vls), 4);
  v.push_back(c);

  // One output has exactly the packet's credits on VL 0: exactly one grant, to the head input.
  c.label = "exactly_enough_on_one";
  for (int i = 0; i < n; ++i) c.req[static_cast<size_t>(i)].vl = 0;
  c.out[static_cast<size_t>(n - 1)].credits[0] = 4;
  v.push_back(c);

  c = blank(s, "all_busy", 1000);
  for (auto& o : c.out) o.busy = true;
  for (int i = 0; i < n; ++i) request_all(c, i, last_vl, 1);
  v.push_back(c);

  // Equal credits everywhere: winners follow the pointers only; run long enough to wrap them.
  c = blank(s, "equal_credit_ties", 8);
  for (int i = 0; i < n; ++i) request_all(c, i, 0, 2);
  for (int k = 0; k < n + 1; ++k) v.push_back(c);

  // Preferred level beats more credits (credits grow with the level); then each level alone.
  c = blank(s, "priority_beats_credits", 0);
  for (int l = 0; l < std::min(s.levels, n); ++l) {
    const int level = s.levels - 1 - l;
    request_one(c, 0, l, static_cast<uint8_t>(level), 0, 1);
    c.out[static_cast<size_t>(l)].credits[0] = static_cast<uint16_t>(10 + 10 * level);
  }
  v.push_back(c);
  for (int l = 0; l < s.levels; ++l) {
    c = blank(s, "single_level_" + std::to_string(l), 5);
    request_one(c, l % n, (l + 1) % n, static_cast<uint8_t>(l), 0, 5);
    v.push_back(c);
  }

  // Same level: the output with most credits on the request's VL wins.
  c = blank(s, "most_credits_wins", 0);
  for (int o = 0; o < n; ++o) {
    request_one(c, 0, o, 1, last_vl, 2);
    c.out[static_cast<size_t>(o)].credits[last_vl] = static_cast<uint16_t>(2 + (o * 7) % n);
  }
  v.push_back(c);

  // A permutation per VL: every input and output granted on every VL.
  for (int w = 0; w < s.vls; ++w) {
    c = blank(s, "every_port_vl_" + std::to_string(w), 0);
    for (int i = 0; i < n; ++i) {
      int o = (i + w) % n;
      request_one(c, i, o, 0, static_cast<uint8_t>(w), 3);
      c.out[static_cast<size_t>(o)].credits[static_cast<size_t>(w)] = 3;
    }
    v.push_back(c);
  }

  // Everyone wants output 0: one grant per cycle, rotating through the inputs.
  c = blank(s, "one_output_contended", 64);
  for (int i = 0; i < n; ++i) request_one(c, i, 0, 0, 0, 4);
  for (int k = 0; k < 2 * n; ++k) v.push_back(c);

  c = blank(s, "deterministic_single_candidate", 0);
  request_one(c, n - 1, 0, 0, last_vl, 64);
  c.out[0].credits[last_vl] = 64;
  v.push_back(c);

  // Maximum field values: 16-bit credits and lengths, unused priority codes.
  c = blank(s, "max_fields", 65535);
  request_one(c, 0, n - 1, 255, 0, 65535);
  if (n > 1) request_one(c, 1, n - 1, 7, 0, 65535);
  v.push_back(c);
  return v;
}

RandomStimulus::RandomStimulus(const StimulusShape& shape, uint64_t seed) : s_(shape), rng_(seed) {}

int RandomStimulus::uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
bool RandomStimulus::chance(double p) { return std::bernoulli_distribution(p)(rng_); }

void RandomStimulus::next(ArbCycle& c) {
  const int n = s_.ports;
  c.label = "random";
  c.req.resize(static_cast<size_t>(n));
  c.out.resize(static_cast<size_t>(n));
  // Per-cycle regimes, so light and heavy load, few and many credits all occur.
  static constexpr double kLoad[] = {0.1, 0.4, 0.8, 1.0};
  static constexpr double kBusy[] = {0.0, 0.2, 0.5, 0.9};
  const double load = kLoad[uniform(0, 3)];
  const double busy = kBusy[uniform(0, 3)];
  const int credit_regime = uniform(0, 3);
  bool any = false;
  for (int i = 0; i < n; ++i) {
    ArbRequest& r = c.req[static_cast<size_t>(i)];
    r.candidates.clear();
    r.valid = chance(load);
    r.vl = static_cast<uint8_t>(uniform(0, s_.vls - 1));
    r.length_credits = static_cast<uint16_t>(chance(0.9) ? uniform(1, 8) : uniform(1, 64));
    const int k = chance(0.1) ? n : uniform(1, std::min(n, 4));
    for (int j = 0; j < k; ++j) {
      uint8_t port = static_cast<uint8_t>(uniform(0, n - 1));
      uint8_t level = static_cast<uint8_t>(chance(0.02) ? uniform(8, 255) : uniform(0, s_.levels - 1));
      r.candidates.push_back({port, level});  // repeats allowed on purpose
    }
    any |= r.valid;
  }
  if (!any) c.req[static_cast<size_t>(uniform(0, n - 1))].valid = true;
  for (auto& o : c.out) {
    o.busy = chance(busy);
    o.credits.resize(static_cast<size_t>(s_.vls));
    for (auto& cr : o.credits) {
      switch (credit_regime) {
        case 0:
          cr = static_cast<uint16_t>(uniform(0, 9));
          break;  // near the lengths: misses, ties
        case 1:
          cr = static_cast<uint16_t>(uniform(0, 3) * 4);
          break;  // few values: many ties
        case 2:
          cr = static_cast<uint16_t>(uniform(0, 512));
          break;
        default:
          cr = static_cast<uint16_t>(chance(0.5) ? 65535 : uniform(0, 65535));
          break;
      }
    }
  }
}

std::string describe(const ArbCycle& c) {
  std::ostringstream os;
  os << "  case " << c.label << "\n";
  for (size_t i = 0; i < c.req.size(); ++i) {
    const auto& r = c.req[i];
    if (!r.valid) continue;
    os << "  in " << i << ": vl " << int(r.vl) << " len " << r.length_credits << " candidates";
    for (const auto& k : r.candidates) os << " " << int(k.port) << "/p" << int(k.priority);
    os << "\n";
  }
  for (size_t o = 0; o < c.out.size(); ++o) {
    os << "  out " << o << ": " << (c.out[o].busy ? "busy" : "free") << " credits";
    for (uint16_t cr : c.out[o].credits) os << " " << cr;
    os << "\n";
  }
  return os.str();
}

std::string describe_grants(const std::vector<int>& g) {
  std::ostringstream os;
  bool any = false;
  for (size_t i = 0; i < g.size(); ++i)
    if (g[i] >= 0) {
      os << (any ? " " : "") << i << "->" << g[i];
      any = true;
    }
  return any ? os.str() : "(none)";
}

}  // namespace ibsc::tb
