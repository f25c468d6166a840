// `ibsc route`: the routing library on its own. Builds a topology from a spec, computes one
// routing (or, with --metrics and no --routing, every applicable one), and reports checks,
// metrics as in seeds/000 Table 2, JSON, OpenSM LFT dumps and a Graphviz drawing.
#include "tb/cmd_route.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <nlohmann/json.hpp>

#include "routing/checks.h"
#include "routing/dot.h"
#include "routing/metrics.h"
#include "routing/routing.h"
#include "routing/table_io.h"
#include "routing/topo_spec.h"
#include "tb/cli_numbers.h"

namespace ibsc::tb {
namespace {

struct RouteCmdOptions {
  std::string topology;
  std::string routing;
  bool check = false;
  bool metrics = false;
  bool json = false;
  std::string export_dir;
  std::string import_dir;  // --import-opensm: check tables computed elsewhere
  std::string dot;
  int max_lmc = 7;
  int vls = 0;
  int hosts = -1;  // --hosts: hosts per switch; -1 keeps the spec's own (or its default)
  int ports = -1;  // --ports: ports per switch; -1 keeps the spec's own (0 = just enough)
  int max_sls = 16;
  int max_vls = 15;
  uint64_t seed = 1;
  double max_memory_gb = 0;  // 0: half the physical memory
};

struct Outcome {
  std::string algorithm;
  std::string error;  // the algorithm refused (budget, topology kind)
  routing::TableSet tables;
  routing::CheckReport report;
  routing::Metrics metrics;
  double seconds = 0;
};

nlohmann::json outcome_json(const Outcome& o) {
  nlohmann::json j;
  j["routing"] = o.algorithm;
  if (!o.error.empty()) {
    j["error"] = o.error;
    return j;
  }
  j["average_distance"] = o.metrics.average_distance;
  j["crossing_path"] = o.metrics.crossing_path;
  j["deviation_crossing"] = o.metrics.deviation_crossing;
  j["sls"] = o.report.sls_used;
  j["vls"] = o.report.vls_used;
  j["lmc"] = o.tables.hosts.empty() ? 0 : o.tables.hosts[0].lmc;
  j["max_lid"] = o.tables.max_lid;
  j["connected"] = o.report.connected;
  j["paths_end"] = o.report.paths_end;
  j["within_budget"] = o.report.within_budget;
  j["deadlock_free"] = o.report.deadlock_free;
  j["routed_pairs"] = o.report.routed_pairs;
  j["pairs"] = o.report.pairs;
  if (!o.report.deadlock_free) {
    nlohmann::json cyc = nlohmann::json::array();
    for (const auto& h : o.report.cycle) cyc.push_back({{"node", h.name}, {"port", h.port}, {"vl", h.vl}});
    j["cycle"] = cyc;
  }
  if (!o.report.problems.empty()) j["problems"] = o.report.problems;
  j["seconds"] = o.seconds;
  return j;
}

// --hosts and --ports are the spec's hosts= and ports= keys: appended, so one parser checks
// both forms and reports an unknown key (e.g. ports= on a dragonfly) the same way. Giving a
// value twice is refused rather than silently picking one.
std::string spec_with_options(const RouteCmdOptions& opt) {
  std::string spec = opt.topology;
  auto add = [&](const char* key, int value) {
    if (value < 0) return;
    if (spec.rfind("file:", 0) == 0)
      throw std::invalid_argument(std::string("--") + key + " does not apply to file: topologies");
    if (spec.find(std::string(key) + "=") != std::string::npos)
      throw std::invalid_argument(std::string("--") + key + " given twice (also in the spec '" + opt.topology + "')");
    spec += std::string(":") + key + "=" + std::to_string(value);
  };
  add("hosts", opt.hosts);
  add("ports", opt.ports);
  return spec;
}

// "8 ports", or "4-36 ports" when switches differ (imported fabrics): not switch 0's alone.
std::string switch_ports_text(const routing::Topology& topo) {
  int lo = 0, hi = 0;
  for (int s = 0; s < topo.num_switches; ++s) {
    const int p = topo.nodes[s].num_ports;
    lo = s == 0 ? p : std::min(lo, p);
    hi = std::max(hi, p);
  }
  return lo == hi ? fmt::format("{} ports", hi) : fmt::format("{}-{} ports", lo, hi);
}

int route(const RouteCmdOptions& opt) {
  routing::Topology topo = routing::build_topology_spec(spec_with_options(opt));
  for (const auto& n : topo.notes) std::cerr << "ibsc route: note: " << n << "\n";
  const int links = routing::count_switch_links(topo) + topo.num_hosts;
  if (!opt.dot.empty()) {
    std::ofstream out(opt.dot);
    if (!out) throw std::runtime_error(opt.dot + ": cannot write");
    routing::write_dot(topo, out);
  }
  std::vector<std::string> algorithms;
  if (!opt.import_dir.empty()) {
    if (!opt.routing.empty() && opt.routing != "file")
      throw std::invalid_argument("--import-opensm reads the tables; it cannot be combined with --routing " +
                                  opt.routing);
    algorithms.push_back("file");
  } else if (!opt.routing.empty())
    algorithms.push_back(opt.routing);
  else if (opt.metrics)
    for (const auto& a : routing::routing_algorithms()) {
      if (routing::algorithm_applies(a, topo)) algorithms.push_back(a);
    }
  else
    algorithms.push_back(routing::algorithm_applies("ecube", topo) ? "ecube" : "updown-dfs");
  const bool single = algorithms.size() == 1;

  std::vector<Outcome> outcomes;
  for (const auto& a : algorithms) {
    Outcome o;
    o.algorithm = a;
    routing::RoutingOptions ro;
    ro.algorithm = a;
    ro.vls = opt.vls;
    ro.max_sls = opt.max_sls;
    ro.max_vls = opt.max_vls;
    ro.seed = opt.seed;
    ro.max_lmc = opt.max_lmc;
    ro.lft_file = opt.import_dir;
    ro.max_memory_gb = opt.max_memory_gb;
    auto t0 = std::chrono::steady_clock::now();
    try {
      o.tables = routing::compute_routing(topo, ro);
    } catch (const routing::RoutingError& e) {
      if (single) throw;
      o.error = e.what();
      outcomes.push_back(std::move(o));
      continue;
    }
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    routing::CheckLimits lim;
    lim.max_sls = opt.max_sls;
    lim.max_vls = opt.max_vls;
    if (opt.check || opt.json || opt.metrics) o.report = routing::check_tables(topo, o.tables, lim);
    if (opt.metrics || opt.json) o.metrics = routing::compute_metrics(topo, o.tables);
    outcomes.push_back(std::move(o));
  }
  if (!opt.export_dir.empty()) {
    // Several algorithms (--metrics without --routing): one subfolder each, so none is lost.
    for (const Outcome& o : outcomes) {
      if (!o.error.empty()) {
        if (single) throw std::runtime_error("nothing to export: " + o.error);
        std::cerr << "ibsc route: note: " << o.algorithm << " not exported: " << o.error << "\n";
        continue;
      }
      routing::export_tables(topo, o.tables, single ? opt.export_dir : opt.export_dir + "/" + o.algorithm);
    }
  }
  const double topo_dist = outcomes.empty() ? 0 : outcomes.front().metrics.average_topological_distance;

  if (opt.json) {
    nlohmann::json j;
    j["topology"] = opt.topology;
    j["kind"] = topo.kind;
    j["switches"] = topo.num_switches;
    j["hosts"] = topo.num_hosts;
    j["links"] = links;
    j["switch_links"] = routing::count_switch_links(topo);
    j["diameter"] = routing::switch_diameter(topo);
    double td = 0;
    for (const auto& o : outcomes)
      if (o.error.empty()) td = o.metrics.average_topological_distance;
    j["average_topological_distance"] = td;
    // The top-level fields describe the first algorithm that produced tables, so they are
    // present even when the first one was refused.
    const Outcome* first = &outcomes.front();
    for (const auto& o : outcomes)
      if (o.error.empty()) {
        first = &o;
        break;
      }
    j.update(outcome_json(*first));
    if (!first->error.empty()) {  // every algorithm refused: the required fields, empty
      j["average_distance"] = nullptr;
      j["crossing_path"] = nullptr;
      j["deviation_crossing"] = nullptr;
      j["sls"] = nullptr;
      j["vls"] = nullptr;
      j["deadlock_free"] = nullptr;
    }
    if (!single) {
      j["routings"] = nlohmann::json::array();
      for (const auto& o : outcomes) j["routings"].push_back(outcome_json(o));
    }
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << fmt::format("{}: {} ({}): {} switches, {} hosts, {} links, diameter {}\n", opt.topology, topo.kind,
                             switch_ports_text(topo), topo.num_switches, topo.num_hosts, links,
                             routing::switch_diameter(topo));
    if (opt.metrics) {
      std::cout << fmt::format("average topological distance = {:.2f}\n", topo_dist);
      std::cout << fmt::format("{:<12} {:>9} {:>9} {:>10} {:>4} {:>4} {:>4} {:>14} {:>8}\n", "routing", "avg dist",
                               "crossing", "deviation", "SLs", "VLs", "LMC", "deadlock-free", "time s");
      for (const auto& o : outcomes) {
        if (!o.error.empty()) {
          std::cout << fmt::format("{:<12} refused: {}\n", o.algorithm, o.error);
          continue;
        }
        std::cout << fmt::format("{:<12} {:>9.2f} {:>9} {:>10.2f} {:>4} {:>4} {:>4} {:>14} {:>8.3f}\n", o.algorithm,
                                 o.metrics.average_distance, o.metrics.crossing_path, o.metrics.deviation_crossing,
                                 o.report.sls_used, o.report.vls_used,
                                 int(o.tables.hosts.empty() ? 0 : o.tables.hosts[0].lmc),
                                 o.report.deadlock_free ? "yes" : "NO", o.seconds);
      }
    } else {
      for (const auto& o : outcomes)
        std::cout << fmt::format("{}: {} SLs, {} VLs, LMC {}, max LID {}, {:.3f} s\n", o.algorithm, o.tables.sls_used,
                                 o.tables.vls_used, int(o.tables.hosts.empty() ? 0 : o.tables.hosts[0].lmc),
                                 o.tables.max_lid, o.seconds);
    }
    if (opt.check)
      for (const auto& o : outcomes)
        if (o.error.empty()) std::cout << "check " << o.algorithm << ":\n" << o.report.text();
  }
  if (opt.check)
    for (const auto& o : outcomes)
      if (o.error.empty() && !o.report.ok()) return 2;
  return 0;
}

}  // namespace

void add_route_command(CLI::App& app) {
  auto opt = std::make_shared<RouteCmdOptions>();
  CLI::App* c = app.add_subcommand("route", "Compute routing tables: checks, metrics, OpenSM export");
  c->add_option("--topology", opt->topology,
                "torus:4x4, mesh:8x8, hypercube:6, irregular:16:seed=3, flatfly:4x8x8x8:widths=2,1,1,1, "
                "dragonfly:a=4,h=2,p=2, slimfly:q=5, product:A*B, file:PATH; :hosts=N per switch")
      ->required();
  c->add_option("--routing", opt->routing, "ecube, dor1vl, minhop, updown-bfs, updown-dfs, flexible");
  c->add_flag("--check", opt->check, "check connectivity, loops, SL/VL budget, deadlock freedom (exit 2 on failure)");
  c->add_flag("--metrics", opt->metrics, "seeds/000 Table 2 metrics; all applicable algorithms without --routing");
  c->add_flag("--json", opt->json, "one JSON object on stdout");
  c->add_option("--export-opensm", opt->export_dir,
                 "write opensm-lfts.dump, sl2vl.txt, path-records.txt here (one subfolder per algorithm if several)");
  c->add_option("--import-opensm", opt->import_dir,
                "check tables computed elsewhere: an OpenSM LFT dump, or a directory as --export-opensm writes it");
  c->add_option("--max-lmc", opt->max_lmc, "largest LMC destination renaming may use")->check(CLI::Range(0, 7));
  c->add_option("--hosts", opt->hosts, "hosts per switch (same as :hosts=N in the spec)")->check(CLI::Range(0, 254));
  c->add_option("--ports", opt->ports, "ports per switch, 0 = just enough (same as :ports=N)")
      ->check(CLI::Range(0, 254));
  c->add_option("--vls", opt->vls, "VLs for up*/down*, minhop and Flexible (1 or 2)")->check(CLI::Range(0, 2));
  c->add_option("--dot", opt->dot, "write the topology as Graphviz");
  c->add_option("--seed", opt->seed, "tie-breaking seed")->transform(whole_number(0, UINT64_MAX));
  c->add_option("--max-memory-gb", opt->max_memory_gb,
                "refuse tables estimated to need more memory, GB (default: half the physical memory)")
      ->check(CLI::Range(0.001, 1e6));
  c->add_option("--max-sls", opt->max_sls, "SL budget")->check(CLI::Range(1, 16));
  c->add_option("--max-vls", opt->max_vls, "data VL budget")->check(CLI::Range(1, 15));
  c->callback([opt]() {
    int rc = route(*opt);
    if (rc) throw CLI::RuntimeError(rc);
  });
}

}  // namespace ibsc::tb
