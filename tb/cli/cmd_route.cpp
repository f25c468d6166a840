// `ibsc route`: the routing library on its own. Builds a topology from a spec, computes one
// routing (or, with --metrics and no --routing, every applicable one), and reports checks,
// metrics as in seeds/000 Table 2, JSON, OpenSM LFT dumps and a Graphviz drawing.
#include "tb/cli/cmd_route.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "routing/checks.h"
#include "routing/dot.h"
#include "routing/fat_tree_shape.h"
#include "routing/fattree.h"
#include "routing/fault_analysis.h"
#include "routing/metrics.h"
#include "routing/pair_loads.h"
#include "routing/routing.h"
#include "routing/seeds001.h"
#include "routing/table_io.h"
#include "routing/topo_spec.h"
#include "routing/voqsw.h"
#include "tb/cli/cli_numbers.h"
#include "tb/cli/phase_progress.h"
#include "tb/cli/route_bounds.h"

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
  int lmc = 0;  // --lmc: fattree's LIDs per host, 2^lmc
  int vls = 0;
  int k = 0;
  int hosts = -1;  // --hosts: hosts per switch; -1 keeps the spec's own (or its default)
  int ports = -1;  // --ports: ports per switch; -1 keeps the spec's own (0 = just enough)
  // --gsid-modulus: cables | h (routing.h); empty: the default.
  std::string gsid_modulus;
  int max_sls = 16;
  int max_vls = 15;
  int sls = 0;  // --sls: voqsw's SL budget, vn's networks; 0: the algorithm's choice
  uint64_t seed = 1;
  bool paths = false;        // --paths: seeds/002 Tables 1-2, pairs by number of disjoint paths
  int fault_analysis = 0;    // --fault-analysis MAX: singular cases for 1..MAX link faults
  int fault_exhaustive = 4;  // all combinations up to this many faults, sampled above
  long fault_samples = 100000;
  std::vector<std::string> faults;  // --fault SWITCH:PORT (repeatable): pairs this set cuts
  double max_memory_gb = 0;         // 0: half the memory this process may use
  bool describe = false;            // --describe: seeds/001's topology figures, no routing
  std::string opensm_engine;        // --routing opensm: OpenSM's engine (routing/opensm_engine.h)
  std::string opensm_options;       // added to OpenSM's command line
  double opensm_timeout = 600;      // s
  std::string opensm_dir;           // keep OpenSM's run folder here
  std::vector<std::string> bounds;  // --bound: traffic patterns whose channel-load bounds to give
};

struct Outcome {
  std::string algorithm;
  std::string error;  // the algorithm refused (budget, topology kind)
  routing::TableSet tables;
  routing::CheckReport report;
  routing::Metrics metrics;
  long pair_busiest = -1;  // --metrics: most routes of all host pairs on one channel (pair_loads.h)
  double seconds = 0;
  bool has_voq = false;  // voqsw: its plan (SLs for full VOQ, % VOQ at the budget)
  routing::VoqSummary voq;
  std::vector<RouteBound> bounds;  // --bound
};

std::string voq_text(const routing::VoqSummary& v) {
  return fmt::format(
      "voqsw: full VOQ needs {} SLs; with {} SLs and {} VLs: {} of {} tuples considered ({:.1f} % VOQ), "
      "{:.1f} % of switch-to-switch hops weighted by paths; {} SLs used\n",
      v.plan.sls_full, v.plan.sl_budget, v.vls, v.plan.x, v.plan.x_max, v.plan.percent(), v.plan.weighted_percent(),
      v.plan.sls_used);
}

nlohmann::json voq_json(const routing::VoqSummary& v) {
  return {{"sls_full", v.plan.sls_full},
          {"sl_budget", v.plan.sl_budget},
          {"vls", v.vls},
          {"tuples", v.plan.x_max},
          {"considered", v.plan.x},
          {"percent", v.plan.percent()},
          {"weighted_percent", v.plan.weighted_percent()},
          {"sls_used", v.plan.sls_used}};
}

nlohmann::json outcome_json(const Outcome& o) {
  nlohmann::json j;
  j["routing"] = o.algorithm;
  if (o.has_voq) j["voq"] = voq_json(o.voq);
  if (!o.bounds.empty()) {
    j["bounds"] = nlohmann::json::array();
    for (const RouteBound& b : o.bounds) j["bounds"].push_back(route_bound_json(b));
  }
  if (!o.error.empty()) {
    j["error"] = o.error;
    return j;
  }
  j["average_distance"] = o.metrics.average_distance;
  j["crossing_path"] = o.metrics.crossing_path;
  j["deviation_crossing"] = o.metrics.deviation_crossing;
  if (o.pair_busiest >= 0) j["busiest_channel_host_pairs"] = o.pair_busiest;
  j["sls"] = o.report.sls_used;
  j["vls"] = o.report.vls_used;
  j["lmc"] = o.tables.hosts.empty() ? 0 : o.tables.hosts[0].lmc;
  j["max_lid"] = o.tables.max_lid;
  if (o.tables.path_choice == routing::PathChoice::RandomPerPacket) j["path_choice"] = "random-per-packet";
  j["connected"] = o.report.connected;
  j["paths_end"] = o.report.paths_end;
  j["within_budget"] = o.report.within_budget;
  j["deadlock_free"] = o.report.deadlock_free;
  if (o.report.escape_channels) j["deadlock_rule"] = "duato-escape";  // escape sub-network's graph
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

// seeds/002: pairs by number of disjoint paths (Tables 1-2), singular cases under link faults
// (Figure 4), and the pairs a given set of failed cables cuts. Read from the tables alone.
void print_fault_tolerance(const RouteCmdOptions& opt, const routing::Topology& topo, const Outcome& o) {
  const routing::PathSets ps = routing::record_paths(topo, o.tables);
  auto host = [&](int h) { return topo.nodes[topo.host_node(h)].name; };
  if (opt.paths) {
    const routing::PathCensus c = routing::path_census(ps);
    std::cout << fmt::format("disjoint paths ({}): {} host pairs on different switches, {} SLs, {} VLs\n", o.algorithm,
                             c.pairs, o.tables.sls_used, o.tables.vls_used);
    for (size_t n = 1; n < std::max<size_t>(c.with_n.size(), 2); ++n)
      std::cout << fmt::format("  n={:<2} {:7.2f} %\n", n,
                               c.pairs ? 100.0 * (n < c.with_n.size() ? c.with_n[n] : 0) / c.pairs : 0.0);
    if (!c.with_n.empty() && c.with_n[0]) std::cout << fmt::format("  no path: {} pairs\n", c.with_n[0]);
    if (c.not_disjoint) std::cout << fmt::format("  records not disjoint: {} pairs\n", c.not_disjoint);
    if (c.broken) std::cout << fmt::format("  records that do not reach the destination: {} pairs\n", c.broken);
  }
  if (opt.fault_analysis > 0) {
    routing::FaultOptions fo;
    fo.max_faults = opt.fault_analysis;
    fo.exhaustive_up_to = opt.fault_exhaustive;
    fo.samples = opt.fault_samples;
    fo.seed = opt.seed;
    const auto levels = routing::analyse_faults(topo, ps, fo);
    std::cout << fmt::format(
        "fault analysis ({}): {} cables between switches; a singular case leaves a pair "
        "without a path while the network stays connected\n",
        o.algorithm, ps.cable_ends.size());
    std::cout << fmt::format("{:>6} {:>14} {:>16} {:>10} {:>13} {:>11}\n", "faults", "combinations", "examined",
                             "singular", "disconnecting", "% singular");
    for (const auto& lv : levels) {
      const std::string examined = lv.sampled ? fmt::format("{} sampled", lv.examined) : std::string("all");
      const std::string pct =
          lv.sampled ? fmt::format("{:.2f} +- {:.2f}", lv.percent, lv.ci95) : fmt::format("{:.3f}", lv.percent);
      std::cout << fmt::format("{:>6} {:>14.0f} {:>16} {:>10} {:>13} {:>11}\n", lv.faults, lv.combinations, examined,
                               lv.singular, lv.disconnecting, pct);
    }
    for (const auto& lv : levels)
      for (const auto& ex : lv.examples) {
        std::string names;
        for (int c : ex.faults) names += (names.empty() ? "" : ", ") + ps.cable_names[c];
        std::cout << fmt::format("  singular, {} faults [{}]: {} -> {} loses all {} paths\n", lv.faults, names,
                                 host(ex.src_host), host(ex.dst_host), ex.paths);
      }
  }
  if (!opt.faults.empty()) {
    std::vector<int> cables;
    for (const auto& f : opt.faults) {
      const int c = routing::find_cable(topo, ps, f);
      if (c < 0) throw std::invalid_argument("--fault " + f + ": no cable between switches at that SWITCH:PORT");
      cables.push_back(c);
    }
    std::string names;
    for (int c : cables) names += (names.empty() ? "" : ", ") + ps.cable_names[c];
    const routing::CutReport cut = routing::pairs_cut(topo, ps, cables);
    long host_pairs = 0;
    for (const auto* p : cut.cut) host_pairs += p->host_pairs;
    std::cout << fmt::format("faults [{}] ({}): {}; {} host pairs without a surviving path\n", names, o.algorithm,
                             cut.disconnects ? "the network is disconnected" : "the network stays connected",
                             host_pairs);
    for (const auto* p : cut.cut)
      std::cout << fmt::format(
          "  {} -> {} loses all {} paths{}\n", host(p->src_host), host(p->dst_host), p->cables.size(),
          p->host_pairs > 1 ? fmt::format(" (and {} more host pairs on the same switches)", p->host_pairs - 1)
                            : std::string());
  }
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

// --describe on a fat tree (fat_tree_shape.h): its levels, switches and cables per level, and
// the fat-tree bisection cut. False when the topology is not a fat tree of 2 levels or more.
bool describe_fat_tree(const routing::Topology& topo) {
  const routing::FatTreeShape f = routing::fat_tree_shape(topo);
  if (!f.fat_tree || f.levels() < 2) return false;
  const int levels = f.levels();
  std::cout << fmt::format(
      "fat tree: {} levels, {} hosts on {} leaves ({} per leaf)\n", levels, topo.num_hosts, f.switches[0],
      f.min_hosts == f.max_hosts ? std::to_string(f.max_hosts) : fmt::format("{}..{}", f.min_hosts, f.max_hosts));
  for (int l = 0; l < levels; ++l) {
    const std::string name = l == 0 ? " (leaves)" : l == levels - 1 ? " (top)" : "";
    std::cout << fmt::format("  level {}{}: {} switches", l, name, f.switches[l]);
    if (l == 0) std::cout << fmt::format(", {} host cables", topo.num_hosts);
    if (l + 1 < levels) std::cout << fmt::format(", {} cables up", f.cables_up[l]);
    std::cout << "\n";
  }
  try {
    const routing::BisectionCut c = routing::fat_tree_bisection(topo, f.level);
    std::cout << fmt::format("relative bisection, {}: {:.1f} % ({} cables)\n", c.how, 100 * c.relative, c.cables);
  } catch (const std::invalid_argument& e) {
    std::cout << "relative bisection: not computed (" << e.what() << ")\n";
  }
  return true;
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
  if (opt.describe) {  // the figures of seeds/001's configuration tables
    const routing::TopologyFigures f = routing::describe_topology(topo, false);
    std::cout << fmt::format(
        "switches: {}, hosts: {}, ports used: {}, diameter: {}, switch cables: {}\n", f.switches, f.hosts,
        f.min_degree == f.max_degree ? std::to_string(f.max_degree) : fmt::format("{}..{}", f.min_degree, f.max_degree),
        f.diameter, f.cables);
    if (describe_fat_tree(topo)) return 0;
    try {
      const routing::BisectionCut dim = routing::best_dimension_cut(topo);
      const routing::BisectionCut est = routing::min_bisection_estimate(topo, opt.seed);
      if (dim.cables >= 0)
        std::cout << fmt::format("relative bisection, {}: {:.1f} % ({} cables)\n", dim.how, 100 * dim.relative,
                                 dim.cables);
      std::cout << fmt::format("relative bisection, best balanced cut found ({}): {:.1f} % ({} cables)\n", est.how,
                               100 * est.relative, est.cables);
    } catch (const std::invalid_argument& e) {
      std::cout << "relative bisection: not computed (" << e.what() << ")\n";
    }
    return 0;
  }
  using A = routing::Algorithm;
  std::vector<A> algorithms;
  const std::optional<A> given = opt.routing.empty() ? std::nullopt : parse_enum<A>(opt.routing);
  if (!opt.routing.empty() && !given)
    throw std::invalid_argument("--routing '" + routing::printable(opt.routing) +
                                "' is not one of: " + enum_choice_list<A>());
  if ((!opt.opensm_engine.empty() || !opt.opensm_options.empty() || !opt.opensm_dir.empty()) &&
      !(given && *given == A::Opensm))
    throw std::invalid_argument("--opensm-engine, --opensm-options and --opensm-dir need --routing opensm");
  routing::GsidModulus gsid_modulus = routing::GsidModulus::Cables;
  if (!opt.gsid_modulus.empty()) {
    if (!(given && *given == A::Gsid)) throw std::invalid_argument("--gsid-modulus needs --routing gsid");
    const auto m = parse_enum<routing::GsidModulus>(opt.gsid_modulus);
    if (!m)
      throw std::invalid_argument("--gsid-modulus '" + routing::printable(opt.gsid_modulus) +
                                  "' is not one of: " + enum_choice_list<routing::GsidModulus>());
    gsid_modulus = *m;
  }
  if (!opt.import_dir.empty()) {
    if (given && *given != A::File)
      throw std::invalid_argument("--import-opensm reads the tables; it cannot be combined with --routing " +
                                  opt.routing);
    algorithms.push_back(A::File);
  } else if (given) algorithms.push_back(*given);
  else if (opt.metrics)
    for (A a : routing::routing_algorithms()) {
      // Table 2 style: the algorithms of one LFT per switch (seeds/001's per-VL ones by name).
      if (routing::algorithm_applies(a, topo) && !routing::programs_per_vl_lfts(a)) algorithms.push_back(a);
    }
  else algorithms.push_back(routing::algorithm_applies(A::Ecube, topo) ? A::Ecube : A::UpdownDfs);
  if (opt.lmc > 0 && !(algorithms.size() == 1 && (algorithms[0] == A::Fattree || algorithms[0] == A::FattreeAr)))
    throw std::invalid_argument(
        "--lmc gives fattree and fattree-ar their LIDs per host: give --routing fattree or "
        "fattree-ar with it (--max-lmc bounds the other routings' destination renaming)");
  const bool single = algorithms.size() == 1;
  // --sls is voqsw's VOQ budget and vn's network count; for every other algorithm (TFTR fits
  // its paths to it) it is the SL budget, --max-sls.
  const bool sls_is_budget = opt.sls > 0 && algorithms.front() != A::Voqsw && algorithms.front() != A::Vn;
  if (opt.sls > 0)
    for (A a : algorithms)
      if ((a == A::Voqsw || a == A::Vn) == sls_is_budget)
        throw std::invalid_argument(
            "--sls means the VOQ budget for voqsw and vn and the SL budget for the others: "
            "give one kind of algorithm with it");
  if (sls_is_budget && opt.sls > kNumSls)
    throw std::invalid_argument("--sls " + std::to_string(opt.sls) + ": the SL budget is at most 16");
  // Above the 16 SLs of the IBA, voqsw only reports its plan (seeds/004 Table 1 asks how many
  // SLs full VOQ would need); there are no tables to check, export or measure.
  if (opt.sls > kNumSls) {
    if (opt.check || opt.metrics || opt.json || !opt.export_dir.empty() || algorithms.front() != A::Voqsw)
      throw std::invalid_argument("--sls " + std::to_string(opt.sls) +
                                  " is above the 16 SLs tables can hold; it only prints the voqsw plan (no --check, "
                                  "--metrics, --json, --export-opensm, other algorithms)");
    routing::RoutingOptions ro;
    ro.vls = opt.vls;
    ro.max_vls = opt.max_vls;
    ro.seed = opt.seed;
    ro.max_lmc = opt.max_lmc;
    ro.sls = opt.sls;
    std::cout << voq_text(routing::voqsw_summary(topo, ro));
    return 0;
  }

  std::vector<Outcome> outcomes;
  for (A a : algorithms) {
    Outcome o;
    o.algorithm = enum_name(a);
    routing::RoutingOptions ro;
    ro.algorithm = a;
    ro.vls = opt.vls;
    ro.k = opt.k;
    ro.gsid_modulus = gsid_modulus;
    ro.lmc = opt.lmc;
    ro.max_sls = sls_is_budget ? opt.sls : opt.max_sls;
    ro.max_vls = opt.max_vls;
    ro.sls = sls_is_budget ? 0 : opt.sls;
    ro.seed = opt.seed;
    ro.max_lmc = opt.max_lmc;
    ro.lft_file = opt.import_dir;
    ro.max_memory_gb = opt.max_memory_gb;
    ro.opensm_engine = opt.opensm_engine;
    ro.opensm_options = opt.opensm_options;
    ro.opensm_timeout_s = opt.opensm_timeout;
    ro.opensm_dir = opt.opensm_dir;
    auto t0 = std::chrono::steady_clock::now();
    const std::string on = " on " + std::to_string(topo.num_switches) + " switches";
    try {
      PhaseProgress shown("ibsc route: routing " + o.algorithm + on);
      o.tables = routing::compute_routing(topo, ro);
    } catch (const routing::RoutingError& e) {
      if (single) throw;
      o.error = e.what();
      outcomes.push_back(std::move(o));
      continue;
    }
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (a == A::Opensm) o.algorithm = o.tables.algorithm;  // "opensm-ftree": the engine that ran
    if (a == A::Voqsw) {
      o.has_voq = true;
      o.voq = routing::voqsw_summary(topo, ro);
    }
    routing::CheckLimits lim;
    lim.max_sls = opt.max_sls;
    lim.max_vls = opt.max_vls;
    if (opt.check || opt.json || opt.metrics) {
      PhaseProgress shown("ibsc route: checking " + o.algorithm + "'s tables" + on);
      o.report = routing::check_tables(topo, o.tables, lim);
    }
    if (opt.metrics || opt.json) {
      PhaseProgress shown("ibsc route: metrics of " + o.algorithm + on);
      o.metrics = routing::compute_metrics(topo, o.tables);
    }
    if (opt.metrics) o.pair_busiest = routing::uniform_pair_loads(topo, o.tables).busiest();
    if (!opt.bounds.empty()) {
      PhaseProgress shown("ibsc route: channel-load bounds of " + o.algorithm + on);
      o.bounds = route_bounds(topo, o.tables, opt.bounds);
    }
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
      const std::string dir = single ? opt.export_dir : opt.export_dir + "/" + o.algorithm;
      routing::export_tables(topo, o.tables, dir);
      if (o.algorithm == "fattree" || o.algorithm == "fattree-ar")  // the order OpenSM's ftree dumps
        routing::write_ftree_ca_order(topo, o.tables, dir + "/opensm-ftree-ca-order.dump");
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
      std::cout << fmt::format("{:<15} {:>9} {:>9} {:>10} {:>10} {:>4} {:>4} {:>4} {:>14} {:>8}\n", "routing",
                               "avg dist", "crossing", "deviation", "pairs max", "SLs", "VLs", "LMC", "deadlock-free",
                               "time s");
      for (const auto& o : outcomes) {
        if (!o.error.empty()) {
          std::cout << fmt::format("{:<15} refused: {}\n", o.algorithm, o.error);
          continue;
        }
        std::cout << fmt::format("{:<15} {:>9.2f} {:>9} {:>10.2f} {:>10} {:>4} {:>4} {:>4} {:>14} {:>8.3f}\n",
                                 o.algorithm, o.metrics.average_distance, o.metrics.crossing_path,
                                 o.metrics.deviation_crossing, o.pair_busiest, o.report.sls_used, o.report.vls_used,
                                 int(o.tables.hosts.empty() ? 0 : o.tables.hosts[0].lmc),
                                 o.report.deadlock_free ? "yes" : "NO", o.seconds);
      }
    } else {
      for (const auto& o : outcomes) {
        std::cout << fmt::format("{}: {} SLs, {} VLs, LMC {}, max LID {}, {:.3f} s\n", o.algorithm, o.tables.sls_used,
                                 o.tables.vls_used, int(o.tables.hosts.empty() ? 0 : o.tables.hosts[0].lmc),
                                 o.tables.max_lid, o.seconds);
        if (o.has_voq) std::cout << voq_text(o.voq);
        if (o.tables.path_choice == routing::PathChoice::RandomPerPacket)
          std::cout << o.algorithm << ": the HCA picks one of a pair's path records (SLs) at random per packet\n";
      }
    }
    if (opt.check)
      for (const auto& o : outcomes)
        if (o.error.empty()) std::cout << "check " << o.algorithm << ":\n" << o.report.text();
    for (const auto& o : outcomes)
      for (const RouteBound& b : o.bounds) std::cout << route_bound_text(o.algorithm, b);
  }
  if (opt.paths || opt.fault_analysis > 0 || !opt.faults.empty())
    for (const auto& o : outcomes)
      if (o.error.empty()) print_fault_tolerance(opt, topo, o);
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
                "dragonfly:a=4,h=2,p=2, slimfly:q=5, fattree:k=18,n=2, fattree:radix=36,size=648, "
                "xgft:m=18,36:w=1,18, product:A*B, file:PATH; :hosts=N per switch")
      ->required();
  c->add_option("--routing", opt->routing, enum_choice_list<routing::Algorithm>());
  c->add_flag("--check", opt->check, "check connectivity, loops, SL/VL budget, deadlock freedom (exit 2 on failure)");
  c->add_flag("--metrics", opt->metrics, "seeds/000 Table 2 metrics; all applicable algorithms without --routing");
  c->add_flag("--json", opt->json, "one JSON object on stdout");
  c->add_flag("--describe", opt->describe,
              "switches, hosts, ports used, diameter, relative bisection (seeds/001 tables); no routing");
  c->add_option("--export-opensm", opt->export_dir,
                "write opensm-lfts.dump, sl2vl.txt, path-records.txt here (one subfolder per algorithm if several)");
  c->add_option("--import-opensm", opt->import_dir,
                "check tables computed elsewhere: an OpenSM LFT dump, or a directory as --export-opensm writes it");
  c->add_option("--max-lmc", opt->max_lmc, "largest LMC destination renaming may use")->check(CLI::Range(0, 7));
  c->add_option("--lmc", opt->lmc, "fattree, fattree-ar: 2^LMC LIDs per host, each on its own up-path")
      ->check(CLI::Range(0, 7));
  c->add_option("--hosts", opt->hosts, "hosts per switch (same as :hosts=N in the spec)")->check(CLI::Range(0, 254));
  c->add_option("--ports", opt->ports, "ports per switch, 0 = just enough (same as :ports=N)")
      ->check(CLI::Range(0, 254));
  c->add_option("--vls", opt->vls,
                "VLs for up*/down*, minhop and Flexible (1 or 2), TFTR (default 2), voqsw and vn (default: ports)")
      ->check(CLI::Range(0, 15));
  c->add_option("-k", opt->k, "distance, deflection: up to k hops beyond a minimal path (seeds/001's +k; 0: minimal)")
      ->check(CLI::Range(0, 15));
  c->add_option("--gsid-modulus", opt->gsid_modulus,
                "gsid: the source's global cable is the destination switch mod `cables` (its own, the default) or "
                "mod `h` (the most any switch has; a residue past its own cables goes the static way)");
  c->add_option("--dot", opt->dot, "write the topology as Graphviz");
  c->add_option("--seed", opt->seed, "tie-breaking seed")->transform(whole_number(0, UINT64_MAX));
  c->add_option("--max-memory-gb", opt->max_memory_gb,
                "refuse tables estimated to need more memory, GB (default: half the memory this process may use: "
                "physical, ulimit -v or cgroup, the smallest)")
      ->check(CLI::Range(0.001, 1e6));
  c->add_option("--max-sls", opt->max_sls, "SL budget (TFTR fits it by dropping paths)")->check(CLI::Range(1, 16));
  c->add_flag("--paths", opt->paths, "pairs by number of disjoint paths among their path records (seeds/002)");
  c->add_option("--fault-analysis", opt->fault_analysis,
                "singular cases for every combination of 1..MAX failed cables (seeds/002 Figure 4)")
      ->check(CLI::Range(1, 8));
  c->add_option("--fault-exhaustive", opt->fault_exhaustive, "examine every combination up to this many faults")
      ->check(CLI::Range(0, 8));
  c->add_option("--fault-samples", opt->fault_samples, "random combinations per level above --fault-exhaustive")
      ->check(CLI::Range(1L, 100000000L));
  c->add_option("--fault", opt->faults, "a failed cable by one end, SWITCH:PORT (repeatable): the pairs it cuts");
  c->add_option("--opensm-engine", opt->opensm_engine,
                "--routing opensm: OpenSM's engine, run under ibsim: minhop, updn, dnup, ftree, dor, lash, dfsssp, "
                "sssp, nue, torus-2QoS (2D/3D tori and meshes)");
  c->add_option("--opensm-options", opt->opensm_options, "--routing opensm: added to OpenSM's command line");
  c->add_option("--opensm-timeout", opt->opensm_timeout, "--routing opensm: OpenSM's time limit, s")
      ->check(CLI::Range(0.1, 1e6));
  c->add_option("--opensm-dir", opt->opensm_dir,
                "--routing opensm: keep the run (net file, config, log, dumps) in this folder");
  c->add_option("--max-vls", opt->max_vls, "data VL budget")->check(CLI::Range(1, 15));
  c->add_option("--bound", opt->bounds,
                "traffic patterns (uniform, bit-complement, bit-reversal, bit-rotation, shuffle, transpose; comma-"
                "separated): the % of injection bandwidth the tables' busiest channel and any minimal routing allow")
      ->delimiter(',');
  c->add_option("--sls", opt->sls,
                "voqsw: SLs for VOQ (above 16: only the plan is printed); vn: virtual networks (= VLs); "
                "other algorithms: the SL budget, as --max-sls")
      ->check(CLI::Range(1, 4096));
  c->callback([opt]() {
    int rc = route(*opt);
    if (rc) throw CLI::RuntimeError(rc);
  });
}

}  // namespace ibsc::tb
