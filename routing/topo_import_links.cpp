#include "routing/topo_import_links.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <set>
#include <stdexcept>

#include "routing/strict_number.h"

namespace ibsc::routing::import_detail {
namespace {
std::string short_hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, v);
  return buf;
}
}  // namespace

void fail(const std::string& path, int line, const std::string& what) {
  throw std::invalid_argument(path + ":" + std::to_string(line) + ": " + what);
}

uint64_t hex(const std::string& path, int line, std::string_view text, uint64_t max, const std::string& what) {
  uint64_t v = 0;
  if (!parse_unsigned(text, max, v, 16))
    fail(path, line, what + " '" + std::string(text) + "' is not a hexadecimal number up to " + short_hex(max));
  return v;
}

std::string hex16(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016" PRIx64, v);
  return buf;
}

void note_unmodelled_rates(Topology& t, const std::string& path, const std::map<std::string, int>& rates) {
  if (rates.empty()) return;
  std::string list;
  for (const auto& [rate, n] : rates)
    list += (list.empty() ? "" : ", ") + rate + " on " + std::to_string(n) + (n == 1 ? " cable" : " cables");
  t.notes.push_back(path + ": per-link widths/speeds of the file (" + list +
                    ") are not modelled: link.width, link.lane_gbps and link.coding apply to every cable");
}

std::string aggregation_note(const std::string& path, int count) {
  return path + ": " + std::to_string(count) + " SHARP aggregation node(s) ('" + std::string(kAggregationNode) +
         "') left out: not compute hosts";
}

namespace {

struct RawNode {
  LinkEnd first;  // as first seen
  int line = 0;
  int ports = 0;                 // highest port number seen or the count given
  std::map<int, uint64_t> guid;  // HCA: port -> port GUID
  std::map<int, Lid> lid;        // HCA: port -> LID
};

struct Cable {
  std::pair<int, int> peer;  // (raw node, port)
  int width = 0, line = 0;
  std::string rate;
};

class Builder {
 public:
  explicit Builder(const std::string& path) : path_(path) {}

  int node(const LinkEnd& e, int line) {
    auto [it, fresh] = index_.emplace(e.key, static_cast<int>(nodes_.size()));
    if (fresh) nodes_.push_back({e, line, 0, {}, {}});
    RawNode& n = nodes_[it->second];
    const std::string who = (e.is_switch ? "switch " : "HCA ") + e.key;
    auto differs = [&](const std::string& what, const std::string& here, const std::string& there) {
      fail(path_, line,
           who + " has " + what + " " + here + " here but " + there + " on line " + std::to_string(n.line));
    };
    if (n.first.is_switch != e.is_switch) differs("type", e.is_switch ? "SW" : "CA", n.first.is_switch ? "SW" : "CA");
    if (n.first.desc != e.desc) differs("description", "'" + e.desc + "'", "'" + n.first.desc + "'");
    if (e.num_ports && n.first.num_ports && e.num_ports != n.first.num_ports)
      differs("port count", std::to_string(e.num_ports), std::to_string(n.first.num_ports));
    if (e.is_switch && (e.guid != n.first.guid || e.lid != n.first.lid))
      differs("GUID/LID", hex16(e.guid) + "/" + std::to_string(e.lid),
              hex16(n.first.guid) + "/" + std::to_string(n.first.lid));
    if (e.port < 1 || e.port > 254)
      fail(path_, line, "port " + std::to_string(e.port) + " of " + who + " outside 1..254");
    if (e.num_ports && e.port > e.num_ports)
      fail(path_, line,
           "port " + std::to_string(e.port) + " of " + who + " beyond its " + std::to_string(e.num_ports) + " ports");
    n.ports = std::max({n.ports, e.port, e.num_ports});
    if (!e.is_switch) {
      auto g = n.guid.emplace(e.port, e.guid);
      auto l = n.lid.emplace(e.port, e.lid);
      if (g.first->second != e.guid || l.first->second != e.lid)
        fail(path_, line,
             "port " + std::to_string(e.port) + " of " + who + " has GUID/LID " + hex16(e.guid) + "/" +
                 std::to_string(e.lid) + " here but " + hex16(g.first->second) + "/" + std::to_string(l.first->second) +
                 " on an earlier line");
    }
    return it->second;
  }

  void cable(const LinkLine& l) {
    const std::pair<int, int> a{node(l.a, l.line), l.a.port}, b{node(l.b, l.line), l.b.port};
    if (a == b) fail(path_, l.line, "port " + std::to_string(l.a.port) + " of " + l.a.key + " cabled to itself");
    if (!nodes_[a.first].first.is_switch && !nodes_[b.first].first.is_switch)
      fail(path_, l.line, "cable between two HCAs '" + l.a.desc + "' and '" + l.b.desc + "'");
    for (auto [from, to] : {std::pair{a, b}, std::pair{b, a}}) {
      auto c = cables_.find(from);
      if (c != cables_.end() && c->second.peer != to)
        fail(path_, l.line,
             "port " + std::to_string(from.second) + " of " + nodes_[from.first].first.key +
                 " is also cabled elsewhere (line " + std::to_string(c->second.line) + ")");
      if (c != cables_.end() && c->second.width && l.width && c->second.width != l.width)
        fail(path_, l.line,
             "the cable on port " + std::to_string(from.second) + " of " + nodes_[from.first].first.key +
                 " has another width on line " + std::to_string(c->second.line));
      if (c == cables_.end()) cables_[from] = {to, l.width, l.line, l.rate};
    }
  }

  Topology build(std::vector<std::string> notes) const;

 private:
  std::string name_of(const RawNode& n, const std::map<std::string, int>& desc_count) const {
    if (!n.first.desc.empty() && desc_count.at(n.first.desc) == 1) return n.first.desc;
    return (n.first.is_switch ? "S-" : "H-") + hex16(n.first.node_guid ? n.first.node_guid : n.first.guid).substr(2);
  }

  std::string path_;
  std::map<std::string, int> index_;
  std::vector<RawNode> nodes_;
  std::map<std::pair<int, int>, Cable> cables_;
};

Topology Builder::build(std::vector<std::string> notes) const {
  Topology t;
  t.kind = "file";
  t.notes = std::move(notes);
  std::map<std::string, int> desc_count;
  for (const RawNode& n : nodes_) ++desc_count[n.first.desc];
  for (const auto& [desc, count] : desc_count)
    if (count > 1 || desc.empty())
      t.notes.push_back(path_ + ": " + std::to_string(count) +
                        (desc.empty() ? " nodes have no description" : " nodes have the description '" + desc + "'") +
                        ": named by GUID (S-/H-<guid>)");
  std::vector<int> at(nodes_.size(), -1);  // switch raw node -> topology node
  for (size_t i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].first.is_switch) {
      at[i] = add_switch(t, name_of(nodes_[i], desc_count), nodes_[i].ports);
      t.nodes[at[i]].guid = nodes_[i].first.guid;
      t.nodes[at[i]].lid = nodes_[i].first.lid;
    }
  std::map<std::pair<int, int>, int> host_at;  // (raw node, port) -> host node
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const RawNode& n = nodes_[i];
    if (n.first.is_switch) continue;
    std::vector<int> cabled;
    for (int p = 1; p <= n.ports; ++p)
      if (cables_.count({static_cast<int>(i), p})) cabled.push_back(p);
    for (int p : cabled) {
      const std::string base = name_of(n, desc_count);
      const int h = add_host(t, cabled.size() > 1 || p != 1 ? base + "/p" + std::to_string(p) : base);
      t.nodes[h].guid = n.guid.at(p);
      t.nodes[h].lid = n.lid.at(p);
      host_at[{static_cast<int>(i), p}] = h;
    }
  }
  auto where = [&](std::pair<int, int> end) -> std::pair<int, int> {
    if (nodes_[end.first].first.is_switch) return {at[end.first], end.second};
    return {host_at.at(end), 1};
  };
  std::map<std::string, int> rates;
  for (const auto& [from, c] : cables_) {
    if (c.peer < from) continue;
    const auto a = where(from), b = where(c.peer);
    connect(t, a.first, a.second, b.first, b.second, c.width ? c.width : 1);
    if (!c.rate.empty()) ++rates[c.rate];
    if (a.first == b.first)
      t.notes.push_back(path_ + ":" + std::to_string(c.line) + ": loop-back cable on '" + t.nodes[a.first].name +
                        "' ports " + std::to_string(a.second) + "-" + std::to_string(b.second) + " (never routed)");
  }
  // Two nodes of one GUID would make an LFT dump's headers ambiguous.
  std::map<uint64_t, int> guid_node;
  for (int v = 0; v < static_cast<int>(t.nodes.size()); ++v) {
    const uint64_t g = t.nodes[v].guid;
    if (g && !guid_node.emplace(g, v).second)
      throw std::invalid_argument(path_ + ": GUID " + hex16(g) + " belongs to both '" + t.nodes[guid_node[g]].name +
                                  "' and '" + t.nodes[v].name + "'");
  }
  note_unmodelled_rates(t, path_, rates);
  return t;
}

}  // namespace

Topology build_from_links(const std::string& path, const std::vector<LinkLine>& links, const std::vector<BareEnd>& bare,
                          std::vector<std::string> notes) {
  Builder b(path);
  std::set<std::string> aggregation;  // keys of the aggregation nodes left out
  auto left_out = [&](const LinkEnd& e) {
    if (e.is_switch || e.desc != kAggregationNode) return false;
    aggregation.insert(e.key);
    return true;
  };
  for (const LinkLine& l : links) {
    const bool out_a = left_out(l.a), out_b = left_out(l.b);
    if (!out_a && !out_b) b.cable(l);
    else if (!out_a) b.node(l.a, l.line);  // the switch end still counts its port
    else if (!out_b) b.node(l.b, l.line);
  }
  for (const BareEnd& e : bare)
    if (!left_out(e.end)) b.node(e.end, e.line);
  if (!aggregation.empty()) notes.push_back(aggregation_note(path, static_cast<int>(aggregation.size())));
  return b.build(std::move(notes));
}

}  // namespace ibsc::routing::import_detail
