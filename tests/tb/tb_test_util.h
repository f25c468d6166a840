// Helpers shared by the tb_core suites.
#pragma once
#include <unistd.h>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace ibsc::tb::test {

// The test process's scratch folder under /tmp, unique per process so that parallel ctest runs
// do not collide, and removed with its files when the process ends (each run left some 14 files).
class ScratchDir {
 public:
  ScratchDir() : path_(std::filesystem::temp_directory_path() / ("ibsc_tb_core_" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};
inline std::string scratch(const std::string& name) {
  static const ScratchDir dir;
  return (dir.path() / name).string();
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
