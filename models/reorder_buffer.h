// Rearrange (reorder) buffer of one connection at the destination NIC (seeds/003 section 3.2),
// and the memory it draws from. Plain C++, no SystemC: the transport calls it per arrival.
//   The expected packet (next sequence number) is delivered at once, with every stored packet
//   that follows it in sequence; one ACK covers the last. An out-of-order packet is stored if
//   its bytes fit. If not, stored packets with higher sequence numbers than the arrival are
//   evicted, highest first, until it fits; they are rejected (one NACK each) and the arrival is
//   stored. If even evicting all of them would not make room, nothing is evicted and the
//   arrival alone is rejected.
//   Memory: static (a fixed number of bytes per connection) or dynamic (a pool per NIC shared
//   by its connections, with a cap per connection). The packet being delivered in order sits
//   in the reception buffer and takes no rearrange memory.
// Counters: occupancy in bytes now and at its maximum, per connection and per NIC.
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "models/packet.h"
#include "models/transport_params.h"

namespace ibsc::models {

class ReorderMemory {
 public:
  ReorderMemory(ReorderMemoryKind kind, uint64_t connection_bytes, uint64_t pool_bytes)
      : kind_(kind), connection_bytes_(connection_bytes), pool_bytes_(pool_bytes) {}
  // Whether `add` bytes fit into a connection holding `held` bytes once `freed` of them (and of
  // the pool) are given back.
  bool fits(uint64_t held, uint64_t freed, uint64_t add) const {
    if (held - freed + add > connection_bytes_) return false;
    return kind_ == ReorderMemoryKind::Static || used_ - freed + add <= pool_bytes_;
  }
  void take(uint64_t n) {
    used_ += n;
    if (used_ > max_used_) max_used_ = used_;
  }
  void give(uint64_t n) { used_ -= n; }
  uint64_t used() const { return used_; }
  uint64_t max_used() const { return max_used_; }  // seeds/003's MMS for this NIC

 private:
  ReorderMemoryKind kind_;
  uint64_t connection_bytes_, pool_bytes_;
  uint64_t used_ = 0, max_used_ = 0;
};

class ReorderBuffer {
 public:
  struct Outcome {
    std::vector<Packet*> deliver;  // to the host, in sequence order
    bool ack = false;              // one ACK for ack_seq (the last delivered)
    uint64_t ack_seq = 0;
    std::vector<Packet*> rejected;  // evicted (highest first), or the arrival; one NACK each
    void clear() {
      deliver.clear();
      rejected.clear();
      ack = false;
    }
  };
  enum class Verdict { InOrder, Stored, Evicted, Rejected, Duplicate };

  // Takes `p` (data packet of this connection). A Duplicate (sequence number already delivered
  // or stored) leaves the buffer and `out` untouched and does not take the packet.
  Verdict arrive(Packet* p, ReorderMemory& mem, Outcome& out);

  uint64_t expected() const { return expected_; }
  uint64_t held_bytes() const { return held_; }
  uint64_t max_held_bytes() const { return max_held_; }  // seeds/003's MBS for this connection
  size_t stored() const { return stored_.size(); }       // packets; they stay pool slots (the pool frees them)

 private:
  uint64_t expected_ = 0;
  uint64_t held_ = 0, max_held_ = 0;
  std::map<uint64_t, Packet*> stored_;  // by sequence number
};

}  // namespace ibsc::models
