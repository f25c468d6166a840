// Declared parameters: each scenario key is declared once (tb/scenario/scenario_keys.cpp) with its type,
// default, range or choices, unit, help text and echo policy, and read only through that
// declaration, so a default or a range is written in one place. KeyReader reads a declared key
// from a ConfigReader (which keeps its FILE:LINE error wording) and refuses, as a programming
// error (std::logic_error), a name nobody declared or a read of the wrong type. A parameter
// struct's validate() throws ParamError{key, message}; KeyReader::checked() puts that key's
// FILE:LINE in front. The README's key table is printed from the same declarations.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/param_error.h"
#include "routing/enum_names.h"
#include "tb/scenario/config_reader.h"

namespace ibsc::tb {

enum class KeyType { Bool, Int, Uint, Double, String, Choice, IntList, DoubleList, StringList };

// Always: read (and echoed in results.json) with its default when absent. WhenSet: read, and
// echoed, only when the scenario sets it, so results of scenarios written before the key existed
// keep their bytes; absent, the reader gives the default without echoing it. Never: read but
// left out of results.json (how a run is executed, not what it simulates).
enum class Echo { Always, WhenSet, Never };

struct Key {
  std::string name;  // dotted path: "switch.num_vls"
  KeyType type = KeyType::Int;
  nlohmann::ordered_json def;        // the default, as results.json echoes it
  double min = 0, max = 0;           // Int and Double: inclusive range
  std::vector<std::string> choices;  // Choice: the allowed values (an enum's: its name table)
  std::string unit;                  // "ns", "bytes", ... ("" for none)
  std::string help;                  // the README's meaning column (Markdown)
  Echo echo = Echo::Always;          // see Echo
  std::string gate;                  // "" or the condition under which the scenario reads it at all
  std::string shown_default;         // the README's default when the value alone would mislead

  Key& when_set() {
    echo = Echo::WhenSet;
    return *this;
  }
  Key& never_echoed() {
    echo = Echo::Never;
    return *this;
  }
  Key& only_with(std::string condition) {
    gate = std::move(condition);
    return *this;
  }
  Key& shown(std::string text) {
    shown_default = std::move(text);
    return *this;
  }
};

// Declaration helpers: one call per key.
Key flag_key(std::string name, bool def, std::string help);
Key int_key(std::string name, int def, int min, int max, std::string unit, std::string help);
Key uint_key(std::string name, uint64_t def, std::string help);
Key real_key(std::string name, double def, double min, double max, std::string unit, std::string help);
Key text_key(std::string name, std::string def, std::string help);
Key choice_key(std::string name, std::string def, std::vector<std::string> choices, std::string help);
// A key read as an enum: its choices are the enum's name table (routing/enum_names.h).
template <class E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
Key choice_key(std::string name, E def, std::string help) {
  return choice_key(std::move(name), enum_name(def), enum_choices<E>(), std::move(help));
}
Key list_key(std::string name, KeyType list_type, nlohmann::ordered_json def, std::string unit, std::string help);

class KeyReader {
 public:
  KeyReader(ConfigReader& r, const std::vector<Key>& keys);

  // T follows the declaration: bool (Bool), int (Int), uint64_t (Uint), double (Double),
  // std::string (String or Choice), an enum (Choice declared with that enum's names),
  // std::vector<int|double|std::string> (the lists). Absent or null: the declared default.
  template <class T>
  T get(const std::string& name);
  bool has(const std::string& name) const;  // set (present and not null)
  std::string where(const std::string& name) const;
  const Key& key(const std::string& name) const;  // std::logic_error when not declared
  // The values read so far, without the keys declared Echo::Never: what results.json echoes.
  nlohmann::ordered_json echoed() const;
  // ConfigError "WHERE: key 'name': what".
  [[noreturn]] void fail(const std::string& name, const std::string& what) const;

  // Runs a validate(): a ParamError becomes a ConfigError at its key's FILE:LINE (or at the
  // nearest section above it that the scenario sets); another std::invalid_argument (a routing/
  // parser knows no keys) is placed at `fallback`.
  template <class F>
  void checked(const std::string& fallback, F&& validate) const {
    try {
      validate();
    } catch (const ParamError& e) {
      throw ConfigError(locate(e.key()) + ": " + e.what());
    } catch (const std::invalid_argument& e) {
      throw ConfigError(where(fallback) + ": key '" + fallback + "': " + e.what());
    }
  }

 private:
  std::string locate(const std::string& key) const;
  bool skipped(const Key& k) const;
  const Key& expect(const std::string& name, std::initializer_list<KeyType> types, const char* as) const;
  ConfigReader& r_;
  const std::vector<Key>& keys_;
  std::map<std::string, size_t> index_;
};

template <>
bool KeyReader::get<bool>(const std::string&);
template <>
int KeyReader::get<int>(const std::string&);
template <>
uint64_t KeyReader::get<uint64_t>(const std::string&);
template <>
double KeyReader::get<double>(const std::string&);
template <>
std::string KeyReader::get<std::string>(const std::string&);
template <>
std::vector<int> KeyReader::get<std::vector<int>>(const std::string&);
template <>
std::vector<double> KeyReader::get<std::vector<double>>(const std::string&);
template <>
std::vector<std::string> KeyReader::get<std::vector<std::string>>(const std::string&);

template <class T>
T KeyReader::get(const std::string& name) {
  static_assert(std::is_enum_v<T>, "KeyReader::get: bool, int, uint64_t, double, std::string, a list or an enum");
  expect(name, {KeyType::Choice}, "an enum");
  if (const std::optional<T> v = parse_enum<T>(get<std::string>(name))) return *v;
  throw std::logic_error("key '" + name + "': declared with choices other than its enum's names");
}

// The README's key table (Markdown), one row per declared key.
void write_key_table(std::ostream& out, const std::vector<Key>& keys);

}  // namespace ibsc::tb
