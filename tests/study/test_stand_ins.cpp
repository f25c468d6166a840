// --talk-scale's starting points (studies/stand_ins.h): the committed full run of seeds/001's
// large-direct study read as `ibsc reproduce --talk-scale` reads it (every ok row, "-" as no
// figure), found beside the study's tree, and the rows it refuses, named by file, line and key.
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "studies/stand_ins.h"
#include "tests/support/sc_test_main.h"

using namespace ibsc::tb;

namespace {
const std::string kHeader =
    "table,row,network,routing,pattern,talk,ours,bound,bound_step,ours_step,probes,wall_seconds,status\n";

std::string error_of(const std::string& text) {
  try {
    parse_stand_ins(text, "s.csv");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

BOOST_AUTO_TEST_CASE(the_committed_full_run_reads_whole) {
  const std::string path = stand_in_path(IBSC_SOURCE_DIR "/scenarios/seeds001/large-direct.yaml", "large-direct");
  BOOST_TEST(path == IBSC_SOURCE_DIR "/reports/large-direct/saturation.csv");
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const auto s = parse_stand_ins(text.str(), path);
  BOOST_TEST(s.size() == 138u);  // every row of the report's table, all ok
  // Torus DOR 3D, Cmpl: 25.0 against its bound of 25.0, step 32 of 128.
  BOOST_TEST(s.at("Torus/DOR 3D/Cmpl").step == 32);
  BOOST_TEST(s.at("Torus/DOR 3D/Cmpl").share_of_bound == 1.0);
  // An adaptive row has no bound ("-"): its step only.
  BOOST_TEST(s.at("Dragonfly/GSID/All2All").step == 67);
  BOOST_TEST(s.at("Dragonfly/GSID/All2All").share_of_bound == -1.0);
  BOOST_TEST(stand_in_path(IBSC_SOURCE_DIR "/scenarios/seeds001/large-direct.yaml", "no-such-study").empty());
}

BOOST_AUTO_TEST_CASE(rows_it_cannot_read_are_named) {
  BOOST_TEST(error_of("a,b\n") == "s.csv:1: not a saturation.csv of ibsc reproduce (header 'a,b')");
  BOOST_TEST(error_of(kHeader + "T,R,n,r,Cmpl,1,2,3,4,5,6,7,ok\nT,R,n,r,Shuf,1,2\n") ==
             "s.csv:3: 7 fields, expected 13 or more (table,row,...,status)");
  BOOST_TEST(error_of(kHeader + "T,R,n,r,Cmpl,1,x1,3,4,5,6,7,ok\n") == "s.csv:2: key 'ours': 'x1' is not a number");
  BOOST_TEST(error_of(kHeader + "T,R,n,r,Cmpl,1,2,3,4,5.5z,6,7,ok\n") ==
             "s.csv:2: key 'ours_step': '5.5z' is not a number");
  // Not ok (failed, not built): no result to start from, not read.
  BOOST_TEST(parse_stand_ins(kHeader + "T,R,n,r,Cmpl,1,x,y,4,z,6,7,failed\n", "s.csv").empty());
}
