# cmake -DSRC=<source tree> -DWORK=<scratch> -DFORMAT=<clang-format> -P format_selftest.cmake
# format.cmake reads the differing files out of one clang-format run's messages: a tree of two
# files with our .clang-format, one laid out right and one not, must fail naming the second only.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/models ${WORK}/routing)
configure_file(${SRC}/.clang-format ${WORK}/.clang-format COPYONLY)
file(WRITE ${WORK}/models/good.cpp "int f(int a) { return a + 1; }\n")
file(WRITE ${WORK}/routing/bad.cpp "int g( int a ){return a+1;}\n")
execute_process(COMMAND ${CMAKE_COMMAND} -DSRC=${WORK} -DFORMAT=${FORMAT} -P ${CMAKE_CURRENT_LIST_DIR}/format.cmake
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "format.cmake passed a tree with a misformatted file:\n${out}${err}")
endif()
if(NOT err MATCHES "1 files differ" OR NOT err MATCHES "routing/bad.cpp" OR err MATCHES "good.cpp")
  message(FATAL_ERROR "format.cmake did not name routing/bad.cpp alone:\n${err}")
endif()
file(REMOVE ${WORK}/routing/bad.cpp)
execute_process(COMMAND ${CMAKE_COMMAND} -DSRC=${WORK} -DFORMAT=${FORMAT} -P ${CMAKE_CURRENT_LIST_DIR}/format.cmake
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "format.cmake failed a well-formatted tree:\n${err}")
endif()
