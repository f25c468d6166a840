#include "tb/scenario/param_key.h"

#include <cstdio>

namespace ibsc::tb {
namespace {

const char* type_text(KeyType t) {
  switch (t) {
    case KeyType::Bool:
      return "true/false";
    case KeyType::Int:
      return "integer";
    case KeyType::Uint:
      return "integer >= 0";
    case KeyType::Double:
      return "number";
    case KeyType::String:
      return "string";
    case KeyType::Choice:
      return "one of";
    case KeyType::IntList:
      return "list of integers";
    case KeyType::DoubleList:
      return "list of numbers";
    case KeyType::StringList:
      return "list of strings";
  }
  return "?";
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string value_text(const nlohmann::ordered_json& j) {
  if (j.is_string()) return j.get<std::string>().empty() ? "(none)" : "`" + j.get<std::string>() + "`";
  if (j.is_number_float()) return "`" + num(j.get<double>()) + "`";
  return "`" + j.dump() + "`";
}

Key make(std::string name, KeyType type, nlohmann::ordered_json def, std::string unit, std::string help) {
  Key k;
  k.name = std::move(name);
  k.type = type;
  k.def = std::move(def);
  k.unit = std::move(unit);
  k.help = std::move(help);
  return k;
}

}  // namespace

Key flag_key(std::string name, bool def, std::string help) {
  return make(std::move(name), KeyType::Bool, def, "", std::move(help));
}

Key int_key(std::string name, int def, int min, int max, std::string unit, std::string help) {
  Key k = make(std::move(name), KeyType::Int, def, std::move(unit), std::move(help));
  k.min = min;
  k.max = max;
  return k;
}

Key uint_key(std::string name, uint64_t def, std::string help) {
  return make(std::move(name), KeyType::Uint, def, "", std::move(help));
}

Key real_key(std::string name, double def, double min, double max, std::string unit, std::string help) {
  Key k = make(std::move(name), KeyType::Double, def, std::move(unit), std::move(help));
  k.min = min;
  k.max = max;
  return k;
}

Key text_key(std::string name, std::string def, std::string help) {
  return make(std::move(name), KeyType::String, std::move(def), "", std::move(help));
}

Key choice_key(std::string name, std::string def, std::vector<std::string> choices, std::string help) {
  Key k = make(std::move(name), KeyType::Choice, std::move(def), "", std::move(help));
  k.choices = std::move(choices);
  return k;
}

Key list_key(std::string name, KeyType list_type, nlohmann::ordered_json def, std::string unit, std::string help) {
  return make(std::move(name), list_type, std::move(def), std::move(unit), std::move(help));
}

KeyReader::KeyReader(ConfigReader& r, const std::vector<Key>& keys) : r_(r), keys_(keys) {
  for (size_t i = 0; i < keys_.size(); ++i)
    if (!index_.emplace(keys_[i].name, i).second) throw std::logic_error("key '" + keys_[i].name + "' declared twice");
}

const Key& KeyReader::key(const std::string& name) const {
  auto it = index_.find(name);
  if (it == index_.end())
    throw std::logic_error("key '" + name + "' is read but not declared (declare it in tb/scenario/scenario_keys.cpp)");
  return keys_[it->second];
}

const Key& KeyReader::expect(const std::string& name, std::initializer_list<KeyType> types, const char* as) const {
  const Key& k = key(name);
  for (KeyType t : types)
    if (k.type == t) return k;
  throw std::logic_error("key '" + name + "' is declared as " + type_text(k.type) + " but read as " + as);
}

nlohmann::ordered_json KeyReader::echoed() const {
  nlohmann::ordered_json j = r_.resolved();
  for (const Key& k : keys_) {
    if (k.echo != Echo::Never) continue;
    const auto dot = k.name.rfind('.');
    nlohmann::ordered_json* section = &j;
    if (dot != std::string::npos) {
      std::string ptr = "/" + k.name.substr(0, dot);
      for (char& c : ptr)
        if (c == '.') c = '/';
      const nlohmann::ordered_json::json_pointer p(ptr);
      if (!j.contains(p)) continue;
      section = &j.at(p);
    }
    section->erase(k.name.substr(dot + 1));
  }
  return j;
}

bool KeyReader::has(const std::string& name) const { return r_.has(key(name).name); }

std::string KeyReader::where(const std::string& name) const { return r_.where(name); }

void KeyReader::fail(const std::string& name, const std::string& what) const {
  throw ConfigError(where(name) + ": key '" + name + "': " + what);
}

std::string KeyReader::locate(const std::string& key) const {
  for (std::string k = key; !k.empty();) {
    if (r_.has(k)) return r_.where(k);
    const auto dot = k.rfind('.');
    k = dot == std::string::npos ? std::string() : k.substr(0, dot);
  }
  return r_.where(key);
}

// A WhenSet key the scenario leaves out gives its default without being read, so unechoed.
bool KeyReader::skipped(const Key& k) const { return k.echo == Echo::WhenSet && !r_.has(k.name); }

template <>
bool KeyReader::get<bool>(const std::string& name) {
  const Key& k = expect(name, {KeyType::Bool}, "true/false");
  if (skipped(k)) return k.def.get<bool>();
  return r_.get<bool>(name, k.def.get<bool>());
}

template <>
int KeyReader::get<int>(const std::string& name) {
  const Key& k = expect(name, {KeyType::Int}, "an integer");
  if (skipped(k)) return k.def.get<int>();
  return r_.get_int(name, k.def.get<int>(), static_cast<int>(k.min), static_cast<int>(k.max));
}

template <>
uint64_t KeyReader::get<uint64_t>(const std::string& name) {
  const Key& k = expect(name, {KeyType::Uint}, "an integer >= 0");
  if (skipped(k)) return k.def.get<uint64_t>();
  return r_.get<uint64_t>(name, k.def.get<uint64_t>());
}

template <>
double KeyReader::get<double>(const std::string& name) {
  const Key& k = expect(name, {KeyType::Double}, "a number");
  if (skipped(k)) return k.def.get<double>();
  return r_.get_double(name, k.def.get<double>(), k.min, k.max);
}

template <>
std::string KeyReader::get<std::string>(const std::string& name) {
  const Key& k = expect(name, {KeyType::String, KeyType::Choice}, "a string");
  if (skipped(k)) return k.def.get<std::string>();
  if (k.type == KeyType::Choice) return r_.get_choice(name, k.def.get<std::string>(), k.choices);
  return r_.get<std::string>(name, k.def.get<std::string>());
}

template <>
std::vector<int> KeyReader::get<std::vector<int>>(const std::string& name) {
  const Key& k = expect(name, {KeyType::IntList}, "a list of integers");
  if (skipped(k)) return k.def.get<std::vector<int>>();
  return r_.get<std::vector<int>>(name, k.def.get<std::vector<int>>());
}

template <>
std::vector<double> KeyReader::get<std::vector<double>>(const std::string& name) {
  const Key& k = expect(name, {KeyType::DoubleList}, "a list of numbers");
  if (skipped(k)) return k.def.get<std::vector<double>>();
  return r_.get<std::vector<double>>(name, k.def.get<std::vector<double>>());
}

template <>
std::vector<std::string> KeyReader::get<std::vector<std::string>>(const std::string& name) {
  const Key& k = expect(name, {KeyType::StringList}, "a list of strings");
  if (skipped(k)) return k.def.get<std::vector<std::string>>();
  return r_.get<std::vector<std::string>>(name, k.def.get<std::vector<std::string>>());
}

void write_key_table(std::ostream& out, const std::vector<Key>& keys) {
  out << "| key | type | default | unit | in results.json | meaning |\n|---|---|---|---|---|---|\n";
  for (const Key& k : keys) {
    std::string type = type_text(k.type);
    if (k.type == KeyType::Int)
      type +=
          " " + std::to_string(static_cast<long long>(k.min)) + ".." + std::to_string(static_cast<long long>(k.max));
    if (k.type == KeyType::Double) type += " in [" + num(k.min) + ", " + num(k.max) + "]";
    if (k.type == KeyType::Choice) {
      type += ":";
      for (size_t i = 0; i < k.choices.size(); ++i) type += (i ? ", `" : " `") + k.choices[i] + "`";
    }
    const std::string def = !k.shown_default.empty() ? k.shown_default : value_text(k.def);
    const std::string echo = !k.gate.empty()           ? "with " + k.gate
                             : k.echo == Echo::WhenSet ? "when set"
                             : k.echo == Echo::Never   ? "never"
                                                       : "always";
    out << "| `" << k.name << "` | " << type << " | " << def << " | " << k.unit << " | " << echo << " | " << k.help
        << " |\n";
  }
}

}  // namespace ibsc::tb
