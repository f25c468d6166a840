// OpenSM as a routing engine under ibsim (opensm_engine.h).
#include "routing/opensm_engine.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "routing/child_process.h"
#include "routing/ibsim_net_writer.h"
#include "routing/opensm_tables.h"
#include "routing/strict_number.h"

namespace ibsc::routing {
namespace fs = std::filesystem;
namespace {

// Engines whose paths use SLs: their SL per path lives only in the SA's answers.
bool uses_sls(const std::string& engine) {
  return engine == "lash" || engine == "dfsssp" || engine == "sssp" || engine == "nue" || engine == "torus-2QoS";
}

struct Tools {
  std::string opensm, ibsim, umad2sim, saquery;
};

// Ordered host pairs whose SL IBSC asks the SA for, one query each (about 0.1 s: 2,000 pairs ~ 3 min).
constexpr long kMaxSaPathQueries = 2000;

[[noreturn]] void fail(const std::string& engine, const std::string& why) {
  throw RoutingError("routing opensm" + (engine.empty() ? "" : ", engine " + engine) + ": " + why);
}

// `name` on PATH (programs) or in `dirs`, unless the environment variable `env` names the file.
std::string find_file(const std::string& engine, const char* env, const std::string& name,
                      std::vector<std::string> dirs, bool on_path, const std::string& package) {
  if (const char* given = std::getenv(env); given && *given) {
    if (::access(given, on_path ? X_OK : R_OK) != 0)
      fail(engine, std::string(env) + "=" + given + ": no such " + (on_path ? "program" : "file") + " (" + name +
                       ", Debian package " + package + ")");
    return given;
  }
  std::string where;  // for the message: the fixed folders (PATH is named, not listed)
  for (const std::string& d : dirs) where += (where.empty() ? "" : ", ") + d;
  if (on_path)
    if (const char* path = std::getenv("PATH")) {
      std::stringstream ss(path);
      std::vector<std::string> found;
      for (std::string d; std::getline(ss, d, ':');)
        if (!d.empty()) found.push_back(d);
      dirs.insert(dirs.begin(), found.begin(), found.end());
    }
  for (const std::string& d : dirs) {
    std::string f = d + "/" + name;
    if (::access(f.c_str(), on_path ? X_OK : R_OK) == 0) return f;
  }
  fail(engine, name + " not found (looked in " + (on_path ? "PATH, " : "") + where + "; " + env +
                   " names it elsewhere): install the Debian package " + package);
}

Tools find_tools(const std::string& engine, bool need_sa) {
  Tools t;
  if (need_sa)
    t.saquery = find_file(engine, "IBSC_SAQUERY", "saquery", {"/usr/sbin", "/sbin"}, true, "infiniband-diags");
  t.opensm = find_file(engine, "IBSC_OPENSM", "opensm", {"/usr/sbin", "/sbin", "/usr/local/sbin"}, true, "opensm");
  t.ibsim = find_file(engine, "IBSC_IBSIM", "ibsim", {"/usr/bin", "/usr/local/bin"}, true, "ibsim-utils");
  t.umad2sim = find_file(engine, "IBSC_UMAD2SIM", "libumad2sim.so",
                         {"/usr/lib/x86_64-linux-gnu/umad2sim", "/usr/lib/aarch64-linux-gnu/umad2sim",
                          "/usr/lib64/umad2sim", "/usr/lib/umad2sim", "/usr/local/lib/umad2sim"},
                         false, "ibsim-utils");
  return t;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The last `n` lines of a text, for error messages.
std::string tail(const std::string& text, int n) {
  size_t pos = text.size();
  while (n-- > 0 && pos > 0) {
    const size_t nl = text.rfind('\n', pos > 1 ? pos - 2 : 0);
    if (nl == std::string::npos || pos < 2) {
      pos = 0;
      break;
    }
    pos = nl + 1;
  }
  return text.substr(pos);
}

// Every file OpenSM would otherwise look for under /etc/opensm or /var/log points into `dir`
// (the absent ones OpenSM treats as empty: default partition, no QoS policy file).
void write_config(const std::string& dir) {
  std::ofstream c(dir + "/opensm.conf");
  c << "# written by ibsc for one OpenSM run under ibsim (routing/opensm_engine.h)\n"
    << "log_file " << dir << "/opensm.log\n"
    << "dump_files_dir " << dir << "/dumps\n"
    << "partition_config_file " << dir << "/partitions.conf\n"
    << "qos_policy_file " << dir << "/qos-policy.conf\n"
    << "torus_config " << dir << "/torus-2QoS.conf\n"
    << "per_module_logging_file " << dir << "/per-module-logging.conf\n"
    << "prefix_routes_file " << dir << "/prefix-routes.conf\n"
    << "force_log_flush TRUE\n"
    << "accum_log_file FALSE\n"
    << "sweep_interval 0\n";  // a live SM (SL engines) routes once: no re-sweep while the SA is asked
  if (!c) throw std::runtime_error("cannot write " + dir + "/opensm.conf");
}

// A name no other run (here or in another process) uses: ibsim's sockets are abstract names.
std::string socket_name() {
  static std::atomic<int> counter{0};
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  return "ibsc-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + "-" +
         std::to_string(now % 1000000007);
}

bool socket_listening(const std::string& name) {
  std::ifstream in("/proc/net/unix");
  const std::string want = "@" + name + ":ctl";
  // The kernel shows an abstract name with '@' for its leading NUL and, as ibsim counts the
  // final NUL in the address, one more '@' at the end.
  for (std::string line; std::getline(in, line);)
    if (const size_t at = line.find(want);
        at != std::string::npos && (at + want.size() == line.size() || line[at + want.size()] == '@'))
      return true;
  return false;
}

std::vector<std::string> split_options(const std::string& s) {
  std::istringstream is(s);
  std::vector<std::string> out;
  for (std::string t; is >> t;) out.push_back(t);
  return out;
}

// What the log says went wrong, when the engine asked for did not configure the switches.
std::string log_reason(const std::string& log) {
  std::istringstream in(log);
  std::string said, configured;
  for (std::string line; std::getline(in, line);) {
    const size_t arrow = line.find("-> ");
    const std::string msg = arrow == std::string::npos ? line : line.substr(arrow + 3);
    if (msg.find("tables configured on all switches") != std::string::npos) configured = msg;
    else if (line.find(" 0x01 -> ") != std::string::npos || msg.find("ERR ") != std::string::npos ||
             msg.find("cannot") != std::string::npos || msg.find("failed") != std::string::npos ||
             msg.find("fall") != std::string::npos || msg.find("not supported") != std::string::npos)
      if (said.size() < 1500) said += "\n  " + msg;
  }
  return (configured.empty() ? std::string("no engine configured the switches") : "OpenSM says: '" + configured + "'") +
         (said.empty() ? "" : "; its log:" + said);
}

struct RunDir {
  std::string path;
  bool temporary = false;
};

RunDir make_run_dir(const RoutingOptions& opt) {
  RunDir d;
  if (!opt.opensm_dir.empty()) {
    d.path = fs::absolute(opt.opensm_dir).string();
    fs::remove_all(d.path + "/dumps");
    fs::remove_all(d.path + "/cache");
    fs::create_directories(d.path);
  } else {
    std::string templ = (fs::temp_directory_path() / "ibsc-opensm-XXXXXX").string();
    if (!::mkdtemp(templ.data())) throw std::runtime_error("cannot make a temporary folder " + templ);
    d.path = templ;
    d.temporary = true;
  }
  fs::create_directories(d.path + "/dumps");
  fs::create_directories(d.path + "/cache");
  for (const char* f : {"opensm.log", "opensm.out", "ibsim.log"}) fs::remove(d.path + "/" + f);
  return d;
}

// ibsim up and listening on `sock`, or an error with its own words.
void start_ibsim(ChildProcess& ibsim, const Tools& tools, const RunDir& dir, const IbsimNetSize& size,
                 const std::string& sock, const std::string& engine, double timeout_s) {
  // Headroom over the fabric's own counts: OpenSM waits forever when ibsim silently stops.
  ibsim.start({tools.ibsim, "-s", "-n", "-N", std::to_string(size.nodes + 16), "-S", std::to_string(size.switches + 16),
               "-P", std::to_string(size.ports + 64), dir.path + "/net"},
              dir.path, dir.path + "/ibsim.log", {{"IBSIM_SOCKNAME", sock}});
  // The time limit is OpenSM's; ibsim's start gets at least 30 s of its own, or a tiny limit (a
  // test's 5 ms) would fail here, as "ibsim did not open its socket", whenever the machine is busy.
  const double wait_s = std::clamp(timeout_s, 30.0, 120.0);
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait_s);
  while (!socket_listening(sock)) {
    if (ibsim.ended())
      fail(engine, "ibsim could not hold the fabric (exit " + std::to_string(ibsim.exit_code()) +
                       "); ibsim.log ends:\n" + tail(read_text(dir.path + "/ibsim.log"), 8) + "(run folder " +
                       dir.path + ")");
    if (std::chrono::steady_clock::now() > until)
      fail(engine, "ibsim did not open its socket in time (run folder " + dir.path + ")");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// torus-2QoS's configuration from the generator's own coordinates: the shape (`torus X Y Z` or
// `mesh X Y Z`, 1 for a missing dimension) and a seed at the switch of coordinate 0 naming its +
// and - neighbour in each dimension by GUID (both, as radix-4 rings need; a mesh's origin has no -).
std::string torus_config(const Topology& topo, const std::string& engine) {
  const bool torus = topo.kind == "torus", mesh = topo.kind == "mesh";
  if ((!torus && !mesh) || topo.dims.empty() || topo.dims.size() > 3 || topo.num_switches == 0 ||
      topo.nodes[0].coord.size() != topo.dims.size())
    fail(engine,
         "it routes 2D and 3D tori and meshes made by IBSC's torus or mesh generator (their coordinates "
         "become its --torus_config); this topology is '" +
             topo.kind + "' with " + std::to_string(topo.dims.size()) + " dimensions");
  std::map<std::vector<int>, int> at;
  for (int s = 0; s < topo.num_switches; ++s) at[topo.nodes[s].coord] = s;
  std::ostringstream c;
  c << "# written by ibsc from the " << topo.kind << " generator's coordinates\n" << (torus ? "torus" : "mesh");
  for (size_t d = 0; d < 3; ++d) c << " " << (d < topo.dims.size() ? topo.dims[d] : 1);
  c << "\n";
  const std::vector<int> origin = topo.nodes[0].coord;
  for (size_t d = 0; d < topo.dims.size(); ++d) {
    if (topo.dims[d] < 2) continue;
    for (int step : {1, -1}) {
      std::vector<int> n = origin;
      n[d] = (n[d] + step + topo.dims[d]) % topo.dims[d];
      if (mesh && origin[d] + step != n[d]) continue;  // no wrap-around cable in a mesh
      const auto it = at.find(n);
      if (it == at.end()) fail(engine, "the torus generator left a coordinate without a switch");
      char line[96];
      std::snprintf(line, sizeof line, "%c%c_link 0x%016llx 0x%016llx\n", "xyz"[d], step > 0 ? 'p' : 'm',
                    static_cast<unsigned long long>(ibsim_switch_guid(0)),
                    static_cast<unsigned long long>(ibsim_switch_guid(it->second)));
      c << line;
    }
  }
  return c.str();
}

// Waits for the SM (run without -o) to say SUBNET UP in its log (OpenSM writes its dumps just
// before: osm_state_mgr.c); false at the time limit or when OpenSM ended first.
bool wait_subnet_up(ChildProcess& opensm, const std::string& log_path, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  auto pause = std::chrono::milliseconds(5);
  while (std::chrono::steady_clock::now() < until) {
    if (read_text(log_path).find("SUBNET UP") != std::string::npos) return true;
    if (opensm.ended()) return false;
    std::this_thread::sleep_for(pause);
    if (pause < std::chrono::milliseconds(100)) pause *= 2;
  }
  return false;
}

// Each ordered host pair's SL as the SA answers a PathRecord query for it (one saquery per pair:
// ibsim carries no multi-packet (RMPP) answers, so a query for many records is cut short).
std::vector<Sl> query_path_sls(const Topology& topo, const TableSet& ts, const Tools& tools, const std::string& dir,
                               const std::string& sock, const std::string& engine, double timeout_s) {
  std::vector<Sl> sls(static_cast<size_t>(topo.num_hosts) * topo.num_hosts, 0);
  const std::string out = dir + "/saquery.out";
  for (int a = 0; a < topo.num_hosts; ++a)
    for (int b = 0; b < topo.num_hosts; ++b) {
      if (a == b) continue;
      fs::remove(out);
      ChildProcess q;
      const std::string pair = std::to_string(ts.hosts[a].base_lid) + ":" + std::to_string(ts.hosts[b].base_lid);
      q.start({tools.saquery, "--src-to-dst", pair}, dir, out,
              {{"IBSIM_SOCKNAME", sock}, {"LD_PRELOAD", tools.umad2sim}});
      if (!q.wait_for(std::min(timeout_s, 30.0)))
        fail(engine, "saquery --src-to-dst " + pair + " did not answer in time (run folder " + dir + ")");
      const std::string text = read_text(out);
      const size_t at = text.find("\tsl.");
      const size_t hex = at == std::string::npos ? at : text.find("0x", at);
      uint64_t sl = 0;
      if (hex == std::string::npos || !parse_unsigned(text.substr(hex + 2, text.find('\n', hex) - hex - 2), 15, sl, 16))
        fail(engine, "the SA gave no path record for LIDs " + pair + " (" + topo.nodes[topo.host_node(a)].name +
                         " to " + topo.nodes[topo.host_node(b)].name + "): " + tail(text, 3) + "(run folder " + dir +
                         ")");
      sls[static_cast<size_t>(a) * topo.num_hosts + b] = static_cast<Sl>(sl);
    }
  return sls;
}

// The VLs OpenSM may use (routing.vls; 0: as many as ibsim's ports offer, 8): the ports'
// operational VLs (`max_op_vls`, in the IBA's steps 1, 2, 4, 8, 15, which dfsssp and lash count),
// QoS's (`qos_max_vls`) and, for nue, `nue_max_num_vls`.
void add_vl_settings(const RoutingOptions& opt, const std::string& dir) {
  if (opt.vls <= 0) return;
  int op = 1;
  while (op < 5 && (1 << (op - 1)) < opt.vls) ++op;
  std::ofstream c(dir + "/opensm.conf", std::ios::app);
  c << "max_op_vls " << op << "\n";
  c << "qos_max_vls " << opt.vls << "\n";
  if (opt.opensm_engine == "nue") c << "nue_max_num_vls " << opt.vls << "\n";
}

// The run is good only when it ended in time and the log names the engine asked for as the one
// that configured the switches; anything else is an error quoting the log.
void confirm_engine(const std::string& engine, bool in_time, int exit_code, const std::string& dir,
                    const std::string& log, double timeout_s) {
  if (!in_time) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%g", timeout_s);
    fail(engine, std::string("OpenSM did not finish within ") + secs +
                     " s (opensm_timeout_s) and was stopped: a fabric too large for ibsim, or an engine waiting; "
                     "its log ends:\n" +
                     tail(log, 6) + "(run folder " + dir + ")");
  }
  if (log.find(engine + " tables configured on all switches") == std::string::npos)
    fail(engine,
         "OpenSM did not route with it" + (exit_code >= 0 ? " (exit " + std::to_string(exit_code) + ")" : "") + ": " +
             (log.empty() ? "no log; its output ends:\n" + tail(read_text(dir + "/opensm.out"), 6) : log_reason(log)) +
             "\n(run folder " + dir + ")");
}

}  // namespace

const std::vector<std::string>& opensm_engines() {
  static const std::vector<std::string> names = {"minhop", "updn",       "dnup",   "ftree", "lash",
                                                 "dor",    "torus-2QoS", "dfsssp", "sssp",  "nue"};
  return names;
}

std::string opensm_tools_missing() {
  try {
    find_tools("", false);
    return "";
  } catch (const RoutingError& e) {
    return e.what();
  }
}

TableSet route_opensm(const Topology& topo, const RoutingOptions& opt) {
  const std::string& engine = opt.opensm_engine;
  if (engine.empty()) throw RoutingError("routing opensm needs an engine (routing.opensm_engine, --opensm-engine)");
  const auto& known = opensm_engines();
  if (std::find(known.begin(), known.end(), engine) == known.end()) {
    std::string list;
    for (const auto& e : known) list += (list.empty() ? "" : ", ") + e;
    throw RoutingError("routing opensm: unknown engine '" + engine + "' (one of " + list + ")");
  }
  if (!(opt.opensm_timeout_s > 0)) fail(engine, "the time limit (opensm_timeout_s) must be above 0 s");
  const bool sls = uses_sls(engine);
  if (const long pairs = static_cast<long>(topo.num_hosts) * (topo.num_hosts - 1); sls && pairs > kMaxSaPathQueries)
    fail(engine, "this engine puts paths on SLs, read from the SA one pair at a time (about 0.1 s each); " +
                     std::to_string(topo.num_hosts) + " hosts are " + std::to_string(pairs) + " pairs, above the " +
                     std::to_string(kMaxSaPathQueries) + " IBSC asks (routing/README.md)");
  const std::string torus = engine == "torus-2QoS" ? torus_config(topo, engine) : "";
  const Tools tools = find_tools(engine, sls);
  const auto t0 = std::chrono::steady_clock::now();
  const RunDir dir = make_run_dir(opt);
  IbsimNetSize size;
  {
    std::ofstream net(dir.path + "/net");
    size = write_ibsim_net(topo, net);
    if (!net) throw RoutingError("cannot write " + dir.path + "/net");
  }
  write_config(dir.path);
  if (sls) add_vl_settings(opt, dir.path);
  if (engine == "torus-2QoS") std::ofstream(dir.path + "/torus-2QoS.conf") << torus;
  const std::string sock = socket_name();

  ChildProcess ibsim, opensm;
  start_ibsim(ibsim, tools, dir, size, sock, engine, opt.opensm_timeout_s);
  // Engines without SLs: once (-o) and out. With SLs: QoS on and the SM kept up for the SA.
  std::vector<std::string> args = {tools.opensm,
                                   "-F",
                                   dir.path + "/opensm.conf",
                                   "-R",
                                   engine,
                                   "-f",
                                   dir.path + "/opensm.log",
                                   "-D",
                                   "0x43",
                                   "--dump_files_dir",
                                   dir.path + "/dumps"};
  args.insert(args.begin() + 1, sls ? "-Q" : "-o");
  for (const std::string& o : split_options(opt.opensm_options)) args.push_back(o);
  opensm.start(args, dir.path, dir.path + "/opensm.out",
               {{"IBSIM_SOCKNAME", sock},
                {"LD_PRELOAD", tools.umad2sim},
                {"OSM_CACHE_DIR", dir.path + "/cache"},
                {"OSM_TMP_DIR", dir.path}});
  const bool finished = sls ? wait_subnet_up(opensm, dir.path + "/opensm.log", opt.opensm_timeout_s)
                            : opensm.wait_for(opt.opensm_timeout_s);
  const std::string log = read_text(dir.path + "/opensm.log");
  confirm_engine(engine, finished || (sls && opensm.ended()), opensm.exit_code(), dir.path, log, opt.opensm_timeout_s);

  TableSet ts;
  try {
    ts = read_opensm_run(topo, dir.path);
    if (sls) {
      const std::vector<Sl> pair_sls = query_path_sls(topo, ts, tools, dir.path, sock, engine, opt.opensm_timeout_s);
      apply_opensm_sls(topo, ts, dir.path, pair_sls);
    }
  } catch (const std::invalid_argument& e) {
    fail(engine, std::string("OpenSM's dumps cannot be read: ") + e.what() + " (run folder " + dir.path + ")");
  }
  opensm.stop();
  ibsim.stop();
  auto run = std::make_shared<ExternalRun>();
  const size_t v = log.find("OpenSM ");
  run->tool = v == std::string::npos ? "OpenSM" : log.substr(v, log.find('\n', v) - v);
  run->engine = engine;
  run->log = read_text(dir.path + "/opensm.log");
  run->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ts.external = run;
  ts.algorithm = "opensm-" + engine;
  if (dir.temporary) fs::remove_all(dir.path);
  return ts;
}

}  // namespace ibsc::routing
