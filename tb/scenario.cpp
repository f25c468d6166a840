#include "tb/scenario.h"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "routing/topo_spec.h"
#include "tb/config_reader.h"

namespace ibsc::tb {
namespace {

// Parameter errors thrown by validate() start with the key ("switch.num_vls must be ..."):
// attach that key's file and line, or the section's when the message names no key of it.
template <class F>
void checked(ConfigReader& r, const std::string& section, F&& validate) {
  try {
    validate();
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    std::string key = msg.substr(0, msg.find_first_of(" :"));
    if (key.rfind(section + ".", 0) != 0 || !r.has(key)) key = section;
    throw ConfigError(r.where(key) + ": " + msg);
  }
}

models::VlArbEntry parse_entry(const std::vector<int>& pair, ConfigReader& r, const std::string& key) {
  if (pair.size() != 2 || pair[0] < 0 || pair[0] > 14 || pair[1] < 0 || pair[1] > 255)
    throw ConfigError(r.where(key) + ": key '" + key + "': each entry is [VL 0..14, weight 0..255]");
  return {static_cast<uint8_t>(pair[0]), static_cast<uint8_t>(pair[1])};
}

}  // namespace

std::string folder_name_problem(const std::string& name) {
  if (name.size() > 255) return "is longer than a folder name may be (255 bytes)";
  // Components separated by '/' (`ibsc reproduce` names runs STUDY/EXPERIMENT), none of them
  // empty, "." or "..", so out/NAME stays inside out/.
  size_t from = 0;
  while (true) {
    const size_t slash = name.find('/', from);
    const std::string part = name.substr(from, slash == std::string::npos ? std::string::npos : slash - from);
    if (part.empty() || part == "." || part == "..")
      return "is not a folder inside out/ (no leading or doubled '/', no '.' or '..' part)";
    if (slash == std::string::npos) break;
    from = slash + 1;
  }
  for (char c : name)
    if (c == '\\' || static_cast<unsigned char>(c) < 0x20)
      return "holds '\\' or a control character; results go to out/NAME";
  return "";
}

Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
  ConfigReader r = ConfigReader::from_file(path);
  for (const auto& o : overrides) r.apply_override(o);
  Scenario s;
  s.file = path;
  s.where = [r](const std::string& key) { return r.where(key); };
  s.name = r.get<std::string>("name", "unnamed");
  if (const std::string why = folder_name_problem(s.name); !why.empty())
    throw ConfigError(r.where("name") + ": key 'name': '" + s.name + "' " + why);
  s.point.seed = r.get<uint64_t>("seed", 1);

  TopologyChoice& t = s.topology;
  t.spec = r.get<std::string>("topology.spec", t.spec);
  t.hosts_per_switch = r.get_int("topology.hosts_per_switch", t.hosts_per_switch, -1, 254);
  t.switch_ports = r.get_int("topology.switch_ports", t.switch_ports, -1, 254);
  int num_switches = 0, num_hosts = 0;
  checked(r, "topology.spec", [&] {
    const routing::Topology built = build_topology(t);
    num_switches = built.num_switches;
    num_hosts = built.num_hosts;
  });

  routing::RoutingOptions& ro = s.routing;
  ro.algorithm = r.get_choice("routing.algorithm", ro.algorithm, routing::routing_algorithm_choices());
  ro.lft_file = r.get<std::string>("routing.lft_file", ro.lft_file);  // for algorithm: file
  ro.max_lmc = r.get_int("routing.max_lmc", ro.max_lmc, 0, 7);
  ro.vls = r.get_int("routing.vls", ro.vls, 0, 15);
  ro.max_sls = r.get_int("routing.max_sls", ro.max_sls, 1, 16);
  ro.max_vls = r.get_int("routing.max_vls", ro.max_vls, 1, 15);
  // VOQsw's options are read (and echoed in the resolved scenario) only when given, as
  // switch.crossbar_inputs: results of scenarios written before the keys existed keep their bytes.
  for (auto [key, field] :
       {std::pair{"routing.voq_hca", &ro.voq_hca}, std::pair{"routing.voq_spread", &ro.voq_spread}}) {
    if (!r.has(key)) continue;
    if (ro.algorithm != "voqsw")
      throw ConfigError(r.where(key) + ": key '" + key + "': only routing voqsw reads it (routing.algorithm is '" +
                        ro.algorithm + "')");
    *field = r.get<bool>(key, false);
  }
  // seeds/001's hop budget, read only by the routings that count hops in the VL.
  if (r.has("routing.k")) {
    if (ro.algorithm != "distance" && ro.algorithm != "deflection")
      throw ConfigError(r.where("routing.k") +
                        ": key 'routing.k': only routings distance and deflection read it "
                        "(routing.algorithm is '" +
                        ro.algorithm + "')");
    ro.k = r.get_int("routing.k", ro.k, 1, 15);
  }
  ro.seed = s.point.seed;

  models::SwitchParams& sw = s.point.fabric.sw;
  sw.num_vls = r.get_int("switch.num_vls", sw.num_vls, 1, 15);
  sw.buffer_bytes_per_vl =
      static_cast<uint32_t>(r.get_int("switch.buffer_bytes_per_vl", sw.buffer_bytes_per_vl, 64, 1 << 20));
  sw.routing_delay_ns = r.get_double("switch.routing_delay_ns", sw.routing_delay_ns, 0, 1e6);
  sw.core_clock_ns = r.get_double("switch.core_clock_ns", sw.core_clock_ns, 0.001, 1e3);
  sw.crossbar_speedup = r.get_int("switch.crossbar_speedup", sw.crossbar_speedup, 1, 16);
  // Read (and echoed in results.json) only when given: results of scenarios written before the
  // key existed keep their bytes.
  if (r.has("switch.crossbar_inputs"))
    sw.crossbar_inputs = r.get_choice("switch.crossbar_inputs", "port", {"port", "vl"}) == "vl"
                             ? models::CrossbarInputs::Vl
                             : models::CrossbarInputs::Port;
  // Read only when given, as crossbar_inputs.
  if (r.has("switch.ar_fallback"))
    sw.ar_fallback_on_credits = r.get_choice("switch.ar_fallback", "free", {"free", "credits"}) == "credits";
  // Read only when given, as crossbar_inputs.
  if (r.has("switch.output_buffer_bytes_per_vl"))
    sw.output_buffer_bytes_per_vl =
        static_cast<uint32_t>(r.get_int("switch.output_buffer_bytes_per_vl", 0, 0, 1 << 20));
  // Read only when given, as crossbar_inputs.
  if (r.has("switch.escape_queue_bytes"))
    sw.escape_queue_bytes = static_cast<uint32_t>(r.get_int("switch.escape_queue_bytes", 0, 0, 1 << 20));
  sw.vl2vl = r.get<bool>("switch.vl2vl", sw.vl2vl);
  s.point.arbiter.kind = r.get_choice("switch.arbiter", s.point.arbiter.kind, {"model", "rtl"});
  s.point.arbiter.rtl_switches = r.get<std::vector<int>>("switch.rtl_switches", {});
  try {
    s.point.arbiter.validate(num_switches);
  } catch (const std::invalid_argument& e) {
    // Where names "--set KEY" for an override; the file is named too, for the switch count.
    const std::string at = r.where("switch.rtl_switches");
    throw ConfigError(at + ": " + e.what() + (at.rfind(path, 0) == 0 ? "" : " (scenario " + path + ")"));
  }
  models::VlArbParams& va = sw.vlarb;
  va.use_tables = r.get<bool>("switch.vlarb.use_tables", va.use_tables);
  va.limit_of_high_priority = r.get_int("switch.vlarb.limit_of_high_priority", va.limit_of_high_priority, 0, 255);
  for (auto [key, table] : {std::pair{"switch.vlarb.high", &va.high}, std::pair{"switch.vlarb.low", &va.low}}) {
    std::vector<int> flat = r.get<std::vector<int>>(key, {});
    if (flat.size() % 2)
      throw ConfigError(r.where(key) + ": key '" + key + "': list VL, weight pairs: [vl, w, vl, w, ...]");
    if (flat.size() / 2 > kMaxVlArbEntries)
      throw ConfigError(r.where(key) + ": key '" + key + "': " + std::to_string(flat.size() / 2) +
                        " entries; an IBA VLArb table holds at most " + std::to_string(kMaxVlArbEntries));
    for (size_t i = 0; i < flat.size(); i += 2) table->push_back(parse_entry({flat[i], flat[i + 1]}, r, key));
  }
  checked(r, "switch", [&] { sw.validate(); });

  models::LinkParams& ln = s.point.fabric.link;
  ln.width = r.get_int("link.width", ln.width, 1, 12);
  ln.lane_gbps = r.get_double("link.lane_gbps", ln.lane_gbps, 0.001, 1000);
  ln.coding = r.get_choice("link.coding", ln.coding, {"8b10b", "64b66b"});
  ln.cable_m = r.get_double("link.cable_m", ln.cable_m, 0, 1e5);
  ln.ns_per_m = r.get_double("link.ns_per_m", ln.ns_per_m, 0, 1e3);
  checked(r, "link", [&] { ln.validate(); });

  TrafficConfig& tr = s.point.traffic;
  tr.pattern = r.get_choice("traffic.pattern", tr.pattern,
                            {"uniform", "bit-reversal", "transpose", "bit-complement", "bit-rotation", "shuffle",
                             "hotspot", "all-to-all", "neighbour", "permutation"});
  tr.hotspot_hosts = r.get<std::vector<int>>("traffic.hotspot_hosts", tr.hotspot_hosts);
  tr.hotspot_fraction = r.get_double("traffic.hotspot_fraction", tr.hotspot_fraction, 0, 1);
  tr.permutation_file = r.get<std::string>("traffic.permutation_file", tr.permutation_file);
  // Read (and echoed) only when given, like switch.crossbar_inputs.
  if (r.has("traffic.packets_per_host"))
    tr.packets_per_host = static_cast<uint64_t>(r.get_int("traffic.packets_per_host", 0, 1, 1000000000));
  // The disk-like workload: read (and echoed) only when given.
  if (r.has("traffic.workload")) {
    tr.disk = r.get_choice("traffic.workload", "pattern", {"pattern", "disk"}) == "disk";
    DiskWorkloadConfig& dc = tr.disk_config;
    dc.disks = r.get_int("traffic.disk.disks", dc.disks, 1, 1 << 20);
    dc.compression = r.get_double("traffic.disk.compression", dc.compression, 1e-6, 1e6);
    dc.mtu = static_cast<uint32_t>(r.get_int("traffic.disk.mtu", static_cast<int>(dc.mtu), 1, 4096));
    if (tr.disk) checked(r, "traffic.disk", [&] { dc.validate(num_hosts); });
    if (tr.disk && r.has("traffic.pattern"))
      throw ConfigError(
          r.where("traffic.pattern") +
          ": key 'traffic.pattern': traffic.workload: disk chooses its own destinations; drop one of them");
  }
  InjectionConfig& in = s.point.injection;
  in.process = r.get_choice("traffic.injection", in.process, {"bernoulli", "poisson"});
  if (r.has("traffic.lengths")) {
    std::vector<double> flat = r.get<std::vector<double>>("traffic.lengths", {});
    if (flat.empty() || flat.size() % 2)
      throw ConfigError(r.where("traffic.lengths") +
                        ": key 'traffic.lengths': list length, weight pairs: [512, 0.5, 32, 0.5]");
    in.length_mix.clear();
    for (size_t i = 0; i < flat.size(); i += 2) {
      if (!(flat[i] >= 1 && flat[i] <= 4096) || flat[i] != static_cast<double>(static_cast<uint32_t>(flat[i])))
        throw ConfigError(r.where("traffic.lengths") + ": key 'traffic.lengths': packet length " +
                          std::to_string(flat[i]) + " is not a whole number of bytes in 1..4096 (IBA MTU)");
      in.length_mix.push_back({static_cast<uint32_t>(flat[i]), flat[i + 1]});
    }
    s.lengths_key = "traffic.lengths";
    if (r.has("traffic.length"))
      throw ConfigError(r.where("traffic.length") +
                        ": key 'traffic.length': give either traffic.length or traffic.lengths, not both");
  } else {
    int len = r.get_int("traffic.length", 512, 1, 4096);
    in.length_mix = {{static_cast<uint32_t>(len), 1.0}};
  }

  // The HCAs' reliable transport (seeds/003): its keys are read, and echoed in results.json,
  // only when transport.mode is given, so that older scenarios keep their results' bytes.
  if (r.has("transport.mode")) {
    models::TransportParams& tp = s.point.fabric.transport;
    // Choices in enum order; the defaults are the struct's.
    auto choose = [&r](const char* key, const std::vector<std::string>& names, auto& field) {
      using E = std::remove_reference_t<decltype(field)>;
      const std::string v = r.get_choice(key, names[static_cast<size_t>(field)], names);
      field = static_cast<E>(std::find(names.begin(), names.end(), v) - names.begin());
    };
    choose("transport.mode", {"off", "reorder", "ooo"}, tp.mode);
    choose("transport.injection", {"immediate", "li", "lw"}, tp.injection);
    choose("transport.memory", {"static", "dynamic"}, tp.memory);
    constexpr int kMaxBytes = 2147483647;
    tp.connection_bytes = static_cast<uint64_t>(
        r.get_int("transport.connection_bytes", static_cast<int>(tp.connection_bytes), 1, kMaxBytes));
    tp.pool_bytes =
        static_cast<uint64_t>(r.get_int("transport.pool_bytes", static_cast<int>(tp.pool_bytes), 1, kMaxBytes));
    tp.control_bytes =
        static_cast<uint32_t>(r.get_int("transport.control_bytes", static_cast<int>(tp.control_bytes), 1, 4096));
    checked(r, "transport", [&] { tp.validate(); });
  }

  // Link faults (tb/link_fault_config.h): read, and echoed, only when some are given. The
  // cables themselves are checked against the topology in check_scenario.
  if (r.has("faults.links") || r.has("faults.random")) {
    LinkFaultConfig& fc = s.point.fabric.faults;
    fc.links = r.get<std::vector<std::string>>("faults.links", fc.links);
    fc.random = r.get_int("faults.random", fc.random, 0, 1 << 20);
    fc.seed = static_cast<uint64_t>(r.get_int("faults.seed", static_cast<int>(fc.seed), 0, 2147483647));
    fc.at_ns = r.get<std::vector<double>>("faults.at_ns", fc.at_ns);
    fc.detection_ns = r.get_double("faults.detection_ns", fc.detection_ns, 0, 1e12);
  }

  RunParams& run = s.point.run;
  run.warmup_ns = r.get_double("run.warmup_ns", run.warmup_ns, 0, 1e12);
  run.window_ns = r.get_double("run.window_ns", run.window_ns, 1, 1e12);
  run.drain_ns = r.get_double("run.drain_ns", run.drain_ns, 0, 1e12);
  run.watchdog_ns = r.get_double("run.watchdog_ns", run.watchdog_ns, 1, 1e12);
  run.check_ns = r.get_double("run.check_ns", run.check_ns, 1, 1e12);
  // Read (and echoed) only when given, like switch.crossbar_inputs: older results keep their bytes.
  if (r.has("run.hol_sample_ns")) run.hol_sample_ns = r.get_double("run.hol_sample_ns", 0, 0, 1e12);
  // Read (and echoed) only when given, as hol_sample_ns.
  if (r.has("run.port_counters")) run.port_counters = r.get<bool>("run.port_counters", false);
  if (r.has("run.measure")) run.measure = r.get_choice("run.measure", run.measure, {"window", "ci"});
  for (auto [key, field] : {std::pair{"run.ci_relative_width", &run.ci_relative_width},
                            std::pair{"run.ci_max_window_ns", &run.ci_max_window_ns}}) {
    if (run.measure == "ci") *field = r.get_double(key, *field, 0, 1e12);  // echoed with its default
    else if (r.has(key)) throw ConfigError(r.where(key) + ": key '" + key + "' applies only with run.measure: ci");
  }
  checked(r, "run", [&] { run.validate(); });

  SweepConfig& sp = s.sweep;
  sp.load_unit = r.get_choice("sweep.load_unit", sp.load_unit, {"fraction", "bytes_per_ns"});
  sp.loads = r.get<std::vector<double>>("sweep.loads", sp.loads);
  sp.start = r.get_double("sweep.start", sp.start, 0.001, 1);
  sp.step = r.get_double("sweep.step", sp.step, 0.001, 1);
  sp.max = r.get_double("sweep.max", sp.max, 0.001, 1);
  sp.refine = r.get_int("sweep.refine", sp.refine, 0, 8);
  if (r.has("sweep.beyond")) sp.beyond = r.get<std::vector<double>>("sweep.beyond", {});  // read only when given
  sp.jobs = r.get_int("sweep.jobs", sp.jobs, 0, 256);
  checked(r, "sweep", [&] { sp.validate(); });

  r.check_all_consumed();
  s.resolved = r.resolved();
  s.resolved["sweep"].erase("jobs");  // how many processes run is not part of the experiment
  // The disk workload refuses traffic.pattern: its default stays out so the echo runs again.
  if (s.point.traffic.disk) s.resolved["traffic"].erase("pattern");
  return s;
}

}  // namespace ibsc::tb

namespace ibsc::tb {

// The scenario's hosts_per_switch and switch_ports are the spec's hosts= and ports= keys
// (routing/topo_spec.h), appended so one parser checks both; -1 keeps the spec's own value.
routing::Topology build_topology(const TopologyChoice& t) {
  std::string spec = t.spec;
  auto add = [&](const char* key, const char* name, int value) {
    if (value < 0) return;
    if (spec.rfind("file:", 0) == 0)
      throw std::invalid_argument(std::string(name) + " does not apply to a file: topology (the file has them)");
    if (spec.find(std::string(key) + "=") != std::string::npos)
      throw std::invalid_argument(std::string(name) + " given twice (also as " + key + "= in the spec '" + t.spec +
                                  "')");
    spec += std::string(":") + key + "=" + std::to_string(value);
  };
  add("hosts", "topology.hosts_per_switch", t.hosts_per_switch);
  add("ports", "topology.switch_ports", t.switch_ports);
  return routing::build_topology_spec(spec);
}

}  // namespace ibsc::tb
