# ctest helper: every `build/tb/ibsc ...` command of README.md runs and exits 0, as printed there
# (paths to scenarios/ made absolute; outputs land in this test's own folder, never the source
# tree). GUI lines (gtkwave) are not run.
#   cmake -DIBSC=build/tb/ibsc -DSRC=<source dir> -DWORK=<folder> -P tests/tb/readme_commands.cmake
file(STRINGS ${SRC}/README.md lines)
file(MAKE_DIRECTORY ${WORK})
set(n 0)
foreach(l IN LISTS lines)
  if(NOT l MATCHES "^    build/tb/ibsc ")
    continue()
  endif()
  string(REGEX REPLACE "^    build/tb/ibsc " "" args "${l}")
  string(REGEX REPLACE " +#.*$" "" args "${args}")
  string(REPLACE " scenarios/" " ${SRC}/scenarios/" args " ${args}")
  separate_arguments(argv UNIX_COMMAND "${args}")
  message(STATUS "README: ibsc ${args}")
  execute_process(COMMAND ${IBSC} ${argv} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "README.md's command failed (${rc}): build/tb/ibsc${args}\n${out}\n${err}")
  endif()
  math(EXPR n "${n} + 1")
endforeach()
if(n LESS 6)
  message(FATAL_ERROR "README.md: only ${n} ibsc commands found (the tour has run, route, cosim, waves, reproduce, mpi)")
endif()
message(STATUS "${n} README commands ran")
