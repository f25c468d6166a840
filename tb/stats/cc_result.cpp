#include "tb/stats/cc_result.h"

#include <algorithm>
#include <cmath>

namespace ibsc::tb {
namespace {
double r6(double v) { return std::round(v * 1e6) / 1e6; }
}  // namespace

CcProbe::CcProbe(Fabric& fabric, TrafficDriver& driver, const TrafficConfig& traffic, double link_bytes_per_ns,
                 models::Picos period)
    : fabric_(fabric),
      driver_(driver),
      link_(link_bytes_per_ns),
      hot_(traffic.hotspot_hosts),
      period_(period),
      next_(period > 0 ? period : models::kNever) {
  const int n = fabric.topology().num_hosts;
  std::vector<uint8_t>& quiet = quiet_;
  quiet.assign(n, 0);
  for (int h : traffic.silent_hosts) quiet[h] = 1;
  if (traffic.pattern == TrafficPattern::HotSenders)
    for (int h : traffic.hotspot_senders) quiet[h] = 1;
  const bool hot_pattern = traffic.pattern == TrafficPattern::HotSenders || traffic.pattern == TrafficPattern::Hotspot;
  if (!hot_pattern) hot_.clear();
  hot_hosts_ = static_cast<int>(hot_.size());
  victim_sources_ = static_cast<int>(std::count(quiet.begin(), quiet.end(), 0));
  driver_.track_flows(hot_);
}

CcProbe::Totals CcProbe::totals() const {
  Totals t;
  const routing::Topology& topo = fabric_.topology();
  const int vls = fabric_.switch_params().num_vls;
  for (int s = 0; s < topo.num_switches; ++s) {
    const models::CcMarker* m = fabric_.sw(s).cc();
    if (!m) continue;
    for (int p = 1; p <= fabric_.sw(s).num_ports(); ++p)
      for (int v = 0; v < vls; ++v) {
        const models::CcPortVlCounts& c = m->counts(p, v);
        t.fecn += c.fecn;
        t.root += c.over_root;
        t.victim += c.over_victim;
      }
  }
  for (int h = 0; h < topo.num_hosts; ++h)
    if (const models::CcSource* c = fabric_.hca(h).cc()) {
      t.cnp += c->counts().cnp_sent;
      t.becn += c->counts().becn;
      t.trigger += c->counts().trigger_events;
    }
  return t;
}

void CcProbe::sample(models::Picos now) {
  const TrafficDriver::FlowBytes& f = *driver_.flows();
  const double ns = period_ / 1000.0;
  Row r;
  r.t_ns = now / 1000.0;
  r.hot = hot_hosts_ ? (f.hot_total - last_hot_) / ns / hot_hosts_ / link_ : 0;
  r.victim = victim_sources_ ? (f.victim_total - last_victim_) / ns / victim_sources_ / link_ : 0;
  last_hot_ = f.hot_total;
  last_victim_ = f.victim_total;
  double sum = 0;
  int flows = 0, mx = 0;
  for (int h = 0; h < fabric_.topology().num_hosts; ++h)
    if (const models::CcSource* c = fabric_.hca(h).cc())
      for (int fl : c->touched()) {
        const int v = c->ccti(fl, now);
        sum += v;
        ++flows;
        mx = std::max(mx, v);
      }
  r.mean_ccti = flows ? sum / flows : 0;
  r.max_ccti = mx;
  const Totals t = totals();
  r.fecn = t.fecn;
  r.becn = t.becn;
  rows_.push_back(r);
  next_ += period_;
}

nlohmann::ordered_json CcProbe::result(double window_ns) const {
  const TrafficDriver::FlowBytes& f = *driver_.flows();
  const Totals t = totals();
  nlohmann::ordered_json j;
  j["fecn_marked"] = t.fecn;
  j["over_threshold_root"] = t.root;
  j["over_threshold_victim"] = t.victim;
  j["cnp_sent"] = t.cnp;
  j["becn_received"] = t.becn;
  j["trigger_events"] = t.trigger;
  j["hot_hosts"] = hot_;
  j["hot_throughput"] = hot_hosts_ ? r6(f.hot_window / window_ns / hot_hosts_ / link_) : 0.0;
  j["victim_sources"] = victim_sources_;
  j["victim_throughput_per_source"] = victim_sources_ ? r6(f.victim_window / window_ns / victim_sources_ / link_) : 0.0;
  double slowest = victim_sources_ ? 1e300 : 0;
  for (size_t h = 0; h < f.sent_window.size(); ++h)
    if (!quiet_[h]) slowest = std::min(slowest, f.sent_window[h] / window_ns / link_);
  j["slowest_victim_source"] = r6(slowest);
  nlohmann::ordered_json sent = nlohmann::ordered_json::array(), recv = nlohmann::ordered_json::array();
  for (size_t h = 0; h < f.sent_window.size(); ++h) {
    sent.push_back(r6(f.sent_window[h] / window_ns / link_));
    recv.push_back(r6(f.received_window[h] / window_ns / link_));
  }
  j["host_sent"] = sent;
  j["host_received"] = recv;
  if (!rows_.empty()) {
    nlohmann::ordered_json s;
    for (const char* k : {"t_ns", "hot", "victim", "mean_ccti", "max_ccti", "fecn", "becn"})
      s[k] = nlohmann::ordered_json::array();
    for (const Row& r : rows_) {
      s["t_ns"].push_back(r6(r.t_ns));
      s["hot"].push_back(r6(r.hot));
      s["victim"].push_back(r6(r.victim));
      s["mean_ccti"].push_back(r6(r.mean_ccti));
      s["max_ccti"].push_back(r.max_ccti);
      s["fecn"].push_back(r.fecn);
      s["becn"].push_back(r.becn);
    }
    j["series"] = s;
  }
  return j;
}

}  // namespace ibsc::tb
