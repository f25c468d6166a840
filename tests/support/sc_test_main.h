// Test executables that use SystemC: Boost.Test provides main(); libsystemc still needs an
// sc_main symbol. Each test case runs in its own process (ctest --run_test=), because SystemC
// elaborates once per process. SystemC warnings fail the test.
#pragma once
#include <systemc>

// Defined here, not inline: include this header in exactly one file of a test executable.
int sc_main(int, char**) { return 0; }

namespace ibsc::testing {
struct ScStrict {
  ScStrict() {
    sc_core::sc_report_handler::set_actions(sc_core::SC_WARNING, sc_core::SC_THROW);
    sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  }
};
}  // namespace ibsc::testing
