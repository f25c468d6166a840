// What the switch shows from outside at a given time (waves, the port counters' report, tests):
// credits, buffer occupancy, the output ports a head waits for, head-of-line blocking, and the
// requests of the last arbitration when recorded for waves. Queries on the parts; split from
// switch.cpp, which wires the parts and moves packets.
#include <utility>
#include <vector>

#include "models/switch.h"

namespace ibsc::models {

size_t Switch::queued_in_output_buffers() const { return ob_ ? ob_->queued_total() : 0; }

int Switch::output_occupancy_blocks(int out_port, int vl, Picos t) const {
  if (!ob_ || !connected(out_port)) return 0;
  return ob_->capacity_blocks() - out_.credits(out_port, vl).available(t);
}

int Switch::credits(int out_port, int vl, Picos t) const {
  return (ob_ ? ob_->link_credits(out_port, vl) : out_.credits(out_port, vl)).available(t);
}

std::vector<std::pair<int, int>> Switch::waits_of(int in_port, int vl, Picos now) const {
  std::vector<std::pair<int, int>> w;
  if (!connected(in_port)) return w;
  for (int q : {vl, escape_ ? num_vls_ + vl : -1}) {  // with escape queues, both queues' heads
    if (q < 0) break;
    const Queued& h = in_.at(in_port, q).head;
    if (!h.pkt || h.ready > now) continue;
    for (auto c = cand_first(h), end = c + h.count; c != end; ++c) w.emplace_back(c->port, out_vl(in_port, c, h));
  }
  return w;
}

int Switch::occupancy_blocks(int in_port, int vl, Picos t) const {
  return connected(in_port) ? in_.occupancy_blocks(in_port, vl, t, routing_ps_) : 0;
}

int Switch::hol_blocked(int in_port, int vl, Picos now) const {
  if (!connected(in_port)) return 0;
  int n = 0;
  for (int q : {vl, escape_ ? num_vls_ + vl : -1}) {  // with escape queues, both queues
    if (q < 0) break;
    const InputVl& iv = in_.at(in_port, q);
    if (!iv.head.pkt || iv.head.ready > now) continue;
    for (size_t k = 0; k < iv.behind.size(); ++k) n += iv.behind[k].first.port != iv.head.first.port;
  }
  return n;
}

uint64_t Switch::head_packet_id(int in_port, int vl) const {
  if (!connected(in_port)) return 0;
  const Queued& h = in_.at(in_port, vl).head;
  if (!h.pkt && escape_)
    return in_.at(in_port, num_vls_ + vl).head.pkt ? in_.at(in_port, num_vls_ + vl).head.pkt->id : 0;
  return h.pkt ? h.pkt->id : 0;
}

// The requests of the last arbitration, kept for waves (record_requests(true)).
void Switch::clear_records(Picos t) {
  for (int i : rec_set_) {
    rec_[i].in_vl = rec_[i].out_vl = -1;
    rec_[i].granted = 0;
    rec_[i].ports.clear();
  }
  rec_set_.clear();
  rec_time_ = t;
}

void Switch::record(int in, int in_vl, int out_vl, const ArbCandidate* c, size_t n, int granted) {
  RequestRecord& r = rec_[in];
  r.in_vl = in_.vl_of(in_vl);  // the queue's VL (with escape queues, two queues per VL)
  r.out_vl = out_vl;
  r.granted = granted;
  for (size_t k = 0; k < n; ++k) r.ports.push_back(static_cast<uint8_t>(c[k].port + 1));
  rec_set_.push_back(in);
}

}  // namespace ibsc::models
