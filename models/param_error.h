// ParamError: a parameter struct's validate() refusing a value. It carries the scenario key the
// value came from next to the message, so the scenario reader can put that key's FILE:LINE (or
// "--set KEY") in front without reading the message; the message names the key too, for callers
// that build the structs without a scenario (tests, `ibsc mpi`).
#pragma once
#include <stdexcept>
#include <string>
#include <utility>

namespace ibsc {

class ParamError : public std::invalid_argument {
 public:
  ParamError(std::string key, const std::string& message) : std::invalid_argument(message), key_(std::move(key)) {}
  const std::string& key() const { return key_; }

 private:
  std::string key_;
};

}  // namespace ibsc
