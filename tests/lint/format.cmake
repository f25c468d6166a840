# clang-format --dry-run over every C++ file we write (not Verilator's output, not the fuzz
# corpus): names each file that differs from .clang-format's layout.
file(GLOB_RECURSE files RELATIVE ${SRC}
  ${SRC}/models/*.h ${SRC}/models/*.cpp ${SRC}/routing/*.h ${SRC}/routing/*.cpp
  ${SRC}/tb/*.h ${SRC}/tb/*.cpp ${SRC}/api/*.h ${SRC}/api/*.cpp ${SRC}/examples/*.cpp ${SRC}/studies/*.h ${SRC}/studies/*.cpp ${SRC}/bench/*.cpp ${SRC}/tests/*.h ${SRC}/tests/*.cpp)
list(FILTER files EXCLUDE REGEX "corpus/")
set(bad "")
foreach(f ${files})
  execute_process(COMMAND ${FORMAT} --dry-run --Werror ${SRC}/${f} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc EQUAL 0)
    list(APPEND bad ${f})
  endif()
endforeach()
list(LENGTH bad n)
if(n GREATER 0)
  string(REPLACE ";" "\n  " bad "${bad}")
  message(FATAL_ERROR "clang-format: ${n} files differ from .clang-format (run clang-format -i on them):\n  ${bad}")
endif()
