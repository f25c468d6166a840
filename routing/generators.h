// Topology generators beyond tori (seeds/000 irregular networks, seeds/001 direct networks).
// Every generator numbers switch ports network-first, hosts on the ports after them, and
// leaves spare ports (switch_ports larger than needed) unconnected. Impossible parameters
// throw std::invalid_argument naming the parameter.
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

}  // namespace ibsc::routing
