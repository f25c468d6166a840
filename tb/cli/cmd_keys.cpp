#include "tb/cli/cmd_keys.h"

#include <iostream>
#include <memory>

#include "tb/scenario/scenario_keys.h"

namespace ibsc::tb {

void add_keys_command(CLI::App& app) {
  auto* c = app.add_subcommand("keys", "List the scenario keys (name, type, default, unit, meaning)");
  auto markdown = std::make_shared<bool>(false);
  c->add_flag("--markdown", *markdown, "The key table of docs/scenario-keys.md, as Markdown");
  c->callback([markdown] {
    if (*markdown) {
      write_key_table(std::cout, scenario_keys());
      return;
    }
    for (const Key& k : scenario_keys()) std::cout << k.name << "\n";
  });
}

}  // namespace ibsc::tb
