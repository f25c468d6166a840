#include "routing/lft.h"

#include <algorithm>

namespace ibsc::routing {

void Lft::set(size_t dlid, const PortCandidate* b, const PortCandidate* e) {
  const size_t n = static_cast<size_t>(e - b);
  if (n > 0xFF) throw std::invalid_argument("LFT entry with over 255 candidates");
  if (n <= 1) {
    slot_[dlid] = n ? Slot{*b, 1} : Slot{};
    return;
  }
  if (more_at_.empty()) more_at_.assign(slot_.size(), 0);
  Slot& s = slot_[dlid];
  // In place when the old candidates leave room and nothing shares them; else at the end
  // (entries are written once or twice while a routing is built, so the unused room stays small).
  if (s.count < n || shared_) {
    more_at_[dlid] = static_cast<uint32_t>(more_.size());
    more_.resize(more_.size() + n);
  }
  std::copy(b, e, more_.begin() + more_at_[dlid]);
  s = {*b, static_cast<uint8_t>(n)};
}

void Lft::add(size_t dlid, PortCandidate c) {
  const LftEntry old = (*this)[dlid];
  std::vector<PortCandidate> all(old.candidates.begin(), old.candidates.end());
  all.push_back(c);
  set(dlid, all);
}

}  // namespace ibsc::routing
