// Tests of bad input and guards: the message a call throws, "" when it throws nothing.
#pragma once
#include <exception>
#include <functional>
#include <string>

namespace ibsc::testing {
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}
}  // namespace ibsc::testing
