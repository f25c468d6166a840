// Parameters of the HCA's reliable transport (seeds/003): one connection per ordered host pair
// with sequence numbers, ACK/NACK packets, a rearrange (reorder) buffer at the destination and
// an injection control at the source. Off by default: the HCA then behaves as it always did.
#pragma once
#include <cstdint>
#include <string>

#include "routing/enum_names.h"

namespace ibsc::models {

// off: no transport (today's HCA). reorder: in-order delivery through the rearrange buffer,
// ACK/NACK and re-sends. ooo: delivered on arrival, no buffer, no ACK (seeds/003's Adap-OOO);
// out-of-order arrivals are still counted.
enum class TransportMode { Off, Reorder, OutOfOrder };
// Static: a fixed buffer per connection. Dynamic: a pool shared by all connections of a
// destination NIC, with a cap per connection.
enum class ReorderMemoryKind { Static, Dynamic };
// What the source does on a NACK. immediate: re-send at once (baseline). li (ADAP-LI): the
// connection turns limited (LI) and sends only as ACKs free packets, back to unlimited (UI)
// once every rejected packet is ACKed. lw (ADAP-LW, static memory only): in LI sends only what
// fits in the destination's buffer.
enum class InjectionPolicy { Immediate, LimitedInjection, LimitedWindow };

// The scenario's words (transport.mode, transport.memory, transport.injection).
inline constexpr EnumName<TransportMode> kTransportModeNames[] = {
    {TransportMode::Off, "off"},
    {TransportMode::Reorder, "reorder"},
    {TransportMode::OutOfOrder, "ooo"},
};
constexpr const auto& enum_names(TransportMode) { return kTransportModeNames; }
inline constexpr EnumName<ReorderMemoryKind> kReorderMemoryKindNames[] = {
    {ReorderMemoryKind::Static, "static"},
    {ReorderMemoryKind::Dynamic, "dynamic"},
};
constexpr const auto& enum_names(ReorderMemoryKind) { return kReorderMemoryKindNames; }
inline constexpr EnumName<InjectionPolicy> kInjectionPolicyNames[] = {
    {InjectionPolicy::Immediate, "immediate"},
    {InjectionPolicy::LimitedInjection, "li"},
    {InjectionPolicy::LimitedWindow, "lw"},
};
constexpr const auto& enum_names(InjectionPolicy) { return kInjectionPolicyNames; }

struct TransportParams {
  TransportMode mode = TransportMode::Off;                 // transport.mode: off | reorder | ooo
  InjectionPolicy injection = InjectionPolicy::Immediate;  // transport.injection: immediate | li | lw
  ReorderMemoryKind memory = ReorderMemoryKind::Static;    // transport.memory: static | dynamic
  uint64_t connection_bytes = 2048;  // transport.connection_bytes: static buffer, or dynamic cap, per connection
  uint64_t pool_bytes = 262144;      // transport.pool_bytes: dynamic only, shared per destination NIC
  uint32_t control_bytes = 32;       // transport.control_bytes: ACK/NACK length on the wire (LRH+BTH+AETH+CRCs = 30)
  // ACK coalescing at the destination (seeds/003 is silent on it; IBA RC responders may
  // coalesce). An ACK goes once ack_coalesce packets of a connection are delivered unACKed, or
  // ack_delay_ns after the first of them, with the last packet of a message (IBA's AckReq; the
  // disk workload marks it), and at once while a packet it NACKed is not yet covered by an ACK
  // (its source may be limited, waiting for ACKs). 1: an ACK per delivery run, as before.
  uint32_t ack_coalesce = 1;  // transport.ack_coalesce: packets, at most, per ACK
  double ack_delay_ns = 0;    // transport.ack_delay_ns: longest an ACK waits; > 0 when ack_coalesce > 1

  bool enabled() const { return mode != TransportMode::Off; }
  void validate() const;  // throws ParamError (models/param_error.h) naming the key
};

}  // namespace ibsc::models
