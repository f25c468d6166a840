// main() of every test program (tests/CMakeLists.txt links it), in place of the one
// BOOST_TEST_MODULE would define in each: Boost.Test's header is then precompiled once for all
// test files. The module takes the program's name, which Boost.Test prints on a failure.
#include <boost/test/unit_test.hpp>
#include <string>

namespace {
std::string g_module = "ibsc";

bool init_module() {
  boost::unit_test::framework::master_test_suite().p_name.value = g_module;
  return true;
}
}  // namespace

int main(int argc, char* argv[]) {
  if (argc > 0 && argv[0] != nullptr) {
    const std::string path = argv[0];
    g_module = path.substr(path.find_last_of('/') + 1);
  }
  return boost::unit_test::unit_test_main(&init_module, argc, argv);
}
