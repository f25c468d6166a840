// HCA host face: a TLM-2.0 target socket through which a host (a SystemC virtual platform, or
// tb/mpi_host) hands the HCA messages to send.
//   socket   tlm_utils::simple_target_socket_optional, both interfaces registered:
//            b_transport      loosely timed: waits out the annotated delay, posts the message,
//                             returns at the message's completion (delay 0): when its last
//                             packet has been delivered, or, with the reliable transport in
//                             mode reorder, when the ACK covering it is back (hca_messages.h);
//            nb_transport_fw  approximately timed: BEGIN_REQ is accepted at once (TLM_UPDATED,
//                             END_REQ); the message is posted after the annotated delay; at the
//                             cycle of its completion (as above) the target sends BEGIN_RESP on
//                             the backward path; END_RESP (or TLM_COMPLETED returned) ends it;
//            transport_dbg    reads or writes this host's own memory, no time.
//   Generic payload:
//     TLM_WRITE_COMMAND  a message. Address: destination host in bits 63..40 (tlm_host_address),
//                        address in the destination's memory in bits 39..0; data pointer and
//                        length: the payload (copied when posted); streaming width >= length;
//                        no byte enables. The bytes land in the destination's memory.
//     TLM_READ_COMMAND   reads this host's memory (bits 39..0; the host field must be this host
//                        or 0), at once: how a host reads what others wrote to it.
//     Errors set the response status: a bad host or range TLM_ADDRESS_ERROR_RESPONSE, byte
//     enables TLM_BYTE_ENABLE_ERROR_RESPONSE, streaming TLM_BURST_ERROR_RESPONSE, other
//     commands TLM_COMMAND_ERROR_RESPONSE.
// Events: done_ (a message of this target completed). The target owns no timing: the message
// layer (models/hca_messages.h) and the HCA do.
#pragma once
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include <cstdint>

#include "models/hca_messages.h"

namespace ibsc::models {

constexpr unsigned kTlmHostShift = 40;  // address bits below: memory address; above: host
constexpr uint64_t tlm_host_address(int host, uint64_t addr) {
  return (static_cast<uint64_t>(host) << kTlmHostShift) | addr;
}

class HcaTlmTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket_optional<HcaTlmTarget> socket;  // a host that never sends may leave it unbound

  HcaTlmTarget(sc_core::sc_module_name name, int host, MessageLayer& layer);

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& gp);
  void peq_cb(tlm::tlm_generic_payload& gp, const tlm::tlm_phase& phase);
  // Checks gp; reads at once, or posts a write whose completion calls `done`. False: the
  // response status says why (and nothing was posted).
  bool start(tlm::tlm_generic_payload& gp, std::function<void(const Message&)> done);

  int host_;
  MessageLayer& layer_;
  sc_core::sc_event done_;
  tlm_utils::peq_with_cb_and_phase<HcaTlmTarget> peq_;
};

}  // namespace ibsc::models
