// Flexible routing, third stage (flexible_anneal.cpp): simulated annealing over the choice of
// one minimal path per ordered switch pair, keeping the channel dependency graph acyclic.
#pragma once
#include <cstdint>

#include "routing/generic.h"

namespace ibsc::routing {

// Moves tried per ordered switch pair at most (route_flexible's default budget); the search
// stops earlier once the channel loads are perfectly balanced.
constexpr int kAnnealMovesPerPair = 60;
// And at most this many in all (about 1 s on 100 switches; the gains there are small).
constexpr long kAnnealMaxMoves = 250000;

// `r` must route every pair without revisits and have an acyclic dependency graph (one VL).
// Runs `moves` annealing moves seeded by `seed` (deterministic) and leaves in `r` the best
// path set seen: lowest most loaded channel, then lowest sum of squared channel loads; never
// worse than the start, never longer, always acyclic. Returns whether any path changed.
bool anneal_acyclic(const SwitchGraph& g, RouteResult& r, uint64_t seed, long moves);

}  // namespace ibsc::routing
