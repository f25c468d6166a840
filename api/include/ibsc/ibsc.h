// IBSC's public face: an InfiniBand fabric inside your own SystemC platform.
//
//   #include <ibsc/ibsc.h>
//   int sc_main(int, char**) {
//     auto fabric = ibsc::Fabric::from_file("fabric.yaml");   // or from_yaml(text)
//     cpu[h].socket.bind(fabric->hca_target(h));              // your initiators send through it
//     fabric->hca_initiator(h).bind(memory[h].socket);        // deliveries land in your memory
//     sc_core::sc_start();
//     fabric->check();                                        // every packet accounted for
//   }
//
// The fabric is built once per process (SystemC elaborates once): from a scenario file or
// YAML text with the keys of docs/scenario-keys.md (topology, routing, switch, link; traffic
// keys are read but the traffic is yours). Routing tables are computed and checked as `ibsc run`
// does; bad input throws ibsc::Error naming the file, line and key.
//
// Sending (hca_target, TLM-2.0 target socket, b_transport and nb_transport): a
// TLM_WRITE_COMMAND whose address is ibsc::address(dst_host, dst_addr) sends its bytes to
// host dst_host, to be written at dst_addr; b_transport returns at the send's completion,
// nb_transport answers BEGIN_RESP then. A TLM_READ_COMMAND (address: the host's own, host
// field 0 or the host) reads the host's receive buffer, where arrived messages also land.
// Errors set the response status (a bad host or range: TLM_ADDRESS_ERROR_RESPONSE).
// Receiving (hca_initiator, TLM-2.0 initiator socket, optional): each delivered message is
// written into the memory bound there at dst_addr, one generic-payload write of all its bytes
// at its delivery cycle (b_transport, or nb_transport with MessageOptions::at_writes; DMI where
// the memory grants it), then arrival_event(host) is notified. A write the memory refuses
// (TLM_ADDRESS_ERROR_RESPONSE and the like) is counted in Results::delivery_errors, described
// in delivery_error_log() and makes check() throw: never dropped silently.
// A user's own switch arbiter: ibsc/arbiter_registry.h.
#pragma once
#include <systemc>
#include <tlm>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "ibsc/arbiter_registry.h"
#include "ibsc/error.h"
#include "ibsc/version.h"

namespace ibsc {

// The address a sender puts in its write: destination host in bits 63..40, the address in that
// host's memory in bits 39..0.
constexpr unsigned kHostShift = 40;
constexpr uint64_t address(int host, uint64_t addr) { return (static_cast<uint64_t>(host) << kHostShift) | addr; }

// The HCA's socket type an initiator binds to (initiator.bind(fabric->hca_target(h))).
using TargetSocket = tlm::tlm_base_target_socket_b<32, tlm::tlm_fw_transport_if<>, tlm::tlm_bw_transport_if<>>;
// The HCA's socket that writes deliveries into a memory (fabric->hca_initiator(h).bind(mem.socket)).
using InitiatorSocket = tlm::tlm_initiator_socket<32, tlm::tlm_base_protocol_types, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;

// How host writes become packets.
struct MessageOptions {
  uint32_t mtu_bytes = 1024;        // payload per packet; MTU + header must fit a switch VL buffer
  uint32_t header_bytes = 0;        // wire bytes added per packet (IBA LRH+BTH+CRCs: 26)
  uint64_t memory_bytes = 1 << 20;  // each host's receive buffer, and the largest dst_addr + bytes
  bool at_writes = false;           // hca_initiator: nb_transport (approximately timed), else b_transport
};

// One switch's named counters for one (port, VL), summed since enable_counters() (times in ps).
// Output side: the port and VL packets leave on; input side: the port and VL they came in on.
struct PortVlCounters {
  uint64_t grant_packets = 0, grant_bytes = 0;
  uint64_t credit_stall_ps = 0;       // output free, whole packet's credits missing
  uint64_t output_busy_stall_ps = 0;  // credits there, output still sending another packet
  uint64_t head_wait_ps = 0;          // every wait of the input VL's heads
  uint64_t hol_blocked_ps = 0;        // waits while a packet behind the head wanted another port
  uint32_t max_occupancy_bytes = 0;
};

// What a run did, summed over the fabric.
struct Results {
  double now_ns = 0;                // simulated time
  uint64_t packets_injected = 0;    // by the HCAs into the fabric
  uint64_t packets_delivered = 0;   // to the destination HCAs
  uint64_t messages_posted = 0;     // writes accepted by the hca_target sockets
  uint64_t messages_completed = 0;  // of which completed at the sender
  uint64_t packets_checked = 0;     // payload checksums verified at the destinations
  uint64_t delivery_errors = 0;     // hca_initiator writes the platform's memory refused
};

class Fabric {
 public:
  // `overrides`: "key=value" as `ibsc run --set`. Throws ibsc::Error.
  static std::unique_ptr<Fabric> from_file(const std::string& path, const std::vector<std::string>& overrides = {},
                                           const MessageOptions& msg = {});
  static std::unique_ptr<Fabric> from_yaml(const std::string& yaml, const std::vector<std::string>& overrides = {},
                                           const MessageOptions& msg = {});
  ~Fabric();
  Fabric(const Fabric&) = delete;
  Fabric& operator=(const Fabric&) = delete;

  int num_hosts() const;
  int num_switches() const;
  std::string routing() const;  // the routing algorithm's name

  // TLM-2.0 socket of host h's HCA (0 <= h < num_hosts()), see above; a host that never sends
  // may leave it unbound.
  TargetSocket& hca_target(int host);
  InitiatorSocket& hca_initiator(int host);  // may be left unbound
  // Notified when a message to `host` has been delivered and written (if a memory is bound).
  sc_core::sc_event& arrival_event(int host);
  uint64_t arrivals(int host, int from) const;  // messages from `from` delivered (and written) so far

  // A switch's counters (off until enable_counters(), which must precede sc_start) and its
  // probes. Ports are numbered 1..switch_ports(s), VLs 0..num_vls-1.
  void enable_counters();
  int switch_ports(int sw) const;
  int num_vls() const;
  PortVlCounters counters(int sw, int port, int vl) const;
  // The head of (input port, VL) now: 0 none waiting, 1 credit stall, 2 output-busy stall,
  // 3 both, 4 waiting for arbitration.
  int head_stall(int sw, int port, int vl) const;
  std::string arbiter_kind(int sw) const;  // `model`, `rtl` or a registered arbiter's kind()

  Results results() const;
  std::vector<std::string> delivery_error_log() const;
  // Throws ibsc::Error unless every packet injected was delivered or is still in the fabric,
  // none was lost or duplicated (the fabric's conservation checks), and every hca_initiator
  // write succeeded.
  void check() const;

  struct Impl;

 private:
  explicit Fabric(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace ibsc
