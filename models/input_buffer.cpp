#include "models/input_buffer.h"

namespace ibsc::models {

void InputBuffer::configure(int num_ports, int num_vls, int buffer_blocks) {
  num_vls_ = num_vls;
  blocks_ = buffer_blocks;
  // Queues grow on first use: an idle fabric allocates none.
  ivl_.reset(new InputVl[static_cast<size_t>(num_ports + 1) * num_vls]());
}

int InputBuffer::occupancy_blocks(int port, int vl, Picos t, Picos routing_ps) const {
  const InputVl& iv = at(port, vl);
  int held = 0;
  const Queued& h = iv.head;
  if (h.pkt && h.ready - routing_ps <= t) held += static_cast<int>(h.blocks);
  for (const Queued& q : iv.behind)
    if (q.ready - routing_ps <= t) held += static_cast<int>(q.blocks);
  if (iv.last.done > t) held += static_cast<int>(iv.last.drain.blocks() - iv.last.drain.freed_by(t));
  return held;
}

}  // namespace ibsc::models
