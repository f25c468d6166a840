#include "models/hca.h"

#include <algorithm>
#include <string>

#include "models/reliable_transport.h"
#include "models/uniform_draw.h"

namespace ibsc::models {

Hca::Hca(sc_core::sc_module_name name, int host, const routing::TableSet& tables, int num_vls, int peer_buffer_blocks,
         Picos byte_ps, HcaTraffic& traffic, FabricMonitor& monitor, Scheduler& sched, uint64_t path_seed)
    : sc_module(name),
      num_vls_(num_vls),
      base_lid_(tables.hosts.at(host).base_lid),
      random_path_(tables.path_choice == routing::PathChoice::RandomPerPacket),
      wake_(sched, *this),
      lid_end_(tables.hosts.at(host).base_lid + (1 << tables.hosts.at(host).lmc)),
      host_(host),
      byte_ps_(byte_ps),
      traffic_(traffic),
      mon_(monitor),
      queues_(new RingQueue<Packet*>[num_vls]()),
      credits_(new CreditCounter[num_vls]()),
      paths_(tables.hosts.at(host).paths),
      seq_(static_cast<uint32_t>(tables.hosts.size())),
      flow_base_(static_cast<uint32_t>(host * tables.hosts.size())),
      tables_(tables),
      me_(tables.hosts.at(host)),
      rx("rx"),
      tx("tx") {
  rx.bind(*this);
  for (int v = 0; v < num_vls; ++v) credits_[v].reset(peer_buffer_blocks);
  vlarb_.configure(VlArbParams{}, num_vls);
  if (random_path_) path_rng_ = make_random_stream(path_seed);
  wake_.at(0);  // first run at time 0 draws the first generation time
}

Hca::~Hca() = default;

size_t Hca::queued() const { return queued_ + (rt_ ? rt_->held() : 0); }

void Hca::attach_transport(std::unique_ptr<ReliableTransport> t) { rt_ = std::move(t); }

void Hca::set_params(const HcaParams& p) {
  const bool single = p.injection_queues == InjectionQueues::Single;
  if (single && cc_on_)
    throw FabricError(std::string(name()) + ": one injection queue per HCA does not go with congestion control");
  if (queued_ > 0) throw FabricError(std::string(name()) + ": set_params() with packets queued");
  single_queue_ = single;
}

// sc_port's operator-> checks the binding on every call.
void Hca::end_of_elaboration() { link_.bind(tx.operator->()); }

void Hca::set_generating(bool on) {
  generating_ = on;
  if (!on) next_gen_ = kNever;
  else if (next_gen_ == kNever) {
    Picos gap = traffic_.next_gap(host_);
    if (gap != kNever) next_gen_ = now_ps() + gap;
  }
  schedule_next(now_ps());
}

void Hca::packet_arrives(int, Packet* pkt, Picos head_time) {
  if (pkt->dlid < base_lid_ || pkt->dlid >= lid_end_)
    throw FabricError(std::string(name()) + ": received packet " + std::to_string(pkt->id) + " for DLID " +
                      std::to_string(pkt->dlid) + " (misrouted)");
  // The receive side sinks at link rate: each block frees as soon as it has arrived.
  CreditTrain c{head_time, byte_ps_, head_time, byte_ps_, pkt->length, pkt->vl};
  link_.credits_arrive(1, c);
  Picos tail = head_time + static_cast<Picos>(pkt->length) * byte_ps_;
  arriving_.push_back({tail, pkt});
  if (arriving_.size() == 1) wake_.at(tail);
}

void Hca::credits_arrive(int, const CreditTrain& train) {
  if (!credits_[train.vl].add(train))
    throw CreditError(std::string(name()) + " VL " + std::to_string(train.vl) +
                      ": more credits returned than taken (counter above its buffer)");
  // Credits only matter to queued packets. With none queued, and outside our own wake-up (which
  // has no wake-up pending until it ends), the pending wake-up is already no later than the
  // next generation and delivery, so schedule_next would ask for nothing new.
  if (queued_ > 0 || in_wake_) schedule_next(now_ps());
}

void Hca::generate(Picos t) {
  while (next_gen_ != kNever && next_gen_ <= t) {
    Packet* p = mon_.pool.get();
    const bool made = traffic_.make(host_, *p);
    if (made && __builtin_expect(!apm_.empty() && apm_[p->dst_host] < 0, 0)) {
      // To a host no path reaches any more: counted and discarded (the results report it).
      ++mon_.generated;
      ++mon_.abandoned;
      mon_.pool.put(p);
    } else if (made) {
      address(*p);
      p->id = mon_.generated++;
      p->src_host = static_cast<uint32_t>(host_);
      p->flow = flow_base_ + p->dst_host;
      uint32_t& seq = seq_.next(p->dst_host);
      if (seq == UINT32_MAX)
        throw FabricError(std::string(name()) + ": flow to host " + std::to_string(p->dst_host) +
                          " reached 2^32 packets, beyond its sequence numbers");
      p->seq = seq++;
      p->gen_time = next_gen_;
      traffic_.generated(*p, next_gen_);
      if (rt_) rt_->submit(p);
      else enqueue(p);
    } else {
      mon_.pool.put(p);
    }
    Picos gap = generating_ ? traffic_.next_gap(host_) : kNever;
    next_gen_ = gap == kNever ? kNever : next_gen_ + gap;
  }
}

void Hca::address(Packet& p) {
  const auto recs = p.dst_host < paths_.size() ? paths_[p.dst_host] : routing::Span<routing::PathRecord>{};
  if (recs.empty()) throw FabricError(std::string(name()) + ": no path record to host " + std::to_string(p.dst_host));
  const routing::PathRecord& pr = apm_.empty() ? recs.front() : recs[std::max<int>(0, apm_[p.dst_host])];
  p.slid = base_lid_;
  p.dlid = pr.dlid;
  p.sl = pr.sl;
  p.vl = me_.sl2vl[pr.sl];
  if (random_path_) choose_path(p);
}

Lid Hca::dlid_in_use(int dst) const {
  const auto recs = paths_[dst];
  return recs[std::max(0, path_in_use(dst))].dlid;
}

void Hca::migrate(int dst, int record) {
  if (apm_.empty()) throw FabricError(std::string(name()) + ": migrate() without enable_apm()");
  if (record == apm_[dst]) return;
  if (record < 0) ++unreachable_;
  else ++migrations_;
  apm_[dst] = static_cast<int8_t>(record);
  if (rt_) rt_->path_changed(dst);
  schedule_next(now_ps());  // re-sends may now be queued
}

void Hca::packet_lost(Packet* p) {
  ++mon_.dropped;
  if (p->cc & kCcCnp) {  // a lost CNP is gone: its BECN never comes (the transport knows only data)
    mon_.pool.put(p);
    return;
  }
  if (rt_) {
    rt_->lost(p);
    schedule_next(now_ps());
  } else {
    mon_.pool.put(p);  // no end-to-end recovery: lost, and counted as such
  }
}

void Hca::choose_path(Packet& p) {
  const auto recs = paths_[p.dst_host];
  if (recs.size() < 2) return;
  const routing::PathRecord& pr = recs[uniform_below(path_rng_, recs.size())];
  p.dlid = pr.dlid;
  p.sl = pr.sl;
  p.vl = me_.sl2vl[pr.sl];
}

void Hca::inject(Picos t) {
  if (queued_ == 0 || link_busy_until_ > t) return;
  if (__builtin_expect(cc_on_, 0)) return inject_cc(t);
  int v = -1, q = 0;  // the packet's VL, and the queue it leaves
  if (single_queue_) {
    const int head_vl = queues_[0].front()->vl;
    if (credits_[head_vl].available(t) < static_cast<int>(queues_[0].front()->blocks())) return;
    v = head_vl;
  } else {
    uint32_t ready = 0;  // VLs with a packet and credits for all of it
    for (int u = 0; u < num_vls_; ++u)
      if (!queues_[u].empty() && credits_[u].available(t) >= static_cast<int>(queues_[u].front()->blocks()))
        ready |= 1u << u;
    v = q = vlarb_.select(ready);
    if (v < 0) return;
  }
  Packet* p = queues_[q].front();
  queues_[q].pop_front();
  --queued_;
  if (!credits_[v].consume(static_cast<int>(p->blocks()), t))
    throw CreditError(std::string(name()) + " VL " + std::to_string(v) + ": credit counter would go negative");
  link_busy_until_ = t + static_cast<Picos>(p->length) * byte_ps_;
  vlarb_.charge(v, p->length);
  ++mon_.injected;
  mon_.last_progress = t;  // a packet entering the fabric is progress (an idle fabric is not stuck)
  link_.packet_arrives(1, p, t);
}

void Hca::wake() {
  const Picos t = now_ps();
  ++mon_.hca_wakes;
  in_wake_ = true;
  if (t == 0 && next_gen_ == kNever && generating_) {
    Picos gap = traffic_.next_gap(host_);
    if (gap != kNever) next_gen_ = gap;
  }
  while (!arriving_.empty() && arriving_.front().first <= t) {
    Packet* p = arriving_.front().second;
    arriving_.pop_front();
    ++mon_.delivered;
    mon_.delivered_bytes += p->length;
    mon_.last_progress = t;
    if (__builtin_expect(cc_on_, 0) && cc_arrival(p, t)) continue;
    if (rt_) {
      rt_->arrive(p, t);  // the host gets it in sequence; ACK/NACKs stay in the NIC
    } else {
      traffic_.delivered(*p, t);
      mon_.pool.put(p);
    }
  }
  if (rt_) rt_->send_due_acks(t);  // coalesced ACKs whose timer expired
  generate(t);
  inject(t);
  schedule_next(t);
  in_wake_ = false;
}

void Hca::schedule_next(Picos now) {
  Picos best = next_gen_;
  if (!arriving_.empty()) best = std::min(best, arriving_.front().first);
  if (rt_) best = std::min(best, rt_->next_ack_due());
  if (queued_ > 0) best = std::min(best, earliest_injection(now));  // usually nothing waits
  if (best != kNever) wake_.at(std::max(best, now));
}

// Out of line: the common call, with nothing queued, stays small.
Picos Hca::earliest_injection(Picos now) const {
  if (cc_on_) return earliest_injection_cc(now);
  const Picos free_at = std::max(now, link_busy_until_);
  if (single_queue_) {
    const Packet* head = queues_[0].front();
    return credits_[head->vl].time_for(static_cast<int>(head->blocks()), free_at);
  }
  Picos best = kNever;
  for (int v = 0; v < num_vls_; ++v) {
    if (queues_[v].empty()) continue;
    Picos tc = credits_[v].time_for(static_cast<int>(queues_[v].front()->blocks()), free_at);
    best = std::min(best, tc);
  }
  return best;
}

}  // namespace ibsc::models
