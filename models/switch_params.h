// Parameters of an IBA switch, with their defaults (the seeds' model) and units.
#pragma once
#include <cstdint>
#include <string>

#include "models/sim_time.h"
#include "models/vl_arbiter.h"
#include "routing/enum_names.h"

namespace ibsc::models {

// Crossbar inputs: one per input port (a port feeds one output at a time), or one per input VL
// at link rate (a port may feed several outputs at once from different VLs; seeds/004).
enum class CrossbarInputs { Port, Vl };
inline constexpr EnumName<CrossbarInputs> kCrossbarInputsNames[] = {
    {CrossbarInputs::Port, "port"},
    {CrossbarInputs::Vl, "vl"},
};
constexpr const auto& enum_names(CrossbarInputs) { return kCrossbarInputsNames; }

// Who decides which request an output serves: the switch arbiter (Off), or a FIFO request queue
// per output crossbar port (seeds/004), serving the first request in arrival order that can go
// (Fifo) or only the queue's head (FifoHead). See output_request_queue.h.
enum class OutputRequestQueue { Off, Fifo, FifoHead };
inline constexpr EnumName<OutputRequestQueue> kOutputRequestQueueNames[] = {
    {OutputRequestQueue::Off, "off"},
    {OutputRequestQueue::Fifo, "fifo"},
    {OutputRequestQueue::FifoHead, "fifo_head"},
};
constexpr const auto& enum_names(OutputRequestQueue) { return kOutputRequestQueueNames; }

// Adaptive routing, when a head may take a worse priority level of its LFT entry: whenever no
// better candidate is free with credits this cycle (Free), or only when no better candidate has
// credits for the packet, busy or not (Credits), so a head waits for a busy minimal output
// instead of going round it (seeds/001).
enum class ArFallback { Free, Credits };
inline constexpr EnumName<ArFallback> kArFallbackNames[] = {
    {ArFallback::Free, "free"},
    {ArFallback::Credits, "credits"},
};
constexpr const auto& enum_names(ArFallback) { return kArFallbackNames; }

// How a port's VL buffers are sized: each of num_vls VLs has its bytes (PerVl), or the port's
// num_vls x bytes are shared evenly by the VLs the subnet manager enables (Operational): the
// routing's VLs rounded up to PortInfo's OperationalVLs choices 1, 2, 4, 8 or 15, so a routing
// on fewer VLs gets deeper buffers, as a switch that reallocates its port memory would give it.
enum class VlBuffers { PerVl, Operational };
inline constexpr EnumName<VlBuffers> kVlBuffersNames[] = {
    {VlBuffers::PerVl, "per_vl"},
    {VlBuffers::Operational, "operational"},
};
constexpr const auto& enum_names(VlBuffers) { return kVlBuffersNames; }

struct SwitchParams {
  // Limits shared by validate() and the scenario key declarations (tb/scenario/scenario_keys.cpp); the
  // VL limit is kMaxDataVls (routing/types.h).
  static constexpr int kMaxCrossbarSpeedup = 16;

  int num_vls = 2;                                        // data VLs per port (1..15)
  uint32_t buffer_bytes_per_vl = 2048;                    // input buffer per port and VL
  double routing_delay_ns = 100.0;                        // LFT look-up, arbitration and crossbar set-up
  double core_clock_ns = 4.0;                             // switch core clock period; arbitration on its edges
  VlBuffers vl_buffers = VlBuffers::PerVl;                // scenario key switch.vl_buffers: per_vl | operational
  int crossbar_speedup = 1;                               // crossbar rate / output link rate
  CrossbarInputs crossbar_inputs = CrossbarInputs::Port;  // scenario key switch.crossbar_inputs: port | vl
  // Per output port and VL a buffer between crossbar and link (output_buffer.h); 0: none, the
  // input-buffered switch. A multiple of 64 bytes.
  uint32_t output_buffer_bytes_per_vl = 0;
  // Escape queue per input VL buffer (adaptive routing with an escape channel, seeds/003: one
  // MTU); the rest of the VL buffer is the adaptive queue (input_buffer.h). 0: none, one FIFO
  // per VL. A multiple of 64 bytes, below buffer_bytes_per_vl (and output_buffer_bytes_per_vl,
  // whose buffers then keep escape queues too, output_buffer.h); at most 8 data VLs.
  uint32_t escape_queue_bytes = 0;
  // Scenario key switch.output_request_queue: off | fifo | fifo_head (output_request_queue.h).
  OutputRequestQueue output_request_queue = OutputRequestQueue::Off;
  ArFallback ar_fallback = ArFallback::Free;  // scenario key switch.ar_fallback: free | credits
  VlArbParams vlarb;                          // output VL arbitration (round-robin unless tables)
  bool vl2vl =
      false;  // expects VL2VL tables (keyed by input VL); the switch follows the tables' key, tb checks they agree
  // Reference mode for tests: arbitrate on every core-clock edge while anything is queued, as a
  // clocked design would. Results must equal the event-driven default exactly.
  bool every_edge = false;

  Picos routing_ps() const { return static_cast<Picos>(routing_delay_ns * 1000.0 + 0.5); }
  Picos clock_ps() const { return static_cast<Picos>(core_clock_ns * 1000.0 + 0.5); }
  int buffer_blocks() const { return static_cast<int>(buffer_bytes_per_vl / 64); }
  int output_buffer_blocks() const { return static_cast<int>(output_buffer_bytes_per_vl / 64); }
  int escape_blocks() const { return static_cast<int>(escape_queue_bytes / 64); }
  void validate() const;  // throws ParamError (models/param_error.h) naming the key
  // The parameters a fabric runs with for tables on `vls_used` VLs: unchanged under PerVl; under
  // Operational num_vls becomes the operational VLs and the port's input and output bytes are
  // split among them (whole credits).
  SwitchParams for_vls_used(int vls_used) const;
};

}  // namespace ibsc::models
