// The report of the seeds/002 study (reports/tftr/): Tables 1-2 and Figure 4 computed by the
// routing library in this process (as `ibsc route --paths --check` and `--fault-analysis`
// print them, no simulation), Figure 5's throughput under 0-6 random faulty cables from the
// study's runs, each beside the paper's, the differences that need an explanation, and the
// checks: TFTR's path counts, SLs within 1, up*/down* and Table 2 within 5 points, no singular
// case up to 3 faults (5 on 3D), no packet lost, no deadlock, throughput not rising with the
// number of faults (beyond the seeds' noise) and within `figure5_points` of the paper at 6.
//
// Study settings it reads (report_options in the study file, tori as in `torus:NAME`):
//   tables_tori[_quick]:        the tori of Table 1, in order;
//   table1.TORUS, updown.TORUS: the paper's Table 1 rows (TFTR: SLs then %; up*/down*: %);
//   table2[_quick]: TORUS/SLS;  table2.TORUS/SLS: the paper's row;
//   paper_sl_bounds:            TORUS/SLS runs bounded by the paper's own SL counts (full mode);
//   figure4_tftr, figure4_updown, figure4_quick, figure4_samples[_quick]: Figure 4's analysis;
//   fault_model:                the routing axis value whose decline is judged;
//   figure5.NETWORK:            the paper's change in % at 0..6 faults ("~": not given);
//   figure5_points:             allowed distance from the paper at 6 faults, in points.
// The patterns axis holds the fault counts (f0..f6, faults.random) and the lengths axis the
// draws (faults.seed and seed).
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "studies/study_report.h"

namespace ibsc::tb {

// Tables 1-2 and Figure 4 into md (with raw outputs in dir/tables.csv, dir/figure4.csv); the
// failures go to `failures`, the cells beyond the study's threshold to `outliers`.
void write_tftr_tables(std::ostream& md, const std::string& dir, const Study& s, bool quick,
                       std::vector<std::string>& failures, std::vector<ReportOutlier>& outliers);

// Writes dir/README.md, figure5.csv, figure-5.{gp,dat,svg}, the experiment CSVs; returns the failures.
std::vector<std::string> write_tftr_report(const std::string& dir, const StudyRun& run);

}  // namespace ibsc::tb
