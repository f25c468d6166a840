// YAML scenario reading with precise errors. Keys are dotted paths ("switch.num_vls"); each
// getter names its default at the call site; a wrong type or range names FILE:LINE and the key;
// keys that nobody read are typos and become errors too. "--set a.b=value" overrides apply on
// top of the file and are named as such in errors.
#pragma once
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

namespace ibsc::tb {

class ConfigError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ConfigReader {
 public:
  static ConfigReader from_file(const std::string& path);
  static ConfigReader from_string(const std::string& text, const std::string& name);

  void apply_override(const std::string& assignment);  // "a.b.c=value"

  template <class T>
  T get(const std::string& key, const T& def);
  double get_double(const std::string& key, double def, double min, double max);
  int get_int(const std::string& key, int def, int min, int max);
  std::string get_choice(const std::string& key, const std::string& def, const std::vector<std::string>& allowed);
  bool has(const std::string& key) const;

  const nlohmann::ordered_json& resolved() const { return resolved_; }
  void check_all_consumed() const;
  std::string where(const std::string& key) const;  // "FILE:LINE" or "--set KEY"

 private:
  YAML::Node find(const std::string& key) const;  // undefined node when absent
  [[noreturn]] void fail(const std::string& key, const std::string& what) const;
  template <class T>
  void record(const std::string& key, const T& v);
  void walk(const YAML::Node& n, const std::string& path) const;

  YAML::Node root_;
  std::string file_;
  std::set<std::string> consumed_;
  std::set<std::string> overridden_;
  nlohmann::ordered_json resolved_ = nlohmann::ordered_json::object();
};

}  // namespace ibsc::tb
