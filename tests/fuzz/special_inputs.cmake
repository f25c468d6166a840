# Inputs that are not what they claim (issue 37), each refused with a message naming the file
# or key, a non-zero exit, within a time limit (a named pipe once blocked for ever, /dev/zero
# was read for 25 s up to std::bad_alloc) and without making the output folder.
# Included by CMakeLists.txt; the helper is expect_refusal.cmake.
set(_w ${CMAKE_CURRENT_BINARY_DIR}/special)
file(MAKE_DIRECTORY ${_w})
set(_small ${PROJECT_SOURCE_DIR}/tests/tb/data/small.yaml)
set(_ring8 ${PROJECT_SOURCE_DIR}/tests/tb/data/mpi_ring8.yaml)
set(_fd ${CMAKE_CURRENT_SOURCE_DIR}/data)
set(_never ${_w}/never)  # a refused run's --out: must not be created
function(ibsc_refuses name regex)
  cmake_parse_arguments(R "" "FIFO;DIR;EMPTY;BIG;KEEP" "" ${ARGN})
  set(cmd "${R_UNPARSED_ARGUMENTS}")
  list(GET cmd 0 first)
  if(NOT first STREQUAL "sh")  # else a shell command line, for arguments CMake cannot carry
    set(cmd "$<TARGET_FILE:ibsc>;${cmd}")
  endif()
  string(REPLACE ";" "|" cmd "${cmd}")
  set(setup "")
  foreach(k FIFO DIR EMPTY BIG KEEP)
    if(DEFINED R_${k})
      list(APPEND setup "-D${k}=${R_${k}}")
    endif()
  endforeach()
  add_test(NAME fuzz_refuses_${name} COMMAND ${CMAKE_COMMAND} "-DCMD=${cmd}" "-DREGEX=${regex}" -DABSENT=${_never}
           ${setup} -P ${CMAKE_CURRENT_SOURCE_DIR}/expect_refusal.cmake)
  set_tests_properties(fuzz_refuses_${name} PROPERTIES LABELS fuzz TIMEOUT 60)
endfunction()
set(_o --quiet --out ${_never})

# Special files and sizes, for each kind of input file.
ibsc_refuses(scenario_fifo "scenario.fifo: is a named pipe \\(FIFO\\), not a regular file \\(scenario file\\)"
             run ${_w}/scenario.fifo ${_o} FIFO ${_w}/scenario.fifo)
ibsc_refuses(scenario_dev_zero "/dev/zero: is a character device, not a regular file \\(scenario file\\)"
             run /dev/zero ${_o})
ibsc_refuses(scenario_too_big "big.yaml: is 17.0 MiB, above the 16.0 MiB limit \\(the largest shipped scenario"
             run ${_w}/big.yaml ${_o} BIG ${_w}/big.yaml:17M)
ibsc_refuses(topology_fifo "topo.fifo: is a named pipe \\(FIFO\\), not a regular file \\(topology file\\)"
             route --topology file:${_w}/topo.fifo --check FIFO ${_w}/topo.fifo)
ibsc_refuses(topology_dev_zero "/dev/zero: is a character device, not a regular file \\(topology file\\)"
             route --topology file:/dev/zero --check)
ibsc_refuses(topology_directory "topo.dir: a directory without opensm-subnet.lst"
             route --topology file:${_w}/topo.dir DIR ${_w}/topo.dir)
ibsc_refuses(topology_too_big "big.topo: is 1.0 GiB, above the 1.0 GiB limit"
             route --topology file:${_w}/big.topo BIG ${_w}/big.topo:1073741825)
ibsc_refuses(scenario_topology_fifo "--set topology.spec: key 'topology.spec': .*topo2.fifo: is a named pipe"
             run ${_small} --set topology.spec=file:${_w}/topo2.fifo ${_o} FIFO ${_w}/topo2.fifo)
set(_perm --set traffic.pattern=permutation)
ibsc_refuses(permutation_fifo "--set traffic.permutation_file: .*perm.fifo: is a named pipe"
             run ${_small} ${_perm} --set traffic.permutation_file=${_w}/perm.fifo ${_o} FIFO ${_w}/perm.fifo)
ibsc_refuses(permutation_directory "--set traffic.permutation_file: .*perm.dir: is a directory, not a regular file"
             run ${_small} ${_perm} --set traffic.permutation_file=${_w}/perm.dir ${_o} DIR ${_w}/perm.dir)
ibsc_refuses(permutation_empty "--set traffic.permutation_file: .*perm.empty: no 'src dst' line, so nothing would be sent"
             run ${_small} ${_perm} --set traffic.permutation_file=${_w}/perm.empty ${_o} EMPTY ${_w}/perm.empty)
ibsc_refuses(permutation_dev_zero "--set traffic.permutation_file: /dev/zero: is a character device"
             run ${_small} ${_perm} --set traffic.permutation_file=/dev/zero ${_o})
ibsc_refuses(trace_fifo "trace.fifo: is a named pipe \\(FIFO\\), not a regular file \\(trace file\\)"
             mpi ${_ring8} --workload trace --trace ${_w}/trace.fifo FIFO ${_w}/trace.fifo)
ibsc_refuses(trace_empty "trace.empty: no 'time_ns src dst bytes' line: the trace is empty"
             mpi ${_ring8} --workload trace --trace ${_w}/trace.empty EMPTY ${_w}/trace.empty)
ibsc_refuses(study_fifo "study.fifo: is a named pipe" reproduce ${_w}/study.fifo --out ${_never} FIFO ${_w}/study.fifo)
# A path with a newline is echoed on one line, escaped.
ibsc_refuses(path_newline_escaped "ibsc: error: ${_w}/a\\\\nb: no 'time_ns src dst bytes' line: the trace is empty"
             mpi ${_ring8} --workload trace "--trace=${_w}/a\nb" EMPTY "${_w}/a\nb")
ibsc_refuses(file_spec_newline_escaped "ibsc: error: topology spec 'file:${_w}/a\\\\nb' contains a control character"
             route "--topology=file:${_w}/a\nb")
ibsc_refuses(name_nul_escaped "name_nul.yaml:2: key 'name': 'night\\\\0ly' contains a control character"
             run ${_fd}/name_nul.yaml ${_o})
ibsc_refuses(name_newline_escaped "name_newline.yaml:2: key 'name': 'night\\\\nly' contains a control character"
             run ${_fd}/name_newline.yaml ${_o})
ibsc_refuses(spec_newline_escaped "ibsc: error: topology spec 'tor\\\\nus:4x4' contains a control character"
             route "--topology=tor\nus:4x4")
ibsc_refuses(routing_newline_escaped "ibsc: error: --routing 'e\\\\ncube' is not one of"
             route --topology torus:4x4 "--routing=e\ncube")

# Overrides are checked like the file's values, and what they cannot express is refused.
ibsc_refuses(jobs_hides_banana "jobs_banana.yaml:11: key 'sweep.jobs': expected an integer, found 'banana' \\(the scenario's own value"
             run ${_fd}/jobs_banana.yaml --jobs 1 ${_o})
ibsc_refuses(set_hides_bad_choice "pattern_unknown.yaml:6: key 'traffic.pattern': 'bogus' is not one of"
             run ${_fd}/pattern_unknown.yaml --set traffic.pattern=uniform ${_o})
ibsc_refuses(set_null "--set traffic.length: key 'traffic.length': 'null' is not a value \\(leave the key out"
             run ${_small} --set traffic.length=null ${_o})
ibsc_refuses(set_tilde "--set seed: key 'seed': '~' is not a value" run ${_small} --set seed=~ ${_o})
ibsc_refuses(window_shorter_than_packet
             "--set run.window_ns: key 'run.window_ns': 1000 ns is shorter than one 512-byte packet on a link \\(2048 ns\\)"
             run ${_small} --set run.window_ns=1000 ${_o})
# An empty argument does not survive CMake's lists: sh passes it.
ibsc_refuses(out_empty "--out \"\": an empty path is not an output folder"
             sh -c [=[exec "$0" run "$1" --quiet --out ""]=] $<TARGET_FILE:ibsc> ${_small})
ibsc_refuses(reproduce_out_empty "--out \"\": an empty path is not an output folder"
             sh -c [=[exec "$0" reproduce "$1" --quick --out ""]=] $<TARGET_FILE:ibsc>
             ${PROJECT_SOURCE_DIR}/scenarios/seeds000/torus-routing.yaml)

# Concurrent writers: the second is refused and the first's results are whole; a --waves run
# does not replace a sweep's results.
foreach(mode lock waves)
  add_test(NAME fuzz_outputs_${mode}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/concurrent_writers.sh $<TARGET_FILE:ibsc> ${_small}
                   ${_w}/outputs_${mode} ${mode})
  set_tests_properties(fuzz_outputs_${mode} PROPERTIES LABELS fuzz TIMEOUT 120 PASS_REGULAR_EXPRESSION "PASS: ${mode}")
endforeach()

# The memory guard under `ulimit -v` (4 GB): the 6.3 GB of tables are refused in a second with
# the figure (it ended in std::bad_alloc, the default limit being half the physical memory).
# Not in a sanitizer tree: ASan reserves terabytes of address space and cannot start there.
if(NOT CMAKE_CXX_FLAGS MATCHES "sanitize=address")
  ibsc_refuses(memory_guard_rlimit_as
               "would need about 6.3 GB .*above the limit of [0-2]\\.[0-9] GB \\(half the memory this process may use, by its"
               sh -c [=[ulimit -v 4000000 && exec "$0" route --topology mesh:2x4x128x5:ports=254]=] $<TARGET_FILE:ibsc>)
endif()

# The readers (issue 37): node and port GUIDs are unique, a port is not cabled to itself in an
# edge list either, loop-back cables are kept with a note, and a UTF-8 byte-order mark opens an
# LFT dump as it opens a topology file. The tables files are checked like the others.
ibsc_refuses(duplicate_ca_guid "dup_ca_guid.topo:25: CA GUID of \"H-0002c90300dd0000\" also on line 21"
             route --topology file:${_fd}/dup_ca_guid.topo)
ibsc_refuses(duplicate_port_guid "dup_port_guid.topo:26: port GUID of \"H-0002c90300dd0000\" port 1 also on line 22"
             route --topology file:${_fd}/dup_port_guid.topo)
ibsc_refuses(edge_list_self_cabled "self_cabled.edges:9: port 3 of 'A' cabled to itself"
             route --topology file:${_fd}/self_cabled.edges)
ibsc_refuses(lft_dump_fifo "lfts.fifo: is a named pipe \\(FIFO\\), not a regular file \\(LFT dump\\)"
             route --topology file:${_fd}/two_switches_bom.topo --import-opensm ${_w}/lfts.fifo FIFO ${_w}/lfts.fifo)
ibsc_refuses(lft_dump_dev_zero "/dev/zero: is a character device, not a regular file \\(LFT dump\\)"
             route --topology file:${_fd}/two_switches_bom.topo --import-opensm /dev/zero)
add_test(NAME fuzz_edge_list_loopback_noted COMMAND ibsc route --topology file:${_fd}/loopback.edges --check)
set_tests_properties(fuzz_edge_list_loopback_noted PROPERTIES LABELS fuzz PASS_REGULAR_EXPRESSION
  "loopback.edges:9: loop-back cable on 'A' ports 3-4 \\(never routed\\)\n[^\n]*loopback.edges:10: loop-back cable on 'A' ports 5-6 .*acyclic: deadlock-free")
# Both files open with a byte-order mark; the tables are those of the same dump without it.
add_test(NAME fuzz_bom_lft_dump COMMAND ibsc route --topology file:${_fd}/two_switches_bom.topo
         --import-opensm ${_fd}/two_switches_bom.dump --check)
set_tests_properties(fuzz_bom_lft_dump PROPERTIES LABELS fuzz PASS_REGULAR_EXPRESSION
  "file: 1 SLs, 1 VLs, LMC 0, max LID 5.*pairs: 6, routed 6, unrouted 0, looping 0.*acyclic: deadlock-free")
