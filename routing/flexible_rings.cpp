// Flexible's turn set for tori with rings of 3 or 4 switches. Flexible breaks the two directions
// of a cycle at different switches; on a 4-switch ring the distance-2 pairs have two minimal
// paths, and breaking + at the even switches and - at the odd ones leaves each of them exactly
// one (0->2 and 2->0 go +, 1->3 and 3->1 go -), so every ring channel carries the same number
// of paths. Across dimensions, turns go only toward a higher dimension (the cycles between
// dimensions are broken the way dimension order breaks them). Every pair keeps a minimal path,
// the turn set is acyclic, and the paths depend only on the destination at each switch (no
// destination renaming). Longer rings would lose minimal paths at the breaks, so they are left
// to the general search.
#include "routing/flexible_rings.h"

namespace ibsc::routing {

bool ring_break_rules(const Topology& t, const SwitchGraph& g, TurnRules& out) {
  if (t.kind != "torus" || t.dims.empty() || t.num_switches != g.n) return false;
  for (int k : t.dims)
    if (k < 3 || k > 4) return false;
  for (int w : t.widths)
    if (w != 1) return false;
  // Dimension and direction (+1 / -1) of every channel, from the switch coordinates.
  const int C = static_cast<int>(g.channels.size());
  std::vector<int> dim(C, -1), dir(C, 0);
  for (int c = 0; c < C; ++c) {
    const auto& a = t.nodes[g.channels[c].from].coord;
    const auto& b = t.nodes[g.channels[c].to].coord;
    if (a.size() != t.dims.size() || b.size() != t.dims.size()) return false;
    for (size_t d = 0; d < a.size(); ++d) {
      if (a[d] == b[d]) continue;
      if (dim[c] >= 0) return false;
      dim[c] = static_cast<int>(d);
      dir[c] = (a[d] + 1) % t.dims[d] == b[d] ? 1 : -1;
    }
    if (dim[c] < 0) return false;
  }
  TurnRules r = TurnRules::all_but_u_turns(g);
  for (int c = 0; c < C; ++c) {
    const int x = g.channels[c].to;
    const int parity = t.nodes[x].coord[dim[c]] % 2;
    for (int c2 : g.out[x]) {
      if (c2 == g.reverse[c]) continue;
      bool allow = dim[c2] > dim[c];
      if (dim[c2] == dim[c] && dir[c2] == dir[c]) allow = dir[c] > 0 ? parity == 1 : parity == 0;
      r.set(g, c, c2, allow);
    }
  }
  out = std::move(r);
  return true;
}

}  // namespace ibsc::routing
