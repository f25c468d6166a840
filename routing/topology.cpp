#include "routing/topology.h"

#include <stdexcept>
#include <string>

namespace ibsc::routing {

void connect(Topology& t, int a, int pa, int b, int pb, int width) {
  auto& A = t.nodes.at(a).ports.at(pa);
  auto& B = t.nodes.at(b).ports.at(pb);
  if (A.node >= 0 || B.node >= 0)
    throw std::invalid_argument("port already cabled: " + t.nodes[a].name + " port " + std::to_string(pa) +
                                " or " + t.nodes[b].name + " port " + std::to_string(pb));
  A = {b, pb, width};
  B = {a, pa, width};
}

}  // namespace ibsc::routing
