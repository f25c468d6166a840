# clang-tidy with the build's compile commands, less GCC's precompiled header (clang cannot read
# it). NAME: the test's name. DIRS: the source folders as a regex alternation (default
# models|routing|tb|bench). CHECKS: appended to .clang-tidy's list (-clang-analyzer-* leaves the
# analyzer out). Fails on any finding (.clang-tidy: all errors). run-clang-tidy checks a file
# once even when several targets compile it. A clang precompiled header of the same headers does
# not help: parsing is about a tenth of a SystemC file's cost, the rest is the checks (which walk
# the whole AST, read from a PCH or not) and the analyzer; with a PCH models/switch.cpp took 6.3
# CPU s instead of 3.9 (checks without the analyzer).
if(NOT DIRS)
  set(DIRS "models|routing|tb|bench")
endif()
set(lint ${BUILD}/lint/${NAME})  # one database per test: two may run at once
file(READ ${BUILD}/compile_commands.json db)
string(REGEX REPLACE "-include [^ \"]*cmake_pch\\.hxx" "" db "${db}")
string(REPLACE "-Winvalid-pch" "" db "${db}")
file(WRITE ${lint}/compile_commands.json "${db}")
set(args -quiet -p ${lint})
if(CHECKS)
  list(APPEND args "-checks=${CHECKS}")
endif()
execute_process(
  COMMAND ${TIDY} ${args} "${SRC}/(${DIRS})/.*\\.cpp$"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(ASCII 27 esc)
string(REGEX REPLACE "${esc}\\[[0-9;]*m" "" text "${out}\n${err}")  # run-clang-tidy colours its output
string(REGEX MATCHALL "[^\n]*: (warning|error): [^\n]*" findings "${text}")
list(LENGTH findings n)
if(NOT rc EQUAL 0 OR n GREATER 0)
  string(REPLACE ";" "\n" findings "${findings}")
  message(FATAL_ERROR "clang-tidy (${DIRS}): ${n} findings (exit ${rc})\n${findings}")
endif()
message(STATUS "clang-tidy (${DIRS}): no findings")
