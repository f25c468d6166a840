// ibsc: the command-line front end. Subcommands: run (simulate a scenario), route (tables,
// checks, metrics, export), cosim (RTL arbiter against its model), reproduce (a paper's study), mpi (an MPI-like
// workload through the HCAs' TLM-2.0 sockets), keys (the scenario keys, the README's table).
#include <systemc>

#include <cstdlib>
#include <iostream>

#include <CLI/CLI.hpp>

#include "tb/cli/cmd_cosim.h"
#include "tb/cli/cmd_keys.h"
#include "tb/cli/cmd_mpi.h"
#include "tb/cli/cmd_reproduce.h"
#include "tb/cli/cmd_route.h"
#include "tb/cli/cmd_run.h"
#include "tb/scenario/config_reader.h"

int sc_main(int argc, char** argv) {
  CLI::App app{"IBSC: cycle-accurate InfiniBand fabric simulator"};
  app.require_subcommand(1);
  ibsc::tb::add_run_command(app);
  ibsc::tb::add_route_command(app);
  ibsc::tb::add_cosim_command(app);
  ibsc::tb::add_reproduce_command(app);
  ibsc::tb::add_mpi_command(app);
  ibsc::tb::add_keys_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "ibsc: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

// Our own main, so the SystemC banner can be switched off before the kernel prints it.
int main(int argc, char** argv) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}
