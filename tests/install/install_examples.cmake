# cmake -DBUILD=<build tree> -DSRC=<source tree> -DWORK=<scratch> -DVERSION=x.y.z
#       [-DLAUNCHER=ccache] [-DGENERATOR=Ninja] -P install_examples.cmake
# Installs IBSC into WORK/prefix, builds examples/virtual-platform and examples/own-arbiter
# against it (find_package(IBSC) only; own-arbiter's RTL arbiter through the installed
# ibsc_add_rtl_arbiter(), Verilator found by the example) and runs them: the allreduce's data
# must be correct, and the own arbiters' incasts (C++ oldest-first, RTL fixed-priority) must
# finish with other completion times than IBSC's default arbiter; and the RTL arbiter,
# co-verified through the installed ibsc::cosim() (own_arbiter --cosim), must pass against its
# own C++ reference and fail against IBSC's default model.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)
run(${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix})
foreach(f include/ibsc/ibsc.h include/ibsc/arbiter_registry.h include/ibsc/switch_arbiter.h include/ibsc/version.h
          include/ibsc/cosim.h include/ibsc/error.h lib/libibsc_cosim.a
          lib/cmake/IBSC/IBSCConfig.cmake lib/cmake/IBSC/IBSCConfigVersion.cmake lib/pkgconfig/ibsc.pc
          lib/cmake/IBSC/ibsc_rtl_arbiter.cmake include/ibsc/rtl-support/models/verilated_core.h
          include/ibsc/rtl-support/rtl/arbiter_config.h)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
run(pkg-config --modversion ibsc)
if(NOT out STREQUAL "${VERSION}\n")
  message(FATAL_ERROR "pkg-config --modversion ibsc: '${out}', expected ${VERSION}")
endif()
run(pkg-config --cflags ibsc)
if(NOT out MATCHES "-I${prefix}/include")
  message(FATAL_ERROR "pkg-config --cflags ibsc: '${out}' does not name ${prefix}/include")
endif()

set(gen "")
if(GENERATOR)
  set(gen -G ${GENERATOR})
endif()
set(launch "")
if(LAUNCHER)
  set(launch -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
foreach(ex virtual-platform own-arbiter)
  run(${CMAKE_COMMAND} -S ${SRC}/examples/${ex} -B ${WORK}/${ex} ${gen} ${launch} -DCMAKE_BUILD_TYPE=Release
      -DCMAKE_PREFIX_PATH=${prefix})
  run(${CMAKE_COMMAND} --build ${WORK}/${ex} -j2)
endforeach()

run(${WORK}/virtual-platform/virtual_platform ${SRC}/examples/virtual-platform/fabric.yaml)
message(STATUS "virtual-platform:\n${out}")
# 64 messages of 4 packets; rounds 1 and 3 pair hosts one hop apart (2 switches), rounds 2 and 4
# two hops apart (3 switches): 256 packets x 2.5 switches = 640 grants.
if(NOT out MATCHES "16 hosts .*64 messages, 256 packets delivered, 640 switch grants, 256 packets checked\ndata: correct")
  message(FATAL_ERROR "virtual-platform: the allreduce's data or counts are not as derived")
endif()

run(${WORK}/own-arbiter/own_arbiter ${SRC}/examples/own-arbiter/incast.yaml)
set(own "${out}")
run(${WORK}/own-arbiter/own_arbiter ${SRC}/examples/own-arbiter/incast.yaml switch.arbiter=model)
set(model "${out}")
message(STATUS "own-arbiter:\n${own}\ndefault arbiter:\n${model}")
if(NOT own MATCHES "arbiter: oldest-first\n" OR NOT model MATCHES "arbiter: model\n")
  message(FATAL_ERROR "own-arbiter: the scenario's arbiter was not the one run")
endif()
string(REGEX MATCH "completions \\(ns\\):[^\n]*" own_times "${own}")
string(REGEX MATCH "completions \\(ns\\):[^\n]*" model_times "${model}")
if(own_times STREQUAL model_times)
  message(FATAL_ERROR "own-arbiter: oldest-first gave the default arbiter's completion times")
endif()
# The user's RTL arbiter, Verilated by the installed ibsc_add_rtl_arbiter(): in the fabric by name.
run(${WORK}/own-arbiter/own_arbiter ${SRC}/examples/own-arbiter/incast.yaml switch.arbiter=fixed-priority-rtl)
set(rtl "${out}")
message(STATUS "own RTL arbiter:\n${rtl}")
if(NOT rtl MATCHES "arbiter: fixed-priority-rtl\n")
  message(FATAL_ERROR "own-arbiter: the RTL arbiter fixed-priority-rtl was not the one run")
endif()
string(REGEX MATCH "completions \\(ns\\):[^\n]*" rtl_times "${rtl}")
if(rtl_times STREQUAL model_times)
  message(FATAL_ERROR "own-arbiter: fixed-priority-rtl gave the default arbiter's completion times")
endif()
# 15 senders x 16 packets of 1 KB, all through host 0's switch: 240 grants there.
if(NOT own MATCHES "switch 0 grants: 240; messages 15 of 15 delivered" OR
   NOT model MATCHES "switch 0 grants: 240; messages 15 of 15 delivered" OR
   NOT rtl MATCHES "switch 0 grants: 240; messages 15 of 15 delivered")
  message(FATAL_ERROR "own-arbiter: not every message was delivered")
endif()
# A name nobody registered is refused, the registered ones listed.
execute_process(COMMAND ${WORK}/own-arbiter/own_arbiter ${SRC}/examples/own-arbiter/incast.yaml switch.arbiter=nope
                RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(rc EQUAL 0 OR NOT err MATCHES "key 'switch.arbiter': unknown arbiter 'nope' \\(registered: fixed-priority, fixed-priority-rtl, model, oldest-first, rtl\\)")
  message(FATAL_ERROR "own-arbiter: unknown arbiter not refused as expected (${rc}): ${err}")
endif()

# Co-verification through the installed ibsc::cosim() (ibsc/cosim.h), 12 ports, 4 VLs: the
# directed cases (53 at 12 ports) and 20,000 random cycles.
run(${WORK}/own-arbiter/own_arbiter --cosim fixed-priority)
message(STATUS "own RTL arbiter against its C++ reference:\n${out}")
if(NOT out MATCHES "fixed-priority-rtl against fixed-priority: PASS: 20053 cycles compared" OR
   NOT out MATCHES "coverage: 42 of 42 bins in 20053 cycles")
  message(FATAL_ERROR "own-arbiter --cosim fixed-priority: not a pass over every cycle with full coverage")
endif()
# Against IBSC's default model it must fail. Cycles 0..3 (credit-starved, one credit short,
# exactly enough on output 11 alone, all busy) grant at most input 0 -> output 11, alike on both
# sides; the model's round-robin pointers then stand past that grant, so at cycle 4 (every
# input asks for every output, equal credits) it gives input 0 output 11, while fixed priority,
# stateless, gives it output 0: the first pin to differ is grant_port[0].
execute_process(COMMAND ${WORK}/own-arbiter/own_arbiter --cosim model RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
message(STATUS "own RTL arbiter against the default model (${rc}):\n${out}")
if(NOT rc EQUAL 1 OR NOT out MATCHES "FAIL: 5 cycles compared" OR
   NOT out MATCHES "first mismatch: cycle 4, grant_port\\[0\\] \\(input 0: model granted 11, fixed-priority-rtl granted 0\\)")
  message(FATAL_ERROR "own-arbiter --cosim model: not the mismatch derived (exit ${rc})\n${err}")
endif()
# Waves of the RTL through the API: 53 directed + 50 random cycles dumped, grants traced.
set(vcd ${WORK}/fixed-priority-rtl.vcd)
run(${WORK}/own-arbiter/own_arbiter --cosim fixed-priority --cycles 50 --vcd ${vcd})
file(READ ${vcd} waves)
if(NOT out MATCHES "PASS: 103 cycles compared" OR NOT waves MATCHES "grant_port" OR NOT waves MATCHES "\n#102000\n")
  message(FATAL_ERROR "own-arbiter --cosim --vcd: no waves of the 103 cycles in ${vcd}")
endif()
# Options it cannot run are refused, exit 2.
execute_process(COMMAND ${WORK}/own-arbiter/own_arbiter --cosim nope RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--reference: unknown arbiter 'nope' \\(registered: fixed-priority, fixed-priority-rtl")
  message(FATAL_ERROR "own-arbiter --cosim nope: not refused as expected (${rc}): ${err}")
endif()

# A user's RTL whose ports are not the pin bundle's fails the build, the port named: one project
# per fault (tests/install/broken-rtl, its RTL made from the example's by one edit). The width
# fault stays within the C++ storage class (63 bits held in 64, as the bundle's 64), which only
# the exact check of ibsc_rtl_pins_check.cmake catches.
file(READ ${SRC}/examples/own-arbiter/fixed_priority_arbiter.sv good)
foreach(fault width missing)
  if(fault STREQUAL "width")  # req_len one bit short: 63 bits, stored as 64 like the bundle's
    string(REPLACE "input logic [NUM_PORTS*CREDIT_W-1:0] req_len" "input logic [NUM_PORTS*CREDIT_W-2:0] req_len" bad
                   "${good}")
    set(expect "fixed_priority_arbiter.sv:20: port 'req_len' is 63 bits wide; the pin bundle's is 64 \\(NUM_PORTS x CREDIT_W")
  else()  # out_busy renamed: the bundle's out_busy is missing
    string(REPLACE "out_busy" "out_full" bad "${good}")
    set(expect "port 'out_busy' \\(input, 4 bits: NUM_PORTS\\) is missing")
  endif()
  if(bad STREQUAL good)
    message(FATAL_ERROR "broken-rtl: the ${fault} edit did not apply to fixed_priority_arbiter.sv")
  endif()
  set(dir ${WORK}/broken-rtl-${fault})
  file(WRITE ${dir}/src/fixed_priority_arbiter.sv "${bad}")
  file(COPY ${SRC}/tests/install/broken-rtl/CMakeLists.txt ${SRC}/tests/install/broken-rtl/main.cpp DESTINATION ${dir}/src)
  run(${CMAKE_COMMAND} -S ${dir}/src -B ${dir}/build ${gen} ${launch} -DCMAKE_BUILD_TYPE=Release
      -DCMAKE_PREFIX_PATH=${prefix})
  # LC_ALL=C: the compiler quotes names with ASCII quotes. Under Ninja only the generated
  # registration file is built (after the ports check, which fails first, and Verilator): the
  # runtime of Verilator need not be compiled twice more.
  set(only "")
  if(GENERATOR STREQUAL "Ninja")
    set(only --target CMakeFiles/broken.dir/ibsc_rtl_arbiter_broken_rtl.cpp.o)
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E env LC_ALL=C ${CMAKE_COMMAND} --build ${dir}/build -j2 ${only}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "broken-rtl (${fault}): built, though the RTL does not match the pin bundle")
  endif()
  if(NOT "${out}${err}" MATCHES "${expect}")
    message(FATAL_ERROR "broken-rtl (${fault}): the build failed without naming the port ('${expect}'):\n${out}\n${err}")
  endif()
  string(REGEX MATCH "[^\n]*${expect}[^\n]*" said "${out}${err}")
  message(STATUS "broken-rtl (${fault}): refused:${said}")
endforeach()
