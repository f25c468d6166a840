#include "routing/duato_check.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "routing/cycle.h"

namespace ibsc::routing {
namespace {

constexpr int kV = 16;  // VL field values, as checks.cpp

template <class F>
void for_each_lft(const SwitchTables& st, F f) {
  f(st.lft);
  if (!st.vl_pool) {
    for (const Lft& l : st.lft_per_input_vl) f(l);
    return;
  }
  for (int v = 0; v < st.vl_pool->vls(); ++v) {  // the compact form, VL by VL
    Lft l;
    l.assign(st.vl_column.size());
    for (size_t d = 0; d < st.vl_column.size(); ++d) {
      const LftEntry e = st.vl_pool->entry(st.vl_column[d], v);
      l.set(d, e.candidates.begin(), e.candidates.end());
    }
    f(static_cast<const Lft&>(l));
  }
}

const PortCandidate* escape_of(const LftEntry& e) {
  for (const PortCandidate& c : e.candidates)
    if (c.escape) return &c;
  return nullptr;
}

}  // namespace

bool has_escape_candidates(const TableSet& ts) {
  // Compact per-VL LFTs: every candidate list of the shared pool at once.
  std::vector<const VlLftPool*> pools;
  for (const SwitchTables& st : ts.switches)
    if (st.vl_pool && std::find(pools.begin(), pools.end(), st.vl_pool.get()) == pools.end())
      pools.push_back(st.vl_pool.get());
  for (const VlLftPool* p : pools) {
    for (const PortCandidate& c : p->all_candidates())
      if (c.escape) return true;
    for (size_t k = 0; k < p->columns() * p->vls(); ++k)
      if (p->slots()[k].count == 1 && p->slots()[k].first.escape) return true;
  }
  for (const SwitchTables& st : ts.switches) {
    bool found = false;
    auto scan = [&](const Lft& lft) {
      for (size_t d = 0; d < lft.size() && !found; ++d) {  // by slot: one read per entry
        const Lft::Slot& e = lft.slot(d);
        found = e.count == 1 ? e.first.escape : e.count > 1 && escape_of(lft[d]) != nullptr;
      }
    };
    scan(st.lft);
    for (const Lft& l : st.lft_per_input_vl) scan(l);
    if (found) return true;
  }
  return false;
}

TableSet escape_subnetwork(const TableSet& ts) {
  TableSet e = ts;
  auto cut = [](Lft& lft) {
    for (size_t d = 0; d < lft.size(); ++d) {
      const LftEntry en = lft[d];
      if (en.candidates.empty()) continue;
      const PortCandidate* c = escape_of(en);
      lft.set(d, c ? c->port : en.candidates.front().port);
    }
  };
  for (SwitchTables& st : e.switches) {
    st.expand_per_vl();  // the pool is shared and read-only
    cut(st.lft);
    for (Lft& l : st.lft_per_input_vl) cut(l);
  }
  return e;
}

namespace {

// check_escape_channels(): the steps share the fabric, the report and the channel numbering.
class EscapeCheck {
 public:
  EscapeCheck(const Topology& t, const TableSet& ts, const CheckLimits& limits, CheckReport& rep);
  void run();

 private:
  void problem(const std::string& p) {
    if (static_cast<int>(rep_.problems.size()) < limits_.max_problems) rep_.problems.push_back(p);
  }
  bool cabled(int s, int p) const { return p >= 1 && p <= t_.nodes[s].num_ports && t_.nodes[s].ports[p].node >= 0; }
  bool entries_ok();
  void walk(Lid dlid, Sl sl, int x, int ip0, int iv0);
  void report_graph();

  const Topology& t_;
  const TableSet& ts_;
  const CheckLimits& limits_;
  CheckReport& rep_;
  const int S_;
  std::vector<std::pair<Lid, Sl>> flows_;  // the (DLID, SL) pairs packets carry
  std::vector<int> chan_base_;             // [node]: its first channel, ports numbered from it
  int nodes_ = 0;                          // (channel, VL) nodes of the dependency graph
  std::vector<uint32_t> seen_;             // [(input channel, VL)]: the flow (stamp_) that walked it
  uint32_t stamp_ = 0;
  std::vector<std::pair<int, int>> edges_;
  bool loops_ = false;
};

EscapeCheck::EscapeCheck(const Topology& t, const TableSet& ts, const CheckLimits& limits, CheckReport& rep)
    : t_(t), ts_(ts), limits_(limits), rep_(rep), S_(t.num_switches) {
  for (const HostTables& h : ts.hosts)
    for (size_t q = 0; q < h.paths.size(); ++q)
      for (const PathRecord& r : h.paths[q]) flows_.emplace_back(r.dlid, r.sl);
  std::sort(flows_.begin(), flows_.end());
  flows_.erase(std::unique(flows_.begin(), flows_.end()), flows_.end());
  chan_base_.assign(t.nodes.size() + 1, 0);
  for (size_t v = 0; v < t.nodes.size(); ++v) chan_base_[v + 1] = chan_base_[v] + t.nodes[v].num_ports + 1;
  nodes_ = chan_base_.back() * kV;
  seen_.assign(static_cast<size_t>(nodes_), 0);
}

// Entries: one escape candidate each, every candidate cabled.
bool EscapeCheck::entries_ok() {
  bool ok = true;
  std::vector<Lid> dlids;
  dlids.reserve(flows_.size());
  for (const auto& f : flows_) dlids.push_back(f.first);
  dlids.erase(std::unique(dlids.begin(), dlids.end()), dlids.end());
  for (int s = 0; s < S_; ++s)
    for_each_lft(ts_.switches[s], [&](const Lft& lft) {
      for (Lid d : dlids) {
        if (d >= lft.size() || !lft[d].routed()) continue;
        int escapes = 0;
        for (const PortCandidate& c : lft[d].candidates) {
          escapes += c.escape;
          if (!cabled(s, c.port)) {
            ok = false;
            problem("switch " + t_.nodes[s].name + " lists port " + std::to_string(c.port) + " for DLID " +
                    std::to_string(d) + ", which is not cabled");
          } else if (!c.escape && !t_.is_switch(t_.nodes[s].ports[c.port].node)) {
            // An HCA keeps no escape queue: an adaptive candidate would wait for room it never
            // reserves (an escape queue's worth beyond the packet).
            ok = false;
            problem("switch " + t_.nodes[s].name + " lists host port " + std::to_string(c.port) + " for DLID " +
                    std::to_string(d) + " as an adaptive candidate; a host port must be an escape candidate");
          }
        }
        if (escapes != 1) {
          ok = false;
          problem("switch " + t_.nodes[s].name + ": the LFT entry for DLID " + std::to_string(d) + " has " +
                  std::to_string(escapes) + " escape candidates (Duato's condition needs exactly one)");
        }
      }
    });
  return ok;
}

// The escape walk of (dlid, sl) entered at switch x through input port ip0 on VL iv0, its
// dependencies into edges_; a state already walked for this flow continues as before.
void EscapeCheck::walk(Lid dlid, Sl sl, int x, int ip0, int iv0) {
  int n = x, ip = ip0, iv = iv0, prev = -1, steps = 0;
  while (n < S_) {
    const PortCandidate* c = escape_of(ts_.switches[n].route(dlid, static_cast<Vl>(iv)));
    if (!c || !cabled(n, c->port)) break;  // reported above, or by the walks of check_tables
    const int o = c->port;
    const Sl2VlTable& tab = ts_.switches[n].sl2vl;
    const int key = tab.key() == Sl2VlTable::Key::Sl ? sl : iv;
    const int ov = tab.num_ports() >= std::max(o, ip) ? tab.get(ip, o, key) & 15 : 0;
    const int ch = (chan_base_[n] + o) * kV + ov;
    if (prev >= 0) edges_.emplace_back(prev, ch);
    uint32_t& st = seen_[(static_cast<size_t>(chan_base_[n]) + ip) * kV + iv];
    if (st == stamp_) break;
    st = stamp_;
    if (++steps > S_) {
      if (!loops_) problem("the escape route of DLID " + std::to_string(dlid) + " loops at switch " + t_.nodes[n].name);
      loops_ = true;
      break;
    }
    const PortPeer& nx = t_.nodes[n].ports[o];
    prev = ch;
    n = nx.node, ip = nx.port, iv = ov;
  }
}

// The escape dependency graph's size and a cycle, if any, into the report.
void EscapeCheck::report_graph() {
  std::vector<uint32_t> off;
  std::vector<int> tgt;
  compress_edges(nodes_, edges_, off, tgt);
  rep_.cdg_edges = tgt.size();
  std::vector<char> used(static_cast<size_t>(nodes_), 0);
  for (int v = 0; v < nodes_; ++v)
    for (uint32_t k = off[v]; k < off[v + 1]; ++k) used[v] = used[tgt[k]] = 1;
  rep_.cdg_nodes = static_cast<size_t>(std::count(used.begin(), used.end(), 1));
  const std::vector<int> cyc = find_cycle(off, tgt);
  rep_.cycle.clear();
  for (int c : cyc) {
    const int ch = c / kV;
    const int nd =
        static_cast<int>(std::upper_bound(chan_base_.begin(), chan_base_.end(), ch) - chan_base_.begin()) - 1;
    rep_.cycle.push_back({nd, t_.nodes[nd].name, ch - chan_base_[nd], c % kV});
  }
  rep_.deadlock_free = cyc.empty() && !loops_;
}

void EscapeCheck::run() {
  rep_.escape_channels = true;
  const bool entries = entries_ok();
  // Escape walks entered at every switch, through every input port (and input VL when the
  // tables are keyed by it).
  const int vls = std::max(1, std::min(ts_.vls_used, kV));
  for (const auto& [dlid, sl] : flows_) {
    ++stamp_;
    for (int x = 0; x < S_; ++x)
      for (int ip0 = 1; ip0 <= t_.nodes[x].num_ports; ++ip0) {
        if (!cabled(x, ip0)) continue;
        const bool by_vl = ts_.switches[x].sl2vl.key() == Sl2VlTable::Key::InputVl || ts_.switches[x].per_vl();
        for (int iv0 = 0; iv0 < (by_vl ? vls : 1); ++iv0) walk(dlid, sl, x, ip0, iv0);
      }
  }
  report_graph();
  rep_.deadlock_free = rep_.deadlock_free && entries;
  rep_.paths_end = rep_.paths_end && !loops_;
}

}  // namespace

void check_escape_channels(const Topology& t, const TableSet& ts, const CheckLimits& limits, CheckReport& rep) {
  EscapeCheck(t, ts, limits, rep).run();
}

}  // namespace ibsc::routing
