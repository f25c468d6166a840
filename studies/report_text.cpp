#include "studies/report_text.h"

#include <fmt/format.h>

#include <cmath>

namespace ibsc::tb::report {

std::string num(double v, int decimals) { return std::isnan(v) ? "n/a" : fmt::format("{:.{}f}", v, decimals); }

std::string pct(double v) { return std::isnan(v) ? "-" : fmt::format("{:.1f}", v); }

std::vector<std::string> option(const Study& s, const std::string& key) {
  auto it = s.report_options.find(key);
  return it == s.report_options.end() ? std::vector<std::string>{} : it->second;
}

const LoadPointResult* at_load(const ExperimentResult& r, double load) {
  for (const auto& p : r.points)
    if (std::abs(p.offered_load - load) < 1e-9) return &p;
  return nullptr;
}

}  // namespace ibsc::tb::report
