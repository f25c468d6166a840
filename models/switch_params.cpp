// The switch's parameters: their checks (each naming its scenario key) and the shape a switch
// takes for the VLs its subnet uses.
#include <algorithm>
#include <string>

#include "models/param_error.h"
#include "models/switch.h"

namespace ibsc::models {

void SwitchParams::validate() const {
  if (num_vls < 1 || num_vls > kMaxDataVls)
    throw ParamError("switch.num_vls", "switch.num_vls must be 1.." + std::to_string(kMaxDataVls));
  if (buffer_bytes_per_vl < 64 || buffer_bytes_per_vl % 64 != 0)
    throw ParamError("switch.buffer_bytes_per_vl",
                     "switch.buffer_bytes_per_vl must be a positive multiple of 64 (one credit)");
  if (!(routing_delay_ns >= 0.0)) throw ParamError("switch.routing_delay_ns", "switch.routing_delay_ns must be >= 0");
  if (!(core_clock_ns > 0.0) || clock_ps() == 0)
    throw ParamError("switch.core_clock_ns", "switch.core_clock_ns must be > 0");
  if (output_buffer_bytes_per_vl % 64 != 0)
    throw ParamError("switch.output_buffer_bytes_per_vl",
                     "switch.output_buffer_bytes_per_vl must be 0 (none) or a multiple of 64 (one credit)");
  if (escape_queue_bytes % 64 != 0)
    throw ParamError("switch.escape_queue_bytes",
                     "switch.escape_queue_bytes must be 0 (none) or a multiple of 64 (one credit)");
  if (escape_queue_bytes > 0 && escape_queue_bytes >= buffer_bytes_per_vl)
    throw ParamError(
        "switch.escape_queue_bytes",
        "switch.escape_queue_bytes must be below switch.buffer_bytes_per_vl (the adaptive queue is the rest)");
  if (escape_queue_bytes > 0 && output_buffer_bytes_per_vl > 0 && escape_queue_bytes >= output_buffer_bytes_per_vl)
    throw ParamError(
        "switch.escape_queue_bytes",
        "switch.escape_queue_bytes must be below switch.output_buffer_bytes_per_vl (output buffers keep escape queues "
        "too)");
  if (escape_queue_bytes > 0 && num_vls > 8)
    throw ParamError(
        "switch.escape_queue_bytes",
        "switch.escape_queue_bytes: escape queues need switch.num_vls <= 8 (two queues per VL, 16 per port)");
  if (crossbar_speedup < 1 || crossbar_speedup > kMaxCrossbarSpeedup)
    throw ParamError("switch.crossbar_speedup",
                     "switch.crossbar_speedup must be 1.." + std::to_string(kMaxCrossbarSpeedup));
  for (const auto* t : {&vlarb.high, &vlarb.low})
    for (const VlArbEntry& e : *t)
      if (e.vl >= num_vls)
        throw ParamError("switch.vlarb", "switch.vlarb: entry names VL " + std::to_string(e.vl) +
                                             " but the switch has " + std::to_string(num_vls) + " data VLs");
  if (vlarb.limit_of_high_priority < 0 || vlarb.limit_of_high_priority > VlArbParams::kMaxLimitOfHighPriority)
    throw ParamError("switch.vlarb.limit_of_high_priority", "switch.vlarb.limit_of_high_priority must be 0.." +
                                                                std::to_string(VlArbParams::kMaxLimitOfHighPriority));
  if (output_request_queue != OutputRequestQueue::Off && vlarb.use_tables && output_buffer_bytes_per_vl == 0)
    throw ParamError("switch.output_request_queue",
                     "switch.output_request_queue: the request queues order the link's VLs without output buffers, so "
                     "VLArb tables (switch.vlarb.use_tables) need switch.output_buffer_bytes_per_vl > 0");
}

SwitchParams SwitchParams::for_vls_used(int vls_used) const {
  SwitchParams p = *this;
  if (vl_buffers == VlBuffers::PerVl) return p;
  // PortInfo:OperationalVLs enables VL0, VL0-1, VL0-3, VL0-7 or VL0-14.
  int op = 1;
  while (op < vls_used && op < 8) op *= 2;
  if (op < vls_used) op = 15;
  p.num_vls = std::min(op, num_vls);  // both at least 1
  const auto share = [&](uint32_t per_vl) {
    return static_cast<uint32_t>(uint64_t{per_vl} * num_vls / p.num_vls / 64 * 64);
  };
  p.buffer_bytes_per_vl = share(buffer_bytes_per_vl);
  p.output_buffer_bytes_per_vl = share(output_buffer_bytes_per_vl);
  return p;
}

}  // namespace ibsc::models
