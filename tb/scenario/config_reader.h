// YAML scenario reading with precise errors. Keys are dotted paths ("switch.num_vls"); a wrong
// type or range names FILE:LINE and the key ("s.yaml:12: key 'switch.num_vls': value 16 out of
// range [1, 15]"); keys that nobody read are typos and become errors too. "--set a.b=value"
// overrides apply on top of the file and are named as such in errors ("--set a.b: key 'a.b':
// ..."). Scenario keys are read through their declarations (tb/scenario/param_key.h, KeyReader), which
// pass the default and range to the getters here.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

namespace ibsc::tb {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ConfigReader {
 public:
  // Errors: missing file, YAML syntax (with its line), a document that is not a mapping or sets
  // no key, and what tb/scenario/yaml_guard.h refuses (anchors, aliases, tags, a second document).
  static ConfigReader from_file(const std::string& path);
  static ConfigReader from_string(const std::string& text, const std::string& name);

  // "a.b.c=value"; the value is a YAML scalar, flow sequence or flow map. An unknown path
  // creates the key, so check_all_consumed() still catches a typo in it. "null" (or "~") is
  // refused: leaving the key out gives the default. The file's own value of the key is kept
  // and still checked by the getters (type and range), so a broken scenario does not pass
  // because one run overrode the broken key; its errors name the file's line.
  void apply_override(const std::string& assignment);

  // T: bool, int, int64_t, uint64_t, double, std::string, std::vector<int>,
  // std::vector<double>, std::vector<std::string>. An absent or null key gives def.
  template <class T>
  T get(const std::string& key, const T& def);
  double get_double(const std::string& key, double def, double min, double max);
  int get_int(const std::string& key, int def, int min, int max);
  std::string get_choice(const std::string& key, const std::string& def, const std::vector<std::string>& allowed);
  bool has(const std::string& key) const;  // present and not null

  // Every key read so far with its value (defaults included), in reading order.
  const nlohmann::ordered_json& resolved() const;
  // Throws ConfigError naming FILE:LINE and key for the first key (in file order) present in
  // the YAML that nobody read.
  void check_all_consumed() const;
  // "FILE:LINE" of a key (its line in the file), "--set KEY" when an override set it (or a
  // section above it), or "FILE" when absent; for errors raised by callers.
  std::string where(const std::string& key) const;

 private:
  struct State {
    YAML::Node root;
    std::string file;
    std::set<std::string> consumed;
    std::set<std::string> overridden;
    std::map<std::string, std::pair<YAML::Node, int>> shadowed;  // key -> the file's value, 0-based line
    nlohmann::ordered_json resolved = nlohmann::ordered_json::object();
  };
  struct Found {
    bool found = false;
    YAML::Node value;  // meaningful when found
    int line = -1;     // 0-based line of the key in the file, -1 when unknown
  };

  Found find(const std::string& full_key, bool strict) const;
  // The file's value of an overridden key, converted (a ConfigError at its line if it is not a
  // T); false when the file did not set the key.
  template <class T>
  bool shadowed(const std::string& key, T& out) const;
  [[noreturn]] void fail_shadowed(const std::string& key, const std::string& what) const;
  [[noreturn]] void fail(const std::string& full_key, const std::string& what) const;
  std::string where_full(const std::string& full_key, int line) const;
  void record(const std::string& full_key, const nlohmann::ordered_json& v);
  void walk(const YAML::Node& n, const std::string& path, int line) const;

  std::shared_ptr<State> s_ = std::make_shared<State>();
};

}  // namespace ibsc::tb
