#pragma once
#include <CLI/CLI.hpp>

namespace ibsc::tb {
// `ibsc keys [--markdown]`: the scenario keys as declared in tb/scenario/scenario_keys.cpp; --markdown
// prints the README's key table.
void add_keys_command(CLI::App& app);
}  // namespace ibsc::tb
