// The saturation search's stepping (tb/run/saturation_search.h) against a fabric faked by a
// threshold: every step above T saturates, T and below are carried. Whatever the mode (plain
// bisection, top-first under a bound, a guess near or far) and whatever a saturated probe says it
// accepted (above T, on it, a few steps under it, far under it after a collapse, or nothing),
// the search must return T; a guess on T settles in two probes (T carried, T + 1 saturated), and
// no probe is run twice.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "tb/run/mpi_progress.h"
#include "tb/run/probe_journal.h"
#include "tb/run/saturation_search.h"
#include "tb/stats/results.h"
#include "tests/support/prepared_scenario.h"
#include "tests/support/sc_test_main.h"
#include "tests/tb/tb_test_util.h"

using namespace ibsc;

namespace {

// How much a saturated probe at `step` says it accepted, on the grid.
enum class Accepted { Unknown, Above, OnThreshold, KneeLoss, Collapsed };

struct Fake {
  int threshold;
  std::multiset<int> probed;
  Accepted accepted = Accepted::Unknown;
  tb::ProbeOutcome operator()(int step) {
    probed.insert(step);
    tb::ProbeOutcome o;
    o.saturated = step > threshold;
    if (!o.saturated) return o;
    switch (accepted) {
      case Accepted::Unknown:
        break;
      case Accepted::Above:  // a quarter of the way from T to the probe, as past a knee
        o.accepted_step = threshold + (step - threshold) / 4;
        break;
      case Accepted::OnThreshold:
        o.accepted_step = threshold;
        break;
      case Accepted::KneeLoss:  // a few steps under T, as just past a knee
        o.accepted_step = std::max(threshold - 4, 0);
        break;
      case Accepted::Collapsed:  // less than T: throughput falling past saturation
        o.accepted_step = threshold / 2;
        break;
    }
    return o;
  }
};

int run(const tb::SaturationSearch& s, Fake& f) {
  return tb::search_saturation_step(s, [&](int step) { return f(step); });
}

void no_repeats(const Fake& f) {
  for (int step : f.probed) BOOST_TEST(f.probed.count(step) == 1u, "step " << step << " probed twice");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(saturation_search)

BOOST_AUTO_TEST_CASE(every_mode_finds_the_threshold) {
  for (int t : {0, 1, 5, 37, 64, 100, 127, 128}) {
    for (int guess : {-1, 1, t - 3, t - 1, t, t + 1, t + 3, 64, 128})
      for (Accepted a :
           {Accepted::Unknown, Accepted::Above, Accepted::OnThreshold, Accepted::KneeLoss, Accepted::Collapsed}) {
        tb::SaturationSearch s;
        s.guess = guess;
        Fake f{t, {}, a};
        BOOST_TEST(run(s, f) == t, "threshold " << t << ", guess " << guess << ", accepted " << static_cast<int>(a));
        no_repeats(f);
        BOOST_TEST(f.probed.count(0) == 0u);  // step 0 is never run
      }
    // Under a bound whose next step is known to saturate (the fake's threshold at or below it).
    tb::SaturationSearch top;
    top.known_saturated = std::min(t + 1 + t % 3, 129);
    top.top_first = true;
    Fake f{t, {}};
    BOOST_TEST(run(top, f) == t);
    no_repeats(f);
  }
}

BOOST_AUTO_TEST_CASE(probe_counts) {
  // Plain bisection of 0..129: 7 or 8 probes.
  Fake plain{40, {}};
  run(tb::SaturationSearch{}, plain);
  BOOST_TEST(plain.probed.size() >= 7u);
  BOOST_TEST(plain.probed.size() <= 8u);
  // A guess on the threshold: 40 carried, 41 saturated.
  tb::SaturationSearch on;
  on.guess = 40;
  Fake exact{40, {}};
  run(on, exact);
  BOOST_TEST((exact.probed == std::multiset<int>{40, 41}));
  // A guess one step high: 41 saturated, 40 carried.
  on.guess = 41;
  Fake high{40, {}};
  run(on, high);
  BOOST_TEST((high.probed == std::multiset<int>{40, 41}));
  // top_first at a bound the fabric reaches: one probe (the step under the known saturated one).
  tb::SaturationSearch top;
  top.known_saturated = 33;
  top.top_first = true;
  top.guess = 5;  // ignored with top_first
  Fake at_bound{32, {}};
  BOOST_TEST(run(top, at_bound) == 32);
  BOOST_TEST((at_bound.probed == std::multiset<int>{32}));
}

// A guess far above saturation (a stand-in at step 89, 69.5%, where the talk's network carries
// step 12): galloping down 1, 2, 4... from it takes 13 probes, as FlatFly ADOR reversal did. With
// the accepted traffic of a saturated probe that carried less than 80% of its load, the gallop
// starts again there: 89 (accepted 31), 31 (16), 16 (13: 81%, so it gallops on), 15, 13, 9, 11,
// 12 carried: eight probes.
BOOST_AUTO_TEST_CASE(far_guess_follows_the_accepted_traffic) {
  tb::SaturationSearch s;
  s.guess = 89;
  Fake blind{12, {}, Accepted::Unknown};
  BOOST_TEST(run(s, blind) == 12);
  BOOST_TEST(blind.probed.size() == 13u);
  Fake told{12, {}, Accepted::Above};
  BOOST_TEST(run(s, told) == 12);
  BOOST_TEST((told.probed == std::multiset<int>{89, 31, 16, 15, 13, 9, 11, 12}));
  // Told it carried exactly the threshold: 89, then 12 carried, 13 saturated.
  Fake exact{12, {}, Accepted::OnThreshold};
  BOOST_TEST(run(s, exact) == 12);
  BOOST_TEST((exact.probed == std::multiset<int>{89, 12, 13}));
  // After a collapse the accepted step is carried and the gallop climbs back from it.
  Fake collapsed{12, {}, Accepted::Collapsed};
  BOOST_TEST(run(s, collapsed) == 12);
  BOOST_TEST(collapsed.probed.size() < blind.probed.size());
}

// A guess one step high whose probe, past the knee, carried a few steps less than saturation
// (FlatFly ADOR complement: 53.1% saturated carrying 49.9%, 52.3% carried): it carried more than
// 80% of its load, so the search gallops down one step and settles in two probes, not five.
BOOST_AUTO_TEST_CASE(near_guess_ignores_a_knee_loss) {
  tb::SaturationSearch s;
  s.guess = 68;
  Fake knee{67, {}, Accepted::KneeLoss};
  BOOST_TEST(run(s, knee) == 67);
  BOOST_TEST((knee.probed == std::multiset<int>{68, 67}));
}

// The journal's file: probes come back for their own record only; a line cut short (a crash in
// the middle of a write) is passed over, and the next probe still lands on a line of its own.
BOOST_AUTO_TEST_CASE(journal_file) {
  const std::string path = tb::test::scratch("journal_file/probes/exp.jsonl");  // the folder is made on first use
  {
    tb::ProbeJournal j(path, "record-a");
    BOOST_TEST(j.on());
    BOOST_TEST(!j.find(40));
    j.add(40, nlohmann::json::parse(R"({"offered_load":0.3125})"), 12.5);
    j.add(48, nlohmann::json::parse(R"({"offered_load":0.375})"), 20.0);
  }
  tb::ProbeJournal a(path, "record-a");
  BOOST_TEST_REQUIRE(a.find(40));
  BOOST_TEST(a.find(40)->point.dump() == R"({"offered_load":0.3125})");
  BOOST_TEST(a.find(40)->cpu_seconds == 12.5);
  BOOST_TEST(a.find(48)->cpu_seconds == 20.0);
  BOOST_TEST(!a.find(44));
  BOOST_TEST(!tb::ProbeJournal(path, "record-b").find(40));  // another command's record
  std::ofstream(path, std::ios::app) << R"({"record":"record-a","step":"x","point":{}})"
                                     << "\n"  // not a step
                                     << R"({"record":7,"step":44,"point":{}})"
                                     << "\n"                                           // not a record
                                     << R"({"record":"record-a","step":44,"cpu_sec)";  // cut short
  tb::ProbeJournal cut(path, "record-a");
  BOOST_TEST(!cut.find(44));
  BOOST_TEST(cut.find(48));
  cut.add(44, nlohmann::json::parse(R"({"offered_load":0.34375})"), 3.0);
  BOOST_TEST(tb::ProbeJournal(path, "record-a").find(44));
  BOOST_TEST(tb::ProbeJournal(path, "record-a").find(40));

  // The last line of a step counts: one resting on a file that is gone, then the same step run
  // again (taken back); a kept step, then a line of it resting on a gone file (run again).
  const std::string gone = R"("reads":"read /nonexistent/ibsc-perm.txt: 0123456789abcdef\n")";
  std::ofstream(path, std::ios::app) << R"({"record":"record-a","step":52,"point":{},)" << gone << "}\n"
                                     << R"({"record":"record-a","step":52,"point":{"offered_load":0.40625}})"
                                     << "\n"
                                     << R"({"record":"record-a","step":48,"point":{},)" << gone << "}\n"
                                     << R"({"record":"record-a","step":40,"point":{},"reads":7})"
                                     << "\n";
  tb::ProbeJournal last(path, "record-a");
  BOOST_TEST(last.find(52));
  BOOST_TEST(!last.stale(52));
  BOOST_TEST(!last.find(48));
  BOOST_TEST_REQUIRE(last.stale(48));
  BOOST_TEST(*last.stale(48) == "/nonexistent/ibsc-perm.txt is gone");
  BOOST_TEST(!last.find(40));  // its record of files read is not text
  BOOST_TEST(last.stale(40));
  BOOST_TEST(last.find(44));
}

// A journal it cannot write to turns itself off instead of failing the search.
BOOST_AUTO_TEST_CASE(journal_unwritable) {
  const std::string file = tb::test::write_file("journal_unwritable", "x");
  tb::ProbeJournal j(file + "/probes.jsonl", "r");  // under a regular file
  j.add(8, nlohmann::json::parse(R"({"offered_load":0.5})"), 1.0);
  BOOST_TEST(!j.on());
}

// A search whose probes were kept, run again with its journal, runs no probe and gives the same
// points byte for byte as a search without one (a rerun of a stopped run under mpirun takes
// back what it had finished); the CPU the probes had cost comes back with them.
BOOST_AUTO_TEST_CASE(journal_gives_back_the_same_search) {
  const testing::PreparedScenario quick(IBSC_SOURCE_DIR "/scenarios/quickstart.yaml",
                                        {"run.warmup_ns=20000", "run.window_ns=100000", "run.drain_ns=200000"});
  const tb::PointSetup& point = quick.s.point;
  tb::SaturationSearch search;
  search.grid = 16;
  search.guess = 4;
  auto texts = [](const tb::SaturationFound& f) {
    std::vector<std::string> t;
    for (const auto& p : f.points) t.push_back(tb::to_json(p).dump());
    return t;
  };
  const std::string path = tb::test::scratch("journal_search.jsonl");
  const tb::SaturationFound plain = tb::find_saturation_step(point, search);
  tb::ProbeJournal first(path, "record-a");
  const tb::SaturationFound kept = tb::find_saturation_step(point, search, &first);
  BOOST_TEST(kept.taken_back == 0);
  BOOST_TEST(kept.step == plain.step);
  BOOST_TEST(texts(kept) == texts(plain), boost::test_tools::per_element());
  BOOST_TEST(plain.points.size() >= 2u);  // a bracket: one carried, one saturated
  tb::ProbeJournal again(path, "record-a");
  const tb::SaturationFound back = tb::find_saturation_step(point, search, &again);
  BOOST_TEST(back.taken_back == static_cast<int>(plain.points.size()));
  BOOST_TEST(back.taken_back_cpu_seconds > 0.0);
  BOOST_TEST(back.step == plain.step);
  BOOST_TEST(texts(back) == texts(plain), boost::test_tools::per_element());
  for (size_t k = 0; k < back.points.size(); ++k)
    BOOST_TEST(back.points[k].wall_seconds == kept.points[k].wall_seconds);
}

// A probe rests on the files read by the time it ends (here the permutation its traffic follows,
// which its forked process reads again): its journal line names them, and a rerun after one of them
// changed runs that probe again instead of taking back a point of the old file.
BOOST_AUTO_TEST_CASE(journal_runs_again_a_probe_whose_file_changed) {
  std::string pairs;  // host i sends to i + 32 of the 64: every flow crosses the torus
  for (int i = 0; i < 64; ++i) pairs += std::to_string(i) + " " + std::to_string((i + 32) % 64) + "\n";
  const std::string perm = tb::test::write_file("journal_reads_perm.txt", pairs);
  const std::string perm_abs = std::filesystem::weakly_canonical(perm).string();
  const testing::PreparedScenario quick(IBSC_SOURCE_DIR "/scenarios/quickstart.yaml",
                                        {"run.warmup_ns=20000", "run.window_ns=100000", "run.drain_ns=200000",
                                         "traffic.pattern=permutation", "traffic.permutation_file=" + perm});
  tb::SaturationSearch search;
  search.grid = 16;
  search.guess = 4;
  const std::string out = tb::test::scratch("journal_reads/out"), path = out + "/probes.jsonl";
  auto reads_now = [&] { return tb::reads_beyond(out, ""); };
  tb::ProbeJournal first(path, "record-a", reads_now);
  const tb::SaturationFound kept = tb::find_saturation_step(quick.s.point, search, &first);
  std::ifstream in(path);
  int lines = 0;
  for (std::string line; std::getline(in, line); ++lines)
    BOOST_TEST(nlohmann::json::parse(line).at("reads").get<std::string>().find("read " + perm_abs + ": ") !=
               std::string::npos);
  BOOST_TEST(lines == static_cast<int>(kept.points.size()));

  tb::ProbeJournal same(path, "record-a", reads_now);  // nothing changed: every probe comes back
  BOOST_TEST(tb::find_saturation_step(quick.s.point, search, &same).taken_back == lines);

  std::string shifted;
  for (int i = 0; i < 64; ++i) shifted += std::to_string(i) + " " + std::to_string((i + 1) % 64) + "\n";
  tb::test::write_file("journal_reads_perm.txt", shifted);
  tb::ProbeJournal after_edit(path, "record-a", reads_now);
  for (const auto& p : kept.points) {
    const int step = static_cast<int>(std::lround(p.offered_load * search.grid));
    BOOST_TEST(!after_edit.find(step));
    BOOST_REQUIRE(after_edit.stale(step));
    BOOST_TEST(*after_edit.stale(step) == perm_abs + " has changed");
  }
  // The search runs them again, and says so for each it reaches (the new permutation may lead
  // it to other steps too).
  std::set<int> stale_steps;
  for (const auto& p : kept.points) stale_steps.insert(static_cast<int>(std::lround(p.offered_load * search.grid)));
  const tb::SaturationFound rerun = tb::find_saturation_step(quick.s.point, search, &after_edit);
  BOOST_TEST(rerun.taken_back == 0);
  size_t both = 0;
  for (const auto& p : rerun.points)
    both += stale_steps.count(static_cast<int>(std::lround(p.offered_load * search.grid)));
  BOOST_TEST(both > 0u);
  BOOST_TEST(rerun.run_again.size() == both);
  for (int step : stale_steps) BOOST_TEST(!after_edit.stale(step) == !!after_edit.find(step));  // run again: kept
}

BOOST_AUTO_TEST_SUITE_END()
