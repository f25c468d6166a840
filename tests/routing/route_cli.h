// Runs `ibsc route ARGS...` in process, for the route command's tests: the exit code, and what
// it printed (an error's message prefixed "error: ").
#pragma once
#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tb/cli/cmd_route.h"

inline int run_route(std::vector<std::string> args, std::string& out) {
  CLI::App app{"test"};
  ibsc::tb::add_route_command(app);
  args.insert(args.begin(), "route");
  std::vector<const char*> argv{"ibsc"};
  for (auto& a : args) argv.push_back(a.c_str());
  std::ostringstream capture;
  auto* old = std::cout.rdbuf(capture.rdbuf());
  int rc = 0;
  try {
    app.parse(static_cast<int>(argv.size()), const_cast<char**>(argv.data()));
  } catch (const CLI::RuntimeError& e) {
    rc = e.get_exit_code();
  } catch (const std::exception& e) {
    capture << "error: " << e.what();
    rc = 1;
  }
  std::cout.rdbuf(old);
  out = capture.str();
  return rc;
}
