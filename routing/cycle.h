// Cycle search in a directed graph given in compressed form (edges of node v are
// targets[offsets[v] .. offsets[v+1])). Iterative DFS, so graphs of millions of nodes do not
// exhaust the stack. Used for channel dependency graphs.
#pragma once
#include <cstdint>
#include <vector>

namespace ibsc::routing {

// Nodes of one cycle in edge order (v0 -> v1 -> ... -> v0), or empty when the graph is acyclic.
std::vector<int> find_cycle(const std::vector<uint32_t>& offsets, const std::vector<int>& targets);

// Builds the compressed form from an edge list (duplicates removed).
void compress_edges(int nodes, std::vector<std::pair<int, int>>& edges, std::vector<uint32_t>& offsets,
                    std::vector<int>& targets);

}  // namespace ibsc::routing
