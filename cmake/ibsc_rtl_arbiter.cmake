# ibsc_add_rtl_arbiter(<target> <name> <file.sv> [TOP_MODULE <module>] [PORT_COUNTS <n>...]
#                      [VERILATOR_ARGS <arg>...])
#
# Verilates a user's SystemVerilog switch arbiter into <target> as registered arbiter <name>:
# `switch.arbiter: <name>` in a scenario, and `ibsc cosim --arbiter <name> --reference R`, then
# use it (docs/embedding.md). The module (default: the file's name) must have IBSC's pin bundle,
# the ports of rtl/switch_arbiter.sv (clk, rst_n, req_valid, req_cand, req_prio, req_vl, req_len,
# out_busy, out_credits in; grant_valid, grant_port out; layouts in models/arbiter_pins.h) and
# take the parameters NUM_PORTS, NUM_VLS, CREDIT_W, PRIO_W. One configuration is built per port
# count (default IBSC_ARB_PORT_COUNTS, as IBSC's own RTL); a switch uses the smallest that fits.
# A port the module lacks, or of another direction or width, fails the build naming it, its line
# and both widths (ibsc_rtl_pins_check.cmake, run on Verilator's XML of the module before the
# registration file compiles; the adapter's static_asserts in models/verilated_core.h stand
# behind it); a parameter it lacks fails Verilator.
#
# In IBSC's build tree it links ibsc_arbiter; from an installed IBSC (find_package(IBSC), whose
# IBSCConfig.cmake includes this file and sets the RTL's shape) it links IBSC::ibsc_arbiter and
# reads the adapter's headers from IBSC_RTL_SUPPORT_INCLUDE_DIR. Either way the calling project
# finds Verilator itself (find_package(verilator), which defines verilate()) before the call.
# VERILATOR_ARGS go to Verilator after IBSC's own (e.g. -G overrides of the module's other
# parameters).
# Compile options for Verilator's generated files (and its runtime): its warnings are not ours to
# fix, and in a sanitizer build (CI's second tree) they are compiled without sanitizers, debug
# info or optimisation (instrumented, each takes minutes; its checks would be about Verilator).
function(ibsc_verilator_output_options out)
  set(opts -Wno-unused-parameter)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    list(APPEND opts -Wno-bitwise-instead-of-logical)  # Verilator's `a & b` on bools
  endif()
  if(CMAKE_CXX_FLAGS MATCHES "-fsanitize")
    list(APPEND opts -fno-sanitize=all -g0 -O0)
  endif()
  set(${out} ${opts} PARENT_SCOPE)
endfunction()

function(ibsc_add_rtl_arbiter target name sv)
  cmake_parse_arguments(A "" "TOP_MODULE" "PORT_COUNTS;VERILATOR_ARGS" ${ARGN})
  if(NOT COMMAND verilate)
    message(FATAL_ERROR "ibsc_add_rtl_arbiter(${target} ${name} ...): verilate() is not defined; call "
                        "find_package(verilator) first (Debian: HINTS /usr/share/verilator)")
  endif()
  if(TARGET ibsc_arbiter)
    set(arbiter_lib ibsc_arbiter)
  elseif(TARGET IBSC::ibsc_arbiter)
    set(arbiter_lib IBSC::ibsc_arbiter)
  else()
    message(FATAL_ERROR "ibsc_add_rtl_arbiter: neither ibsc_arbiter nor IBSC::ibsc_arbiter exists; "
                        "find_package(IBSC) first")
  endif()
  get_filename_component(sv ${sv} ABSOLUTE)
  if(NOT EXISTS ${sv})
    message(FATAL_ERROR "ibsc_add_rtl_arbiter(${target} ${name} ${sv}): no such file")
  endif()
  if(NOT A_TOP_MODULE)
    get_filename_component(A_TOP_MODULE ${sv} NAME_WE)
  endif()
  if(NOT A_PORT_COUNTS)
    set(A_PORT_COUNTS ${IBSC_ARB_PORT_COUNTS})
  endif()
  get_property(shape GLOBAL PROPERTY IBSC_ARB_SHAPE)  # rtl/CMakeLists.txt or IBSCConfig.cmake: NUM_VLS, CREDIT_W, PRIO_W
  list(GET shape 0 vls)
  list(GET shape 1 credit_w)
  list(GET shape 2 prio_w)
  string(MAKE_C_IDENTIFIER "${name}" id)
  set(includes "")
  set(makes "")
  set(stamps "")
  foreach(p ${A_PORT_COUNTS})
    set(prefix Vuser_${id}_p${p})
    # The ports against the pin bundle, exactly (ibsc_rtl_pins_check.cmake), before anything of
    # this configuration compiles: a mismatch fails the build naming the port and both widths.
    set(pins_dir ${CMAKE_CURRENT_BINARY_DIR}/ibsc_rtl_pins_${id}_p${p})
    add_custom_command(OUTPUT ${pins_dir}/pins.ok
      COMMAND ${VERILATOR_BIN} --xml-only -Wno-fatal --top-module ${A_TOP_MODULE} -GNUM_PORTS=${p} -GNUM_VLS=${vls}
              -GCREDIT_W=${credit_w} -GPRIO_W=${prio_w} --Mdir ${pins_dir} --xml-output ${pins_dir}/ports.xml ${sv}
      COMMAND ${CMAKE_COMMAND} -DXML=${pins_dir}/ports.xml -DSV=${sv} -DPORTS=${p} -DVLS=${vls}
              -DCREDIT_W=${credit_w} -DPRIO_W=${prio_w} -DSTAMP=${pins_dir}/pins.ok
              -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ibsc_rtl_pins_check.cmake
      DEPENDS ${sv} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ibsc_rtl_pins_check.cmake
      COMMENT "Checking ${A_TOP_MODULE}'s ports against IBSC's pin bundle (NUM_PORTS=${p})" VERBATIM)
    list(APPEND stamps ${pins_dir}/pins.ok)
    verilate(${target}
      SOURCES ${sv} TOP_MODULE ${A_TOP_MODULE} PREFIX ${prefix} TRACE
      VERILATOR_ARGS -Wno-fatal --x-assign fast --x-initial fast -O3 --trace-max-array 1024 --assert
                     -GNUM_PORTS=${p} -GNUM_VLS=${vls} -GCREDIT_W=${credit_w} -GPRIO_W=${prio_w} ${A_VERILATOR_ARGS}
      OPT_FAST -O2)
    string(APPEND includes "#include \"${prefix}.h\"\n")
    string(APPEND makes "  if (n <= ${p}) return std::make_unique<ibsc::models::CoreOf<${prefix}, ${p}>>();\n")
  endforeach()
  set(out ${CMAKE_CURRENT_BINARY_DIR}/ibsc_rtl_arbiter_${id}.cpp)
  file(WRITE ${out}.in "// Generated by ibsc_add_rtl_arbiter(${target} ${name} ${sv}); do not edit.
// Registers the Verilated module ${A_TOP_MODULE} as switch arbiter '${name}'.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored \"-Wunused-parameter\"
${includes}#pragma GCC diagnostic pop
#include \"models/verilated_core.h\"
#include \"ibsc/arbiter_registry.h\"

namespace {

std::unique_ptr<ibsc::models::VerilatedArbiter::Core> make_core(unsigned n) {
${makes}  return nullptr;
}

const ibsc::ArbiterRegistrar registrar(\"${name}\", [](int ports, int vls) {
  return std::make_unique<ibsc::models::VerilatedArbiter>(ports, vls, &make_core, \"${name}\");
});

}  // namespace
")
  configure_file(${out}.in ${out} COPYONLY)  # rewritten only when it changes
  target_sources(${target} PRIVATE ${out} ${stamps})
  set_source_files_properties(${out} TARGET_DIRECTORY ${target} PROPERTIES OBJECT_DEPENDS "${stamps}")
  target_link_libraries(${target} PRIVATE ${arbiter_lib})
  if(IBSC_RTL_SUPPORT_INCLUDE_DIR)  # installed: models/verilated_core.h and what it includes
    target_include_directories(${target} PRIVATE ${IBSC_RTL_SUPPORT_INCLUDE_DIR})
  endif()
  target_compile_definitions(${target} PRIVATE VL_TIME_CONTEXT)
  # Verilator's output is not ours to fix (rtl/CMakeLists.txt does the same for IBSC's RTL).
  ibsc_verilator_output_options(opts)
  get_target_property(srcs ${target} SOURCES)
  foreach(s ${srcs})
    if(s MATCHES "/Vuser_${id}_" OR s MATCHES "/include/verilated")
      set_source_files_properties(${s} TARGET_DIRECTORY ${target} PROPERTIES COMPILE_OPTIONS "${opts}")
    endif()
    # Verilator's headers must come before SystemC's (models/verilated_core.h): no precompiled
    # <systemc> in front of them, should the target use one.
    if(s MATCHES "/Vuser_${id}_" OR s MATCHES "/include/verilated" OR s STREQUAL out)
      set_source_files_properties(${s} TARGET_DIRECTORY ${target} PROPERTIES SKIP_PRECOMPILE_HEADERS ON)
    endif()
  endforeach()
endfunction()
