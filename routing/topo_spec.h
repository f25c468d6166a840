// Topology specs, the short form used on the command line and in scenarios:
//   torus:4x4  torus:4x4x4  mesh:8x8  ring:8  hypercube:6
//   irregular:16[:ports=8][:seed=3]              (N switches; seeds/000 defaults 8 ports, 4 hosts)
//   flatfly:4x8x8x8[:widths=2,1,1,1]
//   dragonfly:a=4,h=2,p=2[,g=9]
//   slimfly:q=5
//   fattree:k=18,n=2[:widths=2]                 (k-ary n-tree: k^n hosts, n levels of k^(n-1) switches)
//   xgft:m=18,36:w=1,18[:widths=1]               (XGFT(h; m; w), Ohring et al.; w1 = 1)
//   product:SPEC*SPEC                            (Cartesian product; hosts= on the product only)
//   file:PATH                                    (ibnetdiscover/ibsim dump or edge list)
// Parameters follow as `:key=value` or `,key=value`: hosts=N (per switch), ports=N (switch
// ports; spare ones stay free), seed=N. Default hosts per switch: 4 for torus, mesh, ring,
// hypercube and irregular (the seeds' switches), 8 for flatfly (seeds/001), p for dragonfly,
// (degree+1)/2 for slimfly, k or m1 on a fat tree's leaves (its other switches have none), 0 for
// product factors. widths= lists parallel cables per dimension (per switch level pair on fat
// trees; one value: all of them). Unknown kinds or keys and bad numbers throw
// std::invalid_argument naming the spec and the part.
#pragma once
#include <string>

#include "routing/topology.h"

namespace ibsc::routing {

Topology build_topology_spec(const std::string& spec);

}  // namespace ibsc::routing
