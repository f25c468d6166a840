#include "studies/stand_ins.h"

#include <filesystem>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace ibsc::tb {

std::string stand_in_path(const std::string& study_file, const std::string& study_name) {
  const std::string rel = "reports/" + study_name + "/saturation.csv";
  std::error_code ec;
  if (std::filesystem::is_regular_file(rel, ec)) return rel;
  const auto beside = std::filesystem::path(study_file).parent_path() / ".." / ".." / rel;
  if (std::filesystem::is_regular_file(beside, ec)) return beside.lexically_normal().string();
  return "";
}

std::map<std::string, StandIn> parse_stand_ins(const std::string& text, const std::string& path) {
  std::map<std::string, StandIn> out;
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  if (line.rfind("table,row,network,routing,pattern,talk,ours,bound,bound_step,ours_step,", 0) != 0)
    throw std::runtime_error(path + ":1: not a saturation.csv of ibsc reproduce (header '" + line.substr(0, 80) + "')");
  for (int n = 2; std::getline(in, line); ++n) {
    std::vector<std::string> f;
    for (size_t a = 0, b; a <= line.size(); a = b + 1) {
      b = std::min(line.find(',', a), line.size());
      f.push_back(line.substr(a, b - a));
    }
    const std::string at = path + ":" + std::to_string(n) + ": ";
    if (f.size() < 13)
      throw std::runtime_error(at + std::to_string(f.size()) + " fields, expected 13 or more (table,row,...,status)");
    if (f[12] != "ok") continue;
    // The figure in column COL, or -1 for "-".
    auto number = [&](int col, const char* key) {
      if (f[col] == "-") return -1.0;
      size_t used = 0;
      double v = 0;
      try {
        v = std::stod(f[col], &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used == 0 || used != f[col].size())
        throw std::runtime_error(at + "key '" + key + "': '" + f[col] + "' is not a number");
      return v;
    };
    StandIn si;
    si.step = static_cast<int>(number(9, "ours_step"));
    const double ours = number(6, "ours"), bound = number(7, "bound");
    if (ours >= 0 && bound > 0) si.share_of_bound = ours / bound;
    out[f[0] + "/" + f[1] + "/" + f[4]] = si;
  }
  return out;
}

}  // namespace ibsc::tb
