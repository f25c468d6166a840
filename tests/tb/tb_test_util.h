// Helpers shared by the tb_core suites.
#pragma once
#include <unistd.h>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

namespace ibsc::tb::test {

// A scratch file under /tmp, unique per process so parallel ctest runs do not collide.
inline std::string scratch(const std::string& name) {
  return "/tmp/ibsc_tb_core_" + std::to_string(::getpid()) + "_" + name;
}
inline std::string write_file(const std::string& name, const std::string& text) {
  std::string path = scratch(name);
  std::ofstream(path) << text;
  return path;
}
inline std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
// Five standard deviations of a binomial count: a false alarm is a 1-in-1.7-million event.
inline double five_sigma(double n, double p) { return 5.0 * std::sqrt(n * p * (1.0 - p)); }

}  // namespace ibsc::tb::test
