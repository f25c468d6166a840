#include "tb/scenario/config_reader.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <type_traits>

#include "routing/input_file.h"
#include "tb/scenario/yaml_guard.h"

namespace ibsc::tb {
namespace {

using routing::printable;

std::vector<std::string> split(const std::string& key) {
  std::vector<std::string> parts;
  std::stringstream ss(key);
  std::string p;
  while (std::getline(ss, p, '.')) parts.push_back(p);
  return parts;
}

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, bool>) return "true or false";
  else if constexpr (std::is_same_v<T, uint64_t>) return "a non-negative integer";
  else if constexpr (std::is_integral_v<T>) return "an integer";
  else if constexpr (std::is_floating_point_v<T>) return "a number";
  else if constexpr (std::is_same_v<T, std::string>) return "a string";
  else if constexpr (std::is_same_v<T, std::vector<std::string>>) return "a list of strings";
  else if constexpr (std::is_same_v<T, std::vector<int>>) return "a list of integers";
  else return "a list of numbers";
}

// %g keeps "0.001" and "1e+12" short, unlike std::to_string.
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string key_text(const YAML::Node& k) { return k.IsScalar() ? k.Scalar() : std::string("?"); }

// yaml-cpp keeps the first of two equal keys and drops the other silently; a scenario that
// sets a key twice is almost surely a mistake, so say where.
void check_duplicates(const YAML::Node& n, const std::string& file, const std::string& path) {
  if (n.IsSequence())
    for (const auto& e : n) check_duplicates(e, file, path);
  if (!n.IsMap()) return;
  std::set<std::string> seen;
  for (const auto& kv : n) {
    std::string k = path.empty() ? key_text(kv.first) : path + "." + key_text(kv.first);
    if (!seen.insert(key_text(kv.first)).second)
      throw ConfigError(file + ":" + std::to_string(kv.first.Mark().line + 1) + ": key '" + k + "': given twice");
    check_duplicates(kv.second, file, k);
  }
}

std::string pointer(const std::string& full_key) {
  std::string ptr;
  for (const auto& p : split(full_key)) {
    ptr += '/';
    for (char c : p) ptr += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  }
  return ptr;
}

}  // namespace

ConfigReader ConfigReader::from_file(const std::string& path) {
  std::string text;
  try {
    text = routing::read_input_file(path, routing::kScenarioFile);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
  return from_string(text, path);
}

ConfigReader ConfigReader::from_string(const std::string& text, const std::string& name) {
  ConfigReader r;
  r.s_->file = name;
  try {
    const YamlShape shape = check_yaml_shape(text);
    if (!shape.problem.empty()) throw ConfigError(name + ":" + std::to_string(shape.line) + ": " + shape.problem);
    r.s_->root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(name + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg);
  }
  // An empty file would silently run the default experiment (a full sweep of a 4x4 torus).
  if (r.s_->root.IsNull() || (r.s_->root.IsMap() && r.s_->root.size() == 0))
    throw ConfigError(name +
                      ":1: the scenario sets no key (empty or only comments); it would run the default "
                      "experiment, so give at least its name");
  if (!r.s_->root.IsMap()) throw ConfigError(name + ":1: a scenario is a YAML mapping of keys to values");
  check_duplicates(r.s_->root, name, "");
  // Shorthand: "routing: NAME" stands for "routing: {algorithm: NAME}" (errors keep its line).
  if (r.s_->root["routing"].IsScalar()) {
    YAML::Node m(YAML::NodeType::Map);
    m["algorithm"] = r.s_->root["routing"].Scalar();
    r.s_->root["routing"] = m;
  }
  return r;
}

void ConfigReader::apply_override(const std::string& a) {
  auto eq = a.find('=');
  if (eq == std::string::npos || eq == 0) throw ConfigError("--set " + a + ": expected key.path=value");
  const std::string key = a.substr(0, eq), value = a.substr(eq + 1);
  const std::string at = "--set " + key + ": key '" + key + "': ";
  auto parts = split(key);
  for (const auto& p : parts)
    if (p.empty() || key.back() == '.') throw ConfigError(at + "empty name between dots");
  if (value.find_first_not_of(" \t") == std::string::npos) throw ConfigError(at + "no value after '='");
  YAML::Node v;
  try {
    const YamlShape shape = check_yaml_shape(value);
    if (!shape.problem.empty()) throw ConfigError(at + shape.problem);
    v = YAML::Load(value);
  } catch (const YAML::Exception& e) {
    throw ConfigError(at + "cannot parse value '" + value + "': " + e.msg);
  }
  // A null would leave the key at its default without saying so.
  if (v.IsNull()) throw ConfigError(at + "'" + value + "' is not a value (leave the key out for its default)");
  if (!s_->overridden.count(key)) {
    Found old = find(key, false);
    if (old.found && !old.value.IsNull()) s_->shadowed[key] = {YAML::Clone(old.value), old.line};
  }
  YAML::Node n = s_->root;
  std::string path;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    path += (i ? "." : "") + parts[i];
    YAML::Node c = n[parts[i]];
    if (c.IsDefined() && !c.IsNull() && !c.IsMap())
      throw ConfigError(at + "'" + path + "' holds a value, not a section of keys");
    if (!c.IsDefined() || c.IsNull()) n[parts[i]] = YAML::Node(YAML::NodeType::Map);
    YAML::Node next = n[parts[i]];
    n.reset(next);  // rebind, not assign: assignment would overwrite the parent's content
  }
  n[parts.back()] = v;
  s_->overridden.insert(key);
}

ConfigReader::Found ConfigReader::find(const std::string& full_key, bool strict) const {
  Found f;
  f.found = true;
  if (full_key.empty()) {
    f.value.reset(s_->root);
    return f;
  }
  YAML::Node cur;
  cur.reset(s_->root);
  std::string path;
  for (const auto& p : split(full_key)) {
    if (!cur.IsMap()) {
      if (strict && cur.IsDefined() && !cur.IsNull())
        throw ConfigError(where_full(path, f.line) + ": key '" + path + "': expected a section of keys (for '" +
                          full_key + "'), found a value");
      return Found{};
    }
    path += (path.empty() ? "" : ".") + p;
    bool hit = false;
    for (const auto& kv : cur) {  // iterate rather than index: we want the key's own line
      if (kv.first.IsScalar() && kv.first.Scalar() == p) {
        if (!kv.first.Mark().is_null())
          f.line = kv.first.Mark().line;  // a key made by a shorthand keeps its parent's line
        YAML::Node next = kv.second;
        cur.reset(next);
        hit = true;
        break;
      }
    }
    if (!hit) return Found{};
  }
  f.value.reset(cur);
  return f;
}

bool ConfigReader::has(const std::string& key) const {
  Found f = find(key, false);
  return f.found && !f.value.IsNull();
}

std::string ConfigReader::where_full(const std::string& full_key, int line) const {
  for (std::string k = full_key; !k.empty();) {
    if (s_->overridden.count(k)) return "--set " + k;
    auto dot = k.rfind('.');
    k = dot == std::string::npos ? std::string() : k.substr(0, dot);
  }
  return line >= 0 ? s_->file + ":" + std::to_string(line + 1) : s_->file;
}

std::string ConfigReader::where(const std::string& key) const { return where_full(key, find(key, false).line); }

void ConfigReader::fail(const std::string& full_key, const std::string& what) const {
  throw ConfigError(where_full(full_key, find(full_key, false).line) + ": key '" + full_key + "': " + what);
}

void ConfigReader::record(const std::string& full_key, const nlohmann::ordered_json& v) {
  s_->resolved[nlohmann::ordered_json::json_pointer(pointer(full_key))] = v;
}

namespace {

template <class T>
bool convert(const YAML::Node& n, T& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    if (!n.IsScalar()) return false;
  } else if constexpr (std::is_same_v<T, uint64_t>) {
    if (!n.IsScalar() || n.Scalar().rfind('-', 0) == 0) return false;
  }
  try {
    v = n.as<T>();
  } catch (const YAML::Exception&) {
    return false;
  }
  return true;
}

template <class T>
std::string type_error(const YAML::Node& n) {
  const std::string found = n.IsScalar() ? "'" + printable(n.Scalar()) + "'" : n.IsMap() ? "a section" : "a list";
  return std::string("expected ") + type_name<T>() + ", found " + found;
}

}  // namespace

void ConfigReader::fail_shadowed(const std::string& key, const std::string& what) const {
  const int line = s_->shadowed.at(key).second;
  throw ConfigError(s_->file + (line >= 0 ? ":" + std::to_string(line + 1) : "") + ": key '" + key + "': " + what +
                    " (the scenario's own value, overridden on the command line: correct it in the file)");
}

template <class T>
bool ConfigReader::shadowed(const std::string& key, T& out) const {
  auto it = s_->shadowed.find(key);
  if (it == s_->shadowed.end()) return false;
  if (!convert(it->second.first, out)) fail_shadowed(key, type_error<T>(it->second.first));
  return true;
}

template <class T>
T ConfigReader::get(const std::string& k, const T& def) {
  s_->consumed.insert(k);
  Found f = find(k, true);
  T v = def;
  if (f.found && !f.value.IsNull() && !convert(f.value, v)) fail(k, type_error<T>(f.value));
  // Names, specs and paths: a newline or a NUL would split or cut every message echoing them.
  auto refuse_control = [&](const std::string& text) {
    if (routing::has_control_char(text))
      fail(k, "'" + printable(text) + "' contains a control character (a newline, a tab, a NUL, ...)");
  };
  if constexpr (std::is_same_v<T, std::string>) refuse_control(v);
  else if constexpr (std::is_same_v<T, std::vector<std::string>>)
    for (const auto& e : v) refuse_control(e);
  T old{};
  shadowed(k, old);
  record(k, nlohmann::ordered_json(v));
  return v;
}

template bool ConfigReader::get<bool>(const std::string&, const bool&);
template int ConfigReader::get<int>(const std::string&, const int&);
template int64_t ConfigReader::get<int64_t>(const std::string&, const int64_t&);
template uint64_t ConfigReader::get<uint64_t>(const std::string&, const uint64_t&);
template double ConfigReader::get<double>(const std::string&, const double&);
template std::string ConfigReader::get<std::string>(const std::string&, const std::string&);
template std::vector<int> ConfigReader::get<std::vector<int>>(const std::string&, const std::vector<int>&);
template std::vector<double> ConfigReader::get<std::vector<double>>(const std::string&, const std::vector<double>&);
template std::vector<std::string> ConfigReader::get<std::vector<std::string>>(const std::string&,
                                                                              const std::vector<std::string>&);

double ConfigReader::get_double(const std::string& key, double def, double min, double max) {
  double v = get<double>(key, def), old = 0;
  auto range = [&](double x) { return "value " + num(x) + " out of range [" + num(min) + ", " + num(max) + "]"; };
  if (!(v >= min && v <= max)) fail(key, range(v));
  if (shadowed(key, old) && !(old >= min && old <= max)) fail_shadowed(key, range(old));
  return v;
}

int ConfigReader::get_int(const std::string& key, int def, int min, int max) {
  int v = get<int>(key, def), old = 0;
  auto range = [&](int x) {
    return "value " + std::to_string(x) + " out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  };
  if (v < min || v > max) fail(key, range(v));
  if (shadowed(key, old) && (old < min || old > max)) fail_shadowed(key, range(old));
  return v;
}

std::string ConfigReader::get_choice(const std::string& key, const std::string& def,
                                     const std::vector<std::string>& allowed) {
  std::string v = get<std::string>(key, def), old;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  auto allowed_value = [&](const std::string& x) {
    return std::find(allowed.begin(), allowed.end(), x) != allowed.end();
  };
  if (!allowed_value(v)) fail(key, "'" + printable(v) + "' is not one of: " + list);
  if (shadowed(key, old) && !allowed_value(old)) fail_shadowed(key, "'" + printable(old) + "' is not one of: " + list);
  return v;
}

const nlohmann::ordered_json& ConfigReader::resolved() const { return s_->resolved; }

void ConfigReader::walk(const YAML::Node& n, const std::string& path, int line) const {
  if (!path.empty() && s_->consumed.count(path)) return;
  if (n.IsMap()) {
    for (const auto& kv : n) {
      std::string k = key_text(kv.first);
      walk(kv.second, path.empty() ? k : path + "." + k, kv.first.Mark().line);
    }
    return;
  }
  if (path.empty()) return;
  if (n.IsNull()) {  // an empty section ("switch:" and nothing under it) whose keys were read
    auto it = s_->consumed.lower_bound(path + ".");
    if (it != s_->consumed.end() && it->rfind(path + ".", 0) == 0) return;
  }
  throw ConfigError(where_full(path, line) + ": key '" + path + "': unknown key (a typo? `ibsc keys` lists them all)");
}

void ConfigReader::check_all_consumed() const { walk(s_->root, "", -1); }

}  // namespace ibsc::tb
