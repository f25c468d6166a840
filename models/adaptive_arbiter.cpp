#include "models/adaptive_arbiter.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ibsc::models {

AdaptiveArbiter::AdaptiveArbiter(int num_ports, int num_vls, int priority_levels)
    : num_ports_(num_ports), num_vls_(num_vls), priority_levels_(priority_levels) {
  // 256: ArbCandidate::port is 8 bits. (The RTL configurations stop at 64.)
  if (num_ports < 1 || num_ports > 256) throw std::invalid_argument("AdaptiveArbiter: num_ports must be 1..256");
  if (num_vls < 1 || num_vls > 16) throw std::invalid_argument("AdaptiveArbiter: num_vls must be 1..16");
  if (priority_levels < 1 || priority_levels > 256)
    throw std::invalid_argument("AdaptiveArbiter: priority_levels must be 1..256");
  if (taken_.size() < static_cast<size_t>(num_ports)) taken_.resize(static_cast<size_t>(num_ports), 0);
}

void AdaptiveArbiter::new_call() {
  // Outputs taken in this call carry this call's stamp: nothing to clear per call.
  if (++stamp_ == 0) {
    std::fill(taken_.begin(), taken_.end(), 0);
    stamp_ = 1;
  }
  first_in_ = first_out_ = -1;
}

// Step 2 for input i's valid request r: its best output not taken yet, granted and taken.
// Checked: the candidate ports and the credit vector's length are not trusted (arbitrate()).
template <bool kChecked>
inline void AdaptiveArbiter::serve(int i, const ArbRequest& r, const std::vector<ArbOutputStatus>& outputs,
                                   std::vector<int>& grants) {
  const int top_level = priority_levels_ - 1;
  Best best;
  // Visiting candidates rather than all outputs: the rank from the output pointer gives the
  // same winner as the RTL's cyclic scan, and a port listed twice resolves to its lower level.
  for (const ArbCandidate& c : r.candidates) {
    const int o = c.port;
    if (kChecked && o >= num_ports_) throw std::invalid_argument("AdaptiveArbiter: candidate port out of range");
    const ArbOutputStatus& s = outputs[static_cast<size_t>(o)];
    if (s.busy || taken_[static_cast<size_t>(o)] == stamp_) continue;
    const int credits = !kChecked || r.vl < s.credits.size() ? s.credits[r.vl] : 0;
    if (credits < r.length_credits) continue;
    best.offer(o, std::min<int>(c.priority, top_level), credits, rank(o));
  }
  if (best.port < 0) return;
  taken_[static_cast<size_t>(best.port)] = stamp_;
  grants[static_cast<size_t>(i)] = best.port;
  if (first_in_ < 0) {
    first_in_ = i;
    first_out_ = best.port;
  }
}

void AdaptiveArbiter::arbitrate(const std::vector<ArbRequest>& requests, const std::vector<ArbOutputStatus>& outputs,
                                std::vector<int>& grants) {
  const int n = num_ports_;
  if (static_cast<int>(requests.size()) != n || static_cast<int>(outputs.size()) != n ||
      static_cast<int>(grants.size()) != n)
    throw std::invalid_argument("AdaptiveArbiter: expected " + std::to_string(n) + " requests, outputs and grants");
  std::fill(grants.begin(), grants.end(), -1);
  new_call();
  // Pointers wrap by comparison, not %: a division per input and candidate cost more than the
  // rest of the arbitration.
  for (int k = 0, i = in_ptr_; k < n; ++k, i = i + 1 == n ? 0 : i + 1) {
    const ArbRequest& r = requests[static_cast<size_t>(i)];
    if (!r.valid) continue;
    if (r.vl >= num_vls_) throw std::invalid_argument("AdaptiveArbiter: request VL out of range");
    serve<true>(i, r, outputs, grants);
  }
  if (first_in_ >= 0) granted(first_in_, first_out_);
}

void AdaptiveArbiter::arbitrate_inputs(const std::vector<ArbRequest>& requests,
                                       const std::vector<ArbOutputStatus>& outputs, std::vector<int>& grants,
                                       const int* inputs, int count) {
  new_call();
  // Service order from the input pointer: the first listed input at or after it, then on, cyclically.
  int j = 0;
  while (j < count && inputs[j] < in_ptr_) ++j;
  if (j == count) j = 0;
  for (int k = 0; k < count; ++k, j = j + 1 == count ? 0 : j + 1) {
    const int i = inputs[j];
    const ArbRequest& r = requests[static_cast<size_t>(i)];
    grants[static_cast<size_t>(i)] = -1;
    if (r.valid) serve<false>(i, r, outputs, grants);
  }
  if (first_in_ >= 0) granted(first_in_, first_out_);
}

int AdaptiveArbiter::arbitrate_one(int in, const ArbCandidate* c, const uint16_t* credits, int n, uint8_t vl,
                                   uint16_t length_credits) {
  // arbitrate() with input `in` the only request and its candidates' outputs the only free ones.
  if (in < 0 || in >= num_ports_) throw std::invalid_argument("AdaptiveArbiter: input out of range");
  if (vl >= num_vls_) throw std::invalid_argument("AdaptiveArbiter: request VL out of range");
  Best best;
  for (int k = 0; k < n; ++k) {
    if (c[k].port >= num_ports_) throw std::invalid_argument("AdaptiveArbiter: candidate port out of range");
    if (credits[k] < length_credits) continue;
    best.offer(c[k].port, std::min<int>(c[k].priority, priority_levels_ - 1), credits[k], rank(c[k].port));
  }
  if (best.port >= 0) granted(in, best.port);
  return best.port;
}

}  // namespace ibsc::models
