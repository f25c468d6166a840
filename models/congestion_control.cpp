#include "models/congestion_control.h"

#include "models/param_error.h"
#include "routing/types.h"

namespace ibsc::models {

std::vector<double> default_cct() {
  std::vector<double> t(kDefaultCctEntries);
  for (int i = 0; i < kDefaultCctEntries; ++i) t[i] = i / 4.0;
  return t;
}

void CcParams::validate() const {
  if (threshold < 0 || threshold > kMaxThreshold)
    throw ParamError("cc.threshold", "cc.threshold must be 0..15 (A10: 0 marks nothing, 15 marks soonest); got " +
                                         std::to_string(threshold));
  if (cct.empty()) throw ParamError("cc.cct", "cc.cct: the congestion control table needs at least one entry");
  for (size_t i = 0; i < cct.size(); ++i)
    if (!(cct[i] >= 0))
      throw ParamError("cc.cct", "cc.cct: entry " + std::to_string(i) + " is negative (a delay in packet times)");
  if (ccti_limit >= cct.size())
    throw ParamError("cc.ccti_limit", "cc.ccti_limit " + std::to_string(ccti_limit) +
                                          " is beyond the table (cc.cct has " + std::to_string(cct.size()) +
                                          " entries, last index " + std::to_string(cct.size() - 1) + ")");
  if (ccti_min > ccti_limit)
    throw ParamError("cc.ccti_min", "cc.ccti_min " + std::to_string(ccti_min) + " is above cc.ccti_limit " +
                                        std::to_string(ccti_limit));
  if (ccti_increase == 0) throw ParamError("cc.ccti_increase", "cc.ccti_increase must be at least 1");
  if (cnp_bytes == 0 || cnp_bytes > kMaxMtuBytes)
    throw ParamError("cc.cnp_bytes", "cc.cnp_bytes must be 1.." + std::to_string(kMaxMtuBytes));
  if (cnp_sl < -1 || cnp_sl >= kNumSls) throw ParamError("cc.cnp_sl", "cc.cnp_sl must be -1 (the path's SL) or 0..15");
  for (int p : victim_ports)
    if (p < 1 || p > 254) throw ParamError("cc.victim_mask", "cc.victim_mask: port numbers are 1..254");
  if (!(sample_ns >= 0)) throw ParamError("cc.sample_ns", "cc.sample_ns must be >= 0");
}

CcMarker::CcMarker(const CcParams& p, int num_ports, int num_vls, int buffer_blocks)
    : num_vls_(num_vls),
      threshold_(models::threshold_blocks(p.threshold, buffer_blocks)),
      rate_(p.marking_rate),
      min_blocks_(p.packet_size_blocks),
      victim_(static_cast<size_t>(num_ports) + 1, 0),
      c_(static_cast<size_t>(num_ports + 1) * num_vls) {
  for (int port = 1; port <= num_ports; ++port) victim_[port] = p.victim(port) ? 1 : 0;
}

bool CcMarker::grant(int from_port, int from_vl, int port, int vl, const Packet& pkt, int credits_left) {
  at(from_port, from_vl).queued -= static_cast<int>(pkt.blocks());
  State& s = at(port, vl);
  if (threshold_ == 0 || s.queued < threshold_) return false;
  const bool root = credits_left >= static_cast<int>(pkt.blocks());
  if (root) ++s.n.over_root;
  else ++s.n.over_victim;
  if (!root && !victim_[port]) return false;
  if (pkt.kind != PacketKind::Data || pkt.cc != 0 || pkt.blocks() < min_blocks_) return false;
  if (s.skip > 0) {
    --s.skip;
    return false;
  }
  s.skip = rate_;
  ++s.n.fecn;
  return true;
}

CcSource::CcSource(const CcParams& p, int flows)
    : period_(p.timer_period_ps()),
      increase_(p.ccti_increase),
      min_(p.ccti_min),
      limit_(p.ccti_limit),
      trigger_(p.trigger_threshold),
      cct_(p.cct),
      f_(static_cast<size_t>(flows)) {
  for (Flow& f : f_) f.ccti = min_;
}

int CcSource::ccti(int flow, Picos t) const {
  const Flow& f = f_[flow];
  const uint64_t down = tick(t) - f.tick;
  if (f.ccti <= min_ || period_ == 0) return static_cast<int>(f.ccti);
  return static_cast<int>(down >= f.ccti - min_ ? min_ : f.ccti - down);
}

void CcSource::becn(int flow, Picos t) {
  ++n_.becn;
  Flow& f = f_[flow];
  const uint32_t before = static_cast<uint32_t>(ccti(flow, t));
  f.ccti = std::min(limit_, before + increase_);
  f.tick = tick(t);
  if (trigger_ > 0 && before < trigger_ && f.ccti >= trigger_) ++n_.trigger_events;
  if (!f.touched) {
    f.touched = true;
    touched_.push_back(flow);
  }
}

void CcSource::sent(int flow, Picos t, Picos wire_ps) {
  Flow& f = f_[flow];
  const double ipd = cct_[static_cast<size_t>(ccti(flow, t))];
  f.next = t + wire_ps + static_cast<Picos>(ipd * static_cast<double>(wire_ps) + 0.5);
}

}  // namespace ibsc::models
