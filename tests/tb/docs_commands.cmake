# ctest helper: every `build/tb/ibsc ...` command printed in docs/*.md either runs here and exits
# 0 as printed, or is listed below as not run, with the reason (another test runs it verbatim,
# it takes minutes, or it is a template with placeholders). A command that is neither fails the
# test, and so does a listed one the pages no longer print (the list stays true). Paths into the
# source tree (scenarios/, tests/, ../shared/) are made absolute; outputs land in this test's own
# folder. README.md's commands are readme_commands' (tests/tb/readme_commands.cmake).
#   cmake -DIBSC=build/tb/ibsc -DSRC=<source dir> -DWORK=<folder> -P tests/tb/docs_commands.cmake
cmake_minimum_required(VERSION 3.20)  # IN_LIST
include(${CMAKE_CURRENT_LIST_DIR}/printed_commands.cmake)

# "page|the command's text after `build/tb/ibsc `, up to its comment|why it is not run here"
# (no semicolon in a reason: it would split the entry in two).
set(not_run
  "cosim.md|cosim --ports 16 --vls 4 --cycles 100000 --seed 1|the README's tour prints it too (readme_commands)"
  "running.md|run scenarios/quickstart.yaml --waves run.vcd --wave-switches 0,1 --wave-start 20000 --wave-end 30000 --wave-load 0.3|the README's tour prints it too (readme_commands)"
  "mpi-tlm.md|mpi scenarios/mpi-torus-4x4.yaml --workload allreduce --bytes 4096 [--style lt|at] [--mtu 1024] [--header-bytes 0]|a synopsis with options in brackets, whose plain form is ibsc_mpi_readme_example"
  "mpi-tlm.md|mpi SCENARIO.yaml --workload all-to-all --write-trace a2a.trace|a template (SCENARIO.yaml), the trace writer is tested by ibsc_mpi_* (tests/tb)"
  "mpi-tlm.md|mpi SCENARIO.yaml --workload trace --trace a2a.trace --compression 4|a template (SCENARIO.yaml), trace replay is tested by ibsc_mpi_* (tests/tb)"
  "mpi-tlm.md|mpi scenarios/mpi-adaptive-reliable.yaml --workload allreduce --bytes 16384 --mtu 256|ibsc_mpi_adaptive_reliable runs it and checks its output"
  "reproductions.md|reproduce scenarios/seeds000/torus-routing.yaml|the full study, about 8 minutes"
  "reproductions.md|reproduce scenarios/seeds000/torus-routing.yaml --quick|reproduce_seeds000_quick runs it (tests/study)"
  "reproductions.md|reproduce scenarios/seeds001/large-direct.yaml|the full study, 13-21 minutes"
  "reproductions.md|reproduce scenarios/seeds001/large-direct.yaml --quick|reproduce_seeds001_quick runs it (tests/study)"
  "reproductions.md|reproduce scenarios/seeds002/tftr.yaml --jobs 1|the full study, about 16 minutes"
  "reproductions.md|reproduce scenarios/seeds002/tftr.yaml --quick|reproduce_seeds002_quick runs it (tests/study)"
  "reproductions.md|reproduce scenarios/seeds003/in-order-adaptive.yaml --jobs 1|the full study, about 6 minutes"
  "reproductions.md|reproduce scenarios/seeds003/in-order-adaptive.yaml --quick|reproduce_seeds003_quick runs it (tests/study)"
  "reproductions.md|reproduce scenarios/seeds004/voqsw.yaml|the full study, about 6 minutes"
  "reproductions.md|reproduce scenarios/seeds004/voqsw.yaml --quick|reproduce_seeds004_quick runs it (tests/study)"
  "reproductions.md|reproduce scenarios/congestion/congestion-control.yaml|the full study, about 1 minute"
  "reproductions.md|reproduce scenarios/congestion/congestion-control.yaml --quick|reproduce_congestion_control_quick runs it (tests/study)"
  "routing-tables.md|reproduce scenarios/seeds002/tftr.yaml|the full study (reproductions.md: about 16 minutes)"
  "routing-tables.md|reproduce scenarios/seeds002/tftr.yaml --quick|reproduce_seeds002_quick runs it (tests/study)"
)

file(GLOB pages RELATIVE ${SRC}/docs ${SRC}/docs/*.md)
list(SORT pages)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(ran 0)
set(skipped 0)
set(unlisted "")
set(listed_seen "")
foreach(page IN LISTS pages)
  printed_ibsc_commands(${SRC}/docs/${page} commands)
  foreach(args IN LISTS commands)
    set(reason "")
    set(k 0)
    foreach(entry IN LISTS not_run)
      string(FIND "${entry}" "|" a)
      string(SUBSTRING "${entry}" 0 ${a} p)
      math(EXPR a "${a} + 1")
      string(SUBSTRING "${entry}" ${a} -1 rest)
      string(FIND "${rest}" "|" b REVERSE)
      string(SUBSTRING "${rest}" 0 ${b} cmd)
      math(EXPR b "${b} + 1")
      string(SUBSTRING "${rest}" ${b} -1 why)
      if(p STREQUAL page AND cmd STREQUAL args)
        set(reason "${why}")
        list(APPEND listed_seen ${k})
      endif()
      math(EXPR k "${k} + 1")
    endforeach()
    if(reason)
      message(STATUS "not run (${page}): ibsc ${args}: ${reason}")
      math(EXPR skipped "${skipped} + 1")
      continue()
    endif()
    if(args MATCHES "[][]|SCENARIO")
      string(APPEND unlisted "\n  ${page}: ibsc ${args} (a template: list it with the reason)")
      continue()
    endif()
    # A full study takes minutes to hours: never started here unless listed (as not run).
    if(args MATCHES "^reproduce " AND NOT args MATCHES " --quick")
      string(APPEND unlisted "\n  ${page}: ibsc ${args} (a full study: list it with the reason)")
      continue()
    endif()
    message(STATUS "${page}: ibsc ${args}")
    run_printed_ibsc("${args}" docs/${page})
    math(EXPR ran "${ran} + 1")
  endforeach()
endforeach()
if(unlisted)
  message(FATAL_ERROR "docs commands that cannot run as printed and are not listed in tests/tb/docs_commands.cmake:${unlisted}")
endif()
list(LENGTH not_run n_listed)
math(EXPR last "${n_listed} - 1")
foreach(k RANGE ${last})
  if(NOT k IN_LIST listed_seen)
    list(GET not_run ${k} entry)
    message(FATAL_ERROR "tests/tb/docs_commands.cmake lists a command no page prints any more: ${entry}")
  endif()
endforeach()
if(ran LESS 5)
  message(FATAL_ERROR "docs/: only ${ran} ibsc commands ran (routing-tables.md alone prints 9)")
endif()
message(STATUS "${ran} docs commands ran, ${skipped} not run (reasons above)")
