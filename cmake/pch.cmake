# One precompiled header for every library and command that uses SystemC: <systemc> and
# nlohmann/json take seconds to parse and most of our files include them, so each file would
# parse them anew (in both of CI's trees). Targets adopt it with ibsc_use_pch(); routing/ never
# does (no SystemC there). The test programs have their own, with Boost.Test in them
# (tests/CMakeLists.txt). Targets built with the test programs' flags (IBSC_TEST_FLAGS:
# IBSC_TESTS_O0, IBSC_TESTS_UBSAN: the command line and ibsc_study) get their own copy, since
# GCC refuses a header precompiled at another optimisation level.
set(_ibsc_pch_headers <systemc> <tlm> <nlohmann/json.hpp>
    <algorithm> <functional> <map> <memory> <string> <vector>)
set(_ibsc_pch_hosts ibsc_pch)
if(IBSC_TEST_FLAGS)
  list(APPEND _ibsc_pch_hosts ibsc_test_pch)
endif()
foreach(_host ${_ibsc_pch_hosts})
  add_library(${_host} OBJECT ${CMAKE_CURRENT_LIST_DIR}/pch.cpp)
  target_link_libraries(${_host} PRIVATE PkgConfig::SYSTEMC nlohmann_json::nlohmann_json)
  target_precompile_headers(${_host} PRIVATE ${_ibsc_pch_headers})
endforeach()
if(IBSC_TEST_FLAGS)
  target_compile_options(ibsc_test_pch PRIVATE ${IBSC_TEST_FLAGS})
endif()

# ibsc_use_pch(target [TEST]): TEST for targets built with IBSC_TEST_FLAGS.
function(ibsc_use_pch target)
  if(NOT IBSC_PCH)
    return()
  endif()
  if(ARGV1 STREQUAL "TEST" AND IBSC_TEST_FLAGS)
    target_precompile_headers(${target} REUSE_FROM ibsc_test_pch)
  else()
    target_precompile_headers(${target} REUSE_FROM ibsc_pch)
  endif()
endfunction()
