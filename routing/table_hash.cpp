#include "routing/table_hash.h"

#include <unordered_map>

#include "routing/content_hash.h"

namespace ibsc::routing {
namespace {

struct Hasher {
  uint64_t h = 0x6a09e667f3bcc908ULL;
  void add(uint64_t x) { h = hash_mix(h, x); }
  void add(const PortCandidate& c) { add(static_cast<uint64_t>(c.port) << 16 | c.priority << 8 | c.escape); }
  void add(LftEntry e) {
    add(e.candidates.size());
    for (const PortCandidate& c : e.candidates) add(c);
  }
  void add(const Lft& l) {
    add(l.size());
    for (size_t d = 0; d < l.size(); ++d) add(l[d]);
  }
};

uint64_t hash_pool(const VlLftPool& p) {
  Hasher x;
  x.add(p.vls());
  x.add(p.columns());
  const size_t n = p.columns() * static_cast<size_t>(p.vls());
  for (size_t i = 0; i < n; ++i) {
    x.add(p.slots()[i].first);
    x.add(p.slots()[i].count);
    x.add(p.more_at()[i]);
  }
  for (const PortCandidate& c : p.all_candidates()) x.add(c);
  return x.h;
}

uint64_t hash_row(const PathRow& r) {
  Hasher x;
  x.add(r.size());
  PathRow all = r;  // the row's records, whichever host's view it is
  all.hide(PathRow::kNone);
  for (size_t q = 0; q < all.size(); ++q) {
    const Span<PathRecord> recs = all[q];
    x.add(recs.size());
    for (const PathRecord& p : recs) x.add(static_cast<uint64_t>(p.dlid) << 8 | p.sl);
  }
  return x.h;
}

}  // namespace

uint64_t table_fingerprint(const TableSet& ts) {
  Hasher x;
  for (char c : ts.algorithm) x.add(static_cast<unsigned char>(c));
  x.add(ts.sls_used);
  x.add(ts.vls_used);
  x.add(ts.max_lid);
  x.add(static_cast<uint64_t>(ts.path_choice));
  x.add(ts.switches.size());
  std::unordered_map<const void*, uint64_t> pools, rows;
  for (const SwitchTables& st : ts.switches) {
    x.add(st.lid);
    x.add(st.lft);
    x.add(st.lft_per_input_vl.size());
    for (const Lft& l : st.lft_per_input_vl) x.add(l);
    x.add(st.vl_column.size());
    for (uint32_t c : st.vl_column) x.add(c);
    if (st.vl_pool) {
      auto it = pools.find(st.vl_pool.get());
      if (it == pools.end()) it = pools.emplace(st.vl_pool.get(), hash_pool(*st.vl_pool)).first;
      x.add(it->second);
    }
    x.add(static_cast<uint64_t>(st.sl2vl.key()));
    const int ports = st.sl2vl.num_ports();
    x.add(ports);
    for (int i = 0; i <= ports; ++i)
      for (int o = 0; o <= ports; ++o)
        for (int k = 0; k < kNumSls; ++k) x.add(st.sl2vl.get(i, o, k));
  }
  x.add(ts.hosts.size());
  for (const HostTables& ht : ts.hosts) {
    x.add(ht.base_lid);
    x.add(ht.lmc);
    for (Vl v : ht.sl2vl) x.add(v);
    x.add(ht.paths.hidden());
    if (ht.paths.size() == 0) continue;
    auto it = rows.find(ht.paths.identity());
    if (it == rows.end()) it = rows.emplace(ht.paths.identity(), hash_row(ht.paths)).first;
    x.add(it->second);
  }
  return x.h;
}

}  // namespace ibsc::routing
