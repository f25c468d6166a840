#include "studies/study.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include <yaml-cpp/yaml.h>

#include "routing/input_file.h"
#include "tb/scenario/scenario.h"
#include "tb/scenario/yaml_guard.h"

namespace ibsc::tb {
namespace {

// yaml-cpp nodes with the study's file name, for errors that say FILE:LINE: key 'a.b': ...
struct Reader {
  std::string file;

  [[noreturn]] void fail(const YAML::Node& n, const std::string& key, const std::string& what) const {
    std::string where = file;
    if (n && n.Mark().line >= 0) where += ":" + std::to_string(n.Mark().line + 1);
    throw std::runtime_error(where + ": key '" + key + "': " + what);
  }
  YAML::Node need(const YAML::Node& parent, const std::string& key, const std::string& path) const {
    YAML::Node n = parent[key];
    if (!n) fail(parent, path, "missing");
    return n;
  }
  template <class T>
  T as(const YAML::Node& n, const std::string& path) const {
    try {
      return n.as<T>();
    } catch (const YAML::Exception&) {
      fail(n, path, "wrong type");
    }
  }
  // Names become file and folder names (out/STUDY/runs/EXPERIMENT): one plain component each.
  void plain(const YAML::Node& n, const std::string& key, const std::string& name) const {
    if (name.find('/') != std::string::npos || !folder_name_problem(name).empty())
      fail(n, key, "'" + name + "' is not a plain file name (no '/', '\\', '.', '..' or control characters)");
  }
  // Only the keys listed may appear: a typo is an error, not an ignored line.
  void only(const YAML::Node& map, const std::set<std::string>& keys, const std::string& path) const {
    if (!map.IsMap()) fail(map, path, "must be a mapping");
    for (const auto& kv : map) {
      std::string k = kv.first.as<std::string>();
      if (!keys.count(k)) fail(kv.first, path.empty() ? k : path + "." + k, "unknown key");
    }
  }
  std::vector<StudyAxisValue> axis(const YAML::Node& root, const std::string& key) const {
    YAML::Node list = need(root, key, key);
    if (!list.IsSequence() || list.size() == 0) fail(list, key, "must be a non-empty list");
    std::vector<StudyAxisValue> out;
    std::set<std::string> seen;
    for (size_t i = 0; i < list.size(); ++i) {
      std::string path = key + "[" + std::to_string(i) + "]";
      only(list[i], {"name", "set", "figure", "paper_name"}, path);
      StudyAxisValue v;
      v.name = as<std::string>(need(list[i], "name", path + ".name"), path + ".name");
      plain(list[i]["name"], path + ".name", v.name);
      if (!seen.insert(v.name).second) fail(list[i], path + ".name", "'" + v.name + "' given twice");
      v.set = as<std::vector<std::string>>(need(list[i], "set", path + ".set"), path + ".set");
      if (list[i]["figure"]) v.figure = as<std::string>(list[i]["figure"], path + ".figure");
      if (list[i]["paper_name"]) v.paper_name = as<std::string>(list[i]["paper_name"], path + ".paper_name");
      out.push_back(v);
    }
    return out;
  }
};

bool has(const std::vector<StudyAxisValue>& v, const std::string& name) {
  for (const auto& a : v)
    if (a.name == name) return true;
  return false;
}

}  // namespace

const StudyAxisValue& Study::axis(const std::vector<StudyAxisValue>& values, const std::string& n) const {
  for (const auto& v : values)
    if (v.name == n) return v;
  throw std::runtime_error(file + ": '" + n + "' is not defined in the study");
}

Study load_study(const std::string& path) {
  Reader r{path};
  YAML::Node root;
  try {
    std::stringstream text;
    try {
      text << routing::read_input_file(path, routing::kScenarioFile);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(e.what());
    }
    const YamlShape shape = check_yaml_shape(text.str());
    if (!shape.problem.empty())
      throw std::runtime_error(path + ":" + std::to_string(shape.line) + ": " + shape.problem);
    root = YAML::Load(text.str());
  } catch (const YAML::ParserException& e) {
    throw std::runtime_error(path + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax: " + e.msg);
  }
  r.only(root, {"study",  "title",    "base",         "report",      "explain_above",     "full",    "quick",
                "tori",   "networks", "routings",     "patterns",    "lengths",           "figures", "factors",
                "table2", "notes",    "explanations", "experiments", "quick_experiments", "panels",  "report_options",
                "rows",   "variants", "fitted"},
         "");
  Study s;
  s.file = path;
  s.name = r.as<std::string>(r.need(root, "study", "study"), "study");
  r.plain(root["study"], "study", s.name);
  if (root["title"]) s.title = r.as<std::string>(root["title"], "title");
  std::string base = r.as<std::string>(r.need(root, "base", "base"), "base");
  s.base = (std::filesystem::path(path).parent_path() / base).string();
  if (!std::filesystem::exists(s.base)) r.fail(root["base"], "base", "scenario file '" + s.base + "' does not exist");
  if (root["report"]) {
    s.report = r.as<std::string>(root["report"], "report");
    if (s.report != "torus-routing" && s.report != "voqsw" && s.report != "in-order-adaptive" && s.report != "tftr" &&
        s.report != "large-direct" && s.report != "congestion-control" && s.report != "fat-trees" &&
        s.report != "design-space")
      r.fail(root["report"], "report",
             "must be torus-routing, voqsw, in-order-adaptive, tftr, large-direct, congestion-control, fat-trees or "
             "design-space");
  }
  if (root["explain_above"]) s.explain_above = r.as<double>(root["explain_above"], "explain_above");
  if (root["full"]) s.full_set = r.as<std::vector<std::string>>(root["full"], "full");
  if (root["quick"]) s.quick_set = r.as<std::vector<std::string>>(root["quick"], "quick");
  if (root["tori"] && root["networks"]) r.fail(root["networks"], "networks", "give tori or networks, not both");
  s.tori = r.axis(root, root["networks"] ? "networks" : "tori");
  // variants: the routings axis under the name a design-space study gives it (switch options
  // rather than routings; each value is a set of overrides all the same).
  if (root["routings"] && root["variants"]) r.fail(root["variants"], "variants", "give routings or variants, not both");
  s.routings = r.axis(root, root["variants"] ? "variants" : "routings");
  s.patterns = r.axis(root, "patterns");
  s.lengths = r.axis(root, "lengths");

  // A design-space study plots every variant on every pattern: it has no figure selection.
  if (s.report == "design-space" && root["figures"])
    r.fail(root["figures"], "figures", "not used by report design-space (every pattern gets a plot)");
  if (s.report != "design-space") {
    YAML::Node fig = r.need(root, "figures", "figures");
    r.only(fig, {"pattern", "length"}, "figures");
    s.figure_pattern = r.as<std::string>(r.need(fig, "pattern", "figures.pattern"), "figures.pattern");
    s.figure_length = r.as<std::string>(r.need(fig, "length", "figures.length"), "figures.length");
    if (!has(s.patterns, s.figure_pattern)) r.fail(fig["pattern"], "figures.pattern", "not one of patterns");
    if (!has(s.lengths, s.figure_length)) r.fail(fig["length"], "figures.length", "not one of lengths");
  }

  if (YAML::Node f = root["factors"]) {
    r.only(f, {"baseline", "routings", "tables"}, "factors");
    s.factor_baseline = r.as<std::string>(r.need(f, "baseline", "factors.baseline"), "factors.baseline");
    if (!has(s.routings, s.factor_baseline)) r.fail(f["baseline"], "factors.baseline", "not one of routings");
    s.factor_routings = r.as<std::vector<std::string>>(r.need(f, "routings", "factors.routings"), "factors.routings");
    for (const auto& n : s.factor_routings)
      if (!has(s.routings, n)) r.fail(f["routings"], "factors.routings", "'" + n + "' is not one of routings");
    YAML::Node tables = r.need(f, "tables", "factors.tables");
    for (size_t i = 0; i < tables.size(); ++i) {
      std::string p = "factors.tables[" + std::to_string(i) + "]";
      r.only(tables[i], {"name", "length", "paper"}, p);
      FactorTable t;
      t.name = r.as<std::string>(r.need(tables[i], "name", p + ".name"), p + ".name");
      t.length = r.as<std::string>(r.need(tables[i], "length", p + ".length"), p + ".length");
      if (!has(s.lengths, t.length)) r.fail(tables[i]["length"], p + ".length", "not one of lengths");
      // paper: torus -> list in the order patterns x factor routings
      for (const auto& kv : r.need(tables[i], "paper", p + ".paper")) {
        std::string torus = kv.first.as<std::string>();
        std::string tp = p + ".paper." + torus;
        if (!has(s.tori, torus)) r.fail(kv.first, tp, "not one of tori");
        // null: the paper gives no value for that cell
        if (!kv.second.IsSequence()) r.fail(kv.second, tp, "must be a list");
        std::vector<double> values;
        for (const auto& v : kv.second) values.push_back(v.IsNull() ? 0.0 : r.as<double>(v, tp));
        if (values.size() != s.patterns.size() * s.factor_routings.size())
          r.fail(kv.second, tp,
                 "needs " + std::to_string(s.patterns.size() * s.factor_routings.size()) +
                     " values: for each pattern, each of factors.routings");
        size_t k = 0;
        for (const auto& pat : s.patterns)
          for (const auto& rt : s.factor_routings) {
            if (!kv.second[k].IsNull()) t.paper[torus][pat.name + "/" + rt] = values[k];
            ++k;
          }
      }
      s.factor_tables.push_back(t);
    }
  }

  if (YAML::Node t2 = root["table2"]) {
    r.only(t2, {"topological_distance", "paper"}, "table2");
    for (const auto& kv : r.need(t2, "topological_distance", "table2.topological_distance"))
      s.topological_distance_paper[kv.first.as<std::string>()] = r.as<double>(kv.second, "table2.topological_distance");
    for (const auto& kv : r.need(t2, "paper", "table2.paper")) {
      std::string torus = kv.first.as<std::string>();
      if (!has(s.tori, torus)) r.fail(kv.first, "table2.paper." + torus, "not one of tori");
      for (const auto& row : kv.second) {
        std::string tp = "table2.paper." + torus + "." + row.first.as<std::string>();
        auto v = r.as<std::vector<double>>(row.second, tp);
        if (v.size() != 3) r.fail(row.second, tp, "needs [average distance, crossing path, deviation crossing]");
        s.metrics_paper[torus][row.first.as<std::string>()] = v;
      }
    }
  }

  for (const char* key : {"experiments", "quick_experiments"}) {
    YAML::Node list = root[key];
    if (!list) continue;
    if (!list.IsSequence()) r.fail(list, key, "must be a list");
    auto& out = std::string(key) == "experiments" ? s.blocks : s.quick_blocks;
    for (size_t i = 0; i < list.size(); ++i) {
      std::string p = std::string(key) + "[" + std::to_string(i) + "]";
      r.only(list[i], {"networks", "routings", "variants", "patterns", "lengths"}, p);
      ExperimentBlock b;
      auto names = [&](const char* k, const std::vector<StudyAxisValue>& axis, std::vector<std::string>& to) {
        if (std::string(k) == "routings" && root["variants"]) k = "variants";  // the axis's name in this file
        const std::string kp = p + "." + k;
        std::vector<std::string> v = r.as<std::vector<std::string>>(r.need(list[i], k, kp), kp);
        for (const auto& n : v) {
          if (n == "*") {
            for (const auto& a : axis) to.push_back(a.name);
          } else if (!has(axis, n)) {
            r.fail(list[i][k], kp, "'" + n + "' is not defined in the study");
          } else {
            to.push_back(n);
          }
        }
      };
      names("networks", s.tori, b.tori);
      names("routings", s.routings, b.routings);
      names("patterns", s.patterns, b.patterns);
      names("lengths", s.lengths, b.lengths);
      out.push_back(b);
    }
  }
  if (YAML::Node pl = root["panels"]) {
    for (size_t i = 0; i < pl.size(); ++i) {
      std::string p = "panels[" + std::to_string(i) + "]";
      r.only(pl[i], {"name", "title", "network", "length", "routings", "patterns"}, p);
      Panel f;
      f.name = r.as<std::string>(r.need(pl[i], "name", p + ".name"), p + ".name");
      f.title = r.as<std::string>(r.need(pl[i], "title", p + ".title"), p + ".title");
      f.torus = r.as<std::string>(r.need(pl[i], "network", p + ".network"), p + ".network");
      if (!has(s.tori, f.torus)) r.fail(pl[i]["network"], p + ".network", "not one of networks");
      f.length = r.as<std::string>(r.need(pl[i], "length", p + ".length"), p + ".length");
      if (!has(s.lengths, f.length)) r.fail(pl[i]["length"], p + ".length", "not one of lengths");
      f.routings = r.as<std::vector<std::string>>(r.need(pl[i], "routings", p + ".routings"), p + ".routings");
      for (const auto& n : f.routings)
        if (!has(s.routings, n)) r.fail(pl[i]["routings"], p + ".routings", "'" + n + "' is not one of routings");
      f.patterns = r.as<std::vector<std::string>>(r.need(pl[i], "patterns", p + ".patterns"), p + ".patterns");
      for (const auto& n : f.patterns)
        if (!has(s.patterns, n)) r.fail(pl[i]["patterns"], p + ".patterns", "'" + n + "' is not one of patterns");
      s.panels.push_back(f);
    }
  }
  if (YAML::Node ro = root["report_options"]) {
    if (!ro.IsMap()) r.fail(ro, "report_options", "must be a mapping of name: [values]");
    for (const auto& kv : ro) {
      const std::string k = kv.first.as<std::string>();
      s.report_options[k] = r.as<std::vector<std::string>>(kv.second, "report_options." + k);
      if (s.report != "design-space") continue;
      // The design-space report reads one option, an offered load (study_report_design.h).
      if (k != "counters_at") r.fail(kv.first, "report_options." + k, "unknown key (design-space reads counters_at)");
      const auto& v = s.report_options[k];
      char* end = nullptr;
      const double load = v.size() == 1 ? std::strtod(v[0].c_str(), &end) : 0;
      if (v.size() != 1 || end == v[0].c_str() || *end != '\0' || !(load > 0 && load <= 1))
        r.fail(kv.second, "report_options.counters_at",
               "needs one offered load in (0, 1], a fraction of link capacity");
    }
  }
  if (YAML::Node rows = root["rows"]) {
    if (!rows.IsSequence()) r.fail(rows, "rows", "must be a list");
    for (size_t i = 0; i < rows.size(); ++i) {
      const std::string p = "rows[" + std::to_string(i) + "]";
      r.only(rows[i],
             {"table", "label", "network", "quick_network", "talk_network", "routing", "deterministic", "talk"}, p);
      SaturationRow row;
      row.table = r.as<std::string>(r.need(rows[i], "table", p + ".table"), p + ".table");
      row.label = r.as<std::string>(r.need(rows[i], "label", p + ".label"), p + ".label");
      row.network = r.as<std::string>(r.need(rows[i], "network", p + ".network"), p + ".network");
      if (!has(s.tori, row.network)) r.fail(rows[i]["network"], p + ".network", "not one of networks");
      if (rows[i]["quick_network"]) {
        row.quick_network = r.as<std::string>(rows[i]["quick_network"], p + ".quick_network");
        if (!has(s.tori, row.quick_network))
          r.fail(rows[i]["quick_network"], p + ".quick_network", "not one of networks");
      }
      if (rows[i]["talk_network"]) {
        row.talk_network = r.as<std::string>(rows[i]["talk_network"], p + ".talk_network");
        if (!has(s.tori, row.talk_network)) r.fail(rows[i]["talk_network"], p + ".talk_network", "not one of networks");
      }
      row.routing = r.as<std::string>(r.need(rows[i], "routing", p + ".routing"), p + ".routing");
      if (!has(s.routings, row.routing)) r.fail(rows[i]["routing"], p + ".routing", "not one of routings");
      if (rows[i]["deterministic"]) row.deterministic = r.as<bool>(rows[i]["deterministic"], p + ".deterministic");
      // talk: one value per pattern, in the patterns' order (null: the talk has none)
      // (a study without published values, report fat-trees, leaves it out)
      YAML::Node talk = s.report == "fat-trees" && !rows[i]["talk"] ? YAML::Node(YAML::NodeType::Sequence)
                                                                    : r.need(rows[i], "talk", p + ".talk");
      if (s.report == "fat-trees" && talk.size() == 0) {
        s.rows.push_back(row);
        continue;
      }
      if (!talk.IsSequence() || talk.size() != s.patterns.size())
        r.fail(talk, p + ".talk", "needs " + std::to_string(s.patterns.size()) + " values, one per pattern");
      for (size_t k = 0; k < talk.size(); ++k)
        if (!talk[k].IsNull()) row.talk[s.patterns[k].name] = r.as<double>(talk[k], p + ".talk");
      s.rows.push_back(row);
    }
  }
  if (root["notes"]) s.notes = r.as<std::vector<std::string>>(root["notes"], "notes");
  if (YAML::Node ex = root["explanations"]) {
    for (size_t i = 0; i < ex.size(); ++i) {
      std::string p = "explanations[" + std::to_string(i) + "]";
      r.only(ex[i], {"cells", "why"}, p);
      Explanation e;
      e.cells = r.as<std::vector<std::string>>(r.need(ex[i], "cells", p + ".cells"), p + ".cells");
      e.why = r.as<std::string>(r.need(ex[i], "why", p + ".why"), p + ".why");
      s.explanations.push_back(e);
    }
  }
  if (YAML::Node fit = root["fitted"]) {
    for (size_t i = 0; i < fit.size(); ++i) {
      const std::string p = "fitted[" + std::to_string(i) + "]";
      r.only(fit[i], {"choice", "figure", "before", "after", "why", "compare", "readings"}, p);
      FittedChoice f;
      f.choice = r.as<std::string>(r.need(fit[i], "choice", p + ".choice"), p + ".choice");
      if (fit[i]["figure"]) f.figure = r.as<std::string>(fit[i]["figure"], p + ".figure");
      if (fit[i]["why"]) f.why = r.as<std::string>(fit[i]["why"], p + ".why");
      if (fit[i]["before"]) f.before = r.as<std::string>(fit[i]["before"], p + ".before");
      if (fit[i]["after"]) f.after = r.as<std::string>(fit[i]["after"], p + ".after");
      if (YAML::Node c = fit[i]["compare"]) {
        f.compare = r.as<std::vector<std::string>>(c, p + ".compare");
        if (f.compare.size() != 4)
          r.fail(c, p + ".compare", "list baseline, routing (before), baseline, routing (after)");
        for (const std::string& name : f.compare)
          if (std::none_of(s.routings.begin(), s.routings.end(), [&](const auto& v) { return v.name == name; }))
            r.fail(c, p + ".compare", "'" + name + "' is not a value of routings");
      }
      if (YAML::Node rd = fit[i]["readings"]) {
        f.readings = r.as<std::vector<std::string>>(rd, p + ".readings");
        const std::set<std::string> known{"report", "saturation", "steady", "highest"};
        if (f.readings.size() != 2 || !known.count(f.readings[0]) || !known.count(f.readings[1]))
          r.fail(rd, p + ".readings", "two of report, saturation, steady, highest (before, after)");
        if (f.compare.empty()) r.fail(rd, p + ".readings", "applies only with compare");
      }
      if (f.compare.empty()) {  // figures as text: both sides given (compare: the run gives them)
        r.need(fit[i], "before", p + ".before");
        r.need(fit[i], "after", p + ".after");
      }
      s.fitted.push_back(f);
    }
  }
  return s;
}

const SaturationRow* Study::row_of(const Experiment& e) const {
  for (const SaturationRow& row : rows)
    if (row.routing == e.routing &&
        (row.network == e.torus || row.quick_network == e.torus || row.talk_network == e.torus))
      return &row;
  return nullptr;
}

std::vector<Experiment> Study::experiments(bool quick, bool talk_scale) const {
  std::vector<Experiment> out;
  std::set<std::string> seen;
  auto add = [&](const std::string& torus, const std::string& routing, const std::string& pattern,
                 const std::string& length) {
    Experiment e{torus + "-" + routing + "-" + pattern + "-" + length, torus, routing, pattern, length, {}};
    if (!seen.insert(e.name).second) return;
    for (const auto* v :
         {&axis(tori, torus), &axis(routings, routing), &axis(patterns, pattern), &axis(lengths, length)})
      e.set.insert(e.set.end(), v->set.begin(), v->set.end());
    const auto& mode = quick ? quick_set : full_set;
    e.set.insert(e.set.end(), mode.begin(), mode.end());
    e.set.push_back("name=" + name + "/" + e.name);
    out.push_back(e);
  };
  if (!rows.empty()) {
    std::set<std::string> quick_patterns;
    if (quick && report_options.count("quick_patterns"))
      quick_patterns.insert(report_options.at("quick_patterns").begin(), report_options.at("quick_patterns").end());
    for (const auto& row : rows) {
      const std::string& net = row.network_for(quick, talk_scale);
      if (net.empty()) continue;
      for (const auto& p : patterns)
        if (quick_patterns.empty() || quick_patterns.count(p.name)) add(net, row.routing, p.name, lengths.front().name);
    }
    return out;
  }
  const auto& mine = quick && !quick_blocks.empty() ? quick_blocks : blocks;
  if (mine.empty() && report == "design-space") {  // every variant on every network, pattern and length
    for (const auto& t : tori)
      for (const auto& r : routings)
        for (const auto& p : patterns)
          for (const auto& l : lengths) add(t.name, r.name, p.name, l.name);
    return out;
  }
  if (!mine.empty()) {
    for (const auto& b : mine)
      for (const auto& t : b.tori)
        for (const auto& r : b.routings)
          for (const auto& p : b.patterns)
            for (const auto& l : b.lengths) add(t, r, p, l);
    return out;
  }
  for (const auto& t : tori)
    for (const auto& r : routings) add(t.name, r.name, figure_pattern, figure_length);
  for (const auto& table : factor_tables)
    for (const auto& t : tori)
      for (const auto& p : patterns) {
        add(t.name, factor_baseline, p.name, table.length);
        for (const auto& r : factor_routings) add(t.name, r, p.name, table.length);
      }
  return out;
}

}  // namespace ibsc::tb
