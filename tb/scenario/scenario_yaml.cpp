#include "tb/scenario/scenario_yaml.h"

#include <fstream>
#include <stdexcept>

#include <yaml-cpp/yaml.h>

namespace ibsc::tb {
namespace {

void emit(YAML::Emitter& out, const nlohmann::ordered_json& j) {
  if (j.is_object()) {
    out << YAML::BeginMap;
    for (const auto& [k, v] : j.items()) {
      out << YAML::Key << k << YAML::Value;
      emit(out, v);
    }
    out << YAML::EndMap;
  } else if (j.is_array()) {
    out << YAML::Flow << YAML::BeginSeq;
    for (const auto& v : j) emit(out, v);
    out << YAML::EndSeq;
  } else if (j.is_string()) {
    out << j.get<std::string>();
  } else if (j.is_boolean()) {
    out << j.get<bool>();
  } else if (j.is_number_integer()) {
    out << j.get<int64_t>();
  } else if (j.is_number_unsigned()) {
    out << j.get<uint64_t>();
  } else if (j.is_number_float()) {
    out << j.dump();  // shortest text that reads back to the same double
  } else {
    out << YAML::Null;
  }
}

}  // namespace

void write_scenario_yaml(const std::string& path, const nlohmann::ordered_json& resolved, const std::string& comment) {
  YAML::Emitter out;
  emit(out, resolved);
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  for (size_t pos = 0; pos < comment.size();) {
    size_t nl = comment.find('\n', pos);
    f << "# " << comment.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos) << "\n";
    pos = nl == std::string::npos ? comment.size() : nl + 1;
  }
  f << out.c_str() << "\n";
  if (!f) throw std::runtime_error("cannot write " + path);
}

}  // namespace ibsc::tb
