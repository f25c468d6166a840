# clang-tidy over models/, routing/, tb/ and bench/ with the build's compile commands, less the
# precompiled header (clang cannot read GCC's). Fails on any finding (.clang-tidy: all errors).
file(READ ${BUILD}/compile_commands.json db)
string(REGEX REPLACE "-include [^ \"]*cmake_pch\\.hxx" "" db "${db}")
string(REPLACE "-Winvalid-pch" "" db "${db}")
file(WRITE ${BUILD}/lint/compile_commands.json "${db}")
execute_process(
  COMMAND ${TIDY} -quiet -p ${BUILD}/lint "${SRC}/(models|routing|tb|bench)/.*\\.cpp$"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(ASCII 27 esc)
string(REGEX REPLACE "${esc}\\[[0-9;]*m" "" text "${out}\n${err}")  # run-clang-tidy colours its output
string(REGEX MATCHALL "[^\n]*: (warning|error): [^\n]*" findings "${text}")
list(LENGTH findings n)
if(NOT rc EQUAL 0 OR n GREATER 0)
  string(REPLACE ";" "\n" findings "${findings}")
  message(FATAL_ERROR "clang-tidy: ${n} findings (exit ${rc})\n${findings}")
endif()
message(STATUS "clang-tidy: no findings")
