# The test suite must not write into the source tree: `snapshot` records `git status` before any
# test runs, `check` fails if any test left a new or changed file (it names them).
#   cmake -DSRC=<source dir> -DSNAP=<file in the build tree> -DMODE=snapshot|check -P tree_clean.cmake
find_program(GIT git)
if(NOT GIT OR NOT EXISTS ${SRC}/.git)
  message("SKIP: ${SRC} is not a git checkout (or git is missing): nothing to compare")
  return()
endif()
execute_process(COMMAND ${GIT} -C ${SRC} status --porcelain --untracked-files=all
                OUTPUT_VARIABLE now RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "git status failed in ${SRC}")
endif()
if(MODE STREQUAL "snapshot")
  file(WRITE ${SNAP} "${now}")
  return()
endif()
file(READ ${SNAP} before)
if(NOT now STREQUAL before)
  string(REPLACE "\n" ";" now_lines "${now}")
  string(REPLACE "\n" ";" before_lines "${before}")
  list(REMOVE_ITEM now_lines ${before_lines} "")
  string(REPLACE ";" "\n  " new "${now_lines}")
  message(FATAL_ERROR "the test suite wrote into the source tree ${SRC}:\n  ${new}\n"
                      "Tests write under their build folder or a temporary one.")
endif()
