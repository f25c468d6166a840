// The progress record of a run spread over MPI ranks (tb/run/mpi_progress.h): what it writes as
// items are handed out and come back, what a rerun of the same command keeps (whole lines only),
// that another command starts afresh with the old record moved aside, what the key holds, and
// that the writes a stop cut short are cleared, and nothing else.
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "routing/input_file.h"
#include "tb/run/mpi_progress.h"

namespace fs = std::filesystem;
using ibsc::tb::MpiProgress;

namespace {
fs::path fresh_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("ibsc-test-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}
std::string text_of(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
const std::vector<std::string> kPlaces = {"node0 pid 10", "node1 pid 11"};
}  // namespace

BOOST_AUTO_TEST_CASE(record_follows_hand_out_and_give_back) {
  const fs::path out = fresh_dir("record");
  MpiProgress p;
  p.open((out / "mpi-progress").string(), "ibsc run a.yaml", kPlaces);
  BOOST_TEST(text_of(out / "mpi-progress/command.txt") == "ibsc run a.yaml");
  p.hand_out(1, "load point 1/2 (load 0.100)");
  p.hand_out(0, "load point 2/2 (load 0.200)");
  auto held = nlohmann::json::parse(text_of(out / "mpi-progress/held.json"));
  BOOST_TEST(held["ranks"][1].get<std::string>() == "node1 pid 11");
  BOOST_TEST(held["held"]["1"][0].get<std::string>() == "load point 1/2 (load 0.100)");
  p.give_back(1, "load point 1/2 (load 0.100)", true, "{\"x\":1}");
  p.give_back(0, "load point 2/2 (load 0.200)", false, "deadlock");  // failed: not kept
  held = nlohmann::json::parse(text_of(out / "mpi-progress/held.json"));
  BOOST_TEST(held["held"]["1"].empty());
  BOOST_TEST(held["held"]["0"].empty());
  const std::string lines = text_of(out / "mpi-progress/finished.jsonl");
  BOOST_TEST(std::count(lines.begin(), lines.end(), '\n') == 1);
  BOOST_TEST(nlohmann::json::parse(lines)["text"].get<std::string>() == "{\"x\":1}");
  p.remove();
  BOOST_TEST(!fs::exists(out / "mpi-progress"));
  fs::remove_all(out);
}

BOOST_AUTO_TEST_CASE(rerun_keeps_whole_lines_and_clears_cut_writes) {
  const fs::path out = fresh_dir("resume");
  const fs::path rec = out / "mpi-progress";
  {
    MpiProgress p;
    p.open(rec.string(), "ibsc reproduce s.yaml", kPlaces);
    p.hand_out(1, "b");
    p.give_back(1, "b", true, "B");
    p.hand_out(1, "c");
    p.hand_out(0, "a");
    p.give_back(0, "a", true, "A");
  }  // killed here: "c" held by rank 1
  std::ofstream(rec / "finished.jsonl", std::ios::app) << "{\"key\":\"c\",\"text\":\"cut sh";  // a line cut short
  fs::create_directories(out / "runs/b");
  std::ofstream(out / "runs/b/.results.json.AB12cd") << "half";
  std::ofstream(out / "runs/b/results.json") << "whole";
  // Not ibsc's: a user's backup file in OUT, and a cut-looking write in a folder ibsc does not write.
  std::ofstream(out / ".bashrc.backup") << "user";
  fs::create_directories(out / "notes");
  std::ofstream(out / "notes/.plan.txt.AB12cd") << "user";
  MpiProgress again;
  again.open(rec.string(), "ibsc reproduce s.yaml", kPlaces);
  BOOST_REQUIRE(again.finished("a"));
  BOOST_TEST(*again.finished("a") == "A");
  BOOST_REQUIRE(again.finished("b"));
  BOOST_TEST(*again.finished("b") == "B");
  BOOST_TEST(!again.finished("c"));  // its line was cut: it runs again
  // ... and is gone from the file, so that the next line is not appended onto it.
  BOOST_TEST(text_of(rec / "finished.jsonl").find("cut sh") == std::string::npos);
  BOOST_TEST(text_of(rec / "finished.jsonl").back() == '\n');
  BOOST_TEST(!fs::exists(out / "runs/b/.results.json.AB12cd"));
  BOOST_TEST(text_of(out / "runs/b/results.json") == "whole");
  BOOST_TEST(fs::exists(out / ".bashrc.backup"));
  BOOST_TEST(fs::exists(out / "notes/.plan.txt.AB12cd"));
  // An item kept from the earlier run comes back without a second line on file.
  again.give_back(0, "a", true, "A");
  const std::string lines = text_of(rec / "finished.jsonl");
  BOOST_TEST(lines.find("\"key\":\"a\"") == lines.rfind("\"key\":\"a\""));
  // One that no longer stands is forgotten, runs again and gets a line of its own.
  again.forget("b");
  BOOST_TEST(!again.finished("b"));
  again.give_back(1, "b", true, "B2");
  MpiProgress third;
  third.open(rec.string(), "ibsc reproduce s.yaml", kPlaces);
  BOOST_REQUIRE(third.finished("b"));
  BOOST_TEST(*third.finished("b") == "B2");  // the later line wins
  fs::remove_all(out);
}

BOOST_AUTO_TEST_CASE(another_command_starts_afresh) {
  const fs::path out = fresh_dir("other");
  const fs::path rec = out / "mpi-progress";
  {
    MpiProgress p;
    p.open(rec.string(), "ibsc run a.yaml", kPlaces);
    p.give_back(0, "load point 1/1 (load 0.100)", true, "T");
  }
  for (const char* key : {"ibsc run a.yaml --seed 2", "ibsc run a.yaml --seed 3"}) {
    MpiProgress q;
    q.open(rec.string(), key, kPlaces);
    BOOST_TEST(!q.finished("load point 1/1 (load 0.100)"));
    BOOST_TEST(text_of(rec / "command.txt") == key);
    BOOST_TEST(text_of(rec / "finished.jsonl").empty());
  }
  // Hours of finished work are moved aside, not deleted: the first record, then the second.
  BOOST_TEST(text_of(out / "mpi-progress.replaced/command.txt") == "ibsc run a.yaml");
  BOOST_TEST(text_of(out / "mpi-progress.replaced/finished.jsonl").find("\"text\":\"T\"") != std::string::npos);
  BOOST_TEST(text_of(out / "mpi-progress.replaced-2/command.txt") == "ibsc run a.yaml --seed 2");
  fs::remove_all(out);
}

// The key: the arguments without argv[0], --jobs and --quiet; each named file's content; the build.
BOOST_AUTO_TEST_CASE(key_is_the_arguments_the_inputs_and_the_build) {
  const fs::path dir = fresh_dir("key");
  const std::string scenario = (dir / "a.yaml").string(), exe = (dir / "ibsc").string();
  std::ofstream(scenario) << "name: a\n";
  std::ofstream(exe) << "build 1";
  using ibsc::tb::progress_key;
  const std::string key = progress_key({"run", scenario, "--jobs", "2", "--out", "o"}, exe);
  BOOST_TEST(key.rfind("command: ibsc run " + scenario + " --out o\nfile " + scenario + ": ", 0) == 0);
  BOOST_TEST(key == progress_key({"run", scenario, "--quiet", "--jobs=1", "--out=o"}, exe));
  BOOST_TEST(key == progress_key({"run", (dir / "." / "a.yaml").string(), "--out", "o"}, exe));
  BOOST_TEST(key != progress_key({"run", scenario, "--out", "o2"}, exe));
  std::ofstream(exe) << "build 2";
  BOOST_TEST(key != progress_key({"run", scenario, "--out", "o"}, exe));
  const std::string rebuilt = progress_key({"run", scenario, "--out", "o"}, exe);
  std::ofstream(scenario) << "name: b\n";
  BOOST_TEST(rebuilt != progress_key({"run", scenario, "--out", "o"}, exe));
  fs::remove_all(dir);
}

// The files a scenario names in turn (a study's base model) join the key once read; files under
// OUT are the command's own outputs read back, not inputs.
BOOST_AUTO_TEST_CASE(key_follows_input_files_read_but_not_outputs) {
  const fs::path dir = fresh_dir("reads");
  fs::create_directories(dir / "out" / "scenarios");
  const std::string model = (dir / "model.yaml").string(), written = (dir / "out" / "scenarios" / "x.yaml").string();
  std::ofstream(model) << "switch: {}\n";
  std::ofstream(written) << "name: x\n";
  ibsc::routing::read_input_file((dir / "." / "model.yaml").string(), ibsc::routing::kScenarioFile);
  ibsc::routing::read_input_file(written, ibsc::routing::kScenarioFile);
  const std::string beside = (dir / "out" / "topology.txt").string();  // OUT may hold inputs too (--out .)
  std::ofstream(beside) << "Switch 36\n";
  ibsc::routing::read_input_file(beside, ibsc::routing::kTopologyFile);
  const std::string out = (dir / "out").string();
  const std::string lines = ibsc::tb::inputs_read_key(out);
  BOOST_TEST(lines.find("read " + fs::weakly_canonical(model).string() + ": " +
                        ibsc::tb::digest_of_text("switch: {}\n") + "\n") != std::string::npos);
  BOOST_TEST(lines.find("x.yaml") == std::string::npos);
  BOOST_TEST(lines.find("read " + fs::weakly_canonical(beside).string() + ": ") != std::string::npos);
  BOOST_TEST(lines == ibsc::tb::inputs_read_key(out + "/"));
  std::ofstream(model) << "switch: {buffer_bytes_per_vl: 8192}\n";  // edited between two runs
  BOOST_TEST(lines != ibsc::tb::inputs_read_key(out));
  fs::remove_all(dir);
}

// A file a forked child read and its parent never did is not in the key: the item records it with
// its result, and a rerun after that file changed (or went) runs the item again, not the others.
BOOST_AUTO_TEST_CASE(an_item_keeps_the_files_it_read_beyond_the_key) {
  const fs::path dir = fresh_dir("item-reads");
  const std::string out = (dir / "out").string();
  fs::create_directories(out);
  const std::string model = (dir / "model.yaml").string(), perm = (dir / "perm.txt").string(),
                    other = (dir / "perm2.txt").string();
  std::ofstream(model) << "switch: {}\n";
  std::ofstream(perm) << "0 1\n1 0\n";
  std::ofstream(other) << "0 2\n2 0\n";
  ibsc::routing::read_input_file(model, ibsc::routing::kScenarioFile);
  const std::string key_reads = ibsc::tb::inputs_read_key(out);           // the parent's, before the first batch
  ibsc::routing::read_input_file(perm, ibsc::routing::kPermutationFile);  // in the child
  ibsc::routing::read_input_file(other, ibsc::routing::kPermutationFile);
  const std::string reads = ibsc::tb::reads_beyond(out, key_reads);
  const std::string perm_line =
      "read " + fs::weakly_canonical(perm).string() + ": " + ibsc::tb::digest_of_text("0 1\n1 0\n") + "\n";
  BOOST_TEST(reads.find(perm_line) != std::string::npos);
  BOOST_TEST(reads.find("model.yaml") == std::string::npos);  // in the key already
  BOOST_TEST(ibsc::tb::changed_input(reads).empty());

  // The result travels behind its reads, and splits back whatever bytes the text holds.
  const std::string text = std::string("{\"x\":1}\n12\nread y: z\n") + '\0';
  const std::string packed = ibsc::tb::pack_reads(reads, text);
  BOOST_TEST(ibsc::tb::unpack_reads(packed).first == reads);
  BOOST_TEST(ibsc::tb::unpack_reads(packed).second == text);
  BOOST_TEST(ibsc::tb::unpack_reads(ibsc::tb::pack_reads("", text)).second == text);
  BOOST_CHECK_THROW(ibsc::tb::unpack_reads(text), std::runtime_error);
  BOOST_CHECK_THROW(ibsc::tb::unpack_reads("999\nshort"), std::runtime_error);

  const std::string rec = out + "/mpi-progress";
  {
    MpiProgress p;
    p.open(rec, "ibsc run a.yaml", kPlaces);
    p.give_back(0, "read both", true, "A", reads);
    p.give_back(1, "read none", true, "B");
  }
  {
    MpiProgress again;  // nothing changed: both stand
    again.open(rec, "ibsc run a.yaml", kPlaces);
    BOOST_TEST(again.stale_input("read both").empty());
    BOOST_TEST(again.stale_input("read none").empty());
  }
  std::ofstream(perm) << "0 1\n1 2\n2 0\n";  // edited between the two runs
  // An item still running when the file was edited cannot vouch for either version.
  const std::string late = ibsc::tb::reads_beyond(out, key_reads);
  std::string path;
  BOOST_TEST(ibsc::tb::changed_input(late, &path) ==
             fs::weakly_canonical(perm).string() + " changed while the item ran");
  BOOST_TEST(path == fs::weakly_canonical(perm).string());
  MpiProgress after_edit;
  after_edit.open(rec, "ibsc run a.yaml", kPlaces);
  BOOST_TEST(after_edit.stale_input("read both") == fs::weakly_canonical(perm).string() + " has changed");
  BOOST_TEST(after_edit.stale_input("read none").empty());
  fs::remove(perm);
  BOOST_TEST(after_edit.stale_input("read both") == fs::weakly_canonical(perm).string() + " is gone");
  BOOST_TEST(ibsc::tb::changed_input("not a read line\n").find("names no file") != std::string::npos);
  fs::remove_all(dir);
}
