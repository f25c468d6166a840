// Routes of host pairs per switch-to-switch channel, read from the tables: each pair's primary
// path record walked through the LFTs, first candidate at each switch (as seeds/000's metrics,
// metrics.h, which take one host per switch). The busiest channel of a traffic pattern in
// routes: with every host sending at one rate, the pattern saturates at 1 / busiest of it.
#pragma once
#include <utility>
#include <vector>

#include "routing/tables.h"
#include "routing/topology.h"

namespace ibsc::routing {

struct PairLoads {
  std::vector<long> channel_load;  // by SwitchGraph channel id
  long pairs = 0;                  // pairs walked to their destination
  long broken = 0;                 // pairs without a record or whose walk did not arrive
  long busiest() const;
};

// Every ordered pair of distinct cabled hosts (uniform all-to-all). Sources of one switch with
// the same record share one walk, so it costs destinations x switches walks.
PairLoads uniform_pair_loads(const Topology& t, const TableSet& ts);
// The given (source, destination) host pairs.
PairLoads pair_loads(const Topology& t, const TableSet& ts, const std::vector<std::pair<int, int>>& pairs);
// The shift permutations of an order of hosts (order[i] -> order[(i + j) mod N], j = 1 .. N - 1):
// the most routes one channel carries in any one shift.
long busiest_shift(const Topology& t, const TableSet& ts, const std::vector<int>& order);

}  // namespace ibsc::routing
