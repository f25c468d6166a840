// TFTR stage 6: LFTs, SL2VL tables and path records from the pairs' paths, by destination
// renaming (seeds/000 ref [13], seeds/002 ref [17]). Every path toward a destination switch
// gets a colour, the first whose LFT entries agree with the path at every switch it passes
// (paths in rounds: every source's primary, then every second path, ...); colour c is LID
// base + c of every host on that switch, so each path of a pair has its own DLID (they leave
// the source by different ports, so they always need different colours). The LMC is the
// smallest that holds the most colours any destination needs.
// SL2VL: each path writes (input port, output port, its SL) -> its VL at every switch it
// passes, the hosts' ports at both ends included; entries no path uses stay VL0, and so does
// the HCAs' SL2VL (the host link carries no dependency). Stage 4 made the entries agree.
#include <algorithm>
#include <string>

#include "routing/generic.h"
#include "routing/lids.h"
#include "routing/tftr.h"

namespace ibsc::routing {

namespace {

// Destination renaming: colour_of[s * n + d][i]: colour of the pair's i-th path; layers[d][c *
// n + x]: output port at switch x for colour c toward d (kNoPort: none). Returns the most
// colours a destination needs.
int colour_paths(const Topology& t, const SwitchGraph& g, const TftrResult& r, const RoutingOptions& opt,
                 std::vector<std::vector<uint8_t>>& colour_of, std::vector<std::vector<PortNum>>& layers) {
  const int n = g.n;
  const int max_colours = 1 << std::min(opt.max_lmc, kMaxLmc);
  colour_of.assign(static_cast<size_t>(n) * n, {});
  layers.assign(n, {});
  int colours_used = 1;
  size_t most_paths = 0;
  for (const auto& ps : r.pairs) most_paths = std::max(most_paths, ps.size());
  for (int d = 0; d < n; ++d) {
    auto& next = layers[d];
    next.assign(n, kNoPort);
    int colours = 1;
    for (size_t i = 0; i < most_paths; ++i)
      for (int s = 0; s < n; ++s) {
        const auto& ps = r.paths(s, d);
        if (i >= ps.size()) continue;
        auto& cols = colour_of[static_cast<size_t>(s) * n + d];
        cols.resize(ps.size(), 0);
        const auto& chans = ps[i].chans;
        int c = 0;
        for (;; ++c) {
          if (c == colours) {
            if (colours == max_colours)
              throw RoutingError("tftr: destination renaming needs more than " + std::to_string(max_colours) +
                                 " LIDs for switch " + t.nodes[d].name + " (LMC limit " + std::to_string(opt.max_lmc) +
                                 ")");
            next.resize(next.size() + n, kNoPort);
            ++colours;
          }
          bool fits = true;
          for (size_t j = 0; j < chans.size() && fits; ++j) {
            const Channel& ch = g.channels[chans[j]];
            const PortNum have = next[static_cast<size_t>(c) * n + ch.from];
            fits = have == kNoPort || have == ch.port;
          }
          if (fits) break;
        }
        for (int ch_id : chans) {
          const Channel& ch = g.channels[ch_id];
          next[static_cast<size_t>(c) * n + ch.from] = static_cast<PortNum>(ch.port);
        }
        cols[i] = static_cast<uint8_t>(c);
      }
    colours_used = std::max(colours_used, colours);
  }
  return colours_used;
}

// Each path's (input port, output port, SL) -> VL at every switch it passes; the VLs used.
int set_sl2vl(const Topology& t, const SwitchGraph& g, const TftrResult& r,
              const std::vector<std::vector<int>>& by_switch, TableSet& ts) {
  const int n = g.n;
  int vls_used = 1;
  for (int s = 0; s < n; ++s)
    for (int d = 0; d < n; ++d)
      for (const TftrPath& p : r.paths(s, d)) {
        const auto& chans = p.chans;
        for (size_t i = 0; i < chans.size(); ++i) {
          const Channel& ch = g.channels[chans[i]];
          const Vl vl = static_cast<Vl>(p.vls[i]);
          vls_used = std::max(vls_used, p.vls[i] + 1);
          if (i == 0)
            for (int h : by_switch[s]) ts.switches[s].sl2vl.set(t.host_switch_port(h), ch.port, p.sl, vl);
          else ts.switches[ch.from].sl2vl.set(g.channels[chans[i - 1]].to_port, ch.port, p.sl, vl);
        }
        const Channel& last = g.channels[chans.back()];
        for (int q : by_switch[d])
          ts.switches[d].sl2vl.set(last.to_port, t.host_switch_port(q), p.sl, static_cast<Vl>(p.vls.back()));
      }
  return vls_used;
}

// The records depend on the source switch, apart from the pair of a host with itself (none):
// one row per switch, and a copy of it for the hosts the self pair differs for.
void set_path_records(const Topology& t, const SwitchGraph& g, const TftrResult& r,
                      const std::vector<std::vector<uint8_t>>& colour_of, TableSet& ts) {
  const int n = g.n;
  std::vector<PathRow> rows(n);
  std::vector<PathRecord> recs;
  for (int s = 0; s < n; ++s) {
    rows[s].assign(t.num_hosts);
    for (int q = 0; q < t.num_hosts; ++q) {
      const int d = t.host_switch(q);
      if (d < 0 || d >= n) continue;
      if (s == d) {
        rows[s].set(q, {ts.hosts[q].base_lid, 0});
        continue;
      }
      const auto& ps = r.paths(s, d);
      const auto& cols = colour_of[static_cast<size_t>(s) * n + d];
      recs.clear();
      for (size_t i = 0; i < ps.size(); ++i)
        recs.push_back({static_cast<Lid>(ts.hosts[q].base_lid + cols[i]), static_cast<Sl>(ps[i].sl)});
      rows[s].set(q, recs);
    }
  }
  for (int h = 0; h < t.num_hosts; ++h) {
    const int s = t.host_switch(h);
    if (s < 0 || s >= n) continue;
    ts.hosts[h].paths = rows[s];
    ts.hosts[h].paths.hide(h);
  }
}

}  // namespace

TableSet tftr_tables(const Topology& t, const SwitchGraph& g, const TftrResult& r, const RoutingOptions& opt) {
  std::vector<std::vector<uint8_t>> colour_of;
  std::vector<std::vector<PortNum>> layers;
  const int colours_used = colour_paths(t, g, r, opt, colour_of, layers);
  int lmc = 0;
  while ((1 << lmc) < colours_used) ++lmc;
  TableSet ts;
  ts.algorithm = "tftr";
  assign_lids(t, lmc, ts);
  fill_renamed_lfts(t, layers, lmc, ts);
  const auto by_switch = hosts_by_switch(t);
  const int vls_used = set_sl2vl(t, g, r, by_switch, ts);
  set_path_records(t, g, r, colour_of, ts);
  ts.sls_used = static_cast<int>(r.sl_transitions.size());
  ts.vls_used = vls_used;
  route_switch_lids(t, g, ts);
  return ts;
}

}  // namespace ibsc::routing
