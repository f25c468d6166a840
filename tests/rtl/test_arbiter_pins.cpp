// The arbiter's pin bundle (models/arbiter_pins.h) on its own: every field lands at the bit
// the RTL's header comment gives (element k of a per-port field at [k*W +: W]), fields that
// straddle a 32-bit word, the tie-off of unused ports, the priority clamp and duplicate rule,
// and the unpacking of grants. The positions below are computed by hand for 16 ports, 16 VLs,
// CREDIT_W 16, PRIO_W 3 (PORT_W = VL_W = 4).
#include <boost/test/unit_test.hpp>
#include <vector>

#include "models/arbiter_pins.h"
#include "tests/support/sc_test_main.h"

using ibsc::models::ArbiterPins;
using ibsc::models::ArbOutputStatus;
using ibsc::models::ArbRequest;
using ibsc::models::PinVector;
using Pins = ArbiterPins<16>;

// The configuration these hand computations assume is the one generated for the build.
BOOST_AUTO_TEST_CASE(widths_from_generated_header) {
  BOOST_TEST(Pins::kVls == 16u);
  BOOST_TEST(Pins::kCreditW == 16u);
  BOOST_TEST(Pins::kPrioW == 3u);
  BOOST_TEST(Pins::kPortW == 4u);
  BOOST_TEST(Pins::kVlW == 4u);
  BOOST_TEST(decltype(Pins::req_prio)::kBits == 16u * 16u * 3u);
  BOOST_TEST(decltype(Pins::out_credits)::kWords == 16u * 16u * 16u / 32u);
  BOOST_TEST(ArbiterPins<64>::kPortW == 6u);
  BOOST_TEST(ibsc::models::rtl_index_width(1) == 1u);  // as the RTL's (N > 1) ? $clog2(N) : 1
  BOOST_TEST(ibsc::models::rtl_index_width(36) == 6u);
}

BOOST_AUTO_TEST_CASE(field_across_a_word_boundary) {
  PinVector<96> v;
  v.put(30, 3, 0b101);  // bits 30, 31 in word 0, bit 32 in word 1
  BOOST_TEST(v.words[0] == 0b01u << 30);
  BOOST_TEST(v.words[1] == 1u);
  BOOST_TEST(v.get(30, 3) == 0b101u);
  v.put(30, 3, 0b010);  // overwrites, neighbours untouched
  v.put(33, 16, 0xffff);
  BOOST_TEST(v.get(30, 3) == 0b010u);
  BOOST_TEST(v.get(33, 16) == 0xffffu);
  v.put(80, 16, 0x12345);  // cut to 16 bits
  BOOST_TEST(v.words[2] == 0x2345u << 16);
}

BOOST_AUTO_TEST_CASE(pack_places_every_field) {
  const unsigned used = 6;
  std::vector<ArbRequest> req(used);
  std::vector<ArbOutputStatus> out(used);
  for (auto& o : out) o.credits = {0, 0};
  // Input 0: candidate 10 at level 2: its priority sits at (0*16+10)*3 = 30..32, across words.
  req[0].valid = true;
  req[0].candidates = {{10, 2}};
  // Input 2: VL 3, 5 credits; port 4 listed twice (the lower level counts), port 5 at level 9
  // (clamped to 7, the top level).
  req[2].valid = true;
  req[2].vl = 3;
  req[2].length_credits = 5;
  req[2].candidates = {{4, 6}, {4, 1}, {5, 9}};
  req[3].vl = 9;  // not valid: nothing of it is packed
  req[3].candidates = {{1, 0}};
  out[1].credits = {7, 300};
  out[4].busy = true;
  Pins p;
  p.clear_inputs();
  p.pack(req, out, used);

  BOOST_TEST(p.req_valid.words[0] == 0b101u);
  BOOST_TEST(p.req_cand.bit(10));
  BOOST_TEST(p.req_prio.get(30, 3) == 2u);
  BOOST_TEST(p.req_prio.words[0] == 0b10u << 30);
  BOOST_TEST(p.req_prio.words[1] == 0u);
  BOOST_TEST(p.req_cand.words[1] == (1u << 4 | 1u << 5));  // bits 2*16+4, 2*16+5
  BOOST_TEST(p.req_prio.get((2 * 16 + 4) * 3, 3) == 1u);
  BOOST_TEST(p.req_prio.get((2 * 16 + 5) * 3, 3) == 7u);
  BOOST_TEST(p.req_vl.words[0] == 3u << 8);  // [2*4 +: 4]
  BOOST_TEST(p.req_len.words[1] == 5u);      // [2*16 +: 16] = word 1, low half
  BOOST_TEST(p.req_len.words[0] == 0u);
  // Out 1: VL 0 at bit (1*16+0)*16 = 256, VL 1 at 272: both in word 8; VLs 2..15 zero.
  BOOST_TEST(p.out_credits.words[8] == (300u << 16 | 7u));
  for (unsigned w = 9; w < 16; ++w) BOOST_TEST(p.out_credits.words[w] == 0u);
  // Output 4 busy, outputs 6..15 tied off busy.
  BOOST_TEST(p.out_busy.words[0] == (1u << 4 | 0xffc0u));

  // A second cycle with nothing valid leaves no request behind.
  for (auto& r : req) r.valid = false;
  out[4].busy = false;
  p.pack(req, out, used);
  BOOST_TEST(p.req_valid.words[0] == 0u);
  for (uint32_t w : p.req_cand.words) BOOST_TEST(w == 0u);
  for (uint32_t w : p.req_prio.words) BOOST_TEST(w == 0u);
  BOOST_TEST(p.out_busy.words[0] == 0xffc0u);
}

BOOST_AUTO_TEST_CASE(unpack_grants) {
  Pins p;
  p.grant_valid.words[0] = 0b1001;  // inputs 0 and 3
  p.grant_port.put(0 * 4, 4, 5);
  p.grant_port.put(1 * 4, 4, 9);  // not valid: ignored
  p.grant_port.put(3 * 4, 4, 15);
  std::vector<int> g(5, 42);
  p.unpack(g, 4);
  BOOST_TEST(g == (std::vector<int>{5, -1, -1, 15, 42}));  // only the used inputs are written
}
