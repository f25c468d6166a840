#include "tb/cli/cmd_reproduce.h"

#include <fnmatch.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include <nlohmann/json.hpp>

#include "routing/checks.h"
#include "routing/metrics.h"
#include "routing/pair_loads.h"
#include "routing/routing.h"
#include "studies/stand_ins.h"
#include "studies/study.h"
#include "studies/study_report.h"
#include "tb/cli/cli_numbers.h"
#include "tb/fabric/huge_pages.h"
#include "tb/run/forked_workers.h"
#include "tb/run/probe_journal.h"
#include "tb/run/saturation_search.h"
#include "tb/run/sweep.h"
#include "tb/run/work_spread.h"
#include "tb/scenario/link_fault_config.h"
#include "tb/scenario/scenario.h"
#include "tb/scenario/scenario_check.h"
#include "tb/scenario/scenario_yaml.h"
#include "tb/stats/channel_load.h"
#include "tb/stats/output_files.h"

namespace ibsc::tb {
namespace {

struct ReproduceOptions {
  std::string study;
  bool quick = false;
  bool talk_scale = false;  // large-direct: rows on their talk_network
  std::string out;
  bool out_given = false;  // --out "" is refused, not taken as the default
  int jobs = 0;
  std::string only;
};

struct Routed {
  routing::Topology topo;
  routing::TableSet tables;
};

// CPU seconds (user + system) this process and its finished children have used: each experiment
// runs in its own forked process, and each of its load points in a child of that one.
double process_cpu_seconds() { return own_cpu_seconds() + children_cpu_seconds(); }

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string clock_text(double s) {
  int t = static_cast<int>(s + 0.5);
  char b[32];
  std::snprintf(b, sizeof b, "%d:%02d", t / 60, t % 60);
  return b;
}

// The routed channel-load bound of an experiment; with link faults (seeds/002), of the paths the
// sources use once every fault is known, the pairs left without one out of the demand.
ChannelLoadBound fault_aware_bound(const routing::Topology& topo, const routing::TableSet& tables, const Scenario& s) {
  const double rate = s.point.fabric.link.bytes_per_ns();
  if (!s.point.fabric.faults.enabled()) return channel_load_bound(topo, tables, s.point.traffic, rate);
  std::vector<Demand> demand = traffic_matrix(s.point.traffic, topo);
  const routing::TableSet after =
      tables_after_faults(topo, tables, resolve_link_faults(topo, s.point.fabric.faults, &tables), nullptr);
  demand.erase(std::remove_if(demand.begin(), demand.end(),
                              [&](const Demand& d) { return after.hosts[d.src].paths[d.dst].empty(); }),
               demand.end());
  return channel_load_bound(topo, after, demand, rate);
}

// The routing.algorithm an axis value sets when this build does not have it; empty otherwise.
std::string unbuilt_algorithm(const StudyAxisValue& routing) {
  const std::string key = "routing.algorithm=";
  for (const auto& kv : routing.set)
    if (kv.rfind(key, 0) == 0) {
      const std::string name = kv.substr(key.size());
      return parse_enum<routing::Algorithm>(name) ? "" : name;
    }
  return "";
}

bool uniform_pattern(const Study& study, const std::string& pattern) {
  const auto& set = study.axis(study.patterns, pattern).set;
  return std::find(set.begin(), set.end(), "traffic.pattern=uniform") != set.end();
}

// seeds/001's search: 1/128 steps; a deterministic row's channel-load bound caps the bracket
// (no load above it can be accepted) and is probed from the top, since such a row should
// reach it; other rows bisect the whole range.
// With stand-ins (--talk-scale), an adaptive row starts at its stand-in's step, and a deterministic
// row's uniform cell (which saturates below its bound) at its stand-in's share of the bound.
SaturationSearch saturation_search(const Study& study, const Experiment& e, const ExperimentResult& res,
                                   const std::map<std::string, StandIn>& stand_ins) {
  SaturationSearch search;
  const SaturationRow* row = study.row_of(e);
  if (row && row->deterministic) {
    search.known_saturated = step_above_bound(bound_fraction(res.bound), search.grid);
    search.top_first = true;
  }
  if (auto si = row ? stand_ins.find(row->table + "/" + row->label + "/" + e.pattern) : stand_ins.end();
      si != stand_ins.end()) {
    if (!row->deterministic) {
      search.guess = si->second.step;
    } else if (uniform_pattern(study, e.pattern) && si->second.share_of_bound > 0) {
      const int g = static_cast<int>(std::lround(si->second.share_of_bound * bound_fraction(res.bound) * search.grid));
      if (g > 0 && g < search.known_saturated) search.guess = g, search.top_first = false;
    }
  }
  // report_options grid: [N] (fat-trees: a coarser grid, fewer probes per cell)
  if (auto g = study.report_options.find("grid"); g != study.report_options.end() && !g->second.empty()) {
    search.grid = std::stoi(g->second.front());
    if (const SaturationRow* row = study.row_of(e); row && row->deterministic) {
      search.known_saturated = step_above_bound(bound_fraction(res.bound), search.grid);
      // A bound under the coarse grid's first step (OpenSM minhop on the 3-level fat tree:
      // 5.6 % against 6.25 %) leaves nothing to probe: such a row is searched on seeds/001's
      // 1/128 grid instead (ExperimentResult::saturation_grid says which).
      const int fine = SaturationSearch{}.grid;
      if (search.known_saturated <= 1 && search.grid < fine) {
        search.grid = fine;
        search.known_saturated = step_above_bound(bound_fraction(res.bound), fine);
      }
    }
  }
  return search;
}

// Deterministic rows run on a scaled-down network: the channel-load bound of our tables on the
// talk's own network (the row's talk_network) as well, which costs a routing, no run. One
// network and routing at a time, freed before the next (16,384 hosts: about 1 GB each).
void talk_network_bounds(const Study& study, StudyRun& run) {
  std::map<std::string, std::vector<ExperimentResult*>> by_key;
  for (ExperimentResult& res : run.results) {
    const SaturationRow* row = study.row_of(res.exp);
    if (res.not_built || !row || !row->deterministic || row->talk_network.empty() || run.quick) continue;
    by_key[row->talk_network + "/" + row->routing].push_back(&res);
  }
  for (auto& [key, list] : by_key) {
    const auto t = std::chrono::steady_clock::now();
    const SaturationRow& row = *study.row_of(list.front()->exp);
    std::unique_ptr<Routed> r;
    for (ExperimentResult* res : list) {
      std::vector<std::string> set;
      for (const auto* v : {&study.axis(study.tori, row.talk_network), &study.axis(study.routings, row.routing),
                            &study.axis(study.patterns, res->exp.pattern), &study.axis(study.lengths, res->exp.length)})
        set.insert(set.end(), v->set.begin(), v->set.end());
      const Scenario s = load_scenario(study.base, set);
      if (!r) {
        r = std::make_unique<Routed>();
        r->topo = build_topology(s.topology);
        back_heap_growth_with_huge_pages(r->topo.num_hosts);
        r->tables = routing::compute_routing(r->topo, s.routing);
      }
      res->talk_bound =
          bound_fraction(channel_load_bound(r->topo, r->tables, s.point.traffic, s.point.fabric.link.bytes_per_ns()));
    }
    std::fprintf(stderr, "ibsc: bounds on the talk's network %s (%.1f s)\n", key.c_str(), seconds_since(t));
  }
}

int reproduce(const ReproduceOptions& o, const std::string& command) {
  const auto t0 = std::chrono::steady_clock::now();
  Study study = load_study(o.study);
  if (o.talk_scale && (o.quick || study.rows.empty()))
    throw std::invalid_argument(o.quick ? "--talk-scale and --quick exclude each other (--quick runs the stand-ins)"
                                        : "--talk-scale: " + o.study + " has no rows with a talk_network");
  std::vector<Experiment> exps = study.experiments(o.quick, o.talk_scale);
  if (o.talk_scale && exps.empty())
    throw std::runtime_error("--talk-scale: no row of " + o.study + " names a talk_network");
  if (!o.only.empty()) {
    // Comma-separated; an item with * ? or [ is a shell pattern over the whole name, else a substring.
    std::vector<std::string> items;
    for (size_t a = 0, b; a <= o.only.size(); a = b + 1) {
      b = std::min(o.only.find(',', a), o.only.size());
      if (b > a) items.push_back(o.only.substr(a, b - a));
    }
    auto selected = [&](const std::string& name) {
      for (const auto& it : items)
        if (it.find_first_of("*?[") != std::string::npos ? fnmatch(it.c_str(), name.c_str(), 0) == 0
                                                         : name.find(it) != std::string::npos)
          return true;
      return false;
    };
    exps.erase(std::remove_if(exps.begin(), exps.end(), [&](auto& e) { return !selected(e.name); }), exps.end());
    if (exps.empty()) throw std::runtime_error("--only '" + o.only + "' matches no experiment of " + o.study);
  }
  if (o.out_given && o.out.empty()) throw std::invalid_argument("--out \"\": an empty path is not an output folder");
  const std::string out = o.out_given    ? o.out
                          : o.quick      ? "out/" + study.name + "-quick"
                          : o.talk_scale ? "out/" + study.name + "-talk-scale"
                                         : "reports/" + study.name;
  // Under mpirun rank 0 alone writes; every rank routes and prepares the same experiments, runs
  // its share, and the others stop once all are back.
  const bool writer = writes_outputs();
  const bool spread = active_spreader() != nullptr;
  std::map<std::string, StandIn> stand_ins;
  if (o.talk_scale) {  // before anything is routed or written: a bad file fails at once
    // Rank 0's file on every rank: a node of a cluster without it (or with another copy) would
    // start its searches elsewhere, and its results differ from a single run's.
    std::string path, text;
    if (writer) {
      path = stand_in_path(o.study, study.name);
      if (!path.empty()) {
        std::ifstream in(path);
        if (!in) throw std::runtime_error(path + ": cannot read it");
        std::stringstream t;
        t << in.rdbuf();
        text = t.str();
      }
    }
    if (spread) {
      path = active_spreader()->from_rank0(path);
      text = active_spreader()->from_rank0(text);
      add_progress_input(path.empty() ? "stand-ins: none" : "stand-ins " + path, text);  // a resume needs the same
    }
    try {
      if (!path.empty()) stand_ins = parse_stand_ins(text, path);
    } catch (const std::runtime_error& e) {
      if (spread) throw SpreadFailure(e.what());  // every rank has it: said once
      throw;
    }
    if (writer)
      std::fprintf(stderr, "ibsc: --talk-scale: %s\n",
                   path.empty() ? ("no reports/" + study.name +
                                   "/saturation.csv (a full run's results): each search starts from its bound")
                                      .c_str()
                                : ("each search starts from its stand-in's result in " + path).c_str());
  }
  std::optional<OutputFolderLock> held;  // a second run into the folder is refused
  if (writer) held.emplace(out, "--out");
  if (writer) check_output_folder(out + "/scenarios", "--out");  // before any experiment runs
  set_progress_folder(out + "/mpi-progress");                    // used under mpirun only
  const int jobs = o.jobs > 0 ? o.jobs : static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));

  // Scenarios and tables in this process (children inherit them): each torus/routing pair is
  // routed once, however many traffic patterns and packet lengths use it.
  StudyRun run;
  run.study = &study;
  run.quick = o.quick;
  run.talk_scale = o.talk_scale;
  run.command = command;
  run.jobs = spread ? active_spreader()->width(jobs) : jobs;  // under mpirun: over all ranks
  std::vector<Scenario> scenarios;
  std::map<std::string, std::unique_ptr<Routed>> routed;
  std::vector<double> cost;
  const bool large = study.report == "large-direct" || study.report == "fat-trees";
  for (const Experiment& e : exps) {
    if (large) {
      // A row whose routing this build does not have is listed "not built", not run: the study
      // names the rows of the talk, and the lead enables a routing by merging it.
      if (std::string missing = unbuilt_algorithm(study.axis(study.routings, e.routing)); !missing.empty()) {
        ExperimentResult res;
        res.exp = e;
        res.not_built = true;
        res.error = "routing.algorithm '" + missing + "' is not built";
        run.results.push_back(res);
        scenarios.emplace_back();
        cost.push_back(0);
        continue;
      }
    }
    // At the talk's scale a probe past saturation costs minutes, the drain 40-70% of them; no
    // verdict changes without it (run.drain), and no cell's result.
    std::vector<std::string> set = e.set;
    if (o.talk_scale) set.push_back("run.drain=unsaturated");
    Scenario s = load_scenario(study.base, set);
    const std::string key = e.torus + "/" + e.routing;
    auto& r = routed[key];
    if (!r) {
      auto t = std::chrono::steady_clock::now();
      r = std::make_unique<Routed>();
      r->topo = build_topology(s.topology);
      back_heap_growth_with_huge_pages(r->topo.num_hosts);  // before the tables and the fabrics
      const auto t_route = std::chrono::steady_clock::now();
      r->tables = routing::compute_routing(r->topo, s.routing);
      RoutedTorus& rt = run.routed[key];
      rt.route_seconds = seconds_since(t_route);
      if (study.report == "fat-trees") {  // the busiest channel in routes, uniform and shift
        rt.busiest_uniform = routing::uniform_pair_loads(r->topo, r->tables).busiest();
        std::vector<int> order(r->topo.num_hosts);
        for (int h = 0; h < r->topo.num_hosts; ++h) order[h] = h;
        rt.busiest_shift = routing::busiest_shift(r->topo, r->tables, order);
      }
      rt.torus = e.torus;
      rt.routing = e.routing;
      rt.sls = r->tables.sls_used;
      rt.vls = r->tables.vls_used;
      rt.lmc = r->tables.hosts.empty() ? 0 : r->tables.hosts[0].lmc;
      routing::CheckLimits limits;
      limits.max_sls = s.routing.max_sls;
      limits.max_vls = s.routing.max_vls;
      rt.check = routing::check_tables(r->topo, r->tables, limits);
      rt.metrics = routing::compute_metrics(r->topo, r->tables);
      if (study.report == "voqsw") {  // how many output ports each input VL serves (head-of-line exposure)
        rt.lanes = routing::input_lane_fanout(r->topo, r->tables);
        rt.lanes.lanes.clear();
        rt.ceiling = fair_share_ceiling(r->topo, r->tables, traffic_matrix(TrafficConfig{}, r->topo),
                                        s.point.fabric.link.bytes_per_ns());
      }
      if (writer)
        std::fprintf(stderr, "ibsc: routed %s: %d SLs, %d VLs, crossing path %d, %s (%.1f s)\n", key.c_str(), rt.sls,
                     rt.vls, rt.metrics.crossing_path, rt.check.deadlock_free ? "deadlock-free" : "DEADLOCK POSSIBLE",
                     seconds_since(t));
    }
    check_scenario(s, r->topo, r->tables);
    s.point.topo = &r->topo;
    s.point.tables = &r->tables;
    s.point.run.progress = false;
    s.sweep.jobs = 1;  // experiments run side by side instead
    if (writer)
      write_scenario_yaml(out + "/scenarios/" + e.name + ".yaml", s.resolved,
                          study.name + ": " + e.name + " (written by ibsc reproduce from " + o.study +
                              "; run alone with: ibsc run THIS_FILE)");
    ExperimentResult res;
    res.exp = e;
    if (study.report == "fat-trees" && s.point.traffic.pattern == TrafficPattern::AllToAll) {
      // all-to-all sends to every other host in turn: over the window the uniform matrix, whose
      // bound it gets (the bound walks a matrix; all-to-all's destinations are drawn per packet)
      std::vector<std::string> uniform = set;
      uniform.push_back("traffic.pattern=uniform");
      res.bound = fault_aware_bound(r->topo, r->tables, load_scenario(study.base, uniform));
    } else {
      res.bound = fault_aware_bound(r->topo, r->tables, s);
    }
    run.results.push_back(res);
    double len = s.point.injection.length_mix.empty() ? 512 : s.point.injection.length_mix[0].first;
    cost.push_back(r->topo.num_switches * (64.0 + 512.0 * 512.0 / len / 8.0));
    scenarios.push_back(std::move(s));
  }

  if (large && writer && !o.talk_scale) talk_network_bounds(study, run);  // for the report only

  // Costliest first, so the last experiments to finish are short ones; rows not built not at all.
  std::vector<int> order;
  for (size_t i = 0; i < exps.size(); ++i)
    if (!run.results[i].not_built) order.push_back(static_cast<int>(i));
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return cost[a] > cost[b]; });
  double total_cost = 0, done_cost = 0;
  for (double c : cost) total_cost += c;
  const auto t_sim = std::chrono::steady_clock::now();
  int finished = 0;
  if (writer)
    std::fprintf(stderr, "ibsc: %zu experiments on %d processes%s -> %s\n", order.size(), jobs,
                 spread ? (" per rank, " + std::to_string(active_spreader()->size) + " MPI ranks").c_str() : "",
                 out.c_str());

  auto texts = run_forked(
      static_cast<int>(order.size()), jobs,
      [&](int k) {
        const int i = order[k];
        const Scenario& s = scenarios[i];
        nlohmann::json j;
        auto t = std::chrono::steady_clock::now();
        const double cpu0 = process_cpu_seconds();
        double taken_back_cpu = 0;  // of probes a stopped run had finished (tb/run/probe_journal.h)
        try {
          std::vector<LoadPointResult> pts;
          if (large) {
            const SaturationSearch search = saturation_search(study, exps[i], run.results[i], stand_ins);
            // Under mpirun with a record, each probe is kept as it finishes, for a rerun.
            ProbeJournal journal;
            // Where the record is in sight: on rank 0, and on ranks sharing its file system.
            if (spread && !record_digest().empty() && std::filesystem::exists(progress_folder() + "/command.txt"))
              journal = ProbeJournal(progress_folder() + "/probes/" + exps[i].name + ".jsonl", record_digest(),
                                     record_reads_beyond);
            SaturationFound found = find_saturation_step(s.point, search, journal.on() ? &journal : nullptr);
            if (found.taken_back > 0)
              std::fprintf(stderr, "ibsc: %s: %d probe(s) a stopped run had finished taken back\n",
                           exps[i].name.c_str(), found.taken_back);
            for (const std::string& why : found.run_again)
              std::fprintf(stderr, "ibsc: %s: a probe a stopped run had finished was run again (%s)\n",
                           exps[i].name.c_str(), why.c_str());
            taken_back_cpu = found.taken_back_cpu_seconds;
            j["saturation_step"] = found.step;
            j["saturation_grid"] = search.grid;
            // Nothing to probe: the bound is under the first step even of this grid (a result).
            j["below_first_step"] = search.known_saturated <= 1;
            pts = std::move(found.points);
          } else {
            pts = run_sweep(s.point, s.sweep);
          }
          // Under mpirun rank 0 writes runs/NAME when the text comes back, so the points keep
          // their per-link figures until then.
          if (!spread) write_results(out + "/runs/" + exps[i].name, s.resolved, s.point.seed, pts, nullptr, run.quick);
          for (const auto& p : pts) {
            nlohmann::json pj = nlohmann::json::parse(to_json(p).dump());
            if (!spread) pj["links"] = nlohmann::json::array();  // per-link figures stay in runs/NAME/results.json
            j["points"].push_back(pj);
          }
        } catch (const std::exception& e) {
          j["error"] = e.what();
        }
        j["wall_seconds"] = seconds_since(t);
        j["cpu_seconds"] = process_cpu_seconds() - cpu0 + taken_back_cpu;
        return j.dump();
      },
      [&](int k, std::string& text) {
        const int i = order[k];
        auto j = nlohmann::json::parse(text);
        if (spread && !j.contains("error")) {
          const std::string runs = out + "/runs/" + exps[i].name;
          if (j.value("runs_written", false)) {
            // Kept from a run that stopped: its files were written before its record was, and
            // if they have gone since, the experiment runs again.
            if (!std::filesystem::is_regular_file(runs + "/results.json"))
              throw StaleItem(runs + "/results.json is missing");
          } else {
            std::vector<LoadPointResult> pts;
            for (const auto& pj : j["points"]) pts.push_back(point_from_json(pj));
            write_results(runs, scenarios[i].resolved, scenarios[i].point.seed, pts, nullptr, run.quick);
            // What runs/NAME holds is not kept twice: the per-link figures (tens of MB an
            // experiment at 16,384 hosts) leave the record and the texts sent to every rank.
            for (auto& pj : j["points"]) pj["links"] = nlohmann::json::array();
            j["runs_written"] = true;
            text = j.dump();
          }
        }
        done_cost += cost[i];
        ++finished;
        double el = seconds_since(t_sim);
        std::string what = j.contains("error") ? "FAILED: " + j["error"].get<std::string>().substr(0, 200) : "";
        if (what.empty()) {
          double best = 0;
          for (const auto& p : j["points"]) best = std::max(best, p["accepted_bytes_per_ns_per_switch"].get<double>());
          char b[96];
          std::snprintf(b, sizeof b, "throughput %.3f B/ns/switch, %zu points", best, j["points"].size());
          what = b;
        }
        std::fprintf(stderr, "[%3d/%zu] %-28s %s, %.1f s | elapsed %s, about %s left\n", finished, order.size(),
                     exps[i].name.c_str(), what.c_str(), j["wall_seconds"].get<double>(), clock_text(el).c_str(),
                     clock_text(el / done_cost * (total_cost - done_cost)).c_str());
      },
      [&](int k) { return exps[order[k]].name; });
  if (!writer) return 0;

  for (size_t k = 0; k < order.size(); ++k) {
    ExperimentResult& res = run.results[order[k]];
    auto j = nlohmann::json::parse(texts[k]);
    res.wall_seconds = j.value("wall_seconds", 0.0);
    res.cpu_seconds = j.value("cpu_seconds", 0.0);
    res.saturation_step = j.value("saturation_step", -1);
    res.saturation_grid = j.value("saturation_grid", 0);
    res.below_first_step = j.value("below_first_step", false);
    if (j.contains("error")) {
      res.error = j["error"];
      continue;
    }
    for (const auto& pj : j["points"]) res.points.push_back(point_from_json(pj));  // without links: runs/NAME has them
    for (const auto& p : res.points) res.throughput = std::max(res.throughput, p.accepted_bytes_per_ns_per_switch);
    if (!res.points.empty()) res.low_load_latency = res.points.front().avg_latency_ns;
  }
  run.wall_seconds = seconds_since(t0);
  std::vector<std::string> failures = write_study_report(out, run);
  if (spread) active_spreader()->finished();
  std::fprintf(stderr, "ibsc: report %s/README.md (%zu experiments, %s)\n", out.c_str(), exps.size(),
               clock_text(run.wall_seconds).c_str());
  for (const auto& f : failures) std::fprintf(stderr, "ibsc: check failed: %s\n", f.c_str());
  return failures.empty() ? 0 : 1;
}

}  // namespace

void add_reproduce_command(CLI::App& app) {
  auto o = std::make_shared<ReproduceOptions>();
  CLI::App* c = app.add_subcommand("reproduce",
                                   "Run every experiment of a study (a paper's, or switch designs side by side: "
                                   "docs/design-space.md) and write its report");
  c->add_option("study", o->study,
                "Study YAML (scenarios/seeds000/torus-routing.yaml, scenarios/design-space/switch-options.yaml)")
      ->required()
      ->check(CLI::ExistingFile);
  c->add_flag("--quick", o->quick,
              "Short windows and coarse sweeps: checks the invariants, not the full report's figures");
  c->add_flag("--talk-scale", o->talk_scale,
              "large-direct: run each row on its talk_network (the talk's own networks) instead of its stand-in; "
              "rows without one are left out (select cells with --only)");
  c->add_option("--out", o->out,
                "Report folder (default reports/<study>, out/<study>-quick with --quick, out/<study>-talk-scale "
                "with --talk-scale)")
      ->each([o](const std::string&) { o->out_given = true; });
  c->add_option("--jobs", o->jobs, "Experiments run at once (default: one per core)")
      ->transform(whole_number(0, kMaxJobs));
  c->add_option("--only", o->only,
                "Run only these experiments: comma-separated, each a text the name contains (4x4-) or a shell pattern "
                "over the whole name (4x4x4-*-uniform-512)");
  c->callback([o]() {
    std::string cmd = "ibsc reproduce " + o->study + (o->quick ? " --quick" : "") +
                      (o->talk_scale ? " --talk-scale" : "") + (o->only.empty() ? "" : " --only " + o->only);
    throw CLI::RuntimeError(reproduce(*o, cmd));
  });
}

}  // namespace ibsc::tb
