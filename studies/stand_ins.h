// --talk-scale's starting points: the stand-ins' results of a study's full run
// (reports/<study>/saturation.csv), by "table/row/pattern". Each talk-scale search starts from
// its stand-in's result: a search there costs hours, and a guess within a step settles in two
// probes.
#pragma once
#include <map>
#include <string>

namespace ibsc::tb {

struct StandIn {
  int step = -1;               // ours_step
  double share_of_bound = -1;  // ours / bound (deterministic rows), -1: none
};

// Where the full run's results are: reports/<study>/saturation.csv under the working folder,
// else beside the study's own tree (<study folder>/../../reports/<study>/saturation.csv, as in
// this repository); empty when neither is there.
std::string stand_in_path(const std::string& study_file, const std::string& study_name);

// TEXT: the CSV at PATH (named in the messages). A row it cannot read is an error, not a row
// skipped: a search that silently starts elsewhere makes other probes than the report's. Rows
// whose status is not ok (failed, not built) have no result to start from and are left out;
// "-" (no figure: the adaptive rows have no bound) reads as none.
std::map<std::string, StandIn> parse_stand_ins(const std::string& text, const std::string& path);

}  // namespace ibsc::tb
