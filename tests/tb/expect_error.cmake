# ctest helper: runs CMD (arguments separated by '|'), passes when it exits non-zero and its
# output matches REGEX; bad input must fail loudly, with the message that names the problem.
string(REPLACE "|" ";" cmd "${CMD}")
execute_process(COMMAND ${cmd} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "exited 0; expected a failure matching '${REGEX}':\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "exit ${rc}, but the message does not match '${REGEX}':\n${out}${err}")
endif()
