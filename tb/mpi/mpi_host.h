// MPI-like host: a TLM-2.0 initiator that drives its HCA's target socket (models/hca_tlm_target.h)
// with the messages of a workload (tb/mpi/mpi_workload.h) and keeps what an MPI rank would.
//   socket   tlm_utils::simple_initiator_socket, bound to the HCA's target socket.
//   style    lt: each send is a b_transport that returns when the message is complete (a
//            blocking send); at: sends are nb_transport BEGIN_REQ, many outstanding, each ended
//            by the target's BEGIN_RESP at completion (non-blocking sends, wait_sends to finish).
//            Complete: delivered, or ACKed with the reliable transport in mode reorder.
//   Receives: writes land in this host's memory; wait_from() waits until a number of messages
//            from a peer have been completely delivered (the message layer's arrival count and
//            event: the completion queue a real HCA would signal).
// One SC_THREAD runs the workload body; finished() and end_ps() tell when it ended.
#pragma once
#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include <cstdint>
#include <functional>
#include <list>
#include <string>
#include <vector>

#include "models/hca_messages.h"

namespace ibsc::tb {

// One message a host posted: what the trace of a run is made of (time ns, src, dst, bytes).
struct TraceRecord {
  double time_ns = 0;
  int src = 0, dst = 0;
  uint32_t bytes = 0;
};

class MpiHost : public sc_core::sc_module {
 public:
  enum class Style { Lt, At };
  tlm_utils::simple_initiator_socket<MpiHost> socket;

  SC_HAS_PROCESS(MpiHost);
  MpiHost(sc_core::sc_module_name name, int rank, int ranks, Style style, models::MessageLayer& layer,
          std::function<void(MpiHost&)> body, std::vector<TraceRecord>* trace = nullptr);

  // The workload's primitives (call from the body only).
  void send(int dst, uint64_t addr, const std::vector<uint8_t>& data);
  void wait_sends();                                         // every send of this host complete
  void wait_from(int src, uint64_t count);                   // `count` messages from src delivered here in all
  std::vector<uint8_t> read(uint64_t addr, uint32_t bytes);  // own memory, through the socket
  void wait_until_ns(double t_ns);

  int rank() const { return rank_; }
  int ranks() const { return ranks_; }
  bool finished() const { return finished_; }
  models::Picos end_ps() const { return end_ps_; }
  uint64_t bytes_sent() const { return bytes_sent_; }
  // Problems found by the body's checks (data integrity); empty when all held.
  std::vector<std::string> errors;

 private:
  struct Pending {
    tlm::tlm_generic_payload gp;
    std::vector<uint8_t> data;
  };
  void main();
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay);
  void check_ok(const tlm::tlm_generic_payload& gp, const char* what);

  int rank_, ranks_;
  Style style_;
  models::MessageLayer& layer_;
  std::function<void(MpiHost&)> body_;
  std::vector<TraceRecord>* trace_;
  std::list<Pending> pending_;  // AT sends not yet answered (list: stable addresses)
  sc_core::sc_event answered_;
  bool finished_ = false;
  models::Picos end_ps_ = 0;
  uint64_t bytes_sent_ = 0;
};

}  // namespace ibsc::tb
