#include "tb/cosim/coverage.h"

#include <algorithm>
#include <sstream>

namespace ibsc::tb {
namespace {

constexpr int kTopLevel = 7;  // levels >= 8 count as 7, as in the arbiter

int credits_of(const models::ArbOutputStatus& o, uint8_t vl) { return vl < o.credits.size() ? o.credits[vl] : 0; }

}  // namespace

ArbCoverage::ArbCoverage(const StimulusShape& shape)
    : s_(shape),
      in_(static_cast<size_t>(shape.ports)),
      out_(static_cast<size_t>(shape.ports)),
      vl_(static_cast<size_t>(shape.vls)),
      level_(static_cast<size_t>(shape.levels)) {}

void ArbCoverage::sample(const ArbCycle& c, const std::vector<int>& grants) {
  ++cycles_;
  bool starved = false, short1 = false, busy_cand = false, tie = false, level_win = false, conflict = false;
  bool any_valid = false, all_granted = true;
  int granted = 0;
  for (size_t i = 0; i < c.req.size(); ++i) {
    const auto& r = c.req[i];
    if (!r.valid) continue;
    any_valid = true;
    int best_level = 1 << 30, best_credits = -1, ties = 0, max_credits = -1, usable = 0;
    for (const auto& k : r.candidates) {
      const auto& o = c.out[k.port];
      const int cr = credits_of(o, r.vl);
      if (o.busy) {
        busy_cand = true;
        continue;
      }
      if (cr < r.length_credits) {
        starved = true;
        short1 |= cr + 1 == r.length_credits;
        continue;
      }
      ++usable;
      max_credits = std::max(max_credits, cr);
      const int level = std::min<int>(k.priority, kTopLevel);
      if (level < best_level || (level == best_level && cr > best_credits)) {
        best_level = level;
        best_credits = cr;
        ties = 1;
      } else if (level == best_level && cr == best_credits) {
        ties += 1;
      }
    }
    tie |= ties >= 2;
    const int g = grants[i];
    if (g < 0) {
      all_granted = false;
      conflict |= usable > 0;  // it had a usable output, another input took it
      continue;
    }
    ++granted;
    ++in_[i];
    ++out_[static_cast<size_t>(g)];
    if (r.vl < vl_.size()) ++vl_[r.vl];
    int level = kTopLevel;
    for (const auto& k : r.candidates)
      if (k.port == g) level = std::min<int>(level, std::min<int>(k.priority, kTopLevel));
    if (level < static_cast<int>(level_.size())) ++level_[static_cast<size_t>(level)];
    level_win |= credits_of(c.out[static_cast<size_t>(g)], r.vl) < max_credits;
  }
  if (!any_valid) return;
  bool all_busy = std::all_of(c.out.begin(), c.out.end(), [](const auto& o) { return o.busy; });
  sit_.credit_starved += starved;
  sit_.one_credit_short += short1;
  sit_.busy_candidate += busy_cand;
  sit_.all_busy += all_busy;
  sit_.no_grant += granted == 0;
  sit_.equal_credit_tie += tie;
  sit_.level_beats_credits += level_win;
  sit_.output_conflict += conflict;
  sit_.multi_grant += granted >= 2;
  sit_.full_match += all_granted;
}

std::vector<std::string> ArbCoverage::missing() const {
  std::vector<std::string> m;
  auto vec = [&m](const std::vector<uint64_t>& v, const char* name) {
    for (size_t k = 0; k < v.size(); ++k)
      if (v[k] == 0) m.push_back(std::string(name) + "[" + std::to_string(k) + "]");
  };
  vec(in_, "input_granted");
  vec(out_, "output_granted");
  vec(vl_, "vl_granted");
  vec(level_, "level_granted");
  auto bin = [&m](uint64_t n, const char* name) {
    if (n == 0) m.push_back(name);
  };
  // Bins a shape cannot reach are left out: one port has no ties, conflicts or two grants;
  // one level has nothing to prefer.
  const bool multi = s_.ports >= 2;
  bin(sit_.credit_starved, "credit_starved");
  bin(sit_.one_credit_short, "one_credit_short");
  bin(sit_.busy_candidate, "busy_candidate");
  bin(sit_.all_busy, "all_busy");
  bin(sit_.no_grant, "no_grant");
  if (multi) {
    bin(sit_.equal_credit_tie, "equal_credit_tie");
    bin(sit_.output_conflict, "output_conflict");
    bin(sit_.multi_grant, "multi_grant");
    if (s_.levels >= 2) bin(sit_.level_beats_credits, "level_beats_credits");
  }
  bin(sit_.full_match, "full_match");
  return m;
}

int ArbCoverage::bins() const {
  const int situations = 6 + (s_.ports >= 2 ? 3 + (s_.levels >= 2 ? 1 : 0) : 0);
  return static_cast<int>(in_.size() + out_.size() + vl_.size() + level_.size()) + situations;
}
int ArbCoverage::bins_hit() const { return bins() - static_cast<int>(missing().size()); }

std::string ArbCoverage::report() const {
  std::ostringstream os;
  auto row = [&os](const char* name, const std::vector<uint64_t>& v) {
    os << "  " << name << ":";
    for (uint64_t n : v) os << " " << n;
    os << "\n";
  };
  // Nothing sampled (e.g. the first cycle already mismatched): no rows of zeros that read as a result.
  if (cycles_ == 0) return "coverage: none (no cycle sampled)\n";
  os << "coverage: " << bins_hit() << "/" << bins() << " bins over " << cycles_
     << (cycles_ == 1 ? " cycle\n" : " cycles\n");
  row("grants per input ", in_);
  row("grants per output", out_);
  row("grants per VL    ", vl_);
  row("grants per level ", level_);
  os << "  cycles with: credit_starved " << sit_.credit_starved << ", one_credit_short " << sit_.one_credit_short
     << ", busy_candidate " << sit_.busy_candidate << ", all_busy " << sit_.all_busy << ", no_grant " << sit_.no_grant
     << ",\n    equal_credit_tie " << sit_.equal_credit_tie << ", level_beats_credits " << sit_.level_beats_credits
     << ", output_conflict " << sit_.output_conflict << ", multi_grant " << sit_.multi_grant << ", full_match "
     << sit_.full_match << "\n";
  const auto m = missing();
  if (!m.empty()) {
    os << "  missing:";
    for (const auto& b : m) os << " " << b;
    os << "\n";
  }
  return os.str();
}

}  // namespace ibsc::tb
