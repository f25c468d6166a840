# ctest helper: runs one golden scenario and compares the SHA-256 of its results.json with the
# one recorded in expected.sha256. A mismatch means the simulated model changed: either a bug,
# or a change of model that is the point (then record the new hash with -DBLESS=ON and say so).
execute_process(COMMAND ${IBSC} run ${SCENARIO} --out ${OUT} --quiet --jobs 1
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ibsc run ${SCENARIO} exited ${rc}:\n${out}${err}")
endif()
file(SHA256 ${OUT}/results.json got)
get_filename_component(name ${SCENARIO} NAME_WE)
file(STRINGS ${EXPECTED} lines REGEX " ${name}$")
if(BLESS)
  message(STATUS "${got} ${name}")
  return()
endif()
if(NOT lines)
  message(FATAL_ERROR "no hash for ${name} in ${EXPECTED}")
endif()
string(REGEX REPLACE " .*" "" want "${lines}")
if(NOT got STREQUAL want)
  message(FATAL_ERROR "${name}: results.json changed (sha256 ${got}, expected ${want}); see ${OUT}/results.json")
endif()
