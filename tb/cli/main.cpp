// ibsc: the command-line front end. Subcommands: run (simulate a scenario), route (tables,
// checks, metrics, export), cosim (RTL arbiter against its model), reproduce (a paper's study), mpi (an MPI-like
// workload through the HCAs' TLM-2.0 sockets), keys (the scenario keys, the README's table).
#include <unistd.h>

#include <systemc>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>

#include "tb/cli/cmd_cosim.h"
#include "tb/cli/cmd_keys.h"
#include "tb/cli/cmd_mpi.h"
#include "tb/cli/cmd_reproduce.h"
#include "tb/cli/cmd_route.h"
#include "tb/cli/cmd_run.h"
#include "tb/run/work_spread.h"
#include "tb/scenario/config_reader.h"
#ifdef IBSC_HAVE_MPI
#include "tb/run/mpi_ranks.h"
#endif

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
  } catch (const ibsc::tb::SpreadFailure& e) {  // every rank has it: rank 0 says it
    if (ibsc::tb::writes_outputs()) std::fputs(("ibsc: error: " + std::string(e.what()) + "\n").c_str(), stderr);
    return 1;
  } catch (const std::exception& e) {
    const ibsc::tb::WorkSpreader* spread = ibsc::tb::active_spreader();
    // Most errors (a bad scenario key, an unwritable folder) every rank meets alike: a rank
    // above 0 gives rank 0 a second to say it first, and to stop the job, so that it is said
    // once and without a rank's name; an error of its own only it meets is said a second late.
    if (spread && spread->rank > 0) sleep(1);
    // One write: under mpirun, output may stop being forwarded once a rank has failed.
    const std::string who = spread && spread->rank > 0 ? "rank " + std::to_string(spread->rank) + ": " : "";
    std::fputs(("ibsc: " + who + "error: " + e.what() + "\n").c_str(), stderr);
#ifdef IBSC_HAVE_MPI
    if (spread) ibsc::tb::abort_mpi_ranks(1);  // the other ranks may be waiting for this one
#endif
    return 1;
  }
  return 0;
}

// Our own main, so the SystemC banner can be switched off before the kernel prints it.
int main(int argc, char** argv) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
  // Under mpirun with several ranks, MPI spreads the work; started alone, nothing changes.
  const int ranks = ibsc::tb::launcher_rank_count();
  if (ranks > 1) {
    // Only run and reproduce have work to spread; N copies of another command would each write
    // the same files. A run with --waves is one load point in one process. Refused here, before
    // MPI starts, and said once (by rank 0): every rank would find the same.
    const char* command = "";
    bool waves = false;
    for (int i = 1; i < argc; ++i) {
      if (!*command && argv[i][0] != '-') command = argv[i];
      if (std::strcmp(argv[i], "--waves") == 0 || std::strncmp(argv[i], "--waves=", 8) == 0) waves = true;
    }
    std::string refusal;
    if (*command && std::strcmp(command, "run") != 0 && std::strcmp(command, "reproduce") != 0)
      refusal = "only `ibsc run` and `ibsc reproduce` spread their work; start `ibsc " + std::string(command) +
                "` without mpirun, or with -n 1";
    else if (waves && std::strcmp(command, "run") == 0)
      refusal = "--waves runs one load point in one process; start `ibsc run --waves` without mpirun, or with -n 1";
    if (!refusal.empty()) {
      // One write: mpirun may stop forwarding output once a rank has failed.
      if (ibsc::tb::launcher_rank() == 0)
        std::fputs(("ibsc: error: under mpirun (" + std::to_string(ranks) + " ranks) " + refusal + "\n").c_str(),
                   stderr);
      return 2;
    }
#ifdef IBSC_HAVE_MPI
    if (const std::string problem = ibsc::tb::start_mpi_ranks(argc, argv); !problem.empty()) {
      if (ibsc::tb::launcher_rank() == 0) std::fputs(("ibsc: error: " + problem + "\n").c_str(), stderr);
      ibsc::tb::finish_mpi_ranks();  // every rank found the same: a clean stop, no abort
      return 2;
    }
#else
    std::fputs(("ibsc: error: started by mpirun as one of " + std::to_string(ranks) +
                " ranks, but this ibsc was built without MPI (install libopenmpi-dev, reconfigure and rebuild); "
                "run it without mpirun, or with -n 1\n")
                   .c_str(),
               stderr);
    return 2;
#endif
  }
  const int code = sc_core::sc_elab_and_sim(argc, argv);
#ifdef IBSC_HAVE_MPI
  if (ranks > 1) ibsc::tb::finish_mpi_ranks();
#endif
  return code;
}
