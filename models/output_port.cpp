#include "models/output_port.h"

namespace ibsc::models {

void OutputPorts::configure(int num_ports, int num_vls) {
  num_vls_ = num_vls;
  credits_.reset(new CreditCounter[static_cast<size_t>(num_ports + 1) * num_vls]());
  vlarb_.reset(new VlArbiter[num_ports + 1]());
}

void OutputPorts::connect(int port, int peer_buffer_blocks, const VlArbParams& vlarb) {
  for (int v = 0; v < num_vls_; ++v) credits(port, v).reset(peer_buffer_blocks);
  vlarb_[port].configure(vlarb, num_vls_);
}

}  // namespace ibsc::models
