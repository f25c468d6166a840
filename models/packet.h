// Packet: the IBA local route header fields the fabric acts on, plus simulator bookkeeping.
// Packets live in a PacketPool and move between modules by pointer; nothing copies them.
#pragma once
#include <cstdint>
#include <vector>

#include "models/sim_time.h"
#include "routing/types.h"

namespace ibsc::models {

constexpr uint32_t kCreditBytes = 64;  // IBA flow-control block

// What a packet carries: host data, or the reliable transport's ACK / NACK (seq names the
// packet acknowledged or rejected; models/reliable_transport.h).
enum class PacketKind : uint8_t { Data, Ack, Nack };

// One cache line each: a packet is read at every hop, and one straddling two lines costs two misses.
struct alignas(64) Packet {
  // Local route header.
  Lid slid = 0;
  Lid dlid = 0;
  Sl sl = 0;
  Vl vl = 0;            // VL on the link the packet is crossing now
  uint32_t length = 0;  // bytes on the wire
  // Bookkeeping.
  uint64_t id = 0;
  uint32_t src_host = 0;
  uint32_t dst_host = 0;
  uint32_t flow = 0;      // src_host x hosts + dst_host: one flow per ordered pair of hosts
  uint64_t seq = 0;       // per flow, from 0
  Picos gen_time = 0;     // generation at the source HCA
  bool measured = false;  // generated inside the measurement window
  uint16_t hops = 0;      // switches crossed
  PacketKind kind = PacketKind::Data;
  bool ack_req = false;  // the last packet of a message: IBA's AckReq (ACK coalescing, reliable_transport.h)
  uint8_t cc = 0;        // congestion control bits: FECN, CNP (models/congestion_control.h)

  uint32_t blocks() const { return (length + kCreditBytes - 1) / kCreditBytes; }
};

static_assert(sizeof(Packet) == 64, "one packet, one cache line");

// Free-list allocator: one allocation per packet slot for the whole run.
class PacketPool {
 public:
  Packet* get() {
    if (free_.empty()) {
      store_.emplace_back(new Packet[kChunk]);
      for (size_t i = 0; i < kChunk; ++i) free_.push_back(&store_.back()[kChunk - 1 - i]);
    }
    Packet* p = free_.back();
    free_.pop_back();
    *p = Packet{};
    return p;
  }
  void put(Packet* p) { free_.push_back(p); }
  ~PacketPool() {
    for (Packet* c : store_) delete[] c;
  }

 private:
  static constexpr size_t kChunk = 4096;
  std::vector<Packet*> store_;
  std::vector<Packet*> free_;
};

}  // namespace ibsc::models
