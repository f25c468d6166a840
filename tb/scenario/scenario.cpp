#include "tb/scenario/scenario.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "ibsc/arbiter_registry.h"
#include "models/param_error.h"
#include "routing/opensm_engine.h"
#include "routing/topo_spec.h"
#include "routing/types.h"
#include "tb/scenario/config_reader.h"
#include "tb/scenario/scenario_keys.h"

namespace ibsc::tb {
namespace {

models::VlArbEntry parse_entry(const std::vector<int>& pair, const KeyReader& k, const std::string& key) {
  if (pair.size() != 2 || pair[0] < 0 || pair[0] > 14 || pair[1] < 0 || pair[1] > 255)
    k.fail(key, "each entry is [VL 0..14, weight 0..255]");
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
  return load_scenario(ConfigReader::from_file(path), path, overrides);
}

Scenario load_scenario_text(const std::string& yaml, const std::string& name,
                            const std::vector<std::string>& overrides) {
  return load_scenario(ConfigReader::from_string(yaml, name), name, overrides);
}

Scenario load_scenario(ConfigReader cfg, const std::string& path, const std::vector<std::string>& overrides) {
  for (const auto& o : overrides) cfg.apply_override(o);
  // Every key is read through its declaration (tb/scenario/scenario_keys.cpp): type, default, range,
  // choices and echo policy come from there.
  KeyReader r(cfg, scenario_keys());
  Scenario s;
  s.file = path;
  s.where = [cfg](const std::string& key) { return cfg.where(key); };
  s.name = r.get<std::string>("name");
  if (const std::string why = folder_name_problem(s.name); !why.empty()) r.fail("name", "'" + s.name + "' " + why);
  s.point.seed = r.get<uint64_t>("seed");

  TopologyChoice& t = s.topology;
  t.spec = r.get<std::string>("topology.spec");
  t.hosts_per_switch = r.get<int>("topology.hosts_per_switch");
  t.switch_ports = r.get<int>("topology.switch_ports");
  int num_switches = 0, num_hosts = 0;
  r.checked("topology.spec", [&] {
    const routing::Topology built = build_topology(t);
    num_switches = built.num_switches;
    num_hosts = built.num_hosts;
  });

  routing::RoutingOptions& ro = s.routing;
  ro.algorithm = r.get<routing::Algorithm>("routing.algorithm");
  const std::string algorithm = enum_name(ro.algorithm);  // for the messages below
  ro.lft_file = r.get<std::string>("routing.lft_file");   // for algorithm: file
  for (const char* key : {"routing.opensm_engine", "routing.opensm_options", "routing.opensm_timeout_s"})
    if (r.has(key) && ro.algorithm != routing::Algorithm::Opensm)
      r.fail(key, "only routing opensm reads it (routing.algorithm is '" + algorithm + "')");
  ro.opensm_engine = r.get<std::string>("routing.opensm_engine");
  ro.opensm_options = r.get<std::string>("routing.opensm_options");
  ro.opensm_timeout_s = r.get<double>("routing.opensm_timeout_s");
  if (ro.algorithm == routing::Algorithm::Opensm) {
    const auto& engines = routing::opensm_engines();
    if (std::find(engines.begin(), engines.end(), ro.opensm_engine) == engines.end()) {
      std::string list;
      for (const auto& e : engines) list += (list.empty() ? "" : ", ") + e;
      r.fail(ro.opensm_engine.empty() ? "routing.algorithm" : "routing.opensm_engine",
             "routing opensm needs routing.opensm_engine, one of " + list +
                 (ro.opensm_engine.empty() ? "" : " (got '" + ro.opensm_engine + "')"));
    }
  }
  ro.max_lmc = r.get<int>("routing.max_lmc");
  ro.vls = r.get<int>("routing.vls");
  ro.max_sls = r.get<int>("routing.max_sls");
  ro.max_vls = r.get<int>("routing.max_vls");
  for (auto [key, field] :
       {std::pair{"routing.voq_hca", &ro.voq_hca}, std::pair{"routing.voq_spread", &ro.voq_spread}}) {
    if (r.has(key) && ro.algorithm != routing::Algorithm::Voqsw)
      r.fail(key, "only routing voqsw reads it (routing.algorithm is '" + algorithm + "')");
    *field = r.get<bool>(key);
  }
  // Which shortest up*/down* path a pair takes (echoed only when given, as the VOQsw options).
  using A = routing::Algorithm;
  if (r.has("routing.updown_paths") &&
      !std::set<A>{A::UpdownBfs, A::UpdownDfs, A::Minhop, A::Voqsw, A::Vn}.count(ro.algorithm))
    r.fail("routing.updown_paths",
           "only up*/down*, minhop, voqsw and vn read it (routing.algorithm is '" + algorithm + "')");
  ro.updown_paths = r.get<routing::ShortestPathChoice>("routing.updown_paths");
  if (ro.algorithm == A::Minhop &&
      (ro.updown_paths == routing::ShortestPathChoice::Highest || ro.updown_paths == routing::ShortestPathChoice::Tree))
    r.fail("routing.updown_paths",
           std::string("'") + enum_name(ro.updown_paths) + "' needs an up*/down* root; minhop has none");
  // The up*/down* root (echoed only when given): a switch of this topology.
  if (r.has("routing.root") && !std::set<A>{A::UpdownBfs, A::UpdownDfs, A::Voqsw, A::Vn}.count(ro.algorithm))
    r.fail("routing.root", "only up*/down*, voqsw and vn read it (routing.algorithm is '" + algorithm + "')");
  ro.root = r.get<int>("routing.root");
  if (ro.root >= num_switches && num_switches > 0)
    r.fail("routing.root", "routing.root must name a switch, 0.." + std::to_string(num_switches - 1) + " (got " +
                               std::to_string(ro.root) + ")");
  // seeds/001's hop budget, read only by the routings that count hops in the VL.
  if (r.has("routing.k") && ro.algorithm != A::Distance && ro.algorithm != A::Deflection)
    r.fail("routing.k", "only routings distance and deflection read it (routing.algorithm is '" + algorithm + "')");
  ro.k = r.get<int>("routing.k");
  if (r.has("routing.gsid_modulus") && ro.algorithm != A::Gsid)
    r.fail("routing.gsid_modulus", "only routing gsid reads it (routing.algorithm is '" + algorithm + "')");
  ro.gsid_modulus = r.get<routing::GsidModulus>("routing.gsid_modulus");
  // fattree's LIDs per host (routing.max_lmc bounds the other routings' destination renaming).
  if (r.has("routing.lmc") && ro.algorithm != A::Fattree && ro.algorithm != A::FattreeAr)
    r.fail("routing.lmc", "only routings fattree and fattree-ar read it (routing.algorithm is '" + algorithm +
                              "'); routing.max_lmc bounds the others' LIDs");
  ro.lmc = r.get<int>("routing.lmc");
  ro.seed = s.point.seed;

  models::SwitchParams& sw = s.point.fabric.sw;
  sw.num_vls = r.get<int>("switch.num_vls");
  sw.buffer_bytes_per_vl = static_cast<uint32_t>(r.get<int>("switch.buffer_bytes_per_vl"));
  sw.vl_buffers = r.get<models::VlBuffers>("switch.vl_buffers");
  sw.routing_delay_ns = r.get<double>("switch.routing_delay_ns");
  sw.core_clock_ns = r.get<double>("switch.core_clock_ns");
  sw.crossbar_speedup = r.get<int>("switch.crossbar_speedup");
  sw.crossbar_inputs = r.get<models::CrossbarInputs>("switch.crossbar_inputs");
  sw.ar_fallback = r.get<models::ArFallback>("switch.ar_fallback");
  sw.output_buffer_bytes_per_vl = static_cast<uint32_t>(r.get<int>("switch.output_buffer_bytes_per_vl"));
  sw.escape_queue_bytes = static_cast<uint32_t>(r.get<int>("switch.escape_queue_bytes"));
  sw.output_request_queue = r.get<models::OutputRequestQueue>("switch.output_request_queue");
  sw.vl2vl = r.get<bool>("switch.vl2vl");
  s.point.arbiter.name = r.get<std::string>("switch.arbiter");
  s.point.arbiter.rtl_switches = r.get<std::vector<int>>("switch.rtl_switches");
  if (!arbiter_registered(s.point.arbiter.name)) {
    std::string known;
    for (const std::string& n : registered_arbiters()) known += (known.empty() ? "" : ", ") + n;
    r.fail("switch.arbiter", "unknown arbiter '" + s.point.arbiter.name + "' (registered: " + known + ")");
  }
  if (sw.output_request_queue != models::OutputRequestQueue::Off && s.point.arbiter.name != "model")
    r.fail("switch.output_request_queue", "the request queues replace the switch arbiter, so switch.arbiter " +
                                              s.point.arbiter.name + " has nothing to run; leave one of the two out");
  try {
    s.point.arbiter.validate(num_switches);
  } catch (const std::invalid_argument& e) {
    // Where names "--set KEY" for an override; the file is named too, for the switch count.
    const std::string at = r.where("switch.rtl_switches");
    throw ConfigError(at + ": " + e.what() + (at.rfind(path, 0) == 0 ? "" : " (scenario " + path + ")"));
  }
  models::VlArbParams& va = sw.vlarb;
  va.use_tables = r.get<bool>("switch.vlarb.use_tables");
  va.limit_of_high_priority = r.get<int>("switch.vlarb.limit_of_high_priority");
  for (auto [key, table] : {std::pair{"switch.vlarb.high", &va.high}, std::pair{"switch.vlarb.low", &va.low}}) {
    std::vector<int> flat = r.get<std::vector<int>>(key);
    if (flat.size() % 2) r.fail(key, "list VL, weight pairs: [vl, w, vl, w, ...]");
    if (flat.size() / 2 > kMaxVlArbEntries)
      r.fail(key, std::to_string(flat.size() / 2) + " entries; an IBA VLArb table holds at most " +
                      std::to_string(kMaxVlArbEntries));
    for (size_t i = 0; i < flat.size(); i += 2) table->push_back(parse_entry({flat[i], flat[i + 1]}, r, key));
  }
  r.checked("switch", [&] { sw.validate(); });

  models::LinkParams& ln = s.point.fabric.link;
  ln.width = r.get<int>("link.width");
  ln.lane_gbps = r.get<double>("link.lane_gbps");
  ln.coding = r.get<models::LineCoding>("link.coding");
  ln.cable_m = r.get<double>("link.cable_m");
  ln.ns_per_m = r.get<double>("link.ns_per_m");
  r.checked("link", [&] { ln.validate(); });
  s.point.fabric.hca.injection_queues = r.get<models::InjectionQueues>("hca.injection_queues");

  TrafficConfig& tr = s.point.traffic;
  tr.pattern = r.get<TrafficPattern>("traffic.pattern");
  tr.hotspot_hosts = r.get<std::vector<int>>("traffic.hotspot_hosts");
  tr.hotspot_fraction = r.get<double>("traffic.hotspot_fraction");
  tr.permutation_file = r.get<std::string>("traffic.permutation_file");
  tr.packets_per_host = static_cast<uint64_t>(r.get<int>("traffic.packets_per_host"));
  tr.hotspot_senders = r.get<std::vector<int>>("traffic.hotspot_senders");
  tr.silent_hosts = r.get<std::vector<int>>("traffic.silent_hosts");
  // The disk-like workload's keys are read (and echoed) only with traffic.workload.
  if (r.has("traffic.workload")) {
    tr.workload = r.get<Workload>("traffic.workload");
    const bool disk = tr.workload == Workload::Disk;
    DiskWorkloadConfig& dc = tr.disk_config;
    dc.disks = r.get<int>("traffic.disk.disks");
    dc.compression = r.get<double>("traffic.disk.compression");
    dc.mtu = static_cast<uint32_t>(r.get<int>("traffic.disk.mtu"));
    if (r.has("traffic.disk.max_message"))
      dc.max_message = static_cast<uint32_t>(r.get<int>("traffic.disk.max_message"));
    if (disk) r.checked("traffic.disk", [&] { dc.validate(num_hosts); });
    if (disk && r.has("traffic.pattern"))
      r.fail("traffic.pattern", "traffic.workload: disk chooses its own destinations; drop one of them");
  }
  InjectionConfig& in = s.point.injection;
  in.process = r.get<ArrivalProcess>("traffic.injection");
  if (r.has("traffic.lengths")) {
    std::vector<double> flat = r.get<std::vector<double>>("traffic.lengths");
    if (flat.empty() || flat.size() % 2) r.fail("traffic.lengths", "list length, weight pairs: [512, 0.5, 32, 0.5]");
    in.length_mix.clear();
    for (size_t i = 0; i < flat.size(); i += 2) {
      if (!(flat[i] >= 1 && flat[i] <= kMaxMtuBytes) || flat[i] != static_cast<double>(static_cast<uint32_t>(flat[i])))
        r.fail("traffic.lengths", "packet length " + std::to_string(flat[i]) +
                                      " is not a whole number of bytes in 1.." + std::to_string(kMaxMtuBytes) +
                                      " (IBA MTU)");
      in.length_mix.push_back({static_cast<uint32_t>(flat[i]), flat[i + 1]});
    }
    s.lengths_key = "traffic.lengths";
    if (r.has("traffic.length")) r.fail("traffic.length", "give either traffic.length or traffic.lengths, not both");
  } else {
    in.length_mix = {{static_cast<uint32_t>(r.get<int>("traffic.length")), 1.0}};
  }

  // The HCAs' reliable transport (seeds/003): its keys are read, and echoed in results.json,
  // only when transport.mode is given, so that older scenarios keep their results' bytes.
  if (r.has("transport.mode")) {
    models::TransportParams& tp = s.point.fabric.transport;
    tp.mode = r.get<models::TransportMode>("transport.mode");
    tp.injection = r.get<models::InjectionPolicy>("transport.injection");
    tp.memory = r.get<models::ReorderMemoryKind>("transport.memory");
    tp.connection_bytes = static_cast<uint64_t>(r.get<int>("transport.connection_bytes"));
    tp.pool_bytes = static_cast<uint64_t>(r.get<int>("transport.pool_bytes"));
    tp.control_bytes = static_cast<uint32_t>(r.get<int>("transport.control_bytes"));
    tp.ack_coalesce = static_cast<uint32_t>(r.get<int>("transport.ack_coalesce"));
    tp.ack_delay_ns = r.get<double>("transport.ack_delay_ns");
    r.checked("transport", [&] { tp.validate(); });
  }

  // Congestion control (models/congestion_control.h): read, and echoed, only when cc.enable is given.
  if (r.has("cc.enable")) {
    models::CcParams& cc = s.point.fabric.cc;
    cc.enabled = r.get<bool>("cc.enable");
    if (cc.enabled && s.point.fabric.hca.injection_queues == models::InjectionQueues::Single)
      r.fail("cc.enable",
             "congestion control's send scheduler needs an injection queue per VL "
             "(hca.injection_queues: single is set)");
    cc.threshold = r.get<int>("cc.threshold");
    cc.marking_rate = static_cast<uint32_t>(r.get<int>("cc.marking_rate"));
    cc.packet_size_blocks = static_cast<uint32_t>(r.get<int>("cc.packet_size_blocks"));
    cc.victim_ports = r.get<std::vector<int>>("cc.victim_mask");
    cc.cnp_bytes = static_cast<uint32_t>(r.get<int>("cc.cnp_bytes"));
    cc.cnp_sl = r.get<int>("cc.cnp_sl");
    cc.flow = r.get<models::CcFlow>("cc.flow");
    cc.ccti_increase = static_cast<uint32_t>(r.get<int>("cc.ccti_increase"));
    cc.ccti_timer = static_cast<uint32_t>(r.get<int>("cc.ccti_timer"));
    cc.ccti_min = static_cast<uint32_t>(r.get<int>("cc.ccti_min"));
    cc.ccti_limit = static_cast<uint32_t>(r.get<int>("cc.ccti_limit"));
    cc.trigger_threshold = static_cast<uint32_t>(r.get<int>("cc.trigger_threshold"));
    cc.cct = r.get<std::vector<double>>("cc.cct");
    cc.sample_ns = r.get<double>("cc.sample_ns");
    r.checked("cc", [&] { cc.validate(); });
  }

  // Link faults (tb/scenario/link_fault_config.h): read, and echoed, only when some are given. The
  // cables themselves are checked against the topology in check_scenario.
  if (r.has("faults.links") || r.has("faults.random")) {
    LinkFaultConfig& fc = s.point.fabric.faults;
    fc.links = r.get<std::vector<std::string>>("faults.links");
    fc.random = r.get<int>("faults.random");
    fc.seed = static_cast<uint64_t>(r.get<int>("faults.seed"));
    fc.at_ns = r.get<std::vector<double>>("faults.at_ns");
    fc.detection_ns = r.get<double>("faults.detection_ns");
    if (r.has("faults.routable")) fc.routable = r.get<bool>("faults.routable");  // echoed only when given
  }

  RunParams& run = s.point.run;
  run.warmup_ns = r.get<double>("run.warmup_ns");
  run.window_ns = r.get<double>("run.window_ns");
  run.drain_ns = r.get<double>("run.drain_ns");
  run.watchdog_ns = r.get<double>("run.watchdog_ns");
  run.check_ns = r.get<double>("run.check_ns");
  run.hol_sample_ns = r.get<double>("run.hol_sample_ns");
  run.port_counters = r.get<bool>("run.port_counters");
  run.measure = r.get<Measure>("run.measure");
  run.drain = r.get<Drain>("run.drain");
  run.warmup = r.get<Warmup>("run.warmup");
  // sweep.beyond's points warm up with run.warmup: rate whatever run.warmup says: their longest
  // warm-up may be set with a fixed warm-up elsewhere.
  const bool beyond = r.has("sweep.beyond") && !r.get<std::vector<double>>("sweep.beyond").empty();
  if (run.warmup != Warmup::Fixed) run.warmup_max_ns = r.get<double>("run.warmup_max_ns");  // echoed with its default
  else if (r.has("run.warmup_max_ns") && beyond) run.warmup_max_ns = r.get<double>("run.warmup_max_ns");
  else if (r.has("run.warmup_max_ns"))
    throw ConfigError(r.where("run.warmup_max_ns") +
                      ": key 'run.warmup_max_ns' applies only with run.warmup: steady or rate, or to sweep.beyond's "
                      "points");
  for (auto [key, field] : {std::pair{"run.ci_relative_width", &run.ci_relative_width},
                            std::pair{"run.ci_max_window_ns", &run.ci_max_window_ns}}) {
    if (run.measure == Measure::Ci) *field = r.get<double>(key);  // echoed with its default
    else if (r.has(key)) throw ConfigError(r.where(key) + ": key '" + key + "' applies only with run.measure: ci");
  }
  r.checked("run", [&] { run.validate(); });

  SweepConfig& sp = s.sweep;
  sp.load_unit = r.get<LoadUnit>("sweep.load_unit");
  sp.loads = r.get<std::vector<double>>("sweep.loads");
  sp.start = r.get<double>("sweep.start");
  sp.step = r.get<double>("sweep.step");
  sp.max = r.get<double>("sweep.max");
  sp.refine = r.get<int>("sweep.refine");
  sp.beyond = r.get<std::vector<double>>("sweep.beyond");
  sp.jobs = r.get<int>("sweep.jobs");
  r.checked("sweep", [&] { sp.validate(); });

  cfg.check_all_consumed();
  s.resolved = r.echoed();
  // The disk workload refuses traffic.pattern: its default stays out so the echo runs again.
  if (s.point.traffic.workload == Workload::Disk) s.resolved["traffic"].erase("pattern");
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
      throw ParamError(name, std::string(name) + " does not apply to a file: topology (the file has them)");
    if (spec.find(std::string(key) + "=") != std::string::npos)
      throw ParamError(name, std::string(name) + " given twice (also as " + key + "= in the spec '" + t.spec + "')");
    spec += std::string(":") + key + "=" + std::to_string(value);
  };
  add("hosts", "topology.hosts_per_switch", t.hosts_per_switch);
  add("ports", "topology.switch_ports", t.switch_ports);
  return routing::build_topology_spec(spec);
}

}  // namespace ibsc::tb
