// HCA memory face: a TLM-2.0 initiator socket through which the HCA writes each message it
// receives into the platform's memory, at the address the sender named (bits 39..0 of the
// sender's address), as an RDMA write's responder does.
//   socket   tlm_utils::simple_initiator_socket_optional (unbound: nothing is written, the
//            message stays in the message layer's receive buffer, and completion is at delivery).
//   Per delivered message, at its delivery cycle (the message layer's on_delivery hook), one
//   generic-payload TLM_WRITE_COMMAND of all its bytes, streaming width = length, no byte
//   enables:
//     Style::Lt  b_transport; the annotated delay the target returns is waited before the
//                completion (no temporal decoupling here: the fabric is cycle accurate, and each
//                delivery is a point where the platform may look; see docs/mpi-tlm.md);
//     Style::At  nb_transport_fw BEGIN_REQ; done at TLM_COMPLETED, or at BEGIN_RESP (returned
//                as TLM_UPDATED or sent on the backward path, answered TLM_COMPLETED), after the
//                annotated delay;
//     DMI        where the target grants a write pointer covering the range
//                (get_direct_mem_ptr, asked once and again after an invalidation), the bytes
//                are copied through it and the granted write latency is waited instead.
//   Writes go one at a time, in delivery order.
// Events: written_event(), notified at each message's completion (after its write, refused or
// not). A write the target refuses (TLM_ADDRESS_ERROR_RESPONSE, ...) is counted and described
// in errors(): never dropped silently.
#pragma once
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "models/hca_messages.h"

namespace ibsc::models {

class HcaTlmInitiator : public sc_core::sc_module {
 public:
  enum class Style { Lt, At };
  tlm_utils::simple_initiator_socket_optional<HcaTlmInitiator> socket;

  HcaTlmInitiator(sc_core::sc_module_name name, int host, int hosts, MessageLayer& layer, Style style = Style::Lt);

  sc_core::sc_event& written_event() { return written_; }
  // Messages from host `from` completed here (written, or delivered when the socket is unbound).
  uint64_t written(int from) const { return written_from_.at(from); }
  uint64_t writes() const { return writes_; }          // messages written through the socket
  uint64_t dmi_writes() const { return dmi_writes_; }  // of which through a DMI pointer
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  struct Delivery {
    int src;
    uint64_t addr;
    Picos at;
    std::vector<uint8_t> bytes;
  };
  void delivered(const Message& m);  // the layer's hook: queue it (must not wait)
  void run();                        // SC_THREAD: the writes, in order
  void write(Delivery& d);
  bool write_dmi(Delivery& d, sc_core::sc_time& latency);
  void transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void invalidate_direct_mem_ptr(sc_dt::uint64 start, sc_dt::uint64 end);

  int host_;
  MessageLayer& layer_;
  Style style_;
  std::deque<Delivery> queue_;
  sc_core::sc_event queued_, written_, responded_;
  std::vector<uint64_t> written_from_;
  uint64_t writes_ = 0, dmi_writes_ = 0;
  std::vector<std::string> errors_;
  tlm::tlm_dmi dmi_;
  bool dmi_valid_ = false, dmi_asked_ = false;
  bool response_ = false;  // At: BEGIN_RESP seen on the backward path
};

}  // namespace ibsc::models
