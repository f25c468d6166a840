// A resolved scenario (every key with its value, defaults included) written back as a YAML
// scenario file that `ibsc run` reads and that reproduces the same experiment.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace ibsc::tb {

// Throws std::runtime_error when the file cannot be written.
void write_scenario_yaml(const std::string& path, const nlohmann::ordered_json& resolved, const std::string& comment);

}  // namespace ibsc::tb
