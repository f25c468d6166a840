// The paper's qualitative and quantitative conclusions (seeds/000 sections 6.2 and 7) checked
// against a study run: each with the paper's value, ours, the agreement criterion and the verdict.
#pragma once
#include <string>
#include <vector>

#include "studies/study_report.h"

namespace ibsc::tb {

struct Conclusion {
  std::string cell;       // explanation key: "Conclusion 8x8 e-cube over FX_1VL"
  std::string claim;      // the paper's statement
  std::string paper;      // the paper's value, as text
  std::string ours;       // ours, as text
  std::string criterion;  // what "agree" means for this line
  bool holds = false;     // the criterion holds
  // Quantitative lines: the two values (percent), compared like the tables' cells. NAN: none.
  double paper_value = 0, ours_value = 0;
  bool quantitative = false;
};

std::vector<Conclusion> study_conclusions(const StudyRun& run);

}  // namespace ibsc::tb
