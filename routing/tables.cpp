#include "routing/tables.h"

#include <functional>
#include <string_view>
#include <unordered_map>

namespace ibsc::routing {

size_t share_identical_sl2vl(TableSet& ts) {
  // By a hash of the entries, then compared in full: equal tables end up on the first one's store.
  std::unordered_multimap<size_t, size_t> first_of;  // hash -> switch holding a distinct store
  size_t distinct = 0;
  for (size_t s = 0; s < ts.switches.size(); ++s) {
    Sl2VlTable& tab = ts.switches[s].sl2vl;
    const std::vector<Vl>& v = tab.flat();
    const size_t h =
        std::hash<std::string_view>{}(std::string_view(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(Vl)));
    bool shared = false;
    for (auto [it, end] = first_of.equal_range(h); it != end && !shared; ++it)
      shared = tab.share_if_equal(ts.switches[it->second].sl2vl);
    if (!shared) first_of.emplace(h, s), ++distinct;
  }
  return distinct;
}

}  // namespace ibsc::routing
