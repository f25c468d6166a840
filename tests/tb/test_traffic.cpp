// Destination patterns: each is a valid destination map; bit patterns match their classic
// definitions on 2^b hosts and stay permutations on other host counts; random patterns have
// the intended distribution within bounds computed from the binomial variance.
#include <boost/test/unit_test.hpp>

#include <map>
#include <set>
#include <stdexcept>

#include "routing/topo_spec.h"
#include "routing/topology.h"
#include "tb/traffic/traffic.h"
#include "tb_test_util.h"

using namespace ibsc;
using tb::test::five_sigma;

namespace {

routing::Topology hosts_only(int n) {
  routing::Topology t;
  t.num_hosts = n;
  return t;
}
routing::Topology torus44() { return routing::make_torus({4, 4}, 4, true, 8); }  // 64 hosts

std::unique_ptr<tb::DestinationPattern> make(const std::string& pattern, const routing::Topology& t) {
  tb::TrafficConfig c;
  c.pattern = enum_value<tb::TrafficPattern>(pattern);
  return tb::make_destination_pattern(c, t);
}
std::vector<int> map_of_config(const tb::TrafficConfig& c, const routing::Topology& t) {
  auto p = tb::make_destination_pattern(c, t);
  auto rng = models::make_random_stream(1);
  std::vector<int> m(t.num_hosts);
  for (int s = 0; s < t.num_hosts; ++s) m[s] = p->destination(s, rng);
  return m;
}
std::vector<int> map_of(const std::string& pattern, const routing::Topology& t) {
  tb::TrafficConfig c;
  c.pattern = enum_value<tb::TrafficPattern>(pattern);
  return map_of_config(c, t);
}
int dest(const std::string& pattern, int src) { return map_of(pattern, hosts_only(64))[src]; }

// Classic bit-level definitions, written independently of the digit implementation.
int classic(const std::string& pattern, int x, int b) {
  const int mask = (1 << b) - 1;
  auto rotr = [&](int v, int k) { return b == 0 ? v : ((v >> k) | (v << (b - k))) & mask; };
  if (pattern == "bit-reversal") {
    int r = 0;
    for (int i = 0; i < b; ++i) r |= ((x >> i) & 1) << (b - 1 - i);
    return r;
  }
  if (pattern == "bit-complement") return ~x & mask;
  if (pattern == "transpose") return rotr(x, b / 2);
  if (pattern == "bit-rotation") return rotr(x, b ? 1 : 0);
  return rotr(x, b ? b - 1 : 0);  // shuffle: rotate left by one
}

const std::vector<std::string> kBitPatterns = {"bit-reversal", "transpose", "bit-complement", "bit-rotation",
                                               "shuffle"};

// Valid destination map: in range, never self, no destination twice.
void check_permutation(const std::string& pat, const std::vector<int>& m) {
  std::set<int> seen;
  for (int s = 0; s < static_cast<int>(m.size()); ++s) {
    if (m[s] < 0) continue;
    BOOST_TEST(m[s] < static_cast<int>(m.size()), pat << ": " << s << " -> " << m[s] << " out of range");
    BOOST_TEST(m[s] != s, pat << ": " << s << " sends to itself");
    BOOST_TEST(seen.insert(m[s]).second, pat << ": destination " << m[s] << " twice");
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(traffic)

BOOST_AUTO_TEST_CASE(bit_patterns_on_64_hosts) {
  BOOST_TEST(dest("bit-reversal", 0b000001) == 0b100000);
  BOOST_TEST(dest("bit-reversal", 0b110100) == 0b001011);
  BOOST_TEST(dest("transpose", 0b000111) == 0b111000);  // halves swapped
  BOOST_TEST(dest("transpose", 0b101001) == 0b001101);
  BOOST_TEST(dest("bit-complement", 0b000101) == 0b111010);
  BOOST_TEST(dest("bit-rotation", 0b000011) == 0b100001);  // rotate right
  BOOST_TEST(dest("shuffle", 0b100001) == 0b000011);       // rotate left
  BOOST_TEST(dest("bit-reversal", 0b100001) == -1);        // fixed point sends nothing
  BOOST_TEST(dest("transpose", 0b101101) == -1);
}

BOOST_AUTO_TEST_CASE(digit_patterns_equal_classic_bits_on_powers_of_two) {
  for (int b = 2; b <= 10; ++b)
    for (const auto& pat : kBitPatterns) {
      auto m = map_of(pat, hosts_only(1 << b));
      for (int s = 0; s < (1 << b); ++s) {
        int want = classic(pat, s, b);
        BOOST_TEST(m[s] == (want == s ? -1 : want), pat << " on 2^" << b << " hosts, source " << s);
      }
    }
}

BOOST_AUTO_TEST_CASE(bit_patterns_are_permutations_on_any_host_count) {
  for (int n : {4, 6, 12, 27, 64, 100, 108, 128, 210, 256}) {
    for (const auto& pat : kBitPatterns) {
      auto m = map_of(pat, hosts_only(n));
      check_permutation(pat, m);
      // The image of a permutation's non-fixed points is exactly the set of non-fixed points.
      int silent = 0;
      for (int d : m) silent += d < 0;
      BOOST_TEST(silent < n / 2 + 1, pat << " on " << n << " hosts: " << silent << " silent sources");
    }
  }
}

BOOST_AUTO_TEST_CASE(bit_patterns_on_the_108_host_3d_torus) {
  // 3x3x3 torus, 4 hosts per switch: 108 = 2*2*3*3*3, the seeds' 3-D experiments.
  auto t = routing::make_torus({3, 3, 3}, 4, true, 10);
  BOOST_REQUIRE(t.num_hosts == 108);
  for (int s : {0, 1, 5, 53, 107}) {
    BOOST_TEST(map_of("bit-complement", t)[s] == 107 - s);
    BOOST_TEST(map_of("bit-rotation", t)[s] == (s / 2 + 54 * (s % 2) == s ? -1 : s / 2 + 54 * (s % 2)));
    BOOST_TEST(map_of("transpose", t)[s] == (s / 4 + 27 * (s % 4) == s ? -1 : s / 4 + 27 * (s % 4)));
    BOOST_TEST(map_of("shuffle", t)[s] == (s / 36 + 3 * (s % 36) == s ? -1 : s / 36 + 3 * (s % 36)));
  }
  BOOST_TEST(map_of("bit-reversal", t)[1] == 54);  // lowest base-2 digit becomes the top one
  // Shuffle undoes rotation by one digit only when every radix is equal; on 2^b hosts it must.
  auto rot = map_of("bit-rotation", hosts_only(128)), shuf = map_of("shuffle", hosts_only(128));
  for (int s = 0; s < 128; ++s)
    if (rot[s] >= 0) BOOST_TEST(shuf[rot[s]] == s);
  int silent = 0;
  for (int d : map_of("bit-reversal", t)) silent += d < 0;
  BOOST_TEST(silent == 4);  // instead of the 20+ a 7-bit reversal clipped to 108 would leave
}

// seeds/001's 16,384-host flattened butterfly: node = 8 x switch + local slot, so the bit
// patterns act on 14 bits whose low 3 are the slot (issue 16). Hand-computed: complement sends
// slot l of switch s to slot 7-l of switch 2047-s; transpose swaps the 7-bit halves; rotation
// moves the lowest bit to the top; shuffle the top bit to the bottom.
BOOST_AUTO_TEST_CASE(bit_patterns_on_the_16384_host_flattened_butterfly) {
  const routing::Topology t = routing::build_topology_spec("flatfly:4x8x8x8:widths=2,1,1,1:hosts=8");
  BOOST_REQUIRE(t.num_hosts == 16384);
  for (int h : {0, 1, 7, 8, 1000, 16383}) BOOST_TEST(t.host_switch(h) == h / 8);
  const auto comp = map_of("bit-complement", t), tr = map_of("transpose", t), rev = map_of("bit-reversal", t);
  const auto rot = map_of("bit-rotation", t), shuf = map_of("shuffle", t);
  BOOST_TEST(comp[8 * 5 + 2] == 8 * 2042 + 5);
  BOOST_TEST(tr[1] == 128);           // 0000000 0000001 -> 0000001 0000000
  BOOST_TEST(tr[8 * 3 + 1] == 3200);  // 25 = 0000000 0011001 -> 0011001 0000000
  BOOST_TEST(rev[1] == 8192);
  BOOST_TEST(rev[8] == 1024);  // bit 3 -> bit 10
  BOOST_TEST(rot[1] == 8192);
  BOOST_TEST(rot[6] == 3);
  BOOST_TEST(shuf[8192] == 1);
  BOOST_TEST(shuf[3] == 6);
  BOOST_TEST(tr[129] == -1);  // equal halves: a fixed point sends nothing
}

BOOST_AUTO_TEST_CASE(prime_host_counts_are_refused_where_nothing_would_move) {
  BOOST_CHECK_THROW(make("bit-reversal", hosts_only(7)), std::invalid_argument);
  BOOST_CHECK_THROW(make("transpose", hosts_only(7)), std::invalid_argument);
  BOOST_CHECK_THROW(make("bit-reversal", hosts_only(2)), std::invalid_argument);  // one bit: identity
  check_permutation("bit-complement", map_of("bit-complement", hosts_only(7)));
  BOOST_CHECK_THROW(make("no-such-pattern", hosts_only(8)), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(uniform_covers_all_but_self_evenly) {
  auto t = torus44();
  auto p = make("uniform", t);
  auto rng = models::make_random_stream(3);
  for (int src : {0, 5, 63}) {
    std::map<int, int> n;
    const int draws = 63 * 2000;
    for (int i = 0; i < draws; ++i) ++n[p->destination(src, rng)];
    BOOST_TEST(n.count(src) == 0u);
    BOOST_TEST(n.size() == 63u);
    for (auto [d, k] : n) BOOST_TEST(std::abs(k - 2000) < five_sigma(draws, 1.0 / 63), "host " << d << ": " << k);
  }
  BOOST_TEST(make("uniform", hosts_only(1))->destination(0, rng) == -1);
}

BOOST_AUTO_TEST_CASE(uniform_draws_are_the_same_on_every_standard_library) {
  // PCG64 is fully specified (its reference output below) and uniform_below uses only its raw outputs.
  pcg64 reference(42u, 54u);  // pcg-cpp's and pcg-c's demo: seed 42, stream 54
  BOOST_TEST(reference() == 0x86b1da1d72062b68ull);
  BOOST_TEST(reference() == 0x1304aa46c9853d39ull);
  auto p = make("uniform", hosts_only(64));
  auto rng = models::make_random_stream(1);
  std::vector<int> got;
  for (int i = 0; i < 8; ++i) got.push_back(p->destination(0, rng));
  auto again = models::make_random_stream(1);
  for (int i = 0; i < 8; ++i) BOOST_TEST(p->destination(0, again) == got[i]);
  BOOST_TEST(got == (std::vector<int>{21, 25, 10, 30, 50, 18, 32, 50}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(hotspot_share_within_binomial_bounds) {
  auto t = torus44();
  tb::TrafficConfig c;
  c.pattern = tb::TrafficPattern::Hotspot;
  c.hotspot_hosts = {10, 20};
  c.hotspot_fraction = 0.3;
  auto p = tb::make_destination_pattern(c, t);
  auto rng = models::make_random_stream(4);
  const int draws = 200000;
  // Source 0 (not hot): each hot host gets f/2 directly plus its uniform share (1-f)/63.
  std::map<int, int> n;
  for (int i = 0; i < draws; ++i) ++n[p->destination(0, rng)];
  const double p_hot = 0.3 / 2 + 0.7 / 63, p_other = 0.7 / 63;
  for (int h : {10, 20}) BOOST_TEST(std::abs(n[h] - draws * p_hot) < five_sigma(draws, p_hot));
  BOOST_TEST(std::abs(n[30] - draws * p_other) < five_sigma(draws, p_other));
  BOOST_TEST(n.count(0) == 0u);
  // Source 10 (hot itself): drawing itself falls back to uniform, never to self.
  n.clear();
  for (int i = 0; i < draws; ++i) ++n[p->destination(10, rng)];
  BOOST_TEST(n.count(10) == 0u);
  const double p_20 = 0.15 + (0.7 + 0.15) / 63;
  BOOST_TEST(std::abs(n[20] - draws * p_20) < five_sigma(draws, p_20));

  c.hotspot_hosts = {};
  BOOST_CHECK_THROW(tb::make_destination_pattern(c, t), std::invalid_argument);
  c.hotspot_hosts = {64};
  BOOST_CHECK_THROW(tb::make_destination_pattern(c, t), std::invalid_argument);
  c.hotspot_hosts = {1};
  c.hotspot_fraction = 1.5;
  BOOST_CHECK_THROW(tb::make_destination_pattern(c, t), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(all_to_all_cycles_through_the_others_in_order) {
  auto p = make("all-to-all", hosts_only(8));
  auto rng = models::make_random_stream(1);
  std::vector<int> got;
  for (int i = 0; i < 15; ++i) got.push_back(p->destination(5, rng));
  std::vector<int> want = {6, 7, 0, 1, 2, 3, 4, 6, 7, 0, 1, 2, 3, 4, 6};
  BOOST_TEST(got == want, boost::test_tools::per_element());
  BOOST_TEST(p->destination(0, rng) == 1);  // each source keeps its own position
  BOOST_TEST(p->destination(0, rng) == 2);
  BOOST_TEST(p->destination(5, rng) == 7);
}

BOOST_AUTO_TEST_CASE(neighbour_goes_to_adjacent_switches_evenly) {
  auto t = torus44();
  auto p = make("neighbour", t);
  auto rng = models::make_random_stream(6);
  auto coord = [&](int h) { return t.nodes[t.host_switch(h)].coord; };
  for (int src : {0, 7, 42}) {
    std::map<int, int> n;
    const int draws = 40000;
    for (int i = 0; i < draws; ++i) ++n[p->destination(src, rng)];
    BOOST_TEST(n.size() == 4u);  // 2n = 4 neighbouring switches, one host each (same slot)
    for (auto [d, k] : n) {
      auto a = coord(src), b = coord(d);
      int dist = 0;
      for (size_t i = 0; i < a.size(); ++i) dist += std::min((a[i] - b[i] + 4) % 4, (b[i] - a[i] + 4) % 4);
      BOOST_TEST(dist == 1, "host " << src << " -> " << d << " is " << dist << " hops away");
      BOOST_TEST(std::abs(k - draws / 4) < five_sigma(draws, 0.25));
    }
  }
  // A mesh corner has two neighbours only.
  auto mesh = routing::make_torus({3, 3}, 2, false);
  auto pm = make("neighbour", mesh);
  std::set<int> seen;
  for (int i = 0; i < 1000; ++i) seen.insert(pm->destination(0, rng));
  BOOST_TEST(seen.size() == 2u);
}

BOOST_AUTO_TEST_CASE(permutation_file_is_read_and_checked) {
  auto t = hosts_only(8);
  tb::TrafficConfig c;
  c.pattern = tb::TrafficPattern::Permutation;
  c.permutation_file = tb::test::write_file("perm_ok", "# a partial map\n0 3\n\n3 0   # swap\n1 1\n 5\t6\n");
  auto m = map_of_config(c, t);
  std::vector<int> want = {3, -1, -1, 0, -1, 6, -1, -1};  // unlisted and 1->1 send nothing
  BOOST_TEST(m == want, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(permutation_file_errors_name_file_and_line) {
  auto t = hosts_only(8);
  auto error = [&](const std::string& name, const std::string& text) -> std::string {
    tb::TrafficConfig c;
    c.pattern = tb::TrafficPattern::Permutation;
    c.permutation_file = text.empty() ? name : tb::test::write_file(name, text);
    try {
      tb::make_destination_pattern(c, t);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  auto f = [](const std::string& name) { return tb::test::scratch(name); };
  BOOST_TEST(error("p1", "0 1\n1 0\n2 1\n") == f("p1") + ":3: destination 1 listed twice (not a permutation)");
  BOOST_TEST(error("p2", "0 1\n0 2\n") == f("p2") + ":2: source 0 listed twice");
  BOOST_TEST(error("p3", "# x\n0 8\n") == f("p3") + ":2: host out of range 0..7");
  BOOST_TEST(error("p4", "0 1 2\n") == f("p4") + ":1: expected two host numbers 'src dst'");
  BOOST_TEST(error("p5", "\nzero one\n") == f("p5") + ":2: expected two host numbers 'src dst', got 'zero'");
  BOOST_TEST(error("p6", "4\n") == f("p6") + ":1: expected two host numbers 'src dst'");
  BOOST_TEST(error("/nonexistent/perm.txt", "").find("/nonexistent/perm.txt: cannot open") == 0u);
  // Issue 37: a file without a pair (empty, comments only) or a directory once ran 0 packets.
  BOOST_TEST(error("p7", "# nothing\n\n") == f("p7") + ": no 'src dst' line, so nothing would be sent");
  BOOST_TEST(error("/", "") == "/: is a directory, not a regular file (permutation file)");
  BOOST_TEST(error("", "").find("traffic.permutation_file") == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
