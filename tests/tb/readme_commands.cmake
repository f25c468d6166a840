# ctest helper: every `build/tb/ibsc ...` command of README.md runs and exits 0, as printed there
# (paths to scenarios/ made absolute; outputs land in this test's own folder, never the source
# tree). GUI lines (gtkwave) are not run.
#   cmake -DIBSC=build/tb/ibsc -DSRC=<source dir> -DWORK=<folder> -P tests/tb/readme_commands.cmake
include(${CMAKE_CURRENT_LIST_DIR}/printed_commands.cmake)
printed_ibsc_commands(${SRC}/README.md commands)
file(MAKE_DIRECTORY ${WORK})
set(n 0)
foreach(args IN LISTS commands)
  message(STATUS "README: ibsc ${args}")
  run_printed_ibsc("${args}" README.md)
  math(EXPR n "${n} + 1")
endforeach()
if(n LESS 6)
  message(FATAL_ERROR "README.md: only ${n} ibsc commands found (the tour has run, route, cosim, waves, reproduce, mpi)")
endif()
message(STATUS "${n} README commands ran")
