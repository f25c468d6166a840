# Included by readme_commands.cmake and docs_commands.cmake (ctest helpers, cmake -P): the
# `build/tb/ibsc` commands a page prints, and running one as printed. Both scripts are given
# IBSC (the ibsc binary), SRC (the source tree) and WORK (the test's own folder).

# printed_ibsc_commands(PAGE OUT): each command PAGE prints on an indented code line
# (`    build/tb/ibsc ARGS  # comment`), in page order: its ARGS, up to the comment.
function(printed_ibsc_commands page out)
  file(STRINGS ${page} lines)
  set(commands "")
  foreach(l IN LISTS lines)
    if(NOT l MATCHES "^    build/tb/ibsc ")
      continue()
    endif()
    string(REGEX REPLACE "^    build/tb/ibsc " "" args "${l}")
    string(REGEX REPLACE " +#.*$" "" args "${args}")
    string(STRIP "${args}" args)
    list(APPEND commands "${args}")
  endforeach()
  set(${out} "${commands}" PARENT_SCOPE)
endfunction()

# run_printed_ibsc(ARGS WHERE): runs `ibsc ARGS` in WORK, paths into the source tree
# (scenarios/, tests/, file:tests/, file:../shared/) made absolute so that outputs land in WORK,
# never the source tree; a non-zero exit fails the test, naming WHERE (the page) and the command
# as printed, with its output.
function(run_printed_ibsc args where)
  set(run " ${args}")
  string(REPLACE " scenarios/" " ${SRC}/scenarios/" run "${run}")
  string(REPLACE " tests/" " ${SRC}/tests/" run "${run}")
  string(REPLACE "file:tests/" "file:${SRC}/tests/" run "${run}")
  string(REPLACE "file:../shared/" "file:${SRC}/../shared/" run "${run}")
  separate_arguments(argv UNIX_COMMAND "${run}")
  execute_process(COMMAND ${IBSC} ${argv} WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${where}'s command failed (${rc}): build/tb/ibsc ${args}\n${out}\n${err}")
  endif()
endfunction()
