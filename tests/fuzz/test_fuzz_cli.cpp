// Time-boxed mutation run of the `ibsc` command over every reader (issue 37): the same mutants
// as test_fuzz_parsers.cpp, but each given to the program itself, in a child process with its own
// working folder and TMPDIR. A case fails on a run ended by a signal, a sanitizer report on
// stderr, a run still going after kHangSeconds (killed), or a file written anywhere but the
// run's output folder (WORK/TARGET/cwd/out): the working folder, TMPDIR and the folder above
// must be as they were. Runs are kept short by the command line (one short load point, tables
// above 0.05 GB refused), so a legitimate input cannot look like a hang.
// Environment: IBSC_FUZZ_SECONDS (time box per case, default 4), IBSC_FUZZ_SEED.
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/fuzz/mutator.h"

namespace fs = std::filesystem;

namespace {

const std::string kIbsc = IBSC_EXE, kCorpus = IBSC_FUZZ_CORPUS, kSource = IBSC_SOURCE_DIR, kWork = IBSC_FUZZ_WORK;
constexpr double kHangSeconds = 30;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> seeds_of(const std::vector<std::string>& files) {
  std::vector<std::string> texts;
  for (const auto& f : files) texts.push_back(read_file(f));
  return texts;
}

std::vector<std::string> corpus_files(const std::string& sub) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(kCorpus + "/" + sub))
    if (e.is_regular_file()) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// Every path under `dir` (relative), for the before/after comparison.
std::set<std::string> listing(const std::string& dir) {
  std::set<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec))
    out.insert(fs::relative(it->path(), dir).string());
  return out;
}

struct Child {
  int status = 0;
  bool hung = false;
  std::string output;  // stdout and stderr
};

// Runs ibsc with `args` in `cwd`, TMPDIR=`tmp`, output to a file; kills it after kHangSeconds.
Child run_ibsc(const std::vector<std::string>& args, const std::string& cwd, const std::string& tmp,
               const std::string& log) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(cwd.c_str()) != 0) _exit(120);
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) _exit(121);
    dup2(fd, 1);
    dup2(fd, 2);
    setenv("TMPDIR", tmp.c_str(), 1);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(kIbsc.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(kIbsc.c_str(), argv.data());
    _exit(122);
  }
  Child c;
  const auto t0 = std::chrono::steady_clock::now();
  while (waitpid(pid, &c.status, WNOHANG) == 0) {
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > kHangSeconds) {
      c.hung = true;
      kill(pid, SIGKILL);
      waitpid(pid, &c.status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  c.output = read_file(log);
  return c;
}

// Mutants of `seeds` written to the sandbox as `file_name`, each run as `args(path)`.
void fuzz_cli(const std::string& target, const std::vector<std::string>& seeds, const std::string& file_name,
              const std::function<std::vector<std::string>(const std::string&)>& args) {
  BOOST_REQUIRE(!seeds.empty());
  const char* box_env = std::getenv("IBSC_FUZZ_SECONDS");
  const double box_s = box_env && *box_env ? std::atof(box_env) : 4.0;
  const char* seed_env = std::getenv("IBSC_FUZZ_SEED");
  const uint64_t seed = seed_env && *seed_env ? std::strtoull(seed_env, nullptr, 10) : 37;
  ibsc::fuzz::Mutator m(seed * 1000003 + std::hash<std::string>{}(target) % 1000,
                        {"\n", " ", "0", ":", "-", "#", "../"});
  // The folder above the run's own is the case's, so that cases running at once do not see
  // each other's files.
  const std::string above_dir = kWork + "/cli/" + target, box = above_dir + "/box", cwd = box + "/cwd",
                    tmp = box + "/tmp";
  const std::string input = box + "/" + file_name, log = box + "/run.log";
  fs::remove_all(box);
  fs::create_directories(above_dir);
  const auto above = listing(above_dir);
  const auto started = std::chrono::steady_clock::now();
  uint64_t runs = 0, refused = 0;
  std::vector<std::string> failures;
  for (size_t i = 0;; ++i) {
    if (i >= seeds.size() && std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() > box_s)
      break;
    fs::remove_all(box);
    fs::create_directories(cwd + "/out");
    fs::create_directories(tmp);
    std::ofstream(input, std::ios::binary) << (i < seeds.size() ? seeds[i] : m.next(seeds));
    const Child c = run_ibsc(args(input), cwd, tmp, log);
    ++runs;
    std::string failure;
    if (c.hung) failure = "still running after " + std::to_string(int(kHangSeconds)) + " s";
    else if (WIFSIGNALED(c.status)) failure = "ended by signal " + std::to_string(WTERMSIG(c.status));
    else if (c.output.find("Sanitizer") != std::string::npos || c.output.find("runtime error:") != std::string::npos)
      failure = "a sanitizer report";
    else if (WEXITSTATUS(c.status) >= 120) failure = "exit " + std::to_string(WEXITSTATUS(c.status));
    if (failure.empty()) {
      for (const auto& f : listing(cwd))
        if (f != "out" && f.rfind("out/", 0) != 0) failure = "wrote " + f + " outside its output folder";
      for (const auto& f : listing(tmp)) failure = "left " + f + " in TMPDIR";
      for (const auto& f : listing(above_dir))
        if (!above.count(f) && f != "box" && f.rfind("box/", 0) != 0) failure = "wrote ../" + f;
    }
    if (WIFEXITED(c.status) && WEXITSTATUS(c.status) != 0) ++refused;
    if (!failure.empty()) {
      const std::string kept = kWork + "/cli-" + target + "-failure-" + std::to_string(failures.size());  // not above
      fs::copy_file(input, kept, fs::copy_options::overwrite_existing);
      failures.push_back("run " + std::to_string(i) + ": " + failure + " (input: " + kept + ")\n" +
                         c.output.substr(0, 600));
    }
  }
  BOOST_TEST_MESSAGE("fuzz cli " << target << ": " << runs << " runs of ibsc (" << seeds.size() << " seeds), "
                                 << refused << " refused, " << failures.size() << " failures");
  for (const auto& f : failures) BOOST_ERROR(target + ": " + f);
  BOOST_TEST(refused < runs, target << ": every run refused, so the command line itself is wrong");
  fs::remove_all(box);
}

// Short runs whatever the mutant asks: one load point of a few microseconds, small tables.
const std::vector<std::string> kShort = {"--quiet",
                                         "--jobs",
                                         "1",
                                         "--max-memory-gb",
                                         "0.05",
                                         "--set",
                                         "run.warmup_ns=1000",
                                         "--set",
                                         "run.window_ns=4000",
                                         "--set",
                                         "run.drain_ns=8000",
                                         "--set",
                                         "sweep.loads=[0.1]"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

// No --out: the scenario's name picks out/NAME, so a name that escapes it is caught.
BOOST_AUTO_TEST_CASE(scenario) {
  fuzz_cli("scenario", seeds_of(with(corpus_files("scenario"), {kSource + "/tests/tb/data/small.yaml"})), "s.yaml",
           [](const std::string& p) {
             return with({"run", p}, kShort);
           });
}

BOOST_AUTO_TEST_CASE(topology) {
  std::vector<std::string> files = corpus_files("ibnetdiscover");
  for (const char* sub : {"ibsim", "edges"}) files = with(files, corpus_files(sub));
  fuzz_cli("topology", seeds_of(files), "fabric.topo", [](const std::string& p) {
    return std::vector<std::string>{"route",   "--topology",      "file:" + p, "--routing",       "updown-bfs",
                                    "--check", "--max-memory-gb", "0.05",      "--export-opensm", "out/tables"};
  });
}

// --describe walks the fabric without routing it (bisection, diameter): a host without a cable
// once made it write outside an array.
BOOST_AUTO_TEST_CASE(topology_describe) {
  std::vector<std::string> files = corpus_files("ibnetdiscover");
  for (const char* sub : {"ibsim", "edges"}) files = with(files, corpus_files(sub));
  fuzz_cli("topology_describe", seeds_of(files), "fabric.topo", [](const std::string& p) {
    return std::vector<std::string>{"route", "--topology", "file:" + p, "--describe", "--max-memory-gb", "0.05"};
  });
}

BOOST_AUTO_TEST_CASE(opensm_lft) {
  std::vector<std::string> seeds;
  for (const auto& f : corpus_files("lft"))
    if (read_file(f).rfind("# topology: two_switches", 0) == 0) seeds.push_back(read_file(f));
  fuzz_cli("opensm_lft", seeds, "lfts.dump", [](const std::string& p) {
    return std::vector<std::string>{
        "route", "--topology", "file:" + kCorpus + "/ibnetdiscover/two_switches.topo", "--import-opensm", p, "--check"};
  });
}

BOOST_AUTO_TEST_CASE(permutation_file) {
  fuzz_cli("permutation_file", seeds_of(corpus_files("permutation")), "perm.txt", [](const std::string& p) {
    return with({"run", kSource + "/tests/tb/data/small.yaml", "--out", "out/perm", "--set",
                 "traffic.pattern=permutation", "--set", "traffic.permutation_file=" + p},
                kShort);
  });
}

BOOST_AUTO_TEST_CASE(mpi_trace) {
  fuzz_cli("mpi_trace", seeds_of(corpus_files("trace")), "t.trace", [](const std::string& p) {
    return std::vector<std::string>{
        "mpi",         kSource + "/tests/tb/data/mpi_ring8.yaml", "--workload", "trace", "--trace", p, "--json",
        "out/mpi.json"};
  });
}
