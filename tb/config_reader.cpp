#include "tb/config_reader.h"

#include <cstdint>
#include <fstream>
#include <sstream>

namespace ibsc::tb {
namespace {
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
  else if constexpr (std::is_integral_v<T>) return "an integer";
  else if constexpr (std::is_floating_point_v<T>) return "a number";
  else if constexpr (std::is_same_v<T, std::string>) return "a string";
  else return "a list";
}
}  // namespace

ConfigReader ConfigReader::from_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path + ": cannot open scenario file");
  std::stringstream ss;
  ss << in.rdbuf();
  return from_string(ss.str(), path);
}

ConfigReader ConfigReader::from_string(const std::string& text, const std::string& name) {
  ConfigReader r;
  r.file_ = name;
  try {
    r.root_ = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(name + ":" + std::to_string(e.mark.line + 1) + ": YAML syntax error: " + e.msg);
  }
  if (r.root_.IsNull()) r.root_ = YAML::Node(YAML::NodeType::Map);
  if (!r.root_.IsMap()) throw ConfigError(name + ":1: a scenario is a YAML mapping of keys to values");
  return r;
}

void ConfigReader::apply_override(const std::string& a) {
  auto eq = a.find('=');
  if (eq == std::string::npos || eq == 0) throw ConfigError("--set " + a + ": expected key.path=value");
  std::string key = a.substr(0, eq), value = a.substr(eq + 1);
  YAML::Node v;
  try {
    v = YAML::Load(value);
  } catch (const YAML::ParserException& e) {
    throw ConfigError("--set " + key + ": cannot parse value '" + value + "': " + e.msg);
  }
  auto parts = split(key);
  YAML::Node n = root_;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    YAML::Node c = n[parts[i]];
    if (c.IsDefined() && !c.IsNull() && !c.IsMap())
      throw ConfigError("--set " + key + ": '" + parts[i] + "' holds a value, not a section");
    if (!c.IsDefined() || c.IsNull()) n[parts[i]] = YAML::Node(YAML::NodeType::Map);
    YAML::Node next = n[parts[i]];
    n.reset(next);
  }
  n[parts.back()] = v;
  overridden_.insert(key);
}

YAML::Node ConfigReader::find(const std::string& key) const {
  YAML::Node n = YAML::Clone(root_);
  const YAML::Node& root = root_;
  YAML::Node cur;
  cur.reset(root);
  for (const auto& p : split(key)) {
    if (!cur.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
    const YAML::Node& cref = cur;
    YAML::Node c = cref[p];
    if (!c.IsDefined()) return YAML::Node(YAML::NodeType::Undefined);
    cur.reset(c);
  }
  (void)n;
  return cur;
}

bool ConfigReader::has(const std::string& key) const {
  YAML::Node n = find(key);
  return n.IsDefined() && !n.IsNull();
}

std::string ConfigReader::where(const std::string& key) const {
  for (std::string k = key;; k = k.substr(0, k.rfind('.'))) {
    if (overridden_.count(k)) return "--set " + k;
    if (k.find('.') == std::string::npos) break;
  }
  YAML::Node n = find(key);
  if (n.IsDefined() && n.Mark().line >= 0) return file_ + ":" + std::to_string(n.Mark().line + 1);
  return file_;
}

void ConfigReader::fail(const std::string& key, const std::string& what) const {
  throw ConfigError(where(key) + ": key '" + key + "': " + what);
}

template <class T>
void ConfigReader::record(const std::string& key, const T& v) {
  std::string ptr;
  for (const auto& p : split(key)) ptr += "/" + p;
  resolved_[nlohmann::ordered_json::json_pointer(ptr)] = v;
}

template <class T>
T ConfigReader::get(const std::string& key, const T& def) {
  consumed_.insert(key);
  YAML::Node n = find(key);
  T v = def;
  if (n.IsDefined() && !n.IsNull()) {
    try {
      if constexpr (std::is_same_v<T, std::string>) {
        if (!n.IsScalar()) fail(key, std::string("expected ") + type_name<T>());
      }
      v = n.as<T>();
    } catch (const YAML::Exception&) {
      fail(key, std::string("expected ") + type_name<T>());
    }
  }
  record(key, v);
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
  double v = get<double>(key, def);
  if (!(v >= min && v <= max))
    fail(key, "value " + std::to_string(v) + " out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return v;
}

int ConfigReader::get_int(const std::string& key, int def, int min, int max) {
  int v = get<int>(key, def);
  if (v < min || v > max)
    fail(key, "value " + std::to_string(v) + " out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return v;
}

std::string ConfigReader::get_choice(const std::string& key, const std::string& def, const std::vector<std::string>& allowed) {
  std::string v = get<std::string>(key, def);
  for (const auto& a : allowed)
    if (a == v) return v;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  fail(key, "'" + v + "' is not one of: " + list);
}

void ConfigReader::walk(const YAML::Node& n, const std::string& path) const {
  if (!path.empty() && consumed_.count(path)) return;
  if (n.IsMap()) {
    for (const auto& kv : n) {
      std::string k = kv.first.as<std::string>();
      walk(kv.second, path.empty() ? k : path + "." + k);
    }
    return;
  }
  if (path.empty()) return;
  std::string loc = overridden_.count(path) ? "--set " + path : file_ + ":" + std::to_string(n.Mark().line + 1);
  throw ConfigError(loc + ": key '" + path + "': unknown key (a typo? see the README's scenario keys)");
}

void ConfigReader::check_all_consumed() const { walk(root_, ""); }

}  // namespace ibsc::tb
