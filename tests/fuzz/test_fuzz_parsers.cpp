// Bounded fuzz pass over the input parsers (issues 19, 31, 37): scenario YAML, ibnetdiscover
// dumps, ibsim net files, edge lists, OpenSM LFT dumps, OpenSM's opensm-subnet.lst and
// opensm.fdbs and `ibnetdiscover --ports`, permutation files and MPI traces. Each case runs the
// committed seed corpus (and the shared fabric dumps), then mutants of it from a fixed seed,
// through the parser in process, until its execution count or its time box is spent.
// Every input must either parse or be refused with the parser's documented error type
// (tb::ConfigError, std::invalid_argument), within a time bound; anything else (another
// exception, a run over the bound, a topology whose cables do not point back) fails the case
// and leaves the input as FUZZ_DIR/TARGET-failure-N.txt. A crash leaves it as
// FUZZ_DIR/TARGET.input, the file every input is written to before it is parsed.
// A parse that does not return within a few times its bound (a hang) ends the process at once
// with the input kept, rather than at ctest's timeout. Special files (a FIFO, /dev/zero, a
// directory, a file above the size limit) must be refused by every reader (special_files).
// Environment: IBSC_FUZZ_EXECS (executions per case, default below; a quarter under ASan),
// IBSC_FUZZ_SECONDS (time box per case for the mutants, the seeds always run; 0: none),
// IBSC_FUZZ_SEED.
#include <boost/test/unit_test.hpp>

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <typeinfo>

#include "routing/checks.h"
#include "routing/table_io.h"
#include "routing/topo_import.h"
#include "routing/topo_spec.h"
#include "tb/mpi/mpi_workload.h"
#include "tb/scenario/config_reader.h"
#include "tb/scenario/scenario.h"
#include "tb/traffic/traffic.h"
#include "tests/fuzz/mutator.h"

int sc_main(int, char**) { return 0; }  // libsystemc wants one; nothing here elaborates

namespace fs = std::filesystem;
using namespace ibsc;

namespace {

const std::string kCorpus = IBSC_FUZZ_CORPUS, kFabrics = IBSC_FABRICS_DIR, kSource = IBSC_SOURCE_DIR;
const std::string kWork = IBSC_FUZZ_WORK;
const std::string kOpensm = IBSC_SOURCE_DIR "/tests/routing/data/opensm";
// Per input. The importers read any legitimate file in milliseconds; a scenario may legally
// name a topology of up to 2^20 switches (irregular:65535 takes 5 s to build), so its bound
// only catches hangs.
constexpr double kBoundSeconds = 2.0, kScenarioBoundSeconds = 60.0;

// Under AddressSanitizer a parse costs about 10x more: the first quarter of the same inputs.
#ifdef __SANITIZE_ADDRESS__
constexpr uint64_t kExecDivisor = 4;
#else
constexpr uint64_t kExecDivisor = 1;
#endif

uint64_t env_or(const char* name, uint64_t def) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : def;
}

// The hang watchdog: SIGALRM's handler can only write a prepared text and exit.
char g_hang_note[512] = "fuzz: a parse hung\n";
extern "C" void on_hang(int) {
  const ssize_t n = write(2, g_hang_note, std::strlen(g_hang_note));
  (void)n;
  _exit(86);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The texts of files that must be there (the real dumps under tests/routing/data).
std::vector<std::string> texts_of(const std::vector<std::string>& files) {
  std::vector<std::string> texts;
  for (const auto& f : files) {
    BOOST_REQUIRE_MESSAGE(fs::exists(f), f);
    texts.push_back(read_file(f));
  }
  return texts;
}

// Files of the corpus folder `sub` (sorted, so the order is the same everywhere) and `extra`.
std::vector<std::string> corpus(const std::string& sub, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(kCorpus + "/" + sub))
    if (e.is_regular_file()) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  for (const auto& f : extra)
    if (fs::exists(f)) files.push_back(f);
  std::vector<std::string> texts;
  for (const auto& f : files) texts.push_back(read_file(f));
  BOOST_REQUIRE(!texts.empty());
  return texts;
}

// The message without its "PATH:LINE: " head, quoted parts and numbers, so that one kind of
// refusal counts as one reason.
std::string reason(std::string msg, const std::string& path) {
  for (size_t p; (p = msg.find(path)) != std::string::npos;) msg.replace(p, path.size(), "");
  std::string out;
  char quote = 0;
  for (size_t i = 0; i < msg.size() && out.size() < 70; ++i) {
    const char c = msg[i];
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    const bool after_letter = i > 0 && std::isalpha(static_cast<unsigned char>(msg[i - 1]));
    if (c == '"' || (c == '\'' && !after_letter)) {  // not the apostrophe of "README's"
      quote = c;
      out += "'…'";
    } else if (c >= '0' && c <= '9') {
      if (out.empty() || out.back() != 'N') out += 'N';
    } else {
      out += c;
    }
  }
  while (!out.empty() && (out[0] == ':' || out[0] == 'N' || out[0] == ' ')) out.erase(0, 1);
  return out;
}

struct Outcome {
  uint64_t execs = 0, parsed = 0, refused = 0;
  double slowest_s = 0;
  std::map<std::string, uint64_t> reasons;
  std::vector<std::string> failures;
};

// Runs the seeds, then mutants up to `execs`; `parse` throws Refusal when it refuses an input.
template <class Refusal>
Outcome run_fuzz(const std::string& target, const std::vector<std::string>& seeds,
                 const std::vector<std::string>& tokens, uint64_t default_execs,
                 const std::function<void(const std::string&)>& parse, double bound_s = kBoundSeconds) {
  fs::create_directories(kWork);
  const uint64_t execs = env_or("IBSC_FUZZ_EXECS", default_execs / kExecDivisor);
  const double box_s = static_cast<double>(env_or("IBSC_FUZZ_SECONDS", 0));
  const auto started = std::chrono::steady_clock::now();
  fuzz::Mutator m(env_or("IBSC_FUZZ_SEED", 19) * 1000003 + std::hash<std::string>{}(target) % 1000, tokens);
  const std::string input = kWork + "/" + target + ".input";
  Outcome o;
  std::snprintf(g_hang_note, sizeof g_hang_note, "fuzz %s: a parse ran past %.0f s (a hang); the input is %s\n",
                target.c_str(), 3 * bound_s, input.c_str());
  signal(SIGALRM, on_hang);
  for (uint64_t i = 0; i < execs; ++i) {
    if (i >= seeds.size() && box_s > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() > box_s)
      break;
    const std::string text = i < seeds.size() ? seeds[i] : m.next(seeds);
    // A fresh file, not a truncated one: ext4 flushes a truncated file to disk on close.
    fs::remove(input);
    std::ofstream(input, std::ios::binary) << text;
    std::string failure;
    const auto t0 = std::chrono::steady_clock::now();
    alarm(static_cast<unsigned>(std::ceil(3 * bound_s)));
    try {
      parse(input);
      ++o.parsed;
      if (i < seeds.size()) BOOST_TEST_MESSAGE(target << ": seed " << i << " parses");
    } catch (const Refusal& e) {
      ++o.refused;
      ++o.reasons[reason(e.what(), input)];
      if (i < seeds.size()) BOOST_TEST_MESSAGE(target << ": seed " << i << " refused: " << e.what());
    } catch (const std::exception& e) {
      failure = std::string("unexpected ") + typeid(e).name() + ": " + e.what();
    } catch (...) {
      failure = "an exception of no std type";
    }
    alarm(0);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    o.slowest_s = std::max(o.slowest_s, s);
    if (failure.empty() && s > bound_s) failure = "took " + std::to_string(s) + " s";
    if (!failure.empty()) {
      const std::string kept = kWork + "/" + target + "-failure-" + std::to_string(o.failures.size()) + ".txt";
      fs::copy_file(input, kept, fs::copy_options::overwrite_existing);
      o.failures.push_back("execution " + std::to_string(i) + ": " + failure.substr(0, 300) + " (input: " + kept + ")");
    }
    ++o.execs;
  }
  std::ostringstream rep;
  rep << "fuzz " << target << ": " << o.execs << " executions (" << seeds.size() << " seeds"
      << (o.execs < execs ? ", time box reached" : "") << "), " << o.parsed << " parsed, " << o.refused << " refused, "
      << o.failures.size() << " failures; slowest " << o.slowest_s * 1e3 << " ms\n";
  std::vector<std::pair<uint64_t, std::string>> top;
  for (const auto& [r, n] : o.reasons) top.push_back({n, r});
  std::sort(top.rbegin(), top.rend());
  for (size_t k = 0; k < top.size() && k < 12; ++k) rep << "  " << top[k].first << "  " << top[k].second << "\n";
  if (top.size() > 12) rep << "  (" << top.size() - 12 << " more reasons)\n";
  BOOST_TEST_MESSAGE(rep.str());
  for (const auto& f : o.failures) BOOST_ERROR(target + ": " + f);
  return o;
}

// A topology that parsed must be whole: every cable seen from both ends, hosts after switches.
void check_topology(const routing::Topology& t) {
  if (t.num_switches + t.num_hosts != static_cast<int>(t.nodes.size())) throw std::logic_error("node counts");
  for (size_t n = 0; n < t.nodes.size(); ++n) {
    const routing::Node& node = t.nodes[n];
    if (static_cast<int>(node.ports.size()) != node.num_ports + 1) throw std::logic_error("port vector size");
    for (int p = 1; p <= node.num_ports; ++p) {
      const routing::PortPeer& q = node.ports[p];
      if (q.node < 0) continue;
      if (q.node >= static_cast<int>(t.nodes.size()) || q.port < 1 || q.port > t.nodes[q.node].num_ports ||
          t.nodes[q.node].ports[q.port].node != static_cast<int>(n) || t.nodes[q.node].ports[q.port].port != p)
        throw std::logic_error("cable of " + node.name + " port " + std::to_string(p) + " does not point back");
    }
  }
}

void topology_file(const std::string& path) { check_topology(routing::read_topology_file(path)); }

const std::vector<std::string> kDumpTokens = {
    "Switch ", "Ca ",     "Hca ",   "[1]",        "[0]",       "[255]",         "\"S-0008f10500200b50\"",
    "(2c9)",   "(0x)",    "# lid ", "lid 0",      "lid 65536", "4xQDR",         "12xEDR",
    "0xSDR",   "3xFDR10", "w=0",    "w=99999999", "w=12",      "switchguid=0x", "vendid=0x2c9\n",
    "\"",      "\"\"",    "\n\n"};

std::string fabric(const char* name) { return kFabrics + "/" + name; }

}  // namespace

BOOST_AUTO_TEST_CASE(scenario_yaml) {
  const std::vector<std::string> seeds =
      corpus("scenario", {kSource + "/scenarios/quickstart.yaml", kSource + "/tests/golden/updown-vlarb.yaml",
                          kSource + "/tests/golden/hotspot-speedup.yaml", kSource + "/tests/tb/data/small.yaml"});
  const std::vector<std::string> tokens = {"&a ",
                                           "*a",
                                           "!!str ",
                                           "!foo ",
                                           "---\n",
                                           "...\n",
                                           "? ",
                                           "<<: ",
                                           "- ",
                                           "{",
                                           "}",
                                           "[",
                                           "]",
                                           ": ",
                                           "\n  ",
                                           "name: ../x\n",
                                           "seed: -1\n",
                                           "switch:\n  num_vls: 99\n",
                                           "spec: torus:4x4\n",
                                           "loads: [0.1, 1e-300]\n",
                                           "high: [0, 1, 1, 1]\n",
                                           "~",
                                           "null",
                                           "true",
                                           "'",
                                           "\"",
                                           "#",
                                           "\t"};
  Outcome o = run_fuzz<tb::ConfigError>(
      "scenario_yaml", seeds, tokens, 3000, [](const std::string& p) { tb::load_scenario(p, {}); },
      kScenarioBoundSeconds);
  BOOST_TEST(o.parsed > 0u);
  BOOST_TEST(o.refused > 0u);
}

BOOST_AUTO_TEST_CASE(ibnetdiscover) {
  const std::vector<std::string> seeds =
      corpus("ibnetdiscover",
             {fabric("ibnetdiscover_jabl_ibtopotool_1.topo"), fabric("ibnetdiscover_jabl_ibtopotool_2.topo"),
              fabric("ibnetdiscover_jabl_ibtopotool_3.topo"), fabric("ibnetdiscover_jabl_ibtopotool_4.topo")});
  Outcome o = run_fuzz<std::invalid_argument>("ibnetdiscover", seeds, kDumpTokens, 8000, topology_file);
  BOOST_TEST(o.parsed > 0u);
  BOOST_TEST(o.refused > 0u);
}

BOOST_AUTO_TEST_CASE(ibsim) {
  const std::vector<std::string> seeds =
      corpus("ibsim", {fabric("ibsim_net"), fabric("ibsim_net.1"), fabric("ibsim_net.2sw2path"),
                       fabric("ibsim_net.2sw2path4hca"), fabric("ibsim_net.2sw2path4hca2port")});
  Outcome o = run_fuzz<std::invalid_argument>("ibsim", seeds, kDumpTokens, 8000, topology_file);
  BOOST_TEST(o.parsed > 0u);
  BOOST_TEST(o.refused > 0u);
}

BOOST_AUTO_TEST_CASE(edge_list) {
  const std::vector<std::string> tokens = {"switch ", "host ",  "link ", ":1", ":0", ":255", " 4", " 12",
                                           " 3",      " 8junk", "#",     "\n", " ",  ":",    "A",  "B"};
  Outcome o = run_fuzz<std::invalid_argument>("edge_list", corpus("edges"), tokens, 8000, topology_file);
  BOOST_TEST(o.parsed > 0u);
  BOOST_TEST(o.refused > 0u);
}

// LFT dumps against the topology they were computed for; tables that import are then checked
// (connectivity, loops, deadlock), which must not fail on any table either.
BOOST_AUTO_TEST_CASE(opensm_lft) {
  const routing::Topology torus = routing::build_topology_spec("torus:3x3:hosts=1");
  const routing::Topology dump = routing::read_topology_file(kCorpus + "/ibnetdiscover/two_switches.topo");
  const std::vector<std::string> tokens = {"Unicast lids [0-0x20] of switch Lid 1 guid 0x0002c90300000000 ('x'):\n",
                                           "0x0000 001\n",
                                           "0x0001 000\n",
                                           "0xbfff 1\n",
                                           "0x10000 1\n",
                                           "0x0001 3junk\n",
                                           "Lid ",
                                           "guid 0x",
                                           "lids dumped\n",
                                           "# ",
                                           " : (Channel Adapter)",
                                           "\r"};
  std::vector<std::string> seeds = corpus("lft");
  Outcome o = run_fuzz<std::invalid_argument>("opensm_lft", seeds, tokens, 8000, [&](const std::string& p) {
    // Seeds (and their mutants) name the topology they belong to in their first line.
    const bool on_dump = read_file(p).rfind("# topology: two_switches", 0) == 0;
    const routing::Topology& t = on_dump ? dump : torus;
    routing::TableSet ts = routing::import_opensm_tables(t, p);
    routing::check_tables(t, ts);
  });
  BOOST_TEST(o.parsed > 0u);
  BOOST_TEST(o.refused > 0u);
}

// OpenSM's topology dump and ibnetdiscover's ports report, as the real tools wrote them.
BOOST_AUTO_TEST_CASE(opensm_subnet) {
  std::vector<std::string> files;
  for (const char* set : {"two_switch", "fattree2", "two_port_hca", "fattree2_sharp"})
    for (const char* f : {"opensm-subnet.lst", "ibnetdiscover-ports.txt"})
      files.push_back(kOpensm + "/" + set + "/" + f);
  const std::vector<std::string> tokens = {"{ ",        "} ",
                                           "{ SW ",     "{ CA-SM ",
                                           "{ Rt ",     "Ports:00 ",
                                           "Ports:FF ", "NodeGUID:",
                                           "PN:00 ",    "PN:FF ",
                                           "LID:",      "{}",
                                           "{a} b}",    "PHY=?? ",
                                           "PHY=12x ",  "LOG=INI ",
                                           "SPD=",      "0000000000200000",
                                           "' - '",     "( '",
                                           "' )",       "SW     1  1 0x0000000000200000 4x SDR",
                                           "RT ",       "CA ",
                                           " - ",       "\r",
                                           "\n"};
  Outcome o = run_fuzz<std::invalid_argument>("opensm_subnet", texts_of(files), tokens, 4000, topology_file);
  BOOST_TEST(o.parsed > 0u);
  BOOST_TEST(o.refused > 0u);
}

// Permutation files (traffic.permutation_file) for 8 hosts.
BOOST_AUTO_TEST_CASE(permutation_file) {
  const routing::Topology t = routing::build_topology_spec("torus:2x2:hosts=2");
  const std::vector<std::string> tokens = {"0 ", "7 ", "8 ", "-1 ",  "4294967296 ", "# ",
                                           "\n", " ",  "\t", "1e3 ", "0x1 "};
  Outcome o = run_fuzz<std::invalid_argument>("permutation_file", corpus("permutation"), tokens, 8000,
                                              [&](const std::string& p) {
                                                tb::TrafficConfig c;
                                                c.pattern = tb::TrafficPattern::Permutation;
                                                c.permutation_file = p;
                                                tb::make_destination_pattern(c, t);
                                              });
  BOOST_TEST(o.parsed > 0u);
  BOOST_TEST(o.refused > 0u);
}

// MPI message traces (ibsc mpi --workload trace --trace FILE).
BOOST_AUTO_TEST_CASE(mpi_trace) {
  const std::vector<std::string> tokens = {"0 ",          "1e300 ", "nan ", "inf ", "-1 ",
                                           "4294967296 ", "# ",     "\n",   " ",    "0.5 "};
  Outcome o =
      run_fuzz<std::invalid_argument>("mpi_trace", corpus("trace", {kSource + "/tests/tb/data/mpi_small.trace"}),
                                      tokens, 8000, [](const std::string& p) { tb::read_trace(p); });
  BOOST_TEST(o.parsed > 0u);
  BOOST_TEST(o.refused > 0u);
}

// Every reader, given what is not a regular file or is above its size limit, refuses it with
// its documented error within a second (a FIFO once blocked for ever, /dev/zero was read to
// std::bad_alloc). The sparse file costs no disk.
BOOST_AUTO_TEST_CASE(special_files) {
  const std::string dir = kWork + "/special";
  fs::remove_all(dir);
  fs::create_directories(dir + "/a_directory");
  const std::string fifo = dir + "/a_fifo", big = dir + "/a_big_file";
  BOOST_REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  { std::ofstream(big) << "x"; }
  fs::resize_file(big, (uint64_t{4} << 30) + 1);  // above every kind's limit
  const routing::Topology t = routing::build_topology_spec("torus:2x2:hosts=2");
  const std::vector<std::pair<std::string, std::function<void(const std::string&)>>> readers = {
      {"scenario", [](const std::string& p) { tb::load_scenario(p, {}); }},
      {"topology", [](const std::string& p) { routing::read_topology_file(p); }},
      {"permutation",
       [&](const std::string& p) {
         tb::TrafficConfig c;
         c.pattern = tb::TrafficPattern::Permutation;
         c.permutation_file = p;
         tb::make_destination_pattern(c, t);
       }},
      {"trace", [](const std::string& p) { tb::read_trace(p); }},
      // A directory is a dump folder for these two: it lacks the dump (a clear error too).
      {"LFT dump", [&](const std::string& p) { routing::import_opensm_tables(t, p); }},
  };
  snprintf(g_hang_note, sizeof g_hang_note, "fuzz special_files: a reader blocked on a special file\n");
  signal(SIGALRM, on_hang);
  for (const auto& [name, read] : readers)
    for (const std::string& path : {fifo, std::string("/dev/zero"), dir + "/a_directory", big}) {
      std::string what;
      const auto t0 = std::chrono::steady_clock::now();
      alarm(5);
      try {
        read(path);
      } catch (const std::exception& e) {
        what = e.what();
      }
      alarm(0);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const bool named =
          what.find("not a regular file") != std::string::npos || what.find("above the") != std::string::npos ||
          (name == "LFT dump" && what.find("opensm-lfts.dump: cannot open") != std::string::npos) ||
          (name == "topology" && what.find("a directory without opensm-subnet.lst") != std::string::npos);
      BOOST_TEST(named, name << " on " << path << ": '" << what << "'");
      BOOST_TEST(s < 1.0, name << " on " << path << ": " << s << " s");
    }
  fs::remove_all(dir);
}

// opensm.fdbs and opensm-lfts.dump (LMC 1) against the topology OpenSM swept; tables that
// import are checked, which must not fail on any table.
BOOST_AUTO_TEST_CASE(opensm_fdbs) {
  const std::string set = kOpensm + "/fattree2_lmc1";
  const routing::Topology t = routing::read_topology_file(set + "/opensm-subnet.lst");
  const std::vector<std::string> tokens = {"dump_ucast_routes: Switch 0x0000000000200000\n",
                                           "0x0001 : 000  : 00   : yes\n",
                                           "0x000D : UNREACHABLE\n",
                                           "0x0030 001 # unknown node and type\n",
                                           "portguid 0x0000000000100001",
                                           "No 1 hop path possible via port 9!",
                                           "HOPS UNKNOWN",
                                           " : ",
                                           "0x",
                                           "\r"};
  Outcome o = run_fuzz<std::invalid_argument>(
      "opensm_fdbs", texts_of({set + "/opensm.fdbs", set + "/opensm-lfts.dump"}), tokens, 4000,
      [&](const std::string& p) { routing::check_tables(t, routing::import_opensm_tables(t, p)); });
  BOOST_TEST(o.parsed > 0u);
  BOOST_TEST(o.refused > 0u);
}
