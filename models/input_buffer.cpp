#include "models/input_buffer.h"

#include <stdexcept>

namespace ibsc::models {

void InputBuffer::configure(int num_ports, int num_vls, int buffer_blocks, int escape_blocks) {
  num_vls_ = num_vls;
  queues_ = escape_blocks > 0 ? 2 * num_vls : num_vls;
  if (queues_ > 16) throw std::invalid_argument("input buffer: escape queues need at most 8 VLs (16 queues per port)");
  if (escape_blocks < 0 || (escape_blocks > 0 && escape_blocks >= buffer_blocks))
    throw std::invalid_argument("input buffer: the escape queue must leave room for an adaptive queue");
  blocks_ = buffer_blocks;
  escape_blocks_ = escape_blocks;
  // Queues grow on first use: an idle fabric allocates none.
  ivl_.reset(new InputVl[static_cast<size_t>(num_ports + 1) * queues_]());
}

int InputBuffer::queue_occupancy(const InputVl& iv, Picos t, Picos routing_ps) const {
  int held = 0;
  const Queued& h = iv.head;
  if (h.pkt && h.ready - routing_ps <= t) held += static_cast<int>(h.blocks);
  for (const Queued& q : iv.behind)
    if (q.ready - routing_ps <= t) held += static_cast<int>(q.blocks);
  if (iv.last.done > t) held += static_cast<int>(iv.last.drain.blocks() - iv.last.drain.freed_by(t));
  return held;
}

int InputBuffer::occupancy_blocks(int port, int vl, Picos t, Picos routing_ps) const {
  const int held = queue_occupancy(at(port, vl), t, routing_ps);
  return escape_blocks_ ? held + queue_occupancy(at(port, num_vls_ + vl), t, routing_ps) : held;
}

}  // namespace ibsc::models
