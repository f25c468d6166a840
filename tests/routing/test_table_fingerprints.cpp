// The tables of the routings whose construction was made faster (issue 16: DOR, Mixed DOR,
// Distance+k, Deflection+k, the ADOR family, e-cube and the other users of the switch-LID
// routes and of build_vl_tables) are pinned by their fingerprint (routing/table_hash.h), taken
// from the tables as they were built before: a faster construction must program the same
// fabric, entry for entry, path record for path record. And the fingerprint sees a change of
// one LFT candidate, one VL2VL entry or one path record's SL. Distance+k and Deflection+k were
// retaken when the source's switch began to keep the VL (k extra hops, routing/distance.cpp).
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <cstdio>
#include <string>

#include "routing/routing.h"
#include "routing/table_hash.h"
#include "routing/topo_spec.h"

using namespace ibsc;
using namespace ibsc::routing;

namespace {

struct Case {
  const char* spec;
  const char* algorithm;
  int k;
  uint64_t fingerprint;
};

TableSet route(const char* spec, const char* algorithm, int k) {
  RoutingOptions o;
  o.algorithm = enum_value<Algorithm>(algorithm);
  o.k = k;
  return compute_routing(build_topology_spec(spec), o);
}

void check(const Case& c) {
  const uint64_t got = table_fingerprint(route(c.spec, c.algorithm, c.k));
  char hex[24];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(got));
  BOOST_TEST_INFO(c.spec << " " << c.algorithm << " k " << c.k << ": " << hex);
  BOOST_TEST(got == c.fingerprint);
}

const char* const kFlatfly1k = "flatfly:4x4x8:widths=2,1,1:hosts=8";  // bench/large_fabric_bench's 1,024 hosts
const char* const kFlatfly4k = "flatfly:4x4x4x8:widths=2,1,1,1:hosts=8";
const char* const kTorus = "torus:4x4x4:hosts=2";

}  // namespace

BOOST_AUTO_TEST_CASE(dor_and_mixed_dor) {
  for (const Case& c :
       {Case{kFlatfly1k, "dor", 1, 0x5c9d12f936bab76cULL}, Case{kFlatfly1k, "mixed-dor", 1, 0x3c99783cd0b7082aULL},
        Case{kFlatfly4k, "dor", 1, 0xc4c6ff79edb29ea7ULL}, Case{kFlatfly4k, "mixed-dor", 1, 0x799bbf3a0d6e2a4aULL},
        Case{"hypercube:6:widths=2:hosts=2", "dor", 1, 0xff29dc4f25172301ULL},
        Case{"hypercube:4:widths=2:hosts=2", "mixed-dor", 1, 0x8ec23a01754feab5ULL}})
    check(c);
}

BOOST_AUTO_TEST_CASE(distance_and_deflection) {
  for (const Case& c :
       {Case{kFlatfly1k, "distance", 4, 0x9a1bbd7b808a4eb3ULL}, Case{kFlatfly1k, "distance", 1, 0xfb1ea4397b30c029ULL},
        Case{kFlatfly1k, "distance", 0, 0x99585cd52e560379ULL},
        Case{kFlatfly1k, "deflection", 3, 0xec4b5990143873edULL},
        Case{kFlatfly4k, "distance", 4, 0x3c6a85529d4c09f5ULL},
        Case{kFlatfly4k, "deflection", 3, 0x9c58eca25a9c48f9ULL},
        Case{"dragonfly:a=4,h=2,p=2", "distance", 2, 0x268096a58a8b661fULL},
        Case{"slimfly:q=5:hosts=2", "distance", 2, 0xa835642b611f8788ULL}})
    check(c);
}

BOOST_AUTO_TEST_CASE(ador_family) {
  for (const Case& c :
       {Case{kFlatfly1k, "ador", 1, 0xbf7a5f418e67871cULL}, Case{kFlatfly1k, "mixed-ador", 1, 0xdf595bb3c57dc787ULL},
        Case{kFlatfly1k, "twisted-ador", 1, 0x05a665fe356442bfULL},
        Case{kFlatfly1k, "twisted-mixed", 1, 0x4a2a1d80563ccb0cULL}, Case{kFlatfly4k, "ador", 1, 0xc280eca40bb6033bULL},
        Case{kFlatfly4k, "mixed-ador", 1, 0xaef4aa2c1b828e8dULL},
        Case{kFlatfly4k, "twisted-ador", 1, 0x2302cbe815a5e557ULL},
        Case{kFlatfly4k, "twisted-mixed", 1, 0xc2a23457a163a4dfULL},
        Case{"hypercube:4:widths=2:hosts=2", "ador", 1, 0xbad5ca1deb5866f2ULL}})
    check(c);
}

// The other routings that program the switch LIDs the same way (routing/lids.h).
BOOST_AUTO_TEST_CASE(switch_lid_routes_of_other_routings) {
  for (const Case& c :
       {Case{"torus:4x8x8:widths=3,5,5:hosts=2", "ecube", 1, 0x393e77c68ad82e6cULL},
        Case{"torus:4x4:hosts=2", "dor1vl", 1, 0x87e9bcd9460b6151ULL}, Case{kTorus, "minhop", 1, 0x5eec61216d8c2b61ULL},
        Case{kTorus, "updown-bfs", 1, 0x6c934a281b87825fULL}, Case{kTorus, "adaptive-updown", 1, 0x7b9238745050709fULL},
        Case{kTorus, "updown-escape", 1, 0xd66dd9150e21878bULL}, Case{kTorus, "flexible", 1, 0xaeca025f375ac200ULL},
        Case{kTorus, "vn", 1, 0xafe65095f4875c71ULL}, Case{kTorus, "tftr", 1, 0xd49e468ab247e51bULL},
        Case{"irregular:64:hosts=2:ports=8:seed=1", "updown-dfs", 1, 0x9a2b64637d2fff1dULL},
        Case{"irregular:64:hosts=2:ports=8:seed=1", "minhop", 1, 0xb35b44ac7e4f85a8ULL},
        Case{"dragonfly:a=4,h=2,p=2", "gsid", 1, 0xc8546cd9dded25d6ULL},
        Case{"dragonfly:a=4,h=2,p=2", "static", 1, 0x912c8efe00c1771bULL}})
    check(c);
}

BOOST_AUTO_TEST_CASE(one_changed_entry_changes_the_fingerprint) {
  const TableSet base = route(kFlatfly1k, "distance", 2);
  const uint64_t h = table_fingerprint(base);
  TableSet a = base;  // a plain LFT entry: its port
  const Lid l = a.hosts[5].base_lid;
  a.switches[3].lft.set(l, static_cast<PortNum>(a.switches[3].lft[l].primary() + 1));
  BOOST_TEST(table_fingerprint(a) != h);
  TableSet b = base;  // a per-VL entry: the same column content under another column id
  b.switches[3].vl_column[l] = b.switches[3].vl_column[l] + 1;
  BOOST_TEST(table_fingerprint(b) != h);
  TableSet c = base;  // one VL2VL entry
  c.switches[0].sl2vl.set(1, 2, 3, static_cast<Vl>(c.switches[0].sl2vl.get(1, 2, 3) + 1));
  BOOST_TEST(table_fingerprint(c) != h);
  TableSet d = base;  // one path record's SL (a shared row: copied on write)
  d.hosts[7].paths.set_sl(100, 0, static_cast<Sl>(d.hosts[7].paths[100].front().sl + 1));
  BOOST_TEST(table_fingerprint(d) != h);
  BOOST_TEST(table_fingerprint(base) == h);
}
