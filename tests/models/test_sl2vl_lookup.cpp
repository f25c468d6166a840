// The SL2VL look-up alone: values and key as the table says, equal tables sharing one copy,
// and the registry forgetting tables no look-up uses.
#include <boost/test/unit_test.hpp>

#include "models/sl2vl_lookup.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc;

namespace {
routing::Sl2VlTable table(Vl vl_of_sl3, routing::Sl2VlTable::Key key = routing::Sl2VlTable::Key::Sl) {
  routing::Sl2VlTable t(4, key);
  t.set_all(1, 1);
  t.set(2, 3, 3, vl_of_sl3);  // one (in, out) pair differs
  return t;
}
}  // namespace

BOOST_AUTO_TEST_CASE(lookup_reads_the_table_and_its_key) {
  const routing::Sl2VlTable t = table(2);
  models::Sl2VlLookup l(t);
  for (int in = 0; in <= 4; ++in)
    for (int out = 0; out <= 4; ++out)
      for (int k = 0; k < kNumSls; ++k) BOOST_TEST(l(in, out, static_cast<uint8_t>(k)) == t.get(in, out, k));
  BOOST_TEST(l(2, 3, 3) == 2);
  BOOST_TEST(l(3, 2, 3) == 0);
  models::Packet p;
  p.sl = 3, p.vl = 1;
  BOOST_TEST(!l.keyed_by_input_vl());
  BOOST_TEST(l.key(p) == 3);
  models::Sl2VlLookup v(table(2, routing::Sl2VlTable::Key::InputVl));
  BOOST_TEST(v.keyed_by_input_vl());
  BOOST_TEST(v.key(p) == 1);
}

BOOST_AUTO_TEST_CASE(equal_tables_share_one_copy_until_unused) {
  const size_t before = models::Sl2VlLookup::shared_tables();
  {
    models::Sl2VlLookup a(table(2)), b(table(2)), c(table(1));
    BOOST_TEST(a.data() == b.data());
    BOOST_TEST(a.data() != c.data());
    BOOST_TEST(models::Sl2VlLookup::shared_tables() == before + 2);
  }
  BOOST_TEST(models::Sl2VlLookup::shared_tables() == before);
}
