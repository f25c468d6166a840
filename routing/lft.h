// The linear forwarding table of a switch: DLID -> candidate output ports, as a subnet manager
// programs it (one candidate for deterministic routing, several with priorities for adaptive).
#pragma once
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "routing/span.h"
#include "routing/types.h"

namespace ibsc::routing {

// One candidate output port of an LFT entry. Deterministic routing has exactly one candidate.
// Lower priority value is preferred (0 = minimal hop, 1 = non-minimal, ...).
// `escape`: the candidate leads into the escape queue of the downstream VL buffer (Duato's
// escape channel, seeds/003 section 4.1), which a switch with escape queues keeps free for it;
// false: the adaptive queue (or, in a switch without escape queues, the only one). The same
// port may be listed twice, once per queue.
struct PortCandidate {
  PortNum port = kNoPort;
  uint8_t priority = 0;
  bool escape = false;
};

// One LFT entry as read: a view into its table, valid until the table is written again.
struct LftEntry {
  Span<PortCandidate> candidates;  // empty: DLID unreachable from this switch
  bool routed() const { return !candidates.empty(); }
  PortNum primary() const { return candidates.empty() ? kNoPort : candidates.front().port; }
};

// Linear forwarding table: index is the DLID. Stored flat, 4 bytes per DLID (its first
// candidate and the count), so that 2,048 switches x 18,000 LIDs take 150 MB instead of a heap
// block per entry; entries with several candidates (adaptive routing) keep them in one shared
// array besides.
class Lft {
 public:
  struct Slot {
    PortCandidate first;
    uint8_t count = 0;  // 0: unrouted; above 1: all candidates at more_[more_at_[dlid]]
  };
  static_assert(sizeof(Slot) == 4, "4 bytes per DLID");
  Lft() = default;
  size_t size() const { return slot_.size(); }
  // Every entry unrouted.
  void assign(size_t lids) {
    slot_.assign(lids, Slot{});
    more_at_.clear();
    more_.clear();
  }
  void resize(size_t lids) {
    slot_.resize(lids);
    if (!more_at_.empty()) more_at_.resize(lids, 0);
  }
  LftEntry operator[](size_t dlid) const {
    const Slot& s = slot_[dlid];
    const PortCandidate* b = s.count > 1 ? more_.data() + more_at_[dlid] : &s.first;
    return {{b, b + s.count}};
  }
  LftEntry at(size_t dlid) const {
    if (dlid >= slot_.size()) throw std::out_of_range("LFT has no entry " + std::to_string(dlid));
    return (*this)[dlid];
  }
  const Slot& slot(size_t dlid) const { return slot_[dlid]; }
  // The candidates of an entry with several (slot(dlid).count > 1).
  const PortCandidate* more(size_t dlid) const { return more_.data() + more_at_[dlid]; }
  // The storage, for a reader that keeps the table in place (models/switch_routes.cpp): slots
  // [DLID], the offsets [DLID] of entries with several candidates (null when none has) and the
  // candidates they point into.
  const Slot* slot_data() const { return slot_.data(); }
  const uint32_t* more_at_data() const { return more_at_.empty() ? nullptr : more_at_.data(); }
  const PortCandidate* more_data() const { return more_.data(); }
  // No entry has several candidates.
  bool single() const {
    if (more_.empty()) return true;
    for (const Slot& s : slot_)
      if (s.count > 1) return false;
    return true;
  }

  void set(size_t dlid, PortNum port, uint8_t priority = 0) { slot_[dlid] = {{port, priority}, 1}; }
  void clear(size_t dlid) { slot_[dlid] = Slot{}; }
  void set(size_t dlid, const PortCandidate* b, const PortCandidate* e);
  void set(size_t dlid, const std::vector<PortCandidate>& c) { set(dlid, c.data(), c.data() + c.size()); }
  void set(size_t dlid, std::initializer_list<PortCandidate> c) { set(dlid, c.begin(), c.end()); }
  void add(size_t dlid, PortCandidate c);  // one more candidate, after the others
  // Entry dlid reads the candidates of entry `from` without a copy (the hosts of one switch
  // have equal entries in most routings); from then on set() writes entries with several
  // candidates to fresh room, so a shared list is never overwritten.
  void share(size_t dlid, size_t from) {
    slot_[dlid] = slot_[from];
    if (slot_[from].count > 1) more_at_[dlid] = more_at_[from], shared_ = true;
  }

 private:
  std::vector<Slot> slot_;
  std::vector<uint32_t> more_at_;  // [DLID], sized on the first entry with several candidates
  std::vector<PortCandidate> more_;
  bool shared_ = false;  // some entries share candidates (share())
};

}  // namespace ibsc::routing
