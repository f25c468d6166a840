# clang-format --dry-run over every C++ file we write (not Verilator's output, not the fuzz
# corpus): names each file that differs from .clang-format's layout. One clang-format process
# for all of them: one per file cost about 0.25 CPU s each in loading the program (66 CPU s
# for the tree), the check itself a few seconds.
file(GLOB_RECURSE files
  ${SRC}/models/*.h ${SRC}/models/*.cpp ${SRC}/routing/*.h ${SRC}/routing/*.cpp
  ${SRC}/tb/*.h ${SRC}/tb/*.cpp ${SRC}/api/*.h ${SRC}/api/*.cpp ${SRC}/examples/*.cpp ${SRC}/studies/*.h ${SRC}/studies/*.cpp ${SRC}/bench/*.cpp ${SRC}/tests/*.h ${SRC}/tests/*.cpp)
list(FILTER files EXCLUDE REGEX "corpus/")
execute_process(COMMAND ${FORMAT} --dry-run --Werror ${files} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(rc EQUAL 0)
  return()
endif()
# Each difference is reported as "<file>:<line>:<column>: error: ...".
string(REGEX MATCHALL "[^\n]+:[0-9]+:[0-9]+: error:" hits "${err}")
set(bad "")
foreach(h ${hits})
  string(REGEX REPLACE ":[0-9]+:[0-9]+: error:$" "" f "${h}")
  file(RELATIVE_PATH f ${SRC} ${f})
  list(APPEND bad ${f})
endforeach()
list(REMOVE_DUPLICATES bad)
list(LENGTH bad n)
if(n EQUAL 0)
  message(FATAL_ERROR "clang-format failed (${rc}) without naming a file:\n${err}")
endif()
string(REPLACE ";" "\n  " bad "${bad}")
message(FATAL_ERROR "clang-format: ${n} files differ from .clang-format (run clang-format -i on them):\n  ${bad}")
