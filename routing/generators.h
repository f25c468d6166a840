// Topology generators beyond tori (seeds/000 irregular networks, seeds/001 direct networks,
// fat trees). Every direct-network generator numbers switch ports network-first, hosts on the
// ports after them; the fat trees number down ports first, then up ports (below). Spare ports
// (switch_ports larger than needed) stay unconnected. Impossible parameters throw
// std::invalid_argument naming the parameter.
#pragma once
#include <cstdint>
#include <vector>

#include "routing/topology.h"

namespace ibsc::routing {

// Binary n-cube: a torus of n dimensions of size 2; kind "hypercube". widths[d] parallel cables
// cross dimension d (empty: one each; one value: every dimension; seeds/001: 11-D, widths 2),
// on ports base_d .. base_d + widths[d] - 1, base_d = 1 + sum(widths[0..d-1]).
Topology make_hypercube(int n, int hosts_per_switch, int switch_ports = 0, const std::vector<int>& widths = {});

// Random irregular network (seeds/000): `switches` switches of `ports` ports, `hosts_per_switch`
// hosts each, the remaining ports joined to other switches at random, at most one cable between
// two switches, connected (a random spanning tree first). Deterministic in `seed`.
// The random joining can leave a few link ports free; `regular` then moves cables until every
// switch uses all ports - hosts_per_switch of them (seeds/004: 8-port switches, 4 to hosts, 4
// to other switches), keeping the network connected and simple.
Topology make_irregular(int switches, int ports, int hosts_per_switch, uint64_t seed, bool regular = false);

// Flattened butterfly / HyperX: all switches that differ in one coordinate are joined, by
// widths[d] parallel cables in dimension d. Radix = sum (k_d - 1) * w_d + hosts.
Topology make_flatfly(const std::vector<int>& dims, const std::vector<int>& widths, int hosts_per_switch,
                      int switch_ports = 0);

// Dragonfly (Kim, Dally, Scott, Abts 2008): groups of `a` fully connected switches, `h` global
// cables per switch, `p` hosts per switch, `groups` groups (0: the balanced a*h + 1). Global
// cables: one between every two groups, group i's j-th global port (j = 0..a*h-1, switch j/h)
// going to group j < i ? j : j + 1.
Topology make_dragonfly(int a, int h, int p, int groups = 0);

// Slim Fly MMS graph (Besta, Hoefler 2014) for q = 4w + d, d in {-1, 0, 1}: q a prime 4w+-1
// or a power of two (GF(2^m); seeds/001 uses q = 4 and 8); other prime powers are refused.
// 2q^2 switches of network degree (3q - d)/2, diameter 2.
// `lanes` parallel cables per link (seeds/001 SFxFF-1: q = 4, L = 2).
Topology make_slimfly(int q, int hosts_per_switch, int lanes = 1);

// Cartesian product: switch (a, b) joins (a', b) for every cable a-a' of A and (a, b') for
// every cable b-b' of B (parallel cables kept). A's ports come first, then B's, then hosts.
Topology make_product(const Topology& a, const Topology& b, int hosts_per_switch);

// ---- Fat trees (fat_tree_generators.cpp, fat_tree_cluster.cpp); kind "fattree" ----
// Common to all three: switches are numbered level by level from the leaves (level 0, the
// switches the hosts hang on) up to the top; hosts are numbered leaf by leaf. A switch's ports
// are its down ports first (port 1 up), then its up ports, then spare ones; every switch has
// the same number of ports (the largest any level needs, or switch_ports), so the top level's
// up ports are the spare ones. Parallel cables between two switches sit on consecutive ports.

// Extended generalized fat tree XGFT(h; m_1..m_h; w_1..w_h) (Ohring, Ibel, Das, Kumar 1995):
// levels 0..h, level 0 the prod(m) hosts, levels 1..h switches (switch level i is IBSC's level
// i - 1). A node at level i >= 1 has m_i children, a node at level i < h has w_{i+1} parents,
// so level i holds prod(m_{i+1..h}) * prod(w_1..w_i) nodes. An HCA has one port: w_1 must be 1.
// Node labels (a_h..a_{i+1}, b_i..b_1), a_j < m_j, b_j < w_j; a level-i node and a level-(i+1)
// node are joined when their labels differ only in place i+1 (a_{i+1} below, b_{i+1} above).
// Numbering within a level: index = B + (w_1 * .. * w_i) * A with B = b_1 + w_1 * (b_2 + w_2 *
// (.. b_i)) and A = a_{i+1} + m_{i+1} * (a_{i+2} + ..); so a level-i switch's hosts are a
// contiguous block of m_1 * .. * m_i hosts, host x hangs on leaf x / m_1, port 1 + x % m_1.
// Ports of a level-i switch: down port 1 + a*c_{i-1} + lane toward the child with a_i = a,
// up port 1 + m_i*c_{i-1} + b*c_i + lane toward the parent with b_{i+1} = b, where c_i is the
// number of parallel cables between levels i and i+1 (widths[i-1]; c_0 = 1, one per host).
// widths: empty (1 everywhere), one value for every switch level pair, or h - 1 values.
// hosts_per_leaf < 0: m_1 (the definition); 0..m_1 leaves the last down ports free.
Topology make_xgft(const std::vector<int>& m, const std::vector<int>& w, const std::vector<int>& widths = {},
                   int hosts_per_leaf = -1, int switch_ports = 0);

// k-ary n-tree (Petrini, Vanneschi 1997) = XGFT(n; k,..,k; 1,k,..,k): k^n hosts, n levels of
// k^(n-1) switches, (n-1) * k^n switch-to-switch cables, 2k ports per switch. Switch <w, l>
// (w = w_0 + k*w_1 + .. + k^(n-2)*w_(n-2), level l, index l*k^(n-1) + w) joins, for every
// j < k, switch <w with digit l set to j, l + 1> from its up port k + 1 + j to that switch's
// down port 1 + w_l. Leaf <w, 0>'s down port 1 + j holds host k*w + j.
Topology make_kary_ntree(int k, int n, const std::vector<int>& widths = {}, int hosts_per_leaf = -1,
                         int switch_ports = 0);

// A cluster's fat tree as a vendor's configurator builds it: `size` hosts on the fewest
// switches of `radix` ports (R, even) that this construction allows, every port of the top
// level used downward when the size is the largest the levels hold.
// - Leaf: D = floor(R * B / (B + 1)) host ports (1..D) and U = R - D up ports (D+1..R), B the
//   blocking (B:1 over-subscription at the leaves; 1: D = U = R/2). L = ceil(size / D) leaves,
//   the hosts spread evenly (the first size mod L leaves get one more), host ports from 1.
// - 1 level (size <= R, no widths): one switch, every port a host port.
// - 2 levels: counted in bundles of w1 parallel cables (w1 = 1 without widths), a leaf has
//   b = U/w1 up bundles, a spine R/w1 down; S = ceil(L * b / (R/w1)) spines (ceil(L * U / R)
//   for w1 = 1), all ports down; leaf i's bundle j goes to spine (i * b + j) mod S, so every
//   leaf reaches every spine with floor or ceil(b / S) bundles and every spine takes floor or
//   ceil(L * b / S) <= R/w1. At most (R / w1) * D hosts (radix 36: 648, 64: 2,048).
// - 3 levels: pods of 2-level trees whose spines have R/2 ports down, R/2 up; P = ceil(L /
//   (R/2/w1)) pods, the leaves spread evenly over them, S = ceil(Lp * b / (R/2/w1)) spines per
//   pod (Lp: the largest pod) wired as above; spine j of every pod joins core group j. Each
//   spine sends X cables up, as many as the most any spine takes from below rounded up to
//   bundles of w2, x = X/w2 bundles: G = ceil(P * x / (R/w2)) cores per group, pod p's spine
//   sending bundle c to core (p * x + c) mod G of its group.
//   At most (R / w2) * (R/2 / w1) * D hosts (radix 36: 11,664, 64: 65,536).
// - levels = 0 picks the fewest levels that hold `size`; widths (one value, or leaf-spine
//   and spine-core) bundle parallel cables on consecutive ports.
// Numbering: leaves (pod by pod), then spines (pod by pod), then cores (group by group), named
// leafN, spineN, coreN; a spine's or core's down ports are filled in lower-switch order, a
// 3-level spine's up ports start at R/2 + 1. Impossible requests (odd radix, a size beyond
// what the levels hold, widths that do not divide the up ports) throw std::invalid_argument
// naming the key.
Topology make_fat_tree_cluster(int radix, int size, int levels = 0, int blocking = 1,
                               const std::vector<int>& widths = {});

}  // namespace ibsc::routing
